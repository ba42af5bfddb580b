#!/usr/bin/env bash
# Turn one arch's test results into GitHub Actions annotations: one ::error:: line per failed
# test, per kernel splat (with file= and line= when the splat names a source line) and per run
# problem (no boot, no end marker, missing tests).
# Reads what ci/vm/verdict.sh writes to build/results/ARCH[-BASE][-KCONFIG]/ (ci/lib.sh resultdir;
# TPF_BASE and KCONFIG from make's BASE= and KCONFIG=): results.tap ("not ok" lines),
# splats.txt (ci/vm/splat-check.sh findings) and summary.env (problems=...).  Without results.tap
# it falls back to scanning every *.tap/*.log there.  Locally it prints the same lines.
# Exit 0 when the results were read (failures included: the test step fails the job), 1 when
# there is nothing to read.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ci/gh/annotate.sh ARCH [RESULTS_DIR]   (default RESULTS_DIR: build/results/ARCH[-BASE][-KCONFIG]; env: TPF_BASE, KCONFIG)"; }

case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  *) check_arch "${1:-}" ;;
esac
(( $# <= 2 )) || die "too many arguments: give ARCH and optionally RESULTS_DIR"
arch=$1
top=$TPF_ROOT
dir=${2:-$(resultdir "$arch" "${KCONFIG:-}")}
# The annotation titles name the arch and the base; the hints, make's arguments for them.
who="$arch ($BASE)"
again="ARCH=$arch${BASE_SUFFIX:+ BASE=$BASE}${KCONFIG:+ KCONFIG=$KCONFIG}"

# Annotation messages must be one line: %, CR and LF are escaped as the runner expects.
esc() { local s=$1; s=${s//%/%25}; s=${s//$'\r'/%0D}; s=${s//$'\n'/%0A}; printf '%s' "$s"; }
rel() { printf '%s' "${1#"$top"/}"; }
declare -A seen
fails=0 splats=0 nprob=0
note() { # KIND TITLE MESSAGE [WHERE]: each MESSAGE once, even if several files have it
  [[ -z ${seen["$1:$3"]:-} ]] || return 0
  seen["$1:$3"]=1
  case $1 in t) fails=$((fails + 1)) ;; s) splats=$((splats + 1)) ;; p) nprob=$((nprob + 1)) ;; esac
  # A splat that names a source line ("WARNING: CPU: 1 PID: 7 at kernel/futex/tp.c:321 ...")
  # points the annotation there.
  local where=""
  if [[ $1 == s && $3 =~ \ at\ ([A-Za-z0-9_./-]+\.[chS]):([0-9]+) ]]; then
    where="file=${BASH_REMATCH[1]},line=${BASH_REMATCH[2]},"
  fi
  echo "::error ${where}title=$who $2::$(esc "$3${4:+ ($4)}")"
}
# splat LINE: a splat-check line ("NNN:[ time] text", NNN = serial log line) -> "text".
splat() { sed -E 's/^[0-9]+://; s/^\[[ 0-9.]+\] //' <<<"$1"; }

if [[ ! -d $dir ]]; then
  echo "::error title=$who no test results::$(esc "no $(rel "$dir")/: the test step did not produce results (run 'make test $again')")"
  die "no results directory $(rel "$dir"): run 'make test $again' first"
fi

# failed_tests FILE: "not ok N name [# detail]" -> name [# detail]; TODO failures are expected.
failed_tests() {
  grep -aE '^not ok([[:space:]]|$)' "$1" | sed -E 's/^not ok[[:space:]]*[0-9]*[[:space:]]*(-[[:space:]]*)?//' |
    grep -viE '#[[:space:]]*TODO' || true
}

if [[ -f $dir/results.tap ]]; then
  while IFS= read -r t; do note t "test failed" "${t:-unnamed test}" "$(rel "$dir")/results.tap"; done < <(failed_tests "$dir/results.tap")
  if [[ -s $dir/splats.txt ]]; then
    while IFS= read -r l; do
      [[ -n $l ]] && note s "kernel splat" "$(splat "$l")" "$(rel "$dir")/serial.log line ${l%%:*}"
    done < <(head -n 20 "$dir/splats.txt")
  fi
  if [[ -f $dir/summary.env ]]; then
    # shellcheck disable=SC1091  # summary.env is written by ci/vm/verdict.sh
    p=$( (set +u; problems=""; . "$dir/summary.env" >/dev/null 2>&1; printf '%s' "$problems") || true)
    IFS=';' read -r -a plist <<<"$p"
    for x in "${plist[@]}"; do [[ -n $x ]] && note p "run problem" "$x"; done
  fi
else
  mapfile -t files < <(find "$dir" -type f \( -name '*.tap' -o -name '*.log' \) | sort)
  (( ${#files[@]} )) || {
    echo "::error title=$who no test results::$(esc "$(rel "$dir")/ has no results.tap and no .tap/.log files")"
    die "$(rel "$dir")/ has no results.tap and no .tap/.log files: run 'make test $again'"
  }
  for f in "${files[@]}"; do
    while IFS= read -r t; do note t "test failed" "${t:-unnamed test}" "$(rel "$f")"; done < <(failed_tests "$f")
    # The same denylist as every verdict (ci/vm/splat-denylist.txt, via ci/vm/splat-check.sh).
    while IFS= read -r l; do
      [[ -n $l ]] && note s "kernel splat" "$(splat "$l")" "$(rel "$f") line ${l%%:*}"
    done < <("$top/ci/vm/splat-check.sh" "$f" 2>/dev/null | head -n 20 || true)
  done
fi
echo "gh-annotate: $who: $fails failed test(s), $splats kernel splat line(s), $nprob run problem(s) in $(rel "$dir")/" >&2
