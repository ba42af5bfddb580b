#!/usr/bin/env bash
# The one kernel tree builder.  One pristine base per Debian kernel version (the
# tarball committed once, tag tpf-base); every tree is a clone of it that borrows its
# objects, with the base's series (kernel/patches/*.patch for 6.12, kernel/patches-7.2/
# for 7.2: ci/bases.tsv) applied by git am on branch tpf-series.  For the first base:
#   build/src/linux        the test tree (ci/kernel/build.sh, make test/run/stress/bench)
#   build/edit/linux       the edit tree (make series-edit, ci/series/edit.sh)
#   build/series/linux     per-patch builds, checkpatch, submission (--series)
#   build/docs-kernel/linux  the htmldocs build (ci/docs/kernel.sh)
# and the same with a -BASE suffix for the others (build/src/linux-7.2, build/series-7.2/).
# The base and the commits are deterministic (fixed identities and dates), so every tree
# of one series has the same commit ids.  Prints the tree path.  A tree is rebuilt
# atomically when the series changes, so an interrupted run never leaves a half-applied
# tree behind.  --base: make the base only and print its path.  --series [--allow-empty]:
# the series tree, with the round trip checked (ci/series/edit.sh check: the commits
# regenerate to the same patches, so a hand-edited "dirty" series fails); prints
# base=<sha> head=<sha> count=<n> tree=<dir> debver=<v>.  Its callers keep using the tree
# (checkpatch, check-series, submission): they hold build/series/.tree.lock and set
# TPF_SERIES_LOCKED=1, else --series takes it for the time it runs.  --litmus: the litmus
# tree (build/litmus/<series key>/, for make check-litmus): only tools/memory-model/ and
# Documentation/litmus-tests/ from the tarball with the series' hunks for those paths
# (git apply --include), under a megabyte and ten seconds instead of the full 4 GB.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/kernel/tree.sh [--base | --litmus | --series [--allow-empty] | DEST]   (default DEST: build/src/linux)"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
dest=${1:-$SRC_TREE}
if [ "$dest" = --series ]; then
	sdir=${TPF_SERIES_DIR:-$TPF_BUILD/series$BASE_SUFFIX}
	compgen -G "$BASE_PATCHES/*.patch" >/dev/null || [ "${2:-}" = --allow-empty ] ||
		die "${BASE_PATCHES#"$TPF_ROOT"/}/ has no *.patch files: nothing to check or submit for base $BASE (export the series with make series-export BASE=$BASE)"
	mkdir -p "$sdir"
	if [ "${TPF_SERIES_LOCKED:-}" != 1 ]; then
		exec 9>"$sdir/.tree.lock"
		flock -n 9 || { info "waiting for $sdir/linux: another check-series/submission/checkpatch is using it"; flock 9; }
	fi
	tree=$("$0" "$sdir/linux")
	g() { git -C "$tree" -c advice.detachedHead=false "$@"; }
	# A check that was cut off may have left another commit checked out.
	g checkout -q -f tpf-series
	[ -z "$(g status --porcelain --untracked-files=no)" ] || die "$tree has local changes: remove it (rm -rf $tree) and rerun"
	"$TPF_ROOT/ci/series/edit.sh" check "$tree"
	echo "base=$(g rev-parse tpf-base) head=$(g rev-parse HEAD) count=$(g rev-list --count tpf-base..HEAD) tree=$tree debver=$(debian_version)"
	exit 0
fi
base_only=0
[ "$dest" != --base ] || base_only=1

[ -f "$TPF_TARBALL" ] || die "missing $TPF_TARBALL (base $BASE): run 'make deps'"
need_cmd git
debver=$(debian_version)
key=$(series_key)

if [ "$dest" = --litmus ]; then
	d=$TPF_BUILD/litmus/$key
	if [ ! -f "$d/.tpf-done" ]; then
		info "extracting tools/memory-model and Documentation/litmus-tests (series $key)"
		rm -rf "$d.tmp"
		mkdir -p "$d.tmp"
		tar -C "$d.tmp" --strip-components=1 --wildcards -xf "$TPF_TARBALL" \
			'*/tools/memory-model/*' '*/Documentation/litmus-tests/*' ||
			die "cannot extract tools/memory-model from $TPF_TARBALL: run 'make deps' again"
		# GIT_CEILING_DIRECTORIES: outside any repository (ours encloses build/), git
		# apply patches the current directory as it would a plain tree.
		while read -r p; do
			(cd "$d.tmp" && GIT_CEILING_DIRECTORIES=$TPF_BUILD/litmus git apply --include='tools/memory-model/*' \
				--include='Documentation/litmus-tests/*' --exclude='*' "$p") ||
				die "the litmus-test hunks of $(basename "$p") do not apply: rebase it in 'make series-edit'"
		done < <(series_patches)
		touch "$d.tmp/.tpf-done"
		rm -rf "$d"
		mv "$d.tmp" "$d"
	fi
	echo "$d"
	exit 0
