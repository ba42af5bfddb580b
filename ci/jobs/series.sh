#!/usr/bin/env bash
# The series job for one base: ci/jobs/series.sh BASE.  make check-series (checkpatch,
# codespell, reflow, a build at every patch on both arches, the PREEMPT_RT head, W=1 and
# sparse), then, whatever happened, its patch x arch table and the ccache statistics.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
job_help 4 "${1:-}"
[ $# = 1 ] || die "usage: ci/jobs/series.sh BASE (BASE: ${TPF_BASES// / or })"
base_env "$1"
cd "$TPF_ROOT"

step "ccache statistics before the build" make ci-ccache-begin
step "make check-series" make check-series BASE="$1"
always "patch x arch table" make ci-summary-series BASE="$1" ARTIFACT="check-series-$1"
always "ccache statistics" make ci-ccache-stats
finish
