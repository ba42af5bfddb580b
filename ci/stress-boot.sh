#!/usr/bin/env bash
# Fallback guest runner for reliability work (the pipeline's `make run` is the normal
# way).  Boots KERNEL_IMAGE with an initramfs made of a static busybox and BINARY, runs
# "BINARY ARGS..." as the only job (with /proc, /sys, debugfs mounted) and exits with its
# status; 255 on panic, timeout or a kernel splat in the console log.
# usage: ci/stress-boot.sh ARCH KERNEL_IMAGE BINARY [ARGS...]
# env:   CPUS (4)  MEM (MiB, 1024)  TIMEOUT (s, 600)  LOG (console log file)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 3 ] || { echo "usage: $0 ARCH KERNEL_IMAGE BINARY [ARGS...]" >&2; exit 2; }
arch=$1 kernel=$2 bin=$3
shift 3
arch_env "$arch"
cpus=${CPUS:-4} mem=${MEM:-1024} tmo=${TIMEOUT:-600}
work=$(mktemp -d /tmp/tpf-stress-boot.XXXXXX)
trap 'rm -rf "$work"' EXIT
log=${LOG:-$work/console.log}

case $arch in
x86_64) bb=/usr/bin/busybox ;;
arm64) bb=$TPF_BUILD/deps/arm64/bin/busybox ;;
esac
[ -x "$bb" ] || die "no static busybox for $arch at $bb: run 'make deps'"
mkdir -p "$work/root/bin" "$work/root/proc" "$work/root/sys" "$work/root/dev" "$work/root/tmp"
cp "$bb" "$work/root/bin/busybox"
cp "$bin" "$work/root/bin/job"
printf '%s ' "$@" >"$work/root/args"
cat >"$work/root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
echo "TPF-STRESS-BEGIN"
/bin/job $(cat /args)
echo "TPF-STRESS-EXIT $?"
echo b >/proc/sysrq-trigger
sleep 5
poweroff -f
INIT
chmod +x "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$work/initramfs.gz"

case $arch in
x86_64)
	acc=(-machine pc -cpu max)
	# KVM is opt-in (KVM=1): nested KVM on the CI host hangs or aborts on MSR 0x10a
	[ -n "${KVM:-}" ] && acc=(-machine "pc,accel=kvm" -cpu host)
	cmd=(qemu-system-x86_64 "${acc[@]}" -smp "$cpus" -m "$mem" -kernel "$kernel"
		-initrd "$work/initramfs.gz" -nographic -no-reboot
		-append "console=ttyS0 panic=-1 oops=panic softlockup_panic=0 rdinit=/init")
	;;
arm64)
	cmd=(qemu-system-aarch64 -machine virt -cpu max -smp "$cpus" -m "$mem" -kernel "$kernel"
		-initrd "$work/initramfs.gz" -nographic -no-reboot
		-append "console=ttyAMA0 panic=-1 oops=panic rdinit=/init")
	;;
esac
set +e
timeout --foreground -k 10 "$tmo" "${cmd[@]}" </dev/null >"$log" 2>&1
qrc=$?
set -e
tr -d '\r' <"$log" | sed -n '/TPF-STRESS-BEGIN/,/TPF-STRESS-EXIT/p'
splat=$(tr -d '\r' <"$log" | grep -E 'BUG:|WARNING:|Kernel panic|possible circular locking|possible recursive locking|INFO: task .* blocked|soft lockup|self-detected stall|rcu: INFO|Call Trace:|KASAN|UBSAN|suspected memory leaks|inconsistent lock state' | head -n 20 || true)
rc=$(tr -d '\r' <"$log" | sed -n 's/^TPF-STRESS-EXIT \([0-9]*\)$/\1/p' | tail -n1)
if [ -n "$splat" ]; then
	echo "# kernel splat in the console log:" >&2
	while IFS= read -r l; do echo "#   $l"; done <<<"$splat" >&2
	[ -n "${LOG:-}" ] || tr -d '\r' <"$log" | tail -n 80 >&2
	exit 255
fi
if [ -z "$rc" ]; then
	echo "# no exit status from the guest (qemu rc=$qrc: timeout or panic)" >&2
	tr -d '\r' <"$log" | tail -n 40 >&2
	exit 255
fi
exit "$rc"
