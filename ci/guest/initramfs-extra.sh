#!/usr/bin/env bash
# Pack host dirs into an extra cpio archive that is appended to the base
# initramfs (the kernel unpacks concatenated archives in order).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/guest/initramfs-extra.sh OBJDIR OUT.cpio (NAME=HOSTDIR | /GUEST/PATH=HOSTFILE)..."
	echo "       HOSTDIR lands at /tpf/NAME; HOSTFILE at /GUEST/PATH (its dirs are created)"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 3 ] || { usage >&2; exit 2; }
obj=$1 out=$2
shift 2
list=$out.list
: >"$list"
for extra in "$@"; do
	name=${extra%%=*} dir=${extra#*=}
	if [ "${name#/}" != "$name" ]; then
		[ -f "$dir" ] || die "file $dir for $name does not exist"
		d=$(dirname "$name") parts=""
		while [ "$d" != / ]; do parts="$d $parts" d=$(dirname "$d"); done
		for d in $parts; do echo "dir $d 755 0 0"; done >>"$list"
		echo "file $name $(realpath "$dir") 755 0 0" >>"$list"
		continue
	fi
	[ -d "$dir" ] || die "extra initramfs dir $dir does not exist"
	{
		echo "dir /tpf/$name 755 0 0"
		(cd "$dir" && find . -mindepth 1 -type d | sort) | sed "s|^\./\(.*\)|dir /tpf/$name/\1 755 0 0|"
		(cd "$dir" && find . -type f | sort) | while read -r f; do
			echo "file /tpf/$name/${f#./} $dir/${f#./} 755 0 0"
		done
	} >>"$list"
done
"$obj/usr/gen_init_cpio" "$list" >"$out" || die "gen_init_cpio failed on $list"
