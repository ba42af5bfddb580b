#!/usr/bin/env bash
# Shared helpers for the ci/ scripts.  Source it; it does nothing on its own.
# shellcheck disable=SC2034  # variables are used by the scripts that source us

TPF_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TPF_BUILD=${TPF_BUILD:-$TPF_ROOT/build}
TPF_ARCHES=$(awk '!/^#/ && NF { printf "%s%s", sep, $1; sep = " " }' "$TPF_ROOT/ci/arches.tsv")
TPF_BASES=$(awk '!/^#/ && NF { printf "%s%s", sep, $1; sep = " " }' "$TPF_ROOT/ci/bases.tsv")
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$TPF_ROOT
export KBUILD_BUILD_USER=tpf KBUILD_BUILD_HOST=ci
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"

# die MESSAGE: one line on stderr naming the problem and the fix, then exit 1.
die() {
	printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
	exit 1
}

info() {
	printf '%s: %s\n' "$(basename "$0")" "$*" >&2
}

# check_arch ARCH: reject anything that is not a row of ci/arches.tsv.
check_arch() {
	local use="use ARCH=${TPF_ARCHES// / or ARCH=}"
	[ -n "${1:-}" ] || die "no ARCH given: $use"
	case " $TPF_ARCHES " in *" $1 "*) ;; *) die "unknown ARCH '$1': $use" ;; esac
}

# arch_env ARCH: every per-arch fact, from ARCH's row of ci/arches.tsv: KARCH CROSS GCC
# IMAGE QEMU MACHINE QEMU_CPU CONSOLE BUSYBOX ARCH_APPEND PERF_ARCH FILE_MAGIC TRIPLE DEB_ARCH.
arch_env() {
	local row
	check_arch "$1"
	row=$(awk -v a="$1" '!/^#/ && $1 == a' "$TPF_ROOT/ci/arches.tsv")
	read -r _ KARCH CROSS IMAGE QEMU MACHINE QEMU_CPU CONSOLE BUSYBOX ARCH_APPEND PERF_ARCH \
		FILE_MAGIC TRIPLE DEB_ARCH <<<"$row"
	[ -n "$DEB_ARCH" ] || die "ci/arches.tsv: the row of $1 does not have 14 columns"
	[ "$CROSS" != - ] || CROSS=""
	[ "$ARCH_APPEND" != - ] || ARCH_APPEND=""
	GCC=${CROSS}gcc
	case "$BUSYBOX" in
	host) BUSYBOX=$(command -v busybox || true) ;;
	*) BUSYBOX=$TPF_BUILD/$BUSYBOX ;;
	esac
}

# base_env BASE: the facts of BASE's row of ci/bases.tsv: BASE_PKG BASE_FROM
# BASE_PATCHES (absolute) BASE_TEST BASE_SUBMIT, the tarball (TPF_TARBALL unless set in
# the environment) and BASE_SUFFIX, which keeps the build dirs of a base apart: empty for
# the first row (the default base), "-BASE" for the others.
base_env() {
	local row first p
	case " $TPF_BASES " in
	*" ${1:-} "*) ;;
	*) die "unknown BASE '${1:-}': use BASE=${TPF_BASES// / or BASE=} (the rows of ci/bases.tsv)" ;;
	esac
	row=$(awk -v b="$1" '!/^#/ && $1 == b' "$TPF_ROOT/ci/bases.tsv")
	read -r BASE BASE_PKG BASE_FROM p BASE_TEST BASE_SUBMIT <<<"$row"
	[ -n "$BASE_SUBMIT" ] || die "ci/bases.tsv: the row of $1 does not have 6 columns"
	BASE_PATCHES=$TPF_ROOT/$p
	first=${TPF_BASES%% *}
	BASE_SUFFIX=-$BASE
	[ "$BASE" != "$first" ] || BASE_SUFFIX=
	case "$BASE_FROM" in
	host) BASE_TARBALL=/usr/src/$BASE_PKG.tar.xz ;;
	sid) BASE_TARBALL=$TPF_BUILD/deps/sid/$BASE_PKG/usr/src/$BASE_PKG.tar.xz ;;
	*) die "ci/bases.tsv: base $BASE comes from '$BASE_FROM': use host or sid" ;;
	esac
}
# first_base_only TARGET: die unless the base is the first row of ci/bases.tsv (the targets
# that measure the default base only: bench-exit, bench-tuning, bench-baseline, evidence).
first_base_only() {
	[ -z "$BASE_SUFFIX" ] ||
		die "BASE=$BASE is not supported by make $1 (the first base of ci/bases.tsv only): leave BASE and TPF_BASE unset"
}

# bases_where COLUMN: the bases whose COLUMN (test or submit) of ci/bases.tsv says yes.
bases_where() {
	local col
	case "$1" in
	test) col=5 ;;
	submit) col=6 ;;
	*) die "bases_where: unknown column '$1': use test or submit" ;;
	esac
	awk -v c="$col" '!/^#/ && NF && $c == "yes" { print $1 }' "$TPF_ROOT/ci/bases.tsv"
}
# The base every script works on: TPF_BASE (make's BASE), else the table's first row.
base_env "${TPF_BASE:-${TPF_BASES%% *}}"
TPF_TARBALL=${TPF_TARBALL:-$BASE_TARBALL}

