#!/usr/bin/env bash
# The bench-full job for one leg: ci/jobs/bench-full.sh ARCH BASE.  perf, the full bench,
# and on the first base the tuning variants (make bench-tuning TUNING_SAVE=1).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
job_help 3 "${1:-}"
job_leg "$@"
cd "$TPF_ROOT"

step "make perf" make perf "${leg[@]}"
step "make bench BENCH=full" make bench "${leg[@]}" BENCH=full
if [ "$2" = "${TPF_BASES%% *}" ]; then
	step "make bench-tuning" make bench-tuning ARCH="$1" TUNING_SAVE=1
fi
finish
