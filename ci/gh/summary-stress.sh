#!/usr/bin/env bash
# shellcheck disable=SC2016  # `x` in single quotes is Markdown code, not a command substitution
# The stress run's verdict for the job summary: the last build/stress/results.tsv line of ARCH and
# KCONFIG (ci/stress/run.sh writes it), its exit status, seed, arguments, the guest's TAP verdict and
# counters, and any kernel splat in its log (ci/vm/splat-check.sh).  Appended to $GITHUB_STEP_SUMMARY
# when that is set, printed otherwise.  A failed run also gives one ::error:: annotation, with
# file= and line= when the splat names a source line ("at kernel/futex/tp.c:123").
# Exit 0 when there was something to report (a failed run included: the stress step fails the
# job), 0 with a "no stress run" note when the stress step never ran.
set -euo pipefail

usage() { echo "usage: ci/gh/summary-stress.sh ARCH [KCONFIG]   (env: ARTIFACT)"; }
. "$(dirname "$0")/../lib.sh"
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  *) check_arch "${1:-}" ;;
esac
(( $# <= 2 )) || die "too many arguments: give ARCH and optionally KCONFIG"
arch=$1 kcfg=${2:-default}
top=$TPF_ROOT
tsv=$top/build/stress/results.tsv

esc() { local s=$1; s=${s//%/%25}; s=${s//$'\r'/%0D}; s=${s//$'\n'/%0A}; printf '%s' "$s"; }
out=$(mktemp); trap 'rm -f "$out"' EXIT
line=""
# the base is the 9th column; lines without it predate the base axis and are the first base's
[[ -f $tsv ]] && line=$(awk -F'\t' -v a="$arch" -v k="$kcfg" -v b="$BASE" -v b0="${TPF_BASES%% *}" \
  '$2 == a && $3 == k && ($9 == b || ($9 == "" && b == b0))' "$tsv" | tail -n1)
if [[ -z $line ]]; then
  printf '### stress %s, base %s (%s)\n\n**no stress run recorded**: the stress step did not run (an earlier step failed?).\n\n' "$arch" "$BASE" "$kcfg" >"$out"
else
  IFS=$'\t' read -r stamp _ _ cpus args rc verdict counts _ <<<"$line"
  rc=${rc#rc=}
  log=$top/build/stress/stress-$arch$BASE_SUFFIX-$kcfg-$stamp.log
  case $rc in 0) v=PASS ;; 4) v=SKIP ;; 255) v="FAIL (panic, timeout or kernel splat)" ;; *) v="FAIL (exit $rc)" ;; esac
  splats=""
  [[ -f $log ]] && { splats=$("$top/ci/vm/splat-check.sh" "$log" 2>/dev/null) || true; }
  {
    printf '### stress %s, base %s (%s): %s\n\n' "$arch" "$BASE" "$kcfg" "$v"
    IFS=';' read -r -a checks <<<"$verdict"
    nok=0 nbad=0 bad=()
    for c in "${checks[@]}"; do
      case $c in "not ok"*) nbad=$((nbad + 1)); bad+=("$c") ;; ok*) nok=$((nok + 1)) ;; esac
    done
    printf '| exit | CPUs | arguments | guest checks |\n|---:|---:|---|---|\n'
    printf '| %s | %s | `%s` | %s ok, %s not ok |\n\n' "$rc" "$cpus" "${args% }" "$nok" "$nbad"
    for c in "${bad[@]}"; do printf -- '- `%s`\n' "$c"; done
    (( nbad )) && echo
    printf 'log: `%s`\n\n' "${log#"$top"/}"
    printf '<details><summary>counters</summary>\n\n```\n%s\n```\n\n</details>\n\n' "$(tr ' ' '\n' <<<"${counts:-none}" | sed '/^$/d')"
    if [[ -n $splats ]]; then
      printf 'kernel splat lines (serial log line: text):\n\n```\n%s\n```\n\n' "$(head -n 20 <<<"$splats")"
    fi
  } >"$out"
  if [[ $v == FAIL* ]]; then
    first=$(head -n1 <<<"$splats")
    text=$(sed -E 's/^\[[ 0-9.]+\] //' <<<"${first#*:}")
    props="title=$arch $BASE $kcfg stress"
    if [[ $text =~ \ at\ ([A-Za-z0-9_./-]+\.[chS]):([0-9]+) ]]; then
      props="file=${BASH_REMATCH[1]},line=${BASH_REMATCH[2]},$props"
    fi
    echo "::error $props::$(esc "stress run $v${text:+: $text} (${log#"$top"/})")"
  fi
fi
if [[ -n ${ARTIFACT:-} && -n ${GITHUB_RUN_ID:-} ]]; then
  printf 'logs: artifact `%s` on the [run page](%s/%s/actions/runs/%s#artifacts)\n\n' \
    "$ARTIFACT" "${GITHUB_SERVER_URL:-https://github.com}" "${GITHUB_REPOSITORY:-}" "$GITHUB_RUN_ID" >>"$out"
fi
if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  cat "$out" >>"$GITHUB_STEP_SUMMARY"
  echo "gh-summary-stress: $arch ($kcfg) stress verdict appended to the job summary"
else
  cat "$out"
fi
