#!/usr/bin/env bash
# make check-vm: ci/vm/boot's own verdicts, on a real boot of each arch's kernel.  Boots the three
# hooks of tests/hooks/ and checks the status ci/vm/boot gives: exit3.sh must give 3 (the guest
# program's status reaches the host), panic.sh 255 (a panic fails the run, well before the
# timeout) and warn.sh 255 (a kernel splat fails a program that exits 0).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
-h | --help)
	echo "usage: ci/vm/check-vm.sh ARCH"
	exit 0
	;;
esac
[ $# -eq 1 ] || die "give one ARCH (x86_64 or arm64): ci/vm/check-vm.sh ARCH"
arch=$1
arch_env "$arch"

rc=0
build=()
for hook in exit3:3 panic:255 warn:255; do
	name=${hook%%:*} want=${hook#*:}
	got=0
	start=$SECONDS
	"$TPF_ROOT/ci/vm/boot" "${build[@]}" --arch "$arch" --timeout 120 --log "$TPF_BUILD/logs/check-vm-$arch-$name.log" \
		--cmd "$TPF_ROOT/tests/hooks/$name.sh" >/dev/null 2>&1 || got=$?
	if [ "$got" = "$want" ]; then
		echo "check-vm $arch: ok    tests/hooks/$name.sh gave $got ($((SECONDS - start)) s)"
	else
		echo "check-vm $arch: FAIL  tests/hooks/$name.sh gave $got, want $want (log: build/logs/check-vm-$arch-$name.log)" >&2
		rc=1
	fi
	build=(--no-build) # the first boot built the kernel and the initramfs
done
exit $rc
