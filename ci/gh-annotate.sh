#!/usr/bin/env bash
# Turn one arch's test results into GitHub Actions annotations: one ::error:: line per failed
# TAP test ("not ok") and per kernel splat in the serial logs, found under build/results/ARCH/.
# Locally it prints the same lines (harmless text).  Exit 0 when the results were read (even
# with failures: the test step itself fails the job), 1 when there is nothing to read.
set -euo pipefail

usage() { echo "usage: ci/gh-annotate.sh ARCH [RESULTS_DIR]   (default RESULTS_DIR: build/results/ARCH)"; }
die() { echo "gh-annotate: $*" >&2; exit 1; }

case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  x86_64|arm64) ;;
  "") die "no ARCH given: use ARCH=x86_64 or ARCH=arm64" ;;
  *) die "unknown ARCH '$1': use ARCH=x86_64 or ARCH=arm64" ;;
esac
(( $# <= 2 )) || die "too many arguments: give ARCH and optionally RESULTS_DIR"
arch=$1
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${2:-$top/build/results/$arch}

# Annotation text must not contain newlines; %, \r, \n are escaped as the runner expects.
esc() { local s=$1; s=${s//%/%25}; s=${s//$'\r'/%0D}; s=${s//$'\n'/%0A}; printf '%s' "$s"; }
rel() { printf '%s' "${1#"$top"/}"; }

if [[ ! -d $dir ]]; then
  echo "::error title=$arch no test results::$(esc "no $(rel "$dir")/: the test step did not produce results (run 'make test ARCH=$arch')")"
  die "no results directory $(rel "$dir"): run 'make test ARCH=$arch' first"
fi

mapfile -t taps < <(find "$dir" -type f \( -name '*.tap' -o -name '*.log' -o -name '*.txt' \) | sort)
(( ${#taps[@]} )) || {
  echo "::error title=$arch no test results::$(esc "$(rel "$dir")/ holds no .tap/.log/.txt files")"
  die "$(rel "$dir")/ holds no .tap, .log or .txt files: run 'make test ARCH=$arch'"
}

# The same TAP line may be both in a .tap file and in the serial log: report each once.
declare -A seen
fails=0 splats=0 oks=0
for f in "${taps[@]}"; do
  # TAP: "not ok N description [# TODO|SKIP ...]"; TODO failures are expected, not errors.
  while IFS= read -r line; do
    desc=${line#*not ok}
    desc=$(sed -E 's/^[[:space:]]*[0-9]*[[:space:]]*(-[[:space:]]*)?//' <<<"$desc")
    case "$desc" in *'# TODO'*|*'# todo'*) continue ;; esac
    [[ -z ${seen["t:$desc"]:-} ]] || continue
    seen["t:$desc"]=1
    fails=$((fails + 1))
    echo "::error title=$arch test failed::$(esc "${desc:-unnamed test} ($(rel "$f"))")"
  done < <(grep -aE '^[[:space:]#]*not ok([[:space:]]|$)' "$f" || true)
  oks=$((oks + $(grep -acE '^[[:space:]#]*ok([[:space:]]|$)' "$f" || true)))
  # Kernel splats in serial/console logs.
  while IFS= read -r line; do
    line=$(sed -E 's/^\[[ 0-9.]+\] //' <<<"$line")
    [[ -z ${seen["s:$line"]:-} ]] || continue
    seen["s:$line"]=1
    splats=$((splats + 1))
    echo "::error title=$arch kernel splat::$(esc "$line ($(rel "$f"))")"
  done < <(grep -aE 'Kernel panic|BUG: |WARNING: CPU:|Oops|general protection fault|Unable to handle kernel|INFO: task .* blocked for more than|rcu: INFO: .* self-detected stall|watchdog: BUG: soft lockup|KASAN: |UBSAN: |kmemleak: [0-9]+ new suspected' "$f" | head -n 20 || true)
done

echo "gh-annotate: $arch: $oks ok, $fails failed, $splats kernel splat line(s) in $(rel "$dir")/" >&2
