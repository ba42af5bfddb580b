#!/usr/bin/env bash
# The build-test job for one leg: ci/jobs/build-test.sh ARCH BASE.  The kernel, the test
# suite, ci/vm/boot's verdicts (check-vm), perf, the quick bench, and on the first base the
# TP library's fallback on the kernel without the series; then, whatever happened, the
# results table, the failures as annotations and the ccache statistics.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
job_help 5 "${1:-}"
job_leg "$@"
cd "$TPF_ROOT"

step "ccache statistics before the build" make ci-ccache-begin
step "make kernel" make kernel "${leg[@]}"
step "make test" make test "${leg[@]}"
step "make check-vm" make check-vm "${leg[@]}"
step "make perf" make perf "${leg[@]}"
step "make bench (quick)" make bench "${leg[@]}" BENCH=quick
# The first base only: it builds a second kernel (the base without the series), and what it
# checks, the shim's fallback to glibc when FUTEX_LOCK gives ENOSYS, is the same on every base.
if [ "$2" = "${TPF_BASES%% *}" ]; then
	step "make lib-fallback" make lib-fallback "${leg[@]}"
fi
always "results table" make ci-summary "${leg[@]}" ARTIFACT="results-$1-$2"
always "failures as annotations" make ci-annotate "${leg[@]}"
always "ccache statistics" make ci-ccache-stats
finish
