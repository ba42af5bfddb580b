#!/usr/bin/env bash
# List the applets of a busybox binary (it may be for a foreign arch, so
# run it through qemu-user when available, else use a fixed basic set).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/guest/busybox-applets.sh ARCH BUSYBOX"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -eq 2 ] || { usage >&2; exit 2; }
if [ "$1" = x86_64 ] && "$2" --list >/dev/null 2>&1; then
	"$2" --list
else
	# The applets the guest init, the tests and the hooks use.
	printf '%s\n' sh ash cat cut echo grep head tail sed awk tee sleep timeout mount umount \
		mkdir rm ls cp mv ln chmod dmesg reboot poweroff sync uname wc tr env kill ps \
		true false test expr printf date find xargs sort uniq nproc seq dd id
fi
