#!/usr/bin/env bash
# Turn checkpatch findings into GitHub Actions annotations on the patch files: one line per
# ERROR (::error), WARNING (::warning) and CHECK (::notice) in build/series/check/checkpatch/*.log
# (what ci/series/checkpatch.sh leaves), with file=kernel/patches/NAME.patch and line= the patch line that
# checkpatch's "#NN:" names (it checks the mailed copy, which carries a Signed-off-by more, so the
# line is found again by its text), and the kernel file and line it names ("FILE: path:line") in
# the message.  A FILE_PATH_CHANGES warning that checkpatch.sh allowed is left out.  When git am
# of the series failed (build/series/am.log), one ::error:: on the patch that did not apply.
# Exit 0 when there was something to read, 1 when there was not.
set -euo pipefail

usage() { echo "usage: ci/gh/annotate-checkpatch.sh   (env: TPF_SERIES_DIR)"; }
. "$(dirname "$0")/../lib.sh"
case "${1:-}" in -h|--help) usage; exit 0 ;; "") ;; *) die "unknown argument '$1': it takes none (see --help)" ;; esac

top=$TPF_ROOT
sdir=${TPF_SERIES_DIR:-$top/build/series$BASE_SUFFIX}
logs=$sdir/check/checkpatch
am=$sdir/am.log
esc() { local s=$1; s=${s//%/%25}; s=${s//$'\r'/%0D}; s=${s//$'\n'/%0A}; printf '%s' "$s"; }
prop() { local s; s=$(esc "$1"); s=${s//:/%3A}; s=${s//,/%2C}; printf '%s' "$s"; }

shopt -s nullglob
logfiles=("$logs"/*.log)
shopt -u nullglob
n=0
if [[ -s $am ]] && grep -q '^Patch failed at' "$am"; then
  failed=$(sed -n 's/^Patch failed at //p' "$am" | head -1)
  num=${failed%% *}
  where=""
  for p in "$BASE_PATCHES/$num"-*.patch; do [[ -f $p ]] && where="file=${p#"$top"/},"; done
  detail=$(grep -m1 '^error: ' "$am" || true)
  echo "::error ${where}title=git am failed::$(esc "patch $failed does not apply to $BASE_PKG${detail:+: $detail} (${am#"$top"/})")"
  n=$((n + 1))
fi
(( ${#logfiles[@]} )) || {
  (( n )) && exit 0
  die "no checkpatch logs in ${logs#"$top"/}/: run 'make checkpatch' first"
}

# line_of MAILED NN REPO: the REPO line with the same text as line NN of MAILED, nearest to NN.
line_of() {
  T=$(sed -n "${2}p" "$1") N=$2 awk '$0 == ENVIRON["T"] {
      d = NR - ENVIRON["N"]; if (d < 0) d = -d
      if (best == "" || d < bd) { best = NR; bd = d } }
    END { print best }' "$3"
}

for log in "${logfiles[@]}"; do
  name=$(basename "$log" .log)
  patch=$BASE_PATCHES/$name.patch
  mailed=$logs/$name.mailed.patch
  allowed=0
  [[ -f $logs/summary.tsv ]] && awk -F'\t' -v p="$name.patch" '$1 == p && $6 ~ /allowed/ { f = 1 } END { exit !f }' "$logs/summary.tsv" && allowed=1
  # level US type US #NN US "FILE: path:line" US message (US = \x1f: unlike a tab, empty fields stay)
  while IFS=$'\x1f' read -r level type nn kfile msg; do
    [[ $type == FILE_PATH_CHANGES && $allowed == 1 ]] && continue
    case $level in ERROR) cmd=error ;; WARNING) cmd=warning ;; *) cmd=notice ;; esac
    props="file=${patch#"$top"/}"
    if [[ -n $nn && -f $mailed && -f $patch ]]; then
      l=$(line_of "$mailed" "$nn" "$patch")
      [[ -n $l ]] && props+=",line=$l"
    fi
    echo "::$cmd $props,title=$(prop "checkpatch $level:$type")::$(esc "$msg${kfile:+ ($kfile)}")"
    n=$((n + 1))
  done < <(awk -v OFS=$'\x1f' '
      /^(ERROR|WARNING|CHECK):[A-Z0-9_]+:/ {
        if (lvl != "") print lvl, typ, "", "", msg
        lvl = $0; sub(/:.*/, "", lvl)
        typ = $0; sub(/^[A-Z]+:/, "", typ); sub(/:.*/, "", typ)
        msg = $0; sub(/^[A-Z]+:[A-Z0-9_]+: */, "", msg)
        next
      }
      lvl != "" && /^#[0-9]+: / {
        nn = $0; sub(/^#/, "", nn); sub(/:.*/, "", nn)
        kf = ""
        if (match($0, /FILE: [^ ]+:[0-9]+:/)) { kf = substr($0, RSTART + 6, RLENGTH - 7) }
        print lvl, typ, nn, kf, msg
        lvl = ""; next
      }
      END { if (lvl != "") print lvl, typ, "", "", msg }' "$log")
done
echo "gh-annotate-checkpatch: $n annotation(s) from ${#logfiles[@]} checkpatch log(s) in ${logs#"$top"/}/" >&2
