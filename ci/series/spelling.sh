#!/usr/bin/env bash
# codespell on the series' changelogs (commit messages of kernel/patches/*.patch), the text the
# series adds under Documentation/, docs/*.md and submission/*.  Words the project uses on purpose
# go in submission/codespell-ignore.txt (one per line).  Exit 1 on any misspelling.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ci/series/spelling.sh"; }
case "${1:-}" in -h|--help) usage; exit 0 ;; "") ;; *) die "unknown argument '$1': it takes none (see --help)" ;; esac

top=$TPF_ROOT
cd "$top"
need_cmd codespell codespell
need_cmd git
out=${TPF_SERIES_DIR:-$top/build/series$BASE_SUFFIX}/check/spelling
rm -rf "$out"; mkdir -p "$out"

shopt -s nullglob
patches=("${BASE_PATCHES#"$top"/}"/*.patch)
files=(docs/*.md submission/*.txt submission/*.md)
shopt -u nullglob

# Per patch: NAME.changelog (the commit message) and NAME.docs (lines added under Documentation/).
for p in "${patches[@]}"; do
  n=$(basename "$p" .patch)
  git mailinfo -k "$out/$n.changelog" /dev/null <"$p" >"$out/$n.info" ||
    die "cannot parse $p as a git format-patch file: re-export it with git format-patch"
  sed -n 's/^Subject: //p' "$out/$n.info" | cat - "$out/$n.changelog" >"$out/$n.changelog.tmp"
  mv "$out/$n.changelog.tmp" "$out/$n.changelog"; rm -f "$out/$n.info"
  awk '/^diff --git /{d = ($3 ~ /^a\/Documentation\//)} d && /^\+/ && !/^\+\+\+ /{print substr($0, 2)}' "$p" >"$out/$n.docs"
  [[ -s $out/$n.docs ]] || rm -f "$out/$n.docs"
  files+=("$out/$n.changelog")
  [[ -f $out/$n.docs ]] && files+=("$out/$n.docs")
done
(( ${#files[@]} )) || die "nothing to check: no kernel/patches/*.patch, docs/*.md or submission/ files"

args=()
[[ -f submission/codespell-ignore.txt ]] && args+=(--ignore-words submission/codespell-ignore.txt)
rc=0
codespell "${args[@]}" "${files[@]}" >"$out/codespell.log" 2>&1 || rc=$?
sed "s|^$out/|build/series/check/spelling/|" "$out/codespell.log"
case $rc in
  0) echo "check-spelling: ${#files[@]} files clean (codespell; ${#patches[@]} changelogs)" ;;
  65) die "misspellings above (.changelog = commit message, .docs = lines added under Documentation/): fix them, or add a deliberate word to submission/codespell-ignore.txt" ;;
  *) die "codespell failed (exit $rc): see $out/codespell.log" ;;
esac
