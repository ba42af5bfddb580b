#!/usr/bin/env bash
# Compile every EXAMPLES program of the built futex.2 (the ".\" SRC BEGIN (x.c)"
# blocks) with gcc -Wall -Wextra -Werror, so the page never shows broken code.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ${0##*/} [MANDIR]   (default: build/man, from ci/docs/man-build.sh)"; }

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -le 1 ] || { usage >&2; exit 2; }

root=$TPF_ROOT
mandir=${1:-$root/build/man}
page=$mandir/man2/futex.2
need_cmd gcc gcc
[ -f "$page" ] || die "$page not found; fix: run ci/docs/man-build.sh (make man) first"

srcdir=$mandir/examples
rm -rf "$srcdir"
mkdir -p "$srcdir"

# Extract each program and undo the roff escapes used in man-pages code blocks.
awk -v dir="$srcdir" '
	/^\.\\" SRC BEGIN \(/ { f = $0; sub(/.*\(/, "", f); sub(/\).*/, "", f); out = dir "/" f; next }
	/^\.\\" SRC END/ { out = ""; next }
	out != "" && !/^\.(EX|EE)$/ {
		gsub(/\\-/, "-"); gsub(/\\\[aq\]/, "\047"); gsub(/\\e/, "\\"); print > out
	}' "$page"

n=0
for c in "$srcdir"/*.c; do
	[ -e "$c" ] || die "no SRC BEGIN blocks in $page; fix: check the EXAMPLES patch"
	gcc -std=gnu11 -Wall -Wextra -Werror -O2 -pthread -o "${c%.c}" "$c" ||
		die "example ${c##*/} from futex.2 does not compile; fix: the EXAMPLES source in man-pages/patches"
	n=$((n + 1))
done
echo "man-examples: $n example program(s) from futex.2 compile cleanly"
