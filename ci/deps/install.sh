#!/usr/bin/env bash
# Install every Debian package the project needs, plus the arm64 busybox, the arm64
# sysbench and stress-ng (ci/deps/programs.sh), herd7 and sparse (ci/deps/herd.sh,
# ci/deps/sparse.sh: Debian sid's, unpacked under build/deps/sid) and the kernel source
# of every base that comes from sid (ci/bases.tsv, ci/deps/sid.sh).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/deps/install.sh [--ensure]   (--ensure: install only if something is missing)"
}

# What the pipeline cannot run without; --ensure checks these.
missing() {
	local c
	for c in gcc aarch64-linux-gnu-gcc qemu-system-x86_64 qemu-system-aarch64 \
		bc bison flex cpio ccache git perl busybox xz file; do
		command -v "$c" >/dev/null 2>&1 || { echo "$c"; return 0; }
	done
	local b
	for b in $TPF_BASES; do
		base_env "$b"
		[ -f "$BASE_TARBALL" ] || { echo "$BASE_TARBALL"; return 0; }
	done
	[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || { echo libc6-dev-arm64-cross; return 0; }
	[ -x "$TPF_BUILD/deps/arm64/bin/busybox" ] || { echo busybox-static:arm64; return 0; }
	[ -x "$TPF_BUILD/deps/programs-arm64/root/usr/bin/stress-ng" ] || { echo stress-ng:arm64; return 0; }
	local p
	for p in $(packages); do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			{ echo "$p"; return 0; }
	done
	return 0
}

# The packages of every ci/deps/packages*.txt.  A line "cmd:NAME PKG" asks for PKG
# only when no NAME command exists (e.g. npm, which a nodesource nodejs
# already ships and Debian's npm package conflicts with).
packages() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TPF_ROOT"/ci/deps/packages*.txt | sort -u |
		while read -r p q; do
			case "$p" in
			cmd:*) command -v "${p#cmd:}" >/dev/null 2>&1 || echo "$q" ;;
			*) echo "$p" ;;
			esac
		done | sort -u
}

install_all() {
	[ "$(id -u)" = 0 ] || die "installing packages needs root: rerun 'make deps' as root"
	local pkgs f
	pkgs=$(packages)
	dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
	info "apt-get update"
	apt-get update -qq || die "apt-get update failed: check the network and /etc/apt/sources.list"
	info "installing: $(echo "$pkgs" | tr '\n' ' ')"
	# shellcheck disable=SC2086  # word splitting of the package list is wanted
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $pkgs >/dev/null ||
		die "apt-get install failed: see the apt output above"

	# busybox-static is not co-installable for arm64, so unpack the .deb.
	local dl
	dl=$(mktemp -d)
	chmod 755 "$dl" # apt downloads as _apt
	chown _apt "$dl" 2>/dev/null || true
	(cd "$dl" && apt-get download -qq busybox-static:arm64) ||
		die "apt-get download busybox-static:arm64 failed: check 'dpkg --add-architecture arm64' and apt-get update"
	rm -rf "$TPF_BUILD/deps/arm64.tmp"
	mkdir -p "$TPF_BUILD/deps/arm64.tmp"
	for f in "$dl"/busybox-static_*_arm64.deb; do
		dpkg -x "$f" "$TPF_BUILD/deps/arm64.tmp"
	done
	rm -rf "$dl" "$TPF_BUILD/deps/arm64"
	mv "$TPF_BUILD/deps/arm64.tmp" "$TPF_BUILD/deps/arm64"
	[ -x "$TPF_BUILD/deps/arm64/bin/busybox" ] || die "the busybox-static arm64 .deb has no bin/busybox"

	# sysbench and stress-ng for arm64 guests (the host's serve x86_64 ones).
	"$TPF_ROOT/ci/deps/programs.sh"

	# herd7 for make check-litmus: Debian sid's, unpacked under build/deps/sid, not installed.
	"$TPF_ROOT/ci/deps/herd.sh"
	# sparse for make check-series (C=2): Debian sid's, unpacked, not installed.
	"$TPF_ROOT/ci/deps/sparse.sh"
	# man-pages 6.20 from sid: the tree the upstream man-pages series applies to
	# (ci/docs/man-upstream.sh, make man).
	"$TPF_ROOT/ci/deps/sid.sh" manpages manpages manpages-dev >/dev/null
	# The kernel bases that bookworm does not have (linux-source-7.2): sid's .deb, unpacked.
	# One subshell per base: base_env sets the BASE_* globals of the base it reads.
	local b
	for b in $TPF_BASES; do
		(
			base_env "$b"
			[ "$BASE_FROM" != sid ] || "$TPF_ROOT/ci/deps/sid.sh" "$BASE_PKG" "$BASE_PKG" >/dev/null
		) || exit 1
	done
}

case "${1:-}" in
"") install_all ;;
--ensure)
	m=$(missing)
	if [ -n "$m" ]; then
		info "missing $m: installing dependencies"
		install_all
	fi
	;;
-h | --help) usage ;;
*) usage >&2; exit 2 ;;
esac
