#!/usr/bin/env bash
# The bench-full job for one leg: ci/jobs/bench-full.sh ARCH BASE.  perf, the full bench,
# and on the first base the tuning variants (make bench-tuning TUNING_SAVE=1).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
case "${1:-}" in -h | --help) sed -n '2,3p' "$0" | sed 's/^# //'; exit 0 ;; esac
[ $# = 2 ] || die "usage: ci/jobs/bench-full.sh ARCH BASE (ARCH: ${TPF_ARCHES// / or }; BASE: ${TPF_BASES// / or })"
check_arch "$1"
base_env "$2"
cd "$TPF_ROOT"
leg=(ARCH="$1" BASE="$2")

step "make perf" make perf "${leg[@]}"
step "make bench BENCH=full" make bench "${leg[@]}" BENCH=full
if [ "$2" = "${TPF_BASES%% *}" ]; then
	step "make bench-tuning" make bench-tuning ARCH="$1" TUNING_SAVE=1
fi
finish
