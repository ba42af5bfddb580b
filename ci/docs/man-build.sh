#!/usr/bin/env bash
# Build the man pages: futex.2 from Debian's manpages-dev 6.03 with the series in
# man-pages/patches (and then man-pages/fixups-6.03) applied, plus the
# man-pages/man2const pages, into OUTDIR
# (a MANPATH tree: OUTDIR/man2/futex.2, OUTDIR/man2const/FUTEX_LOCK.2const, ...).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ${0##*/} [OUTDIR]   (default: build/man)"; }

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -le 1 ] || { usage >&2; exit 2; }

root=$TPF_ROOT
out=${1:-$root/build/man}
src=${FUTEX2_GZ:-/usr/share/man/man2/futex.2.gz}

need_cmd zcat gzip
need_cmd patch patch
[ -r "$src" ] || die "$src not found; fix: apt-get install manpages-dev (Debian 12 ships 6.03)"

rm -rf "$out/src" "$out/man2" "$out/man2const"
mkdir -p "$out/src/man2" "$out/man2" "$out/man2const"

zcat "$src" >"$out/src/man2/futex.2"
grep -q '^\.TH futex 2 .*"Linux man-pages 6\.03"' "$out/src/man2/futex.2" ||
	die "$src is not futex.2 from man-pages 6.03 (found: $(grep -m1 '^\.TH' "$out/src/man2/futex.2")); fix: install Debian 12's manpages-dev 6.03, the series targets it"

n=0
for p in "$root"/man-pages/patches/[0-9]*.patch; do
	[ -e "$p" ] || die "no patches in man-pages/patches; fix: restore them from git"
	case $p in *cover-letter*) continue ;; esac
	patch -p1 -s --fuzz=0 --no-backup-if-mismatch -d "$out/src" <"$p" ||
		die "${p##*/} does not apply to futex.2 6.03; fix: rebase the series (see man-pages/README.md)"
	n=$((n + 1))
done
# Build-only fixups of the Debian 12 page itself, after the series (which must apply to
# the page as Debian ships it): man-pages/fixups-6.03 gives the SEE ALSO links a link
# text, as upstream has had since, so that the unmodified part of the page lints clean
# too.  They are not part of the series.
nf=0
for p in "$root"/man-pages/fixups-6.03/*.patch; do
	[ -e "$p" ] || continue
	patch -p1 -s --fuzz=0 --no-backup-if-mismatch -d "$out/src" <"$p" ||
		die "fixup ${p##*/} does not apply after the series; fix: refresh it against futex.2 with the series applied (see man-pages/README.md)"
	nf=$((nf + 1))
done
cp "$out/src/man2/futex.2" "$out/man2/futex.2"

# Upstream pages carry a "(date)" placeholder in .TH that the man-pages release
# process fills in; use the date of the page's last commit (today if not in git).
for page in "$root"/man-pages/man2const/*.2const; do
	d=$(git -C "$root" log -1 --format=%cs -- "man-pages/man2const/${page##*/}" 2>/dev/null || true)
	[ -n "$d" ] || d=$(date -u +%F)
	sed "1,/^\.TH /s/^\(\.TH [^ ]* [^ ]*\) (date) /\1 $d /" "$page" >"$out/man2const/${page##*/}"
done

echo "man-build: futex.2 + $n patches + $nf fixup(s), $(find "$out/man2const" -name '*.2const' | wc -l) 2const pages -> $out"
