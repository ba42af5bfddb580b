#!/usr/bin/env bash
# Fetch Debian sid (unstable) binary packages without touching the host: a separate apt
# configuration (own sources list, lists and cache under build/deps/sid) downloads them,
# dpkg -x unpacks them into build/deps/sid/NAME; nothing is installed.  herd7
# (ci/deps/herd.sh), the 7.2 kernel base (ci/bases.tsv) and the man-pages 6.20 tree come
# this way.  Prints the unpacked root.
#
#   ci/deps/sid.sh NAME PKG...   fetch PKG... into build/deps/sid/NAME (skip if unpacked)
#
# Env: TPF_SID_MIRROR (default: the host's Debian mirror, else deb.debian.org).
# Idempotent: the root records its package versions in .tpf-versions; when sid still has
# those, nothing is downloaded.  If sid cannot be reached, an unpacked root is kept.  If
# sid no longer has a package (linux-source-7.2 once sid moves to 7.3), it fails with one
# line naming the versions sid has now.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
-h | --help | "")
	sed -n 's/^#   //p' "$0"
	[ -n "${1:-}" ] || exit 2
	exit 0
	;;
esac
[ $# -ge 2 ] || die "usage: ci/deps/sid.sh NAME PKG..."
name=$1
shift
pkgs=("$@")

need_cmd apt-get
need_cmd dpkg

sid=$TPF_BUILD/deps/sid
root=$sid/$name
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

mkdir -p "$sid/lists/partial" "$sid/cache/archives/partial"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(mirror) sid main" \
	>"$sid/sources.list"
# Only sid's lists and cache, never the host's; no status file, so apt picks sid's
# newest versions whatever the host has installed.
opts=(-o "Dir::Etc::sourcelist=$sid/sources.list" -o Dir::Etc::sourceparts=-
	-o "Dir::State::Lists=$sid/lists" -o "Dir::Cache=$sid/cache" -o Dir::State::status=/dev/null
	-o "APT::Architecture=$arch" -o "APT::Architectures=$arch")
apt=(apt-get -q "${opts[@]}" -o Acquire::Languages=none)
aptc=(apt-cache "${opts[@]}")

# One apt-get update per make deps: the lists are fresh for an hour.
stamp=$sid/lists/.tpf-updated
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
	info "apt-get update (Debian sid, own lists in $sid)"
	if ! (exec 7>"$sid/.update.lock" && flock 7 && "${apt[@]}" update >"$sid/update.log" 2>&1) ||
		grep -q '^\(E\|Err\):' "$sid/update.log"; then
		if [ -f "$root/.tpf-versions" ]; then
			info "cannot reach Debian sid (see $sid/update.log): keeping the unpacked $(cat "$root/.tpf-versions")"
			echo "$root"
			exit 0
		fi
		die "apt-get update of Debian sid failed (see $sid/update.log): check the network and the archive keyring (apt-get install debian-archive-keyring), or set TPF_SID_MIRROR to a Debian mirror"
	fi
	touch "$stamp"
fi

want=
for p in "${pkgs[@]}"; do
	v=$("${aptc[@]}" show --no-all-versions "$p" 2>/dev/null | sed -n 's/^Version: //p' | head -n1) || true
	if [ -z "$v" ]; then
		# What sid has under the same name stem (linux-source-7.2 -> linux-source-*).
		stem=${p%-*}
		now=$("${aptc[@]}" search --names-only "^${stem}-[0-9]" 2>/dev/null | cut -d' ' -f1 | sort -V |
			while read -r q; do
				printf '%s %s, ' "$q" "$("${aptc[@]}" show --no-all-versions "$q" 2>/dev/null | sed -n 's/^Version: //p' | head -n1)"
			done) || true
		die "Debian sid no longer has $p for $arch${now:+ (it has ${now%, })}: rebase onto what it has, see docs/series-design.md (the 7.2 series)"
	fi
	want="$want$p=$v "
done
want=${want% }

if [ -f "$root/.tpf-versions" ] && [ "$(cat "$root/.tpf-versions")" = "$want" ]; then
	info "already unpacked: $want"
	echo "$root"
	exit 0
fi

info "downloading $want"
dl=$(mktemp -d)
trap 'rm -rf "$dl" "$root.tmp"' EXIT
chmod 755 "$dl"
chown _apt "$dl" 2>/dev/null || true # apt downloads as _apt when run as root
(cd "$dl" && "${apt[@]}" download "${pkgs[@]}" >"$sid/download-$name.log" 2>&1) ||
	die "apt-get download ${pkgs[*]} from Debian sid failed (see $sid/download-$name.log): check the network and rerun 'make deps'"

rm -rf "$root.tmp"
mkdir -p "$root.tmp"
for f in "$dl"/*.deb; do
	dpkg -x "$f" "$root.tmp"
done
echo "$want" >"$root.tmp/.tpf-versions"
rm -rf "$root"
mv "$root.tmp" "$root"
info "unpacked $want into $root"
echo "$root"