# coarse_clocksource SERIAL.log: print the guest's clocksource and succeed if
# it counts in jiffies (as read by ci/guest/init into the TPF-BOOTED line).
coarse_clocksource() {
	local cs
	cs=$(tr -d '\r' <"$1" | sed -n 's/^TPF-BOOTED .* clocksource=\([^ ]*\).*/\1/p' | tail -n1)
	case "$cs" in
	jiffies | refined-jiffies) echo "$cs" ;;
	*) return 1 ;;
	esac
}

# need_cmd CMD [PACKAGE]: die with the fix if CMD is not on PATH.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		die "missing tool '$1': ${2:+apt-get install $2 or }run 'make deps'"
}

# debian_version: the Debian version of the base's kernel source (7.2.13-1).
debian_version() {
	if [ "$BASE_FROM" = sid ]; then
		sed -n "s/.*$BASE_PKG=\([^ ]*\).*/\1/p" "$TPF_BUILD/deps/sid/$BASE_PKG/.tpf-versions" 2>/dev/null | grep . ||
			die "$BASE_PKG is not unpacked under build/deps/sid: run 'make deps'"
	else
		dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null ||
			die "$BASE_PKG is not installed: run 'make deps'"
	fi
}

# series_patches: the patch files of the kernel tree, in order: kernel/patches/*.patch,
# then TPF_EXTRA_PATCHES (space-separated files; experiments such as bench/tuning/,
# never for the real series).  TPF_STOCK=1: none, the Debian kernel as it is (the
# baseline that make bench-exit measures the series against).  TPF_PATCHES_DIR=DIR: the
# patches of an earlier series instead of kernel/patches (make bench-baseline).
series_patches() {
	local p
	if [ "${TPF_STOCK:-0}" = 1 ]; then
		return 0
	fi
	for p in "${TPF_PATCHES_DIR:-$BASE_PATCHES}"/*.patch ${TPF_EXTRA_PATCHES:-}; do
		[ -e "$p" ] || continue
		realpath "$p"
	done
}

# earlier_series REV: unpack kernel/patches/ as it was at commit REV of this repo into
# build/baseline/<short>/patches and print that dir, for TPF_PATCHES_DIR (make
# bench-baseline, make evidence).  Dies if REV is no commit, has no patches, or holds the
# current series.
earlier_series() {
	local commit short dir
	commit=$(git -C "$TPF_ROOT" rev-parse --verify --quiet "$1^{commit}") ||
		die "REV '$1' is not a commit of this repo: use e.g. REV=3c49ebd (git log -- kernel/patches)"
	short=$(git -C "$TPF_ROOT" rev-parse --short "$commit")
	dir=$TPF_BUILD/baseline/$short/patches
	rm -rf "$dir"
	mkdir -p "$dir"
	git -C "$TPF_ROOT" archive "$commit" kernel/patches | tar -x -C "$dir" --strip-components=2 ||
		die "commit $short has no kernel/patches/ to take the series from"
	compgen -G "$dir/*.patch" >/dev/null || die "commit $short has no kernel/patches/*.patch"
	[ "$(TPF_PATCHES_DIR=$dir series_key)" != "$(TPF_PATCHES_DIR='' series_key)" ] ||
		die "the series at $short is the current series: pick an earlier REV"
	echo "$dir"
}

# series_key: identifies the kernel tree (Debian version + series content).
series_key() {
	{
		debian_version
		echo
		series_patches | while read -r p; do cat "$p"; done
	} | sha256sum | cut -c1-12
}

# buildname ARCH [KCONFIG]: ARCH-VARIANT, with "-stock" for the kernel without the
# series (TPF_STOCK=1) and "-baseline" for an earlier series (TPF_PATCHES_DIR), so that
# their O= dirs and initramfs never replace the series' ones.
buildname() {
	local stock=
	if [ "${TPF_STOCK:-0}" = 1 ]; then
		stock=-stock
	elif [ -n "${TPF_PATCHES_DIR:-}" ]; then
		stock=-baseline
	fi
	echo "$1$BASE_SUFFIX$stock-${2:-default}"
}

# objdir ARCH [KCONFIG]: the O= dir for this series and config variant.
objdir() {
	echo "$TPF_BUILD/obj/$(buildname "$1" "${2:-}")-$(series_key)"
}

# resultdir ARCH [KCONFIG]: build/results/ARCH[-BASE][-KCONFIG]
resultdir() {
	echo "$TPF_BUILD/results/$1$BASE_SUFFIX${2:+-$2}"
}

# Experiments (TPF_EXTRA_PATCHES) get their own tree so they never swap the series' tree
# under a run that uses it.
SRC_TREE=$TPF_BUILD/src/linux$BASE_SUFFIX${TPF_EXTRA_PATCHES:+-experiment}
if [ "${TPF_STOCK:-0}" = 1 ]; then
	SRC_TREE=$TPF_BUILD/src/linux$BASE_SUFFIX-stock
elif [ -n "${TPF_PATCHES_DIR:-}" ]; then
	SRC_TREE=$TPF_BUILD/src/linux$BASE_SUFFIX-baseline
fi
