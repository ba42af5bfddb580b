#!/usr/bin/env bash
# Build the kernel's locking docs with the series applied:
#   make SPHINXDIRS=locking htmldocs SPHINXOPTS="-W --keep-going"
# in build/docs-kernel/linux (a clone that ci/kernel/tree.sh makes of the pristine base).
# Output: build/docs-kernel/linux/Documentation/output/locking/.  Serialized
# on /tmp/tpf-build.lock with the other heavy jobs.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ${0##*/}   (env: JOBS=2)"; }

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -eq 0 ] || { usage >&2; exit 2; }

root=$TPF_ROOT
out=$root/build/docs-kernel
tree=$out/linux
jobs=${JOBS:-2}

need_cmd flock util-linux
need_cmd git git
need_cmd make make
need_cmd sphinx-build python3-sphinx
need_cmd perl perl
need_cmd dot graphviz
python3 -c 'import yaml' 2>/dev/null || die "python3 yaml module missing (htmldocs runs tools/net/ynl); fix: apt-get install python3-yaml"

shopt -s nullglob
patches=("$root"/kernel/patches/*.patch)
shopt -u nullglob
if [ ${#patches[@]} -eq 0 ]; then
	echo "docs-kernel: kernel/patches has no series yet; building the locking docs of the pristine tree" >&2
fi

mkdir -p "$out"
# One of ci/kernel/tree.sh's clones of the pristine base, keyed on the series.  Not under
# our flock: tree.sh takes the lock itself where it needs it.
tree=$("$root/ci/kernel/tree.sh" "$tree" | tail -n1)

[ -f "$tree/Documentation/locking/index.rst" ] || die "$tree is not a kernel tree; fix: rm -rf $tree and rerun"
if [ ${#patches[@]} -gt 0 ] && [ ! -f "$tree/Documentation/locking/tp-futex.rst" ]; then
	echo "docs-kernel: the series does not add Documentation/locking/tp-futex.rst (yet)" >&2
fi

log=$out/htmldocs.log
echo "docs-kernel: make SPHINXDIRS=locking htmldocs in $tree (log: $log)" >&2
if ! flock /tmp/tpf-build.lock make -C "$tree" -j"$jobs" SPHINXDIRS=locking \
	SPHINXOPTS="-W --keep-going" htmldocs >"$log" 2>&1; then
	grep -E 'WARNING|ERROR|Error|error:' "$log" | head -20 >&2 || tail -20 "$log" >&2
	die "htmldocs failed (warnings are errors, -W); fix the .rst named above (full log: $log)"
fi
echo "docs-kernel: ok -> $tree/Documentation/output/locking/index.html"
