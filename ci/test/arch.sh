#!/usr/bin/env bash
# Build, boot and judge the test suite for one arch: kernel -> initramfs ->
# QEMU boot -> TAP -> verdict.  Results land in build/results/ARCH[-KCONFIG].
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/test/arch.sh ARCH [KCONFIG]   (env: CPUS MEM ACCEL TIMEOUT)"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 1 ] || { usage >&2; exit 2; }
arch=$1 variant=${2:-}
check_arch "$arch"
out=$(resultdir "$arch" "$variant")
rm -rf "$out"
mkdir -p "$out"

rc=0
"$TPF_ROOT/ci/vm/boot" --arch "$arch" ${variant:+--kconfig "$variant"} --cpus "${CPUS:-2}" \
	--mem "${MEM:-1024}" --accel "${ACCEL:-auto}" ${TIMEOUT:+--timeout "$TIMEOUT"} \
	--log "$out/serial.log" --test || rc=$?
cp "$(objdir "$arch" "$variant")/.config" "$out/kernel.config" 2>/dev/null || rc=1
"$TPF_ROOT/ci/vm/verdict.sh" "$arch" "$out/serial.log" "$out" "$variant" || rc=1
exit "$rc"
