#!/usr/bin/env bash
# The debug-stress job for one leg: ci/jobs/debug-stress.sh ARCH BASE.  The test suite on
# the debug kernel (lockdep, KASAN, ...), then four minutes of tp-stress on it; then,
# whatever happened, the results table, the stress verdict, the failures as annotations and
# the ccache statistics.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
job_help 5 "${1:-}"
job_leg "$@"
cd "$TPF_ROOT"
leg+=(KCONFIG=debug)

step "ccache statistics before the build" make ci-ccache-begin
step "make test KCONFIG=debug" make test "${leg[@]}"
step "make stress KCONFIG=debug DURATION=240" make stress "${leg[@]}" DURATION=240
always "results table" make ci-summary "${leg[@]}" ARTIFACT="debug-$1-$2"
always "stress verdict" make ci-summary-stress "${leg[@]}"
always "failures as annotations" make ci-annotate "${leg[@]}"
always "ccache statistics" make ci-ccache-stats
finish
