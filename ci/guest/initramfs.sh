#!/usr/bin/env bash
# Pack a static initramfs for one arch with the kernel's usr/gen_init_cpio:
# busybox, ci/guest/init, the guest tests under /tpf and the files of TESTDIR/rootfs/
# (if any) at their own paths.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/guest/initramfs.sh ARCH OBJDIR TESTDIR OUT.cpio"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -eq 4 ] || { usage >&2; exit 2; }
arch=$1
obj=$(realpath -m "$2") tests=$(realpath -m "$3") out=$(realpath -m "$4")
arch_env "$arch"

busybox=$BUSYBOX
{ [ -n "$busybox" ] && [ -x "$busybox" ]; } || die "no static busybox for $arch: run 'make deps'"
file -L "$busybox" | grep -q 'statically linked' || die "$busybox is not static: run 'make deps'"

# applets: busybox's applets; a foreign-arch busybox cannot run here, so the ones the
# guest init, the tests and the hooks use.
applets() {
	if [ "$DEB_ARCH" = "$(dpkg --print-architecture)" ] && "$busybox" --list >/dev/null 2>&1; then
		"$busybox" --list
	else
		printf '%s\n' sh ash cat cut echo grep head tail sed awk tee sleep timeout mount umount \
			mkdir rm ls cp mv ln chmod dmesg reboot poweroff sync uname wc tr env kill ps \
			true false test expr printf date find xargs sort uniq nproc seq dd id
	fi
}

list=$out.list
{
	echo "dir /bin 755 0 0"
	echo "dir /sbin 755 0 0"
	for d in dev proc sys tmp root etc tpf; do echo "dir /$d 755 0 0"; done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "file /bin/busybox $busybox 755 0 0"
	for a in $(applets); do
		[ "$a" = busybox ] || echo "slink /bin/$a busybox 777 0 0"
	done
	echo "file /init $TPF_ROOT/ci/guest/init 755 0 0"
	echo "file /tpf/tests.list $tests/tests.list 644 0 0"
	for sub in selftests tests; do
		echo "dir /tpf/$sub 755 0 0"
		for f in "$tests/bin/$sub"/*; do
			[ -f "$f" ] && [ -x "$f" ] && echo "file /tpf/$sub/$(basename "$f") $f 755 0 0"
		done
	done
	if [ -d "$tests/rootfs" ]; then
		(cd "$tests/rootfs" && find . -mindepth 1 -type d | sort) |
			sed 's|^\.\(.*\)$|dir \1 755 0 0|'
		(cd "$tests/rootfs" && find . -type f | sort) | while read -r f; do
			echo "file ${f#.} $tests/rootfs/${f#./} $(stat -c %a "$tests/rootfs/$f") 0 0"
		done
	fi
} >"$list"
"$obj/usr/gen_init_cpio" "$list" >"$out.tmp" || die "gen_init_cpio failed on $list"
mv "$out.tmp" "$out"
