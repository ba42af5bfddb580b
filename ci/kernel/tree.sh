#!/usr/bin/env bash
# Extract linux-source-6.12 and apply kernel/patches/*.patch with git am.
# Prints the tree path.  The tree is rebuilt atomically when the series
# changes, so an interrupted run never leaves a half-applied tree behind.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/kernel/tree.sh [DEST]   (default DEST: build/src/linux)"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
dest=${1:-$SRC_TREE}

[ -f "$TPF_TARBALL" ] || die "missing $TPF_TARBALL: run 'make deps'"
need_cmd git
debver=$(debian_version)
key=$(series_key)

if [ -f "$dest/.tpf-key" ] && [ "$(cat "$dest/.tpf-key")" = "$key" ]; then
	echo "$dest"
	exit 0
fi

# gc.auto=0: committing the ~80k files of the tree would otherwise start a detached
# git gc that repacks it in the background for minutes, beside the builds.
GIT=(git -c user.name=tp-futex -c user.email=tp-futex@users.noreply.github.com
	-c init.defaultBranch=main -c advice.detachedHead=false -c gc.auto=0)

# The pristine tree as a git repo, made once per Debian version.  The trees are
# clones of it that borrow its objects (git clone --shared: their
# .git/objects/info/alternates names $base/.git/objects, so that path must stay), and
# nothing reads its own work tree: that is deleted, which saves 1.7 GB.
base=$TPF_BUILD/src/base-$debver
if [ ! -f "$base/.tpf-base-done" ]; then
	info "extracting $TPF_TARBALL ($debver)"
	rm -rf "$base.tmp"
	mkdir -p "$base.tmp"
	tar -C "$base.tmp" --strip-components=1 -xf "$TPF_TARBALL"
	(
		cd "$base.tmp"
		"${GIT[@]}" init -q
		"${GIT[@]}" add -A -f
		"${GIT[@]}" commit -q -m "Debian linux-source-6.12 $debver"
		"${GIT[@]}" tag tpf-debian
		# Debian's .gitignore ignores every top-level entry ("/*"), which
		# would hide new files such as kernel/futex/tp.c from git add.
		sed -i '/^# Debian packaging: ignore everything/,$d' .gitignore
		"${GIT[@]}" commit -q -a -m "gitignore: drop Debian's top-level ignore-all rule"
		"${GIT[@]}" tag tpf-base
	)
	touch "$base.tmp/.tpf-base-done"
	rm -rf "$base"
	mv "$base.tmp" "$base"
fi
# Also for a base made before the work tree was dropped.
find "$base" -mindepth 1 -maxdepth 1 ! -name .git ! -name .tpf-base-done -exec rm -rf {} +

info "applying the series (key $key)"
tmp=$dest.tmp
rm -rf "$tmp"
mkdir -p "$(dirname "$dest")" "$TPF_BUILD/logs"
"${GIT[@]}" clone -q --shared "$base" "$tmp"
log=$TPF_BUILD/logs/git-am.log
: >"$log"
mapfile -t patches < <(series_patches)
for p in "${patches[@]}"; do
	if ! (cd "$tmp" && "${GIT[@]}" am -q "$p") >>"$log" 2>&1; then
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
