#!/usr/bin/env bash
# Render docs/*.md, and Documentation/locking/tp-futex.rst taken from the series
# in kernel/patches, to standalone HTML in OUTDIR with pandoc.  Links between
# pages are rewritten from .md to .html and checked (ci/docs/links.lua); any
# pandoc warning fails the build (--fail-if-warnings).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ${0##*/} [OUTDIR]   (default: build/docs)"; }

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -le 1 ] || { usage >&2; exit 2; }

root=$TPF_ROOT
out=${1:-$root/build/docs}
need_cmd pandoc pandoc
need_cmd patch patch

shopt -s nullglob
pages=("$root"/docs/*.md)
patches=("$root"/kernel/patches/*.patch)
shopt -u nullglob
[ ${#pages[@]} -gt 0 ] || die "no docs/*.md found; fix: run from a full checkout"

rm -rf "$out"
mkdir -p "$out/src"
cp "$root/ci/docs/style.css" "$out/style.css"
# Assets next to the pages (for example docs/bench/*.svg, the benchmark plots).
for d in "$root"/docs/*/; do
	[ -d "$d" ] && cp -r "$d" "$out/"
done

# tp-futex.rst: replay every hunk of the series that touches it onto an empty tree.
rst=Documentation/locking/tp-futex.rst
extra=""
for p in "${patches[@]}"; do
	awk -v f="diff --git a/$rst b/$rst" '/^diff --git /{on = ($0 == f)} on' "$p" >"$out/src/hunk.diff"
	[ -s "$out/src/hunk.diff" ] || continue
	patch -p1 -s --no-backup-if-mismatch -d "$out/src" <"$out/src/hunk.diff" ||
		die "cannot replay ${p##*/} onto $rst; fix: check that the series applies (make kernel)"
done
rm -f "$out/src/hunk.diff"
if [ -f "$out/src/$rst" ]; then
	extra=tp-futex
else
	echo "docs-build: no patch in kernel/patches adds $rst yet; skipping tp-futex.html"
fi

nav="$out/src/nav.html"
{
	printf '<nav class="tpf"><a href="index.html">tp-futex guide</a>'
	# the guide's reading order first, then any other page, alphabetically
	order=" architecture ci-local adding-tests reliability litmus reading-benchmarks benchmarks bench-tuning series-design submission troubleshooting "
	for pg in $order; do
		[ -f "$root/docs/$pg.md" ] && printf '<a href="%s.html">%s</a>' "$pg" "$pg"
	done
	for md in "${pages[@]}"; do
		pg=$(basename "$md" .md)
		case "$order" in *" $pg "*) continue ;; esac
		[ "$pg" = index ] || printf '<a href="%s.html">%s</a>' "$pg" "$pg"
	done
	[ -n "$extra" ] && printf '<a href="tp-futex.html">tp-futex.rst</a>'
	printf '</nav>\n'
} >"$nav"

# benchmarks.md, series-design.md, ci-local.md and reliability.md belong to other owners; until they exist,
# links to them render as text instead of failing the build.
export DOCS_SRCDIR=$root/docs DOCS_EXTRA_PAGES=$extra
common=(--standalone --fail-if-warnings --css style.css --include-before-body "$nav"
	--lua-filter "$root/ci/docs/links.lua" -t html5)

n=0
for md in "${pages[@]}"; do
	name=$(basename "$md" .md)
	pandoc "${common[@]}" -f markdown --toc --metadata pagetitle="tp-futex: $name" \
		-o "$out/$name.html" "$md" ||
		die "pandoc failed on docs/$name.md (warnings are errors); fix the message above"
	n=$((n + 1))
done
if [ -n "$extra" ]; then
	pandoc "${common[@]}" -f rst --toc --metadata pagetitle="tp-futex: $rst" \
		-o "$out/tp-futex.html" "$out/src/$rst" ||
		die "pandoc failed on $rst from the series (warnings are errors); fix the .rst in kernel/patches"
	n=$((n + 1))
fi
echo "docs-build: $n page(s) -> $out/index.html"
