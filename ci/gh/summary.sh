#!/usr/bin/env bash
# shellcheck disable=SC2016  # `x` in single quotes is Markdown code, not a command substitution
# Append one arch's results table (the lead's ci/test/report.sh --markdown ARCH, the same report a
# local run prints; KCONFIG=debug: the debug kernel's results; TPF_BASE, make's BASE=: that base's,
# build/results/ARCH[-BASE][-KCONFIG], ci/lib.sh resultdir) to the GitHub job summary
# ($GITHUB_STEP_SUMMARY), followed by the QEMU accelerator that ran the guest and why (kvm, or
# tcg: no /dev/kvm in the container, a guest of another arch, or the KVM probe failed) and, with
# ARTIFACT=name, where the logs are; locally, print it.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ci/gh/summary.sh ARCH   (env: TPF_BASE, KCONFIG, ARTIFACT)"; }

case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  *) check_arch "${1:-}" ;;
esac
(( $# == 1 )) || die "too many arguments: give exactly one ARCH"
arch=$1
top=$TPF_ROOT
report=$top/ci/test/report.sh
[[ -x $report ]] || die "ci/test/report.sh is missing or not executable: restore it from git"
# make's arguments that name this base and variant, for the hints (BASE= only for another base).
again="ARCH=$arch${BASE_SUFFIX:+ BASE=$BASE}${KCONFIG:+ KCONFIG=$KCONFIG}"

out=$(mktemp); trap 'rm -f "$out"' EXIT
# report.sh exits non-zero when tests failed; the table is still wanted then (the test step
# has already failed the job), so only an empty report is an error here.
rc=0; "$report" --markdown "$arch" >"$out" || rc=$?
[[ -s $out ]] || die "ci/test/report.sh --markdown $arch printed nothing (exit $rc): run 'make test $again' first"

# Which accelerator ran: summary.env's accel= (ci/vm/verdict.sh reads it from the QEMU command line).
res=$(resultdir "$arch" "${KCONFIG:-}")
accel=$(sed -n 's/^accel=//p' "$res/summary.env" 2>/dev/null || true)
host=$(uname -m); [[ $host == aarch64 ]] && host=arm64
probe=$(cat "$TPF_BUILD"/obj/"$(buildname "$arch" "${KCONFIG:-}")"-*/kvm-probe.result 2>/dev/null | head -n1 || true)
if [[ -z $accel ]]; then
  why="no guest ran"
elif [[ $accel == kvm ]]; then
  why="the KVM probe booted the guest"
elif [[ $host != "$arch" ]]; then
  why="an $arch guest on an $host host is emulated"
elif [[ ! -w /dev/kvm ]]; then
  why="no usable /dev/kvm here (a container needs --device /dev/kvm)"
elif [[ $probe == no ]]; then
  why="/dev/kvm is there but the KVM probe did not boot the guest: see build/logs/kvm-probe-$arch.log"
else
  why="ACCEL=${ACCEL:-auto}"
fi
printf 'QEMU accelerator (%s, base %s): **%s**: %s\n\n' "$arch${KCONFIG:+ $KCONFIG}" "$BASE" "${accel:-none}" "$why" >>"$out"
if [[ -n ${ARTIFACT:-} && -n ${GITHUB_RUN_ID:-} ]]; then
  printf 'logs: artifact `%s` on the [run page](%s/%s/actions/runs/%s#artifacts)\n\n' \
    "$ARTIFACT" "${GITHUB_SERVER_URL:-https://github.com}" "${GITHUB_REPOSITORY:-}" "$GITHUB_RUN_ID" >>"$out"
fi
if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  cat "$out" >>"$GITHUB_STEP_SUMMARY"
  echo "gh-summary: $arch (base $BASE) results table from ${res#"$top"/}/ appended to the job summary (report.sh exit $rc)"
else
  cat "$out"
fi
