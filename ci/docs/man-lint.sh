#!/usr/bin/env bash
# Lint the built man pages with mandoc -Tlint and groff -ww; any message fails.
# The one accepted mandoc message is the STYLE note about futex.2's lower-case
# .TH title, which is the man-pages project's own convention since 6.0.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ${0##*/} [MANDIR]   (default: build/man, from ci/docs/man-build.sh)"; }

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -le 1 ] || { usage >&2; exit 2; }

root=$TPF_ROOT
mandir=${1:-$root/build/man}
need_cmd mandoc mandoc
need_cmd groff groff

[ -f "$mandir/man2/futex.2" ] || die "$mandir/man2/futex.2 not found; fix: run ci/docs/man-build.sh (make man) first"

pages=("$mandir/man2/futex.2" "$mandir"/man2const/*.2const)
bad=0
for page in "${pages[@]}"; do
	[ -f "$page" ] || die "$page not found; fix: run ci/docs/man-build.sh"
	msgs=$(mandoc -Tlint "$page" 2>&1 | grep -v ': STYLE: lower case character in document title: TH futex$' || true)
	msgs+=$(groff -man -t -ww -z "$page" 2>&1 || true)
	msgs+=$(LC_ALL=C grep -nP '[^\x00-\x7F]' "$page" | sed "s|^|$page: non-ASCII: |" || true)
	case $page in
	*.2const)
		# semantic newlines: no sentence may start in the middle of a line
		msgs+=$(grep -nE '^[^.].*[a-z)][.?!] +[A-Z]' "$page" | sed "s|^|$page: two sentences on one line: |" || true)
		;;
	esac
	if [ -n "$msgs" ]; then
		printf '%s\n' "$msgs"
		bad=$((bad + $(printf '%s\n' "$msgs" | wc -l)))
	fi
done

if [ "$bad" -ne 0 ]; then
	die "$bad lint message(s) above; fix: edit man-pages/patches (futex.2) or man-pages/man2const, then make man"
fi
echo "man-lint: ${#pages[@]} pages, 0 warnings (mandoc -Tlint, groff -ww, ASCII)"