fi
if [ "$base_only" = 0 ] && [ -f "$dest/.tpf-key" ] && [ "$(cat "$dest/.tpf-key")" = "$key" ]; then
	echo "$dest"
	exit 0
fi

# gc.auto=0: committing the ~80k files of the tree would otherwise start a detached
# git gc that repacks it in the background for minutes, beside the builds.  Fixed
# identities and dates: the same tarball and series give the same commit ids everywhere
# (format-patch --base names the base commit in the submission's mails).
GIT=(git -c init.defaultBranch=main -c advice.detachedHead=false -c gc.auto=0 -c core.autocrlf=false)
export GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="linux-source@localhost"
export GIT_COMMITTER_NAME="tp-futex series-tree" GIT_COMMITTER_EMAIL="series-tree@localhost"

# The pristine base as a git repo, made once per Debian version.  The trees borrow its
# objects (git clone --shared: their .git/objects/info/alternates names
# $base/.git/objects, so that path must stay), and nothing reads its own work tree:
# that is deleted, which saves 1.7 GB.
base=$TPF_BUILD/src/pristine-$debver
mkdir -p "$TPF_BUILD/src"
exec 8>"$TPF_BUILD/src/.pristine.lock"
flock -n 8 || { info "waiting for $base: another run is making it"; flock 8; }
if [ ! -f "$base/.tpf-base-done" ]; then
	info "extracting $TPF_TARBALL ($debver)"
	rm -rf "$base.tmp"
	mkdir -p "$base.tmp"
	tar -C "$base.tmp" --strip-components=1 -xf "$TPF_TARBALL"
	# Debian's .gitignore ends with an ignore-everything rule ("/*") that would hide new
	# files such as kernel/futex/tp.c from git add; the base commit drops it.
	sed -i '/^# Debian packaging: ignore everything/,$d' "$base.tmp/.gitignore"
	(
		cd "$base.tmp"
		"${GIT[@]}" init -q
		"${GIT[@]}" add -A -f .
		GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
			"${GIT[@]}" commit -q --no-verify -m "Debian $BASE_PKG $debver" \
			-m "Imported from $(basename "$TPF_TARBALL"), without the Debian ignore-everything rule at the end of .gitignore."
		"${GIT[@]}" tag tpf-base
	)
	find "$base.tmp" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
	touch "$base.tmp/.tpf-base-done"
	rm -rf "$base"
	mv "$base.tmp" "$base"
fi
exec 8>&-
if [ "$base_only" = 1 ]; then
	echo "$base"
	exit 0
fi

info "applying the series (key $key)"
tmp=$dest.tmp
rm -rf "$tmp"
mkdir -p "$(dirname "$dest")" "$TPF_BUILD/logs"
"${GIT[@]}" clone -q --shared "$base" "$tmp"
"${GIT[@]}" -C "$tmp" checkout -q -B tpf-series tpf-base
log=$TPF_BUILD/logs/git-am.log
: >"$log"
mapfile -t patches < <(series_patches)
for p in "${patches[@]}"; do
	if ! (cd "$tmp" && "${GIT[@]}" am -q --committer-date-is-author-date "$p") >>"$log" 2>&1; then
		file=$(sed -n 's/^error: patch failed: \(.*\):[0-9]*$/\1/p; s/^error: \(.*\): does not exist in index$/\1/p; s/^error: \(.*\): already exists in index$/\1/p' "$log" | head -n1)
		rm -rf "$tmp"
		die "patch $(basename "$p") does not apply${file:+ at $file}: rebase it in 'make series-edit' and export it again (log: $log)"
	fi
done
echo "$debver" >"$tmp/.tpf-debian-version"
echo "$key" >"$tmp/.tpf-key"
rm -rf "$dest"
mv "$tmp" "$dest"
echo "$dest"
