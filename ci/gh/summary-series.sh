#!/usr/bin/env bash
# shellcheck disable=SC2016  # `x` in single quotes is Markdown code, not a command substitution
# The series job's summary: a patch x (checkpatch, arch...) table from what make check-series
# leaves in build/series[-BASE]/check/ (checkpatch/summary.tsv from ci/series/checkpatch.sh,
# build/results.tsv from ci/series/check.sh), the codespell verdict and, when git am failed, the
# failing patch from build/series[-BASE]/am.log, and the W=1/sparse lines of
# check/warnings/summary.txt (ci/series/warnings.sh).  TPF_BASE (make's BASE=) picks the base; "-BASE"
# for every base but ci/bases.tsv's first.  Appended to $GITHUB_STEP_SUMMARY when that is set;
# printed otherwise.
# Env ARTIFACT=name adds a pointer to that artifact on the run page.  Exit 1 only when there is
# nothing at all to report.
set -euo pipefail

usage() { echo "usage: ci/gh/summary-series.sh   (env: TPF_BASE, TPF_SERIES_DIR, ARTIFACT)"; }
. "$(dirname "$0")/../lib.sh"
case "${1:-}" in -h|--help) usage; exit 0 ;; "") ;; *) die "unknown argument '$1': it takes none (see --help)" ;; esac

top=$TPF_ROOT
sdir=${TPF_SERIES_DIR:-$top/build/series$BASE_SUFFIX}
cp_tsv=$sdir/check/checkpatch/summary.tsv
b_tsv=$sdir/check/build/results.tsv
spell=$sdir/check/spelling/codespell.log
am=$sdir/am.log
[[ -f $cp_tsv || -f $b_tsv || -s $am ]] ||
  die "nothing in ${sdir#"$top"/}/check/ to report: run 'make check-series${BASE_SUFFIX:+ BASE=$BASE}' first"

out=$(mktemp); trap 'rm -f "$out"' EXIT
{
  echo "### series (base $BASE, ${BASE_PATCHES#"$top"/}/): checkpatch and a build at every patch"
  echo
  if [[ -s $am ]] && grep -q '^Patch failed at' "$am"; then
    printf -- '- **git am failed** at `%s`: see `%s`\n\n' "$(sed -n 's/^Patch failed at //p' "$am" | head -1)" "${am#"$top"/}"
  fi
  if [[ -f $cp_tsv || -f $b_tsv ]]; then
    mapfile -t arches < <([[ -f $b_tsv ]] && cut -f2 "$b_tsv" | awk '!seen[$0]++')
    head='| patch | subject | checkpatch |' rule='|---:|---|---|'
    for a in "${arches[@]}"; do head+=" $a |" rule+='---|'; done
    printf '%s\n%s\n' "$head" "$rule"
    # One row per patch: its number, subject, checkpatch verdict, one column per arch.
    awk -F'\t' -v arches="${arches[*]}" -v cp="$cp_tsv" -v b="$b_tsv" '
      BEGIN {
        na = split(arches, A, " ")
        while ((getline l < cp) > 0) {
          split(l, f, "\t"); n = substr(f[1], 1, 4); nums[n] = 1
          subj[n] = f[1]; sub(/^[0-9]+-/, "", subj[n]); sub(/\.patch$/, "", subj[n]); gsub(/-/, " ", subj[n])
          v = (f[5] == "ok") ? "ok" : "**FAIL**"
          chk[n] = sprintf("%s (%s E, %s W, %s C)", v, f[2], f[3], f[4])
        }
        while ((getline l < b) > 0) {
          split(l, f, "\t"); n = f[1]; nums[n] = 1; subj[n] = f[5]
          res[n, f[2]] = (f[3] == "ok" ? "ok" : "**FAIL**") " " f[4] " s"
        }
        for (n in nums) {
          s = subj[n]; gsub(/\|/, "\\|", s)
          row = sprintf("| %s | %s | %s |", n, s, (n in chk) ? chk[n] : "not run")
          for (i = 1; i <= na; i++) row = row sprintf(" %s |", ((n, A[i]) in res) ? res[n, A[i]] : "not built")
          print n "\t" row
        }
      }' </dev/null | sort -n | cut -f2-
  fi
  echo
  if [[ -f $spell ]]; then
    if [[ -s $spell ]]; then
      printf -- '- codespell: **%s finding(s)**, see `%s`\n' "$(wc -l <"$spell")" "${spell#"$top"/}"
    else
      echo "- codespell: clean"
    fi
  fi
  [[ -f $b_tsv ]] || echo "- no per-patch builds: the run stopped before them"
  if [[ -s $sdir/check/warnings/summary.txt ]]; then
    while IFS= read -r l; do
      printf -- '- %s\n' "$(sed -E 's/^ +//' <<<"$l")"
    done <"$sdir/check/warnings/summary.txt"
  fi
  if [[ -n ${ARTIFACT:-} && -n ${GITHUB_RUN_ID:-} ]]; then
    printf -- '- logs: artifact `%s` on the [run page](%s/%s/actions/runs/%s#artifacts)\n' \
      "$ARTIFACT" "${GITHUB_SERVER_URL:-https://github.com}" "${GITHUB_REPOSITORY:-}" "$GITHUB_RUN_ID"
  fi
  echo
} >"$out"
if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  cat "$out" >>"$GITHUB_STEP_SUMMARY"
  echo "gh-summary-series: base $BASE table from ${sdir#"$top"/}/ appended to the job summary"
else
  cat "$out"
fi
