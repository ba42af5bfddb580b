#!/usr/bin/env bash
# The arm64 builds of the real programs in ci/deps/packages-programs.txt (sysbench, stress-ng) and of
# every library they need, unpacked (dpkg -x, not installed) under build/deps/programs-arm64/.
# The x86_64 builds are the host's (make deps installs them).  Run by ci/deps/install.sh.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
-h | --help)
	echo "usage: ci/deps/programs.sh   (needs 'dpkg --add-architecture arm64' and apt-get update)"
	exit 0
	;;
esac

dest=$TPF_BUILD/deps/programs-arm64
mapfile -t progs < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TPF_ROOT/ci/deps/packages-programs.txt")
[ ${#progs[@]} -gt 0 ] || die "no programs in ci/deps/packages-programs.txt"
arm=("${progs[@]/%/:arm64}")

# The packages and their dependencies, recursively (Depends and Pre-Depends only).
mapfile -t pkgs < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances "${arm[@]}" 2>/dev/null | grep -v '^[ <]' | sort -u)
[ ${#pkgs[@]} -ge ${#progs[@]} ] ||
	die "apt-cache knows no ${arm[*]}: run 'dpkg --add-architecture arm64' and 'apt-get update'"

dl=$(mktemp -d)
trap 'rm -rf "$dl"' EXIT
chmod 755 "$dl" # apt downloads as _apt
chown _apt "$dl" 2>/dev/null || true
info "downloading ${#pkgs[@]} arm64 packages for ${progs[*]}"
(cd "$dl" && apt-get download -qq "${pkgs[@]}") >/dev/null ||
	die "apt-get download of the arm64 packages for ${progs[*]} failed: run 'apt-get update' and retry"
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp/root"
for f in "$dl"/*.deb; do
	dpkg -x "$f" "$dest.tmp/root"
done
for p in "${progs[@]}"; do
	[ -x "$dest.tmp/root/usr/bin/$p" ] || die "the arm64 $p package has no usr/bin/$p"
done
printf '%s\n' "${pkgs[@]}" >"$dest.tmp/packages.txt"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
info "arm64 ${progs[*]} ready in $dest/root"
