#!/usr/bin/env bash
# The series tree the submission kit and the series checks work in: build/series/linux,
# a clone of the pristine base that ci/kernel/tree.sh makes (the one tree builder), with
# kernel/patches/*.patch applied by git am on branch tpf-series.  Checks the round trip
# (ci/series/edit.sh check: the commits regenerate to the same patches, so a hand-edited
# "dirty" series fails).  Prints base=<sha> head=<sha> count=<n> tree=<dir> debver=<v>.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ci/kernel/series-tree.sh [--allow-empty]   (env: TPF_SERIES_DIR, TPF_SERIES_LOCKED)"; }

allow_empty=0
for a in "$@"; do
  case "$a" in
    --allow-empty) allow_empty=1 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$a'" ;;
  esac
done

sdir=${TPF_SERIES_DIR:-$TPF_ROOT/build/series}
tree=$sdir/linux
compgen -G "$TPF_ROOT/kernel/patches/*.patch" >/dev/null || (( allow_empty )) ||
  die "kernel/patches/ has no *.patch files: nothing to check or submit (export the series into kernel/patches/ with git format-patch)"

mkdir -p "$sdir"
# Callers that keep using the tree (check-series, submission) take this lock themselves and
# set TPF_SERIES_LOCKED=1 so it is not taken twice.
if [[ ${TPF_SERIES_LOCKED:-} != 1 ]]; then
  exec 9>"$sdir/.tree.lock"
  flock -n 9 || { echo "waiting for build/series/linux: another check-series/submission/checkpatch is using it" >&2; flock 9; }
fi

g() { git -C "$tree" -c advice.detachedHead=false "$@"; }
"$TPF_ROOT/ci/kernel/tree.sh" "$tree" >/dev/null
# A check that was cut off may have left another commit checked out.
g checkout -q -f tpf-series
[[ -z "$(g status --porcelain --untracked-files=no)" ]] || die "$tree has local changes: remove it (rm -rf $tree) and rerun"
"$TPF_ROOT/ci/series/edit.sh" check "$tree"
echo "base=$(g rev-parse tpf-base) head=$(g rev-parse HEAD) count=$(g rev-list --count tpf-base..HEAD) tree=$tree debver=$(debian_version)"
