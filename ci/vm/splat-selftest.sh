#!/usr/bin/env bash
# Check ci/vm/splat-denylist.txt against tests/splat/: every line of
# splats.log must be caught on its own by ci/vm/splat-check.sh, and no line of
# benign.log (real boot lines of debug kernels) may be.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/vm/splat-selftest.sh"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; "") ;; *) usage >&2; exit 2 ;; esac
dir=$TPF_ROOT/tests/splat
one=$(mktemp)
trap 'rm -f "$one"' EXIT
bad=0 n=0
while IFS= read -r line; do
	n=$((n + 1))
	printf '%s\n' "$line" >"$one"
	if "$TPF_ROOT/ci/vm/splat-check.sh" "$one" >/dev/null; then
		echo "not caught (add a pattern to ci/vm/splat-denylist.txt): $line"
		bad=$((bad + 1))
	fi
done <"$dir/splats.log"
if "$TPF_ROOT/ci/vm/splat-check.sh" "$dir/benign.log"; then :; else
	echo "^ benign lines flagged as splats: narrow the pattern in ci/vm/splat-denylist.txt"
	bad=$((bad + 1))
fi
[ "$bad" -eq 0 ] || die "splat denylist self-test: $bad problem(s)"
info "splat denylist catches all $n sample splats and passes $(wc -l <"$dir/benign.log") benign lines"
