#!/usr/bin/env bash
# The static job: every check that needs no kernel build, on every base's series (the
# checks loop over ci/bases.tsv themselves).  No arguments.  Checkpatch findings become
# annotations on the patch files when checkpatch failed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
job_help 4 "${1:-}"
[ $# = 0 ] || die "ci/jobs/static.sh takes no arguments (got '$1')"
cd "$TPF_ROOT"

step "make check-shell" make check-shell
step "make check-splat" make check-splat
step "make check-litmus" make check-litmus
step "make check-workflows" make check-workflows
step "make check-spelling" make check-spelling
step "make checkpatch" make checkpatch
step "make check-port" make check-port
step "make check-tuning" make check-tuning
if failed "make checkpatch"; then
	always "checkpatch findings as annotations" make ci-annotate-checkpatch
fi
finish
