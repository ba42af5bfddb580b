#!/usr/bin/env bash
# Prepare the scratch kernel git tree the submission kit and the series checks work in:
# build/series/linux = freshly extracted /usr/src/linux-source-6.12.tar.xz committed as a
# deterministic base commit (tag tpf-base), with kernel/patches/*.patch applied by git am on
# branch tpf-series.  Verifies that the applied commits regenerate to the same patches
# (a "dirty" series fails).  Prints base=<sha> head=<sha> count=<n> tree=<dir>.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ci/kernel/series-tree.sh [--allow-empty]   (env: TPF_SERIES_DIR, TPF_LINUX_TARBALL, TPF_SERIES_LOCKED)"; }

allow_empty=0
for a in "$@"; do
  case "$a" in
    --allow-empty) allow_empty=1 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$a'" ;;
  esac
done

top=$TPF_ROOT
sdir=${TPF_SERIES_DIR:-$top/build/series}
tree=$sdir/linux
tarball=${TPF_LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
patchdir=$top/kernel/patches

for t in git tar xz flock perl; do
  command -v "$t" >/dev/null 2>&1 || die "missing tool '$t': run 'make deps' (or apt-get install \$(cat ci/deps/packages-submit.txt))"
done
[[ -r $tarball ]] || die "missing $tarball: apt-get install linux-source-6.12 (or run 'make deps')"
debver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
[[ -n $debver ]] || debver="unknown (tarball $(basename "$tarball"))"

shopt -s nullglob
patches=("$patchdir"/*.patch)
shopt -u nullglob
if (( ${#patches[@]} == 0 )) && (( ! allow_empty )); then
  die "kernel/patches/ has no *.patch files: nothing to check or submit (export the series into kernel/patches/ with git format-patch)"
fi

mkdir -p "$sdir"
# Callers that keep using the tree (check-series, submission) take this lock themselves and
# set TPF_SERIES_LOCKED=1 so it is not taken twice.
if [[ ${TPF_SERIES_LOCKED:-} != 1 ]]; then
  exec 9>"$sdir/.tree.lock"
  flock -n 9 || { echo "waiting for build/series/linux: another check-series/submission/checkpatch is using it" >&2; flock 9; }
fi

export GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="linux-source@localhost"
export GIT_COMMITTER_NAME="tp-futex series-tree" GIT_COMMITTER_EMAIL="series-tree@localhost"
g() { git -C "$tree" -c core.autocrlf=false -c gc.auto=0 -c advice.detachedHead=false "$@"; }

# 1. base commit (re-imported when the Debian package version changes)
stamp="v2 $debver $(stat -c %s-%Y "$tarball")"
if [[ ! -f $sdir/base.stamp || "$(cat "$sdir/base.stamp")" != "$stamp" ]] || ! g rev-parse -q --verify tpf-base >/dev/null 2>&1; then
  echo "series-tree: importing $tarball ($debver) into $tree (takes a few minutes)" >&2
  rm -rf "$tree" "$sdir/base.stamp" "$sdir/linux.new"
  mkdir -p "$sdir/linux.new"
  flock /tmp/tpf-build.lock tar -C "$sdir/linux.new" --strip-components=1 -xJf "$tarball"
  # Debian's .gitignore ends with an ignore-everything rule ("/*") that would hide new files
  # (e.g. kernel/futex/tp.c) from git add; drop it in the base commit itself.
  sed -i '/^# Debian packaging: ignore everything/,$d' "$sdir/linux.new/.gitignore"
  git -C "$sdir/linux.new" init -q
  git -C "$sdir/linux.new" add -A -f .
  # gc.auto=0: the commit of ~80k loose objects would otherwise start a detached git gc that
  # repacks the tree in the background for minutes, beside the builds.
  GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
    git -C "$sdir/linux.new" -c gc.auto=0 commit -q --no-verify -m "Debian linux-source-6.12 $debver" -m "Imported from $(basename "$tarball"), without the Debian ignore-everything rule at the end of .gitignore."
  git -C "$sdir/linux.new" tag tpf-base
  mv "$sdir/linux.new" "$tree"
  echo "$stamp" > "$sdir/base.stamp"
fi
base=$(g rev-parse tpf-base)

# 2. apply the series (skipped when the stamp says it is already applied and the tree is clean)
sum=$( (cat /dev/null "${patches[@]}") | sha256sum | cut -d' ' -f1)
want="$base $sum"
if [[ -f $sdir/series.stamp && "$(cat "$sdir/series.stamp")" == "$want" ]] \
   && [[ "$(g rev-parse -q --verify HEAD 2>/dev/null)" == "$(g rev-parse -q --verify tpf-series 2>/dev/null)" ]] \
   && [[ -z "$(g status --porcelain --untracked-files=no)" ]]; then
  :
else
  rm -f "$sdir/series.stamp"
  g am --abort >/dev/null 2>&1 || true
  g checkout -q -f -B tpf-series tpf-base
  g clean -q -fdx
  if (( ${#patches[@]} )); then
    if ! g am -q --committer-date-is-author-date "${patches[@]}" >"$sdir/am.log" 2>&1; then
      failed=$(sed -n 's/^Patch failed at [0-9]* //p' "$sdir/am.log" | head -1)
      g am --abort >/dev/null 2>&1 || true
      die "git am of kernel/patches onto linux-source-6.12 $debver failed${failed:+ at: $failed}; see $sdir/am.log (rebase/re-export the series)"
    fi
  fi
  echo "$want" > "$sdir/series.stamp"
fi
head=$(g rev-parse HEAD)
count=$(g rev-list --count tpf-base..HEAD)

# 3. dirty check: the applied commits must regenerate to the same patches (message + diff)
norm() { # $1 = patch file -> normalized text on stdout
  local d; d=$(mktemp -d)
  git mailinfo "$d/msg" "$d/patch" <"$1" >"$d/info" 2>/dev/null || { rm -rf "$d"; return 1; }
  grep -v '^Date:' "$d/info"; echo "--msg--"; cat "$d/msg"; echo "--diff--"
  awk '/^diff --git /{p=1} p && /^-- $/{exit} p && !/^index [0-9a-f]+\.\.[0-9a-f]+/' "$d/patch"
  rm -rf "$d"
}
if (( ${#patches[@]} )); then
  regen=$(mktemp -d); trap 'rm -rf "$regen"' EXIT
  g format-patch -q -o "$regen" tpf-base..HEAD
  mapfile -t regs < <(find "$regen" -name '*.patch' | sort)
  (( ${#regs[@]} == ${#patches[@]} )) || die "dirty series: ${#patches[@]} files in kernel/patches but ${#regs[@]} commits after git am (re-export with git format-patch)"
  for i in "${!patches[@]}"; do
    if ! cmp -s <(norm "${patches[$i]}") <(norm "${regs[$i]}"); then
      die "dirty series: kernel/patches/$(basename "${patches[$i]}") differs from what git format-patch regenerates after git am (hand-edited or made against another base); re-export the series from a tree with git format-patch"
    fi
  done
fi

echo "base=$base head=$head count=$count tree=$tree debver=$debver"
