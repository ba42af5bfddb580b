#!/usr/bin/env bash
# Build the guest userspace for one arch: static tests plus the initramfs
# (build/guest/ARCH-VARIANT/initramfs.cpio).  Needs the kernel built first.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/guest/build.sh ARCH [KCONFIG]"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 1 ] || { usage >&2; exit 2; }
arch=$1 variant=${2:-}
check_arch "$arch"
obj=$(objdir "$arch" "$variant")
[ -x "$obj/usr/gen_init_cpio" ] || die "no $arch kernel for this series: run 'make kernel ARCH=$arch'"
gdir=$TPF_BUILD/guest/$(buildname "$arch" "$variant")
# Two runs in one checkout (make test beside make bench) share gdir: the
# second waits instead of deleting the first one's half-built binaries.
mkdir -p "$TPF_BUILD/guest"
exec 9>"$gdir.lock"
flock -n 9 || { info "waiting for $gdir: another run is building it"; flock 9; }
"$TPF_ROOT/ci/guest/tests.sh" "$arch" "$SRC_TREE" "$obj" "$gdir"
"$TPF_ROOT/ci/guest/initramfs.sh" "$arch" "$obj" "$gdir" "$gdir/initramfs.cpio"
echo "$gdir/initramfs.cpio"
