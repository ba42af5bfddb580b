#!/usr/bin/env bash
# Scan a serial log for kernel splats listed in ci/vm/splat-denylist.txt.
# Prints each offending line and exits 1 if any is found.  A KCSAN report outside the futex
# code that ci/vm/kcsan-known.txt explains is listed on stderr and not counted.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/vm/splat-check.sh SERIAL.log"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -eq 1 ] || { usage >&2; exit 2; }
deny=$TPF_ROOT/ci/vm/splat-denylist.txt
known=$TPF_ROOT/ci/vm/kcsan-known.txt
[ -f "$deny" ] || die "splat denylist $deny is missing: restore it from git"
[ -f "$known" ] || die "KCSAN list $known is missing: restore it from git"
pats=$(mktemp)
trap 'rm -f "$pats"' EXIT
grep -vE '^[[:space:]]*(#|$)' "$deny" >"$pats" || true
[ -s "$pats" ] || die "splat denylist $deny has no patterns: restore it from git"
[ -f "$1" ] || die "no serial log $1"

# known_kcsan "A / B": print the explanation of the first entry whose regex matches.
known_kcsan() {
	local re why
	while IFS=$'\t' read -r re why; do
		case "$re" in '' | '#'*) continue ;; esac
		if grep -qE -- "$re" <<<"$1"; then
			echo "$why"
			return 0
		fi
	done <"$known"
	return 1
}

hits=$(grep -naEf "$pats" "$1" | cut -c1-200) || exit 0
rc=0
while IFS= read -r line; do
	if [[ $line =~ BUG:\ KCSAN:\ data-race\ in\ (.*)$ ]]; then
		pair=${BASH_REMATCH[1]}
		if ! grep -qiE 'futex|(^|[ /])tp_' <<<"$pair" && why=$(known_kcsan "$pair"); then
			echo "splat-check: known KCSAN report outside the futex code, not counted: $pair: $why" >&2
			continue
		fi
	fi
	echo "$line"
	rc=1
done <<<"$hits"
exit $rc
