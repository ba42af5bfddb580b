#!/usr/bin/env bash
# Append one arch's results table (the lead's ci/report.sh --markdown ARCH, the same report a
# local run prints) to the GitHub job summary ($GITHUB_STEP_SUMMARY); locally, print it.
set -euo pipefail

usage() { echo "usage: ci/gh-summary.sh ARCH"; }
die() { echo "gh-summary: $*" >&2; exit 1; }

case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  x86_64|arm64) ;;
  "") die "no ARCH given: use ARCH=x86_64 or ARCH=arm64" ;;
  *) die "unknown ARCH '$1': use ARCH=x86_64 or ARCH=arm64" ;;
esac
(( $# == 1 )) || die "too many arguments: give exactly one ARCH"
arch=$1
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
report=$top/ci/report.sh
[[ -x $report ]] || die "ci/report.sh is missing or not executable: restore it from git"

out=$(mktemp); trap 'rm -f "$out"' EXIT
# report.sh exits non-zero when tests failed; the table is still wanted then (the test step
# has already failed the job), so only an empty report is an error here.
rc=0; "$report" --markdown "$arch" >"$out" || rc=$?
[[ -s $out ]] || die "ci/report.sh --markdown $arch printed nothing (exit $rc): run 'make test ARCH=$arch' first"
if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  cat "$out" >>"$GITHUB_STEP_SUMMARY"
  echo "gh-summary: $arch results table appended to the job summary (report.sh exit $rc)"
else
  cat "$out"
fi
