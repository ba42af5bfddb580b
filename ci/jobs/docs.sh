#!/usr/bin/env bash
# The docs job: the man pages (built, linted, cross-checked on every base) and the
# contributor docs with the series' tp-futex.rst (make man docs).  No arguments.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
job_help 3 "${1:-}"
[ $# = 0 ] || die "ci/jobs/docs.sh takes no arguments (got '$1')"
cd "$TPF_ROOT"

step "make man" make man
step "make docs" make docs
finish
