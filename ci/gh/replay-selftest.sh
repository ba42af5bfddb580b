#!/usr/bin/env bash
# Prove that ci/gh/replay-workflow.py replays a workflow the way the runner does: replay
# tests/replay/selftest.yml (every emulated feature, each checked by a step of its own; with
# --worktree, so an uncommitted change to the replay or the test is tested too) and compare each
# leg's verdict line with the expected one; check the job summary, the annotations file, the
# --dry-run decisions, --leg over two matrix axes (a leg's name, one value, values joined by ','),
# a job timeout-minutes from the matrix, and the one-line errors for an unknown job, leg and event.
# Exit 1 on any difference.
set -euo pipefail

usage() { echo "usage: ci/gh/replay-selftest.sh"; }
. "$(dirname "$0")/../lib.sh"
case "${1:-}" in -h|--help) usage; exit 0 ;; "") ;; *) die "unknown argument '$1': it takes none (see --help)" ;; esac

top=$TPF_ROOT
cd "$top"
wf=tests/replay/selftest.yml
replay() { ci/gh/replay-workflow.py --worktree --workflow "$wf" "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

rc=0; replay all >"$tmp/out" 2>"$tmp/err" || rc=$?
(( rc == 1 )) || die "the replay of $wf exited $rc, not 1 (some legs must fail): see $(tail -n 3 "$tmp/err")"
expect=(
  "^PASS  features a "
  "^FAIL  features b .* step 15 'fail on leg b' \(exit 4\)"
  "^FAIL  features z .* step 19 'no files: error' \(upload-artifact 'none' .*no files were found"
  "^FAIL  timeouts .* step 1 'step timeout' \(timed out \(step timeout-minutes\)\)"
  "^FAIL  unknown-action .* step 1 'unknown action' \(unsupported action 'someone/else@v1'"
  "^SKIP  push-only "
  "^PASS  legs a-6.12 "
  "^PASS  legs a-7.10 "
  "^PASS  legs b-6.12 "
  "^PASS  legs b-7.10 "
  "^replay: 5 passed, 4 failed, 1 skipped$"
)
for re in "${expect[@]}"; do
  grep -qE "$re" "$tmp/out" || die "no line matching /$re/ in the replay's verdicts: $(cat "$tmp/out")"
done
(( $(wc -l <"$tmp/out") == ${#expect[@]} )) || die "the replay printed more verdict lines than expected: $(cat "$tmp/out")"
grep -qx '### summary a' build/replay/features-a/summary.md || die "GITHUB_STEP_SUMMARY did not reach build/replay/features-a/summary.md"
grep -q $'^warning\tfile=README.md,line=3,title=selftest\ta warning' build/replay/features-a/annotations.txt ||
  die "the ::warning:: line did not reach build/replay/features-a/annotations.txt"
[[ -f build/replay/features-a/artifacts/hid-a/.hid/c.txt ]] || die "include-hidden-files: true did not upload out/.hid/c.txt"

replay --dry-run --leg b features >"$tmp/dry" 2>&1 || die "--dry-run failed: $(tail -n 3 "$tmp/dry")"
grep -A1 "failure() after a failure" "$tmp/dry" | grep -q "skipped (runs only after a failed step)" ||
  die "--dry-run does not show the failure() decision"
grep -A1 "never under pull_request" "$tmp/dry" | grep -q -- "-> skipped$" || die "--dry-run does not show the push-only decision"

# --leg over two matrix axes: a leg's name, one value, or values joined by ','; the job's
# timeout-minutes from the matrix.
legs_of() { # LEG: the legs of job 'legs' that --leg LEG picks, as "name:timeout" words
  replay --dry-run --leg "$1" legs 2>&1 | awk '/^== legs \[/ { sub(/^== legs \[/, ""); sub(/\].*/, ""); n = $0 }
    /^   timeout-minutes / { printf "%s%s:%s", sep, n, $2; sep = " " }
    END { print "" }' | tr -d ';'
}
for case in "b,7.10=b-7.10:6" "7.10=a-7.10:6 b-7.10:6" "b-6.12=b-6.12:4" "a=a-6.12:4 a-7.10:6" "7.10,a=a-7.10:6"; do
  got=$(legs_of "${case%%=*}")
  [[ $got == "${case#*=}" ]] || die "--leg ${case%%=*} picked '$got', not '${case#*=}' (leg:job timeout)"
done
rc=0; replay --dry-run --leg b,9.9 legs >"$tmp/bad" 2>&1 || rc=$?
if (( rc != 2 )) || ! grep -q "no leg 'b,9.9': its legs are a-6.12, a-7.10, b-6.12, b-7.10" "$tmp/bad"; then
  die "an unknown --leg did not give exit 2 and the list of legs: $(head -c 300 "$tmp/bad")"
fi

rc=0; replay no-such-job >"$tmp/bad" 2>&1 || rc=$?
if (( rc != 2 )) || ! grep -q "no job 'no-such-job'" "$tmp/bad" || ! grep -q "JOB=features" "$tmp/bad"; then
  die "an unknown job did not give exit 2 and the list of jobs: $(head -c 300 "$tmp/bad")"
fi
rc=0; replay --event workflow_dispatch features >"$tmp/bad" 2>&1 || rc=$?
if (( rc != 2 )) || ! grep -q "is not triggered by 'workflow_dispatch'" "$tmp/bad"; then
  die "a wrong EVENT did not give exit 2 and the workflow's triggers: $(head -c 300 "$tmp/bad")"
fi
rm -rf build/replay/features-* build/replay/timeouts build/replay/unknown-action build/replay/legs-*
echo "replay-selftest: $wf replayed as expected (${#expect[@]} verdict lines, summary, annotations, artifacts, dry-run, leg selection, bad input)"
