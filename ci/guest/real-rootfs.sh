#!/usr/bin/env bash
# Put the real programs of ci/deps/packages-programs.txt (sysbench, stress-ng) for one arch, with
# every shared library they need, into OUT/bin and OUT/lib, for the guest's /tpf/real
# (ci/vm/boot --extra real=OUT; run them with LD_LIBRARY_PATH=/tpf/real/lib).  The x86_64 programs
# are the host's, the arm64 ones those of ci/deps/programs.sh.  glibc's own libraries are
# taken from the compiler's sysroot first, so that they match the dynamic linker and libc.so.6
# that lib/'s "make install RUNTIME=1" puts into every guest.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
-h | --help)
	echo "usage: ci/guest/real-rootfs.sh ARCH OUTDIR"
	exit 0
	;;
esac
[ $# -eq 2 ] || die "usage: ci/guest/real-rootfs.sh ARCH OUTDIR"
arch=$1 out=$2
arch_env "$arch"
need_cmd readelf

# The host's own programs for the host's arch, else the Debian packages that
# ci/deps/programs.sh unpacked.
root=
triple=$TRIPLE
if [ "$DEB_ARCH" != "$(dpkg --print-architecture)" ]; then
	root=$TPF_BUILD/deps/programs-$arch/root
	[ -d "$root" ] || die "no $arch sysbench/stress-ng in $root: run 'make deps'"
fi
sysroot=$(dirname "$(realpath "$("$GCC" -print-file-name=libc.so.6)")")
dirs=("$sysroot" "$root/lib/$triple" "$root/usr/lib/$triple" "$root/lib" "$root/usr/lib")

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
mapfile -t progs < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TPF_ROOT/ci/deps/packages-programs.txt")
queue=()
for p in "${progs[@]}"; do
	f=$root/usr/bin/$p
	[ -x "$f" ] || die "no $f: run 'make deps'"
	cp -L "$f" "$out/bin/$p"
	queue+=("$out/bin/$p")
done

# Breadth-first over DT_NEEDED; the dynamic linker itself is lib/'s.
while [ ${#queue[@]} -gt 0 ]; do
	elf=${queue[0]}
	queue=("${queue[@]:1}")
	for so in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		case "$so" in ld-linux*) continue ;; esac
		[ -e "$out/lib/$so" ] && continue
		found=
		for d in "${dirs[@]}"; do
			if [ -e "$d/$so" ]; then
				found=$d/$so
				break
			fi
		done
		[ -n "$found" ] || die "$(basename "$elf") needs $so, found in none of ${dirs[*]}: run 'make deps'"
		cp -L "$found" "$out/lib/$so"
		queue+=("$out/lib/$so")
	done
done
info "$arch: ${progs[*]} and $(find "$out/lib" -type f | wc -l) libraries ($(du -sh "$out" | cut -f1)) in $out"
