#!/usr/bin/env bash
# Fetch herd7 (the Linux kernel memory model's checker, for make check-litmus) without
# touching the host.  Debian bookworm has no herdtools7; sid has it, built against a newer
# glibc.  So sid's herdtools7, libc6 and libgmp10 are downloaded through a separate apt
# configuration (own sources list, lists and cache under build/deps/sid) and unpacked
# with dpkg -x into build/deps/sid/root: nothing is installed, the host's libc is never
# replaced.  ci/series/herd7.sh runs the binary through sid's own loader.
#
#   ci/deps/herd.sh          fetch and unpack, or skip if the same versions are unpacked
#
# Env: TPF_SID_MIRROR (default: the host's Debian mirror, else deb.debian.org).
# Idempotent: an unpacked root records its package versions in .tpf-versions; when sid
# still has those, nothing is downloaded.  If sid cannot be reached but a working herd7
# is unpacked, that one is kept.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
"") ;;
-h | --help)
	sed -n 's/^#   //p' "$0"
	exit 0
	;;
*)
	echo "usage: ci/deps/herd.sh" >&2
	exit 2
	;;
esac

need_cmd apt-get
need_cmd dpkg

sid=$TPF_BUILD/deps/sid
root=$sid/root
pkgs=(herdtools7 libc6 libgmp10)
arch=$(dpkg --print-architecture)

# The host's Debian mirror (deb822 URIs: or a one-line deb entry ending in /debian).
mirror() {
	if [ -n "${TPF_SID_MIRROR:-}" ]; then
		echo "$TPF_SID_MIRROR"
		return 0
	fi
	local m
	m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		sed -n -e 's|^URIs:[[:space:]]*\([^[:space:]]*/debian\)/\{0,1\}$|\1|p' \
			-e 's|^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*/debian\)/\{0,1\}[[:space:]].*|\2|p' |
		head -n1) || true
	echo "${m:-http://deb.debian.org/debian}"
}

# herd7_works DIR: the unpacked herd7 in DIR runs through its own loader.
herd7_works() {
	TPF_HERD_ROOT=$1 "$TPF_ROOT/ci/series/herd7.sh" -version >/dev/null 2>&1
}

mkdir -p "$sid/lists/partial" "$sid/cache/archives/partial"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(mirror) sid main" \
	>"$sid/sources.list"
# Only sid's lists and cache, never the host's; no status file, so apt picks sid's
# newest versions whatever the host has installed.
apt=(apt-get -q -o "Dir::Etc::sourcelist=$sid/sources.list" -o Dir::Etc::sourceparts=-
	-o "Dir::State::Lists=$sid/lists" -o "Dir::Cache=$sid/cache" -o Dir::State::status=/dev/null
	-o "APT::Architecture=$arch" -o "APT::Architectures=$arch" -o Acquire::Languages=none)
aptc=(apt-cache -o "Dir::Etc::sourcelist=$sid/sources.list" -o Dir::Etc::sourceparts=-
	-o "Dir::State::Lists=$sid/lists" -o "Dir::Cache=$sid/cache" -o Dir::State::status=/dev/null
	-o "APT::Architecture=$arch" -o "APT::Architectures=$arch")

info "apt-get update (Debian sid, own lists in $sid)"
if ! "${apt[@]}" update >"$sid/update.log" 2>&1 || grep -q '^\(E\|Err\):' "$sid/update.log"; then
	if herd7_works "$root"; then
		info "cannot reach Debian sid (see $sid/update.log): keeping the unpacked $(cat "$root/.tpf-versions")"
		exit 0
	fi
	die "apt-get update of Debian sid failed (see $sid/update.log): check the network and the archive keyring (apt-get install debian-archive-keyring), or set TPF_SID_MIRROR to a Debian mirror"
fi

want=
for p in "${pkgs[@]}"; do
	v=$("${aptc[@]}" show --no-all-versions "$p" 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
	[ -n "$v" ] || die "Debian sid has no package $p for $arch: herd7 comes from sid's herdtools7 (amd64 and arm64 hosts); see $sid/update.log"
	want="$want$p=$v "
done
want=${want% }

if [ -f "$root/.tpf-versions" ] && [ "$(cat "$root/.tpf-versions")" = "$want" ] && herd7_works "$root"; then
	info "herd7 already unpacked: $want"
	exit 0
fi

info "downloading $want"
dl=$(mktemp -d)
trap 'rm -rf "$dl" "$root.tmp"' EXIT
chmod 755 "$dl"
chown _apt "$dl" 2>/dev/null || true # apt downloads as _apt when run as root
(cd "$dl" && "${apt[@]}" download "${pkgs[@]}" >"$sid/download.log" 2>&1) ||
	die "apt-get download ${pkgs[*]} from Debian sid failed (see $sid/download.log): check the network and rerun 'make deps'"

rm -rf "$root.tmp"
mkdir -p "$root.tmp"
for f in "$dl"/*.deb; do
	dpkg -x "$f" "$root.tmp"
done
# herdtools7 ships ~50 tools (250 MB); make check-litmus needs herd7 and its model files.
find "$root.tmp/usr/bin" -mindepth 1 ! -name herd7 -delete
rm -rf "$root.tmp/usr/share/herdtools7/litmus" "$root.tmp/usr/share/locale" "$root.tmp"/usr/lib/*/gconv
echo "$want" >"$root.tmp/.tpf-versions"
herd7_works "$root.tmp" ||
	die "the unpacked herd7 does not run through sid's loader (try: TPF_HERD_ROOT=$root.tmp ci/series/herd7.sh -version): sid's libc may need a newer kernel or CPU than this host has"
rm -rf "$root"
mv "$root.tmp" "$root"
info "herd7 ready: $(TPF_HERD_ROOT=$root "$TPF_ROOT/ci/series/herd7.sh" -version) ($want)"
