#!/usr/bin/env bash
# The series round trip.  "edit" makes build/edit/linux (build/edit-7.2/linux for BASE=7.2):
# the tree with the base's series (kernel/patches, kernel/patches-7.2) as commits on tag tpf-base.  Fix a patch there with
# `git commit --fixup=<commit>` + `git rebase -i --autosquash tpf-base`,
# then "export" writes the commits back to kernel/patches/ (format-patch).  "check TREE":
# the round trip holds: the commits tpf-base..HEAD of TREE regenerate to kernel/patches/
# (message and diff; a hand-edited or foreign-base patch fails).  The edit tree is one of
# ci/kernel/tree.sh's clones of the pristine base.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/series/edit.sh edit|export|check TREE"
}
tree=$TPF_BUILD/edit$BASE_SUFFIX/linux
rel=${BASE_PATCHES#"$TPF_ROOT"/}
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
	rm -f "$BASE_PATCHES"/*.patch
	mkdir -p "$BASE_PATCHES"
	mv "$tmp"/*.patch "$BASE_PATCHES/"
	# The edit tree now matches the export; make its key match too.
	series_key >"$tree/.tpf-key"
	info "exported $n patches to $rel/"
	;;
check)
	[ -d "${2:-}/.git" ] || die "check needs a series tree: ci/series/edit.sh check TREE"
	mapfile -t patches < <(compgen -G "$BASE_PATCHES/*.patch" | sort)
	[ ${#patches[@]} -gt 0 ] || exit 0
	regen=$(mktemp -d)
	trap 'rm -rf "$regen"' EXIT
	git -C "$2" format-patch -q -o "$regen" tpf-base..HEAD
	mapfile -t regs < <(compgen -G "$regen/*.patch" | sort)
	[ ${#regs[@]} = ${#patches[@]} ] ||
		die "dirty series: ${#patches[@]} files in $rel but ${#regs[@]} commits after git am (re-export: make series-edit, make series-export)"
	# norm PATCH: its author, subject, message and diff, without dates and index lines.
	norm() {
		local d
		d=$(mktemp -d)
		git mailinfo "$d/msg" "$d/patch" <"$1" >"$d/info" 2>/dev/null || { rm -rf "$d"; return 1; }
		grep -v '^Date:' "$d/info"
		echo "--msg--"
		cat "$d/msg"
		echo "--diff--"
		awk '/^diff --git /{p=1} p && /^-- $/{exit} p && !/^index [0-9a-f]+\.\.[0-9a-f]+/' "$d/patch"
		rm -rf "$d"
	}
	for i in "${!patches[@]}"; do
		cmp -s <(norm "${patches[$i]}") <(norm "${regs[$i]}") ||
			die "dirty series: $rel/$(basename "${patches[$i]}") differs from what git format-patch regenerates after git am (hand-edited or made against another base); re-export it: make series-edit BASE=$BASE, make series-export BASE=$BASE"
	done
	;;
-h | --help) usage ;;
*) usage >&2; exit 2 ;;
esac
