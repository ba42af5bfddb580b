#!/usr/bin/env bash
# Stand-alone guest runner for benchmark development (the pipeline's `make run` is the
# normal way; ci/bench.sh uses this one only when BENCH_KERNEL= names a kernel image).
# Boots KERNEL with an initramfs of static busybox + PERF (as /usr/bin/perf) + CMD, runs
# CMD, prints the console and exits with CMD's status; 255 on timeout or panic.
# usage: ci/bench-boot.sh ARCH KERNEL CMD PERF
# env:   CPUS (2)  MEM (MiB, 512)  TIMEOUT (s, 1200)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 4 ] || { echo "usage: $0 ARCH KERNEL CMD PERF" >&2; exit 2; }
arch=$1 kernel=$2 cmd=$3 perf=$4
arch_env "$arch"
cpus=${CPUS:-2} mem=${MEM:-512} tmo=${TIMEOUT:-1200}
[ -f "$kernel" ] || die "no kernel image $kernel"
need_cmd "$QEMU"
need_cmd cpio
case $arch in
x86_64) bb=$(command -v busybox || true) ;;
arm64) bb=$TPF_BUILD/deps/arm64/bin/busybox ;;
esac
if [ -z "$bb" ] || [ ! -x "$bb" ]; then
	die "no static busybox for $arch: run 'make deps'"
fi

work=$(mktemp -d /tmp/tpf-bench-boot.XXXXXX)
trap 'rm -rf "$work"' EXIT
r=$work/root
mkdir -p "$r/bin" "$r/proc" "$r/sys" "$r/dev" "$r/tmp" "$r/usr/bin"
cp "$bb" "$r/bin/busybox"
cp "$cmd" "$r/bin/job"
cp "$perf" "$r/usr/bin/perf"
chmod 755 "$r/bin/job" "$r/usr/bin/perf"
cat >"$r/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp 2>/dev/null
echo "TPF-BENCH-BEGIN"
/bin/job
echo "TPF-BENCH-EXIT $?"
echo b >/proc/sysrq-trigger 2>/dev/null
reboot -f
INIT
chmod 755 "$r/init"
(cd "$r" && find . | cpio -o -H newc --quiet) | gzip -1 >"$work/initramfs.gz"

# -smp N alone gives the x86 guest (no ACPI, MP table) a single CPU: ask for N sockets.
case $arch in
x86_64)
	q=(qemu-system-x86_64 -machine pc -cpu max -smp "$cpus,sockets=$cpus,cores=1,threads=1"
		-append "console=ttyS0 panic=-1 oops=panic rdinit=/init quiet") ;;
arm64)
	q=(qemu-system-aarch64 -machine virt -cpu max -smp "$cpus"
		-append "console=ttyAMA0 panic=-1 oops=panic rdinit=/init quiet") ;;
esac
echo "bench-boot: accel=tcg smp=$cpus kernel=$kernel"
set +e
timeout --foreground -k 10 "$tmo" "${q[@]}" -m "$mem" -kernel "$kernel" \
	-initrd "$work/initramfs.gz" -nographic -no-reboot </dev/null 2>&1 | tr -d '\r' |
	tee "$work/console.log"
set -e
rc=$(sed -n 's/^TPF-BENCH-EXIT \([0-9]*\)$/\1/p' "$work/console.log" | tail -n1)
if [ -z "$rc" ]; then
	echo "bench-boot: no exit status from the guest (timeout or panic)" >&2
	exit 255
fi
exit "$rc"
