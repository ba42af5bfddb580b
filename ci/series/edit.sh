#!/usr/bin/env bash
# The series round trip.  "edit" makes build/edit/linux: the tree with
# kernel/patches applied as commits on tag tpf-base.  Fix a patch there with
# `git commit --fixup=<commit>` + `git rebase -i --autosquash tpf-base`,
# then "export" writes the commits back to kernel/patches/ (format-patch).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/series/edit.sh edit|export"
}
tree=$TPF_BUILD/edit/linux
case "${1:-}" in
edit)
	if [ -d "$tree" ]; then
		die "$tree already exists: export it with 'make series-export', or remove it to start over"
	fi
	"$TPF_ROOT/ci/kernel/tree.sh" "$tree" >/dev/null
	info "edit the series in $tree (commits on tpf-base), then run 'make series-export'"
	;;
export)
	[ -d "$tree/.git" ] || die "no edit tree at $tree: run 'make series-edit' first"
	git -C "$tree" diff --quiet HEAD || die "uncommitted changes in $tree: commit them (git commit --fixup=...) first"
	n=$(git -C "$tree" rev-list --count tpf-base..HEAD)
	[ "$n" -gt 0 ] || die "no commits on top of tpf-base in $tree: nothing to export"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# core.abbrev=9 (what the first exports had): the index lines do not depend on how many
	# objects the tree has.
	git -C "$tree" -c core.abbrev=9 format-patch -q --zero-commit --no-signature -o "$tmp" tpf-base..HEAD
	rm -f "$TPF_ROOT"/kernel/patches/*.patch
	mkdir -p "$TPF_ROOT/kernel/patches"
	mv "$tmp"/*.patch "$TPF_ROOT/kernel/patches/"
	# The edit tree now matches the export; make its key match too.
	series_key >"$tree/.tpf-key"
	info "exported $n patches to kernel/patches/"
	;;
-h | --help) usage ;;
*) usage >&2; exit 2 ;;
esac
