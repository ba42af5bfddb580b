#!/usr/bin/env bash
# Does this kernel boot under KVM here?  Boots it once with tpf.mode=probe
# and a short timeout; caches the answer next to the kernel.  Exit 0 = yes.
# (On these hosts /dev/kvm exists but an x86_64 guest hangs, so the answer
# is usually no and the pipeline stays on TCG.)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/vm/kvm-probe.sh ARCH OBJDIR INITRAMFS"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -eq 3 ] || { usage >&2; exit 2; }
arch=$1 obj=$2 initrd=$3
arch_env "$arch"

host=$(uname -m)
[ "$host" = aarch64 ] && host=arm64
[ "$host" = "$arch" ] || exit 1
[ -r /dev/kvm ] && [ -w /dev/kvm ] || exit 1
cache=$obj/kvm-probe.result
if [ -f "$cache" ]; then
	[ "$(cat "$cache")" = yes ] && exit 0
	exit 1
fi
log=$TPF_BUILD/logs/kvm-probe-$arch.log
mkdir -p "$(dirname "$log")"
m=pc
[ "$arch" = arm64 ] && m=virt,gic-version=3
# In a subshell (the trailing exit keeps bash from exec'ing QEMU in it) whose stderr goes to
# the log: QEMU may abort under a broken KVM, and bash's "Aborted" notice belongs in the log.
if (timeout -s KILL 30 "$QEMU" -M "$m" -accel kvm -cpu host -smp 2 -m 512 -nodefaults \
	-display none -no-reboot -serial stdio -monitor none -kernel "$obj/$IMAGE" -initrd "$initrd" \
	-append "console=$CONSOLE panic=-1 tpf.mode=probe" </dev/null >"$log" 2>&1; exit $?) 2>>"$log" &&
	grep -q '^TPF-END-OF-RUN mode=probe' "$log"; then
	echo yes >"$cache"
	info "KVM probe: the $arch guest boots under KVM; using it"
	exit 0
fi
echo no >"$cache"
info "KVM probe: the $arch guest did not boot under KVM (QEMU failed, or no end marker within 30 s); using TCG (log: $log)"
exit 1
