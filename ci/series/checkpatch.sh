#!/usr/bin/env bash
# Run the tree's scripts/checkpatch.pl --strict on every kernel/patches/*.patch and print a table
# (patch, errors, warnings, checks, verdict).  A patch passes with 0 errors and 0 warnings; the
# only warning allowed is FILE_PATH_CHANGES when every file the patch adds lies in a path that
# a MAINTAINERS section (not THE REST) already covers and it moves or deletes nothing.
# CHECKs are reported; CHECKPATCH_FAIL_ON_CHECK=1 makes them fail too.  Logs: build/series/check/.
# The series in the repository carries no Signed-off-by (make submission adds it), so each patch
# is checked as the kit mails it: the commit from build/series/linux (which ci/kernel/tree.sh --series has
# verified to export back to the same file) exported with git format-patch --signoff, signed off
# by its own author.  The table also goes to build/series/check/checkpatch/summary.tsv (patch,
# errors, warnings, checks, verdict, note) for the CI job summary and annotations.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ci/series/checkpatch.sh   (env: CHECKPATCH_FAIL_ON_CHECK=1)"; }
case "${1:-}" in -h|--help) usage; exit 0 ;; "") ;; *) die "unknown argument '$1': it takes none (see --help)" ;; esac

top=$TPF_ROOT
sdir=${TPF_SERIES_DIR:-$top/build/series$BASE_SUFFIX}
logs=$sdir/check/checkpatch
need_cmd perl

info=$("$top/ci/kernel/tree.sh" --series) || exit 1
tree=$(sed -n 's/.* tree=\([^ ]*\) .*/\1/p' <<<"$info")
[[ -f $tree/scripts/checkpatch.pl ]] || die "no scripts/checkpatch.pl in $tree: remove build/series and rerun"

shopt -s nullglob
patches=("$BASE_PATCHES"/*.patch)
shopt -u nullglob
rm -rf "$logs"; mkdir -p "$logs"

# covered FILE: is FILE under a MAINTAINERS section other than THE REST?
covered() {
  printf 'diff --git a/%s b/%s\n--- /dev/null\n+++ b/%s\n' "$1" "$1" "$1" >"$logs/.probe.patch"
  (cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
      --nokeywords --sections "$logs/.probe.patch" 2>/dev/null) |
    grep -E '^[A-Z0-9]' | grep -vE '^(THE REST|[A-Z]:)' | grep -q .
}

mapfile -t commits < <(git -C "$tree" rev-list --reverse tpf-base..tpf-series)
(( ${#commits[@]} == ${#patches[@]} )) || die "${#patches[@]} patches but ${#commits[@]} commits in $tree: rerun ci/kernel/tree.sh --series"

bad=0
printf '%-62s %6s %8s %6s  %s\n' "patch" "errors" "warnings" "checks" "verdict"
for i in "${!patches[@]}"; do
  p=${patches[$i]} c=${commits[$i]}
  name=$(basename "$p")
  log=$logs/${name%.patch}.log
  mailed=$logs/${name%.patch}.mailed.patch
  GIT_COMMITTER_NAME=$(git -C "$tree" log -1 --format=%an "$c") GIT_COMMITTER_EMAIL=$(git -C "$tree" log -1 --format=%ae "$c") \
    git -C "$tree" format-patch -q -1 --signoff --stdout "$c" >"$mailed"
  # System python3 first: spdxcheck.py needs python3-ply / python3-git from Debian.
  (cd "$tree" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --show-types --color=never "$mailed") >"$log" 2>&1 || true
  grep -qE '^total: [0-9]+ errors' "$log" || die "checkpatch.pl did not finish on $name: see $log"
  e=$(grep -cE '^ERROR:' "$log" || true)
  w=$(grep -cE '^WARNING:' "$log" || true)
  c=$(grep -cE '^CHECK:' "$log" || true)
  note=""
  if grep -qE '^WARNING:FILE_PATH_CHANGES:' "$log"; then
    mapfile -t added < <(awk '/^diff --git /{f=$4; sub(/^b\//,"",f)} /^new file mode/{print f}' "$p")
    moved=$(grep -cE '^(deleted file mode|rename from|copy from)' "$p" || true)
    uncovered=()
    for f in "${added[@]}"; do covered "$f" || uncovered+=("$f"); done
    if (( moved == 0 && ${#added[@]} > 0 && ${#uncovered[@]} == 0 )); then
      w=$((w - $(grep -cE '^WARNING:FILE_PATH_CHANGES:' "$log")))
      note=" (FILE_PATH_CHANGES allowed: new files under existing MAINTAINERS entries)"
    elif (( ${#uncovered[@]} )); then
      note=" (new files not covered by MAINTAINERS: ${uncovered[*]})"
    fi
  fi
  verdict=ok
  if (( e || w )) || { [[ ${CHECKPATCH_FAIL_ON_CHECK:-} == 1 ]] && (( c )); }; then
    verdict=FAIL; bad=$((bad + 1))
  fi
  printf '%-62s %6s %8s %6s  %s%s\n' "${name:0:62}" "$e" "$w" "$c" "$verdict" "$note"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$e" "$w" "$c" "$verdict" "$note" >>"$logs/summary.tsv"
  if [[ $verdict == FAIL ]]; then
    grep -E '^(ERROR|WARNING|CHECK):' "$log" | grep -v '^WARNING:FILE_PATH_CHANGES:' | sed 's/^/    /' | head -n 10
  fi
done
rm -f "$logs/.probe.patch"
if (( bad )); then
  die "$bad of ${#patches[@]} patches fail checkpatch --strict: fix them (logs in ${logs#"$top"/}/)"
fi
echo "checkpatch: all ${#patches[@]} patches clean (checkpatch.pl --strict; logs in ${logs#"$top"/}/)"
