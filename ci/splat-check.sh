#!/usr/bin/env bash
# Scan a serial log for kernel splats listed in ci/splat-denylist.txt.
# Prints each offending line and exits 1 if any is found.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	echo "usage: ci/splat-check.sh SERIAL.log"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -eq 1 ] || { usage >&2; exit 2; }
deny=$TPF_ROOT/ci/splat-denylist.txt
[ -f "$deny" ] || die "splat denylist $deny is missing: restore it from git"
pats=$(mktemp)
trap 'rm -f "$pats"' EXIT
grep -vE '^[[:space:]]*(#|$)' "$deny" >"$pats" || true
[ -s "$pats" ] || die "splat denylist $deny has no patterns: restore it from git"
[ -f "$1" ] || die "no serial log $1"
if grep -naEf "$pats" "$1" | cut -c1-200; then
	exit 1
fi
exit 0
