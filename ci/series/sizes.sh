#!/usr/bin/env bash
# What the series costs in the two structures a reviewer asks about: sizeof(struct
# futex_hash_bucket) and sizeof(struct task_struct), at the base and at the series head,
# per arch and per config.  The sizes come from the compiler itself: a probe file is
# compiled with the exact command kbuild used for kernel/futex/core.o (its .cmd file) and
# emits each sizeof as an assembler string, as kbuild's asm-offsets do.  No pahole, no
# debug info.
#
# Configs: test (tinyconfig + kernel/config fragments, what make test boots), rt (the same
# with kernel/config/rt.config), distro and distro-rt (Debian's own config of the base's
# kernel package, from linux-config-<version>: amd64_none_amd64, amd64_none_rt-amd64,
# arm64_none_arm64, arm64_none_rt-arm64; the head adds CONFIG_FUTEX_TP=y, which a
# distribution would have to choose).
#
#   ci/series/sizes.sh   (env: ARCHES, BASE, SIZES_CONFIGS="test rt distro distro-rt", JOBS=2)
#
# Output: a markdown table on stdout and build/series[-BASE]/sizes/sizes.tsv (arch, config,
# bucket at base, bucket at head, task_struct at base, task_struct at head); logs beside it.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
"") ;;
-h | --help)
	sed -n 's/^#   //p' "$0"
	exit 0
	;;
*) die "unknown argument '$1': it takes none (see --help)" ;;
esac

top=$TPF_ROOT
sdir=${TPF_SERIES_DIR:-$top/build/series$BASE_SUFFIX}
arches=${ARCHES:-$TPF_ARCHES}
configs=${SIZES_CONFIGS:-test rt distro distro-rt}
jobs=${JOBS:-2}
out=$sdir/sizes
mkdir -p "$out"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

exec 9>"$sdir/.tree.lock"
flock -n 9 || { echo "waiting for ${sdir#"$top"/}/linux: another check-series/submission/checkpatch is using it" >&2; flock 9; }
export TPF_SERIES_LOCKED=1
info=$("$top/ci/kernel/tree.sh" --series) || exit 1
tree=$(sed -n 's/.* tree=\([^ ]*\) .*/\1/p' <<<"$info")
[ -d "$tree/.git" ] || die "no series tree in '$tree': remove ${sdir#"$top"/} and rerun"
g() { git -C "$tree" -c advice.detachedHead=false "$@"; }
trap 'g checkout -q -f tpf-series 2>/dev/null || true' EXIT

# Debian's config for ARCH and FLAVOUR (none or rt) of this base's kernel version.
ver=$(make -s -C "$tree" kernelversion | cut -d. -f1,2)
distro_config() {
	local arch=$1 flavour=$2 darch file dir
	case $arch in x86_64) darch=amd64 ;; arm64) darch=arm64 ;; *) die "no Debian arch for '$arch'" ;; esac
	file=config.${darch}_none_${darch}
	[ "$flavour" = none ] || file=config.${darch}_none_rt-${darch}
	dir=$TPF_BUILD/deps/linux-config-$ver-$darch
	if [ ! -f "$dir/.done" ]; then
		local dl
		dl=$(mktemp -d)
		chmod 755 "$dl"
		chown _apt "$dl" 2>/dev/null || true
		# The host's apt (bookworm, arm64 added by make deps) has 6.12; sid has 7.2.
		if ! (cd "$dl" && apt-get download -qq "linux-config-$ver:$darch") >/dev/null 2>&1; then
			local sid pv
			sid=$("$top/ci/deps/sid.sh" "linux-config-$ver" "linux-config-$ver") ||
				die "Debian has no linux-config-$ver: cannot measure the distro configs"
			pv=$(sed -n "s/.*linux-config-$ver=\([^ ]*\).*/\1/p" "$sid/.tpf-versions")
			if [ "$darch" = "$(dpkg --print-architecture)" ]; then
				cp -r "$sid/." "$dl/unpacked"
			else
				local m=${TPF_SID_MIRROR:-http://deb.debian.org/debian}
				curl -fsSL -o "$dl/c.deb" "$m/pool/main/l/linux/linux-config-${ver}_${pv}_${darch}.deb" ||
					die "cannot download linux-config-${ver}_${pv}_${darch}.deb from $m: check the network"
			fi
		fi
		rm -rf "$dir"
		mkdir -p "$dir"
		for f in "$dl"/*.deb; do
			[ -e "$f" ] && dpkg -x "$f" "$dir"
		done
		[ ! -d "$dl/unpacked" ] || cp -r "$dl/unpacked/." "$dir"
		rm -rf "$dl"
		touch "$dir/.done"
	fi
	local xz
	xz=$(find "$dir" -name "$file.xz" | head -n1)
	# Bookworm's 6.12 names its rt flavour as a featureset: config.amd64_rt_amd64.
	[ -n "$xz" ] || [ "$flavour" = none ] ||
		xz=$(find "$dir" -name "config.${darch}_rt_${darch}.xz" | head -n1)
	[ -n "$xz" ] || die "no $file.xz in linux-config-$ver ($darch): Debian renamed its flavours? see $dir"
	echo "$xz"
}

# Generate .config in OBJ for ARCH, CONFIG and REV (base|head).
make_config() {
	local arch=$1 cfg=$2 rev=$3 obj=$4 xz
	case $cfg in
	test) TPF_CONFIG_PREFIX=1 "$top/ci/kernel/config.sh" "$arch" "$tree" "$obj" ;;
	rt) TPF_CONFIG_PREFIX=1 "$top/ci/kernel/config.sh" "$arch" "$tree" "$obj" rt ;;
	distro | distro-rt)
		local flavour=none
		[ "$cfg" = distro ] || flavour=rt
		xz=$(distro_config "$arch" "$flavour") || return 1
		mkdir -p "$obj"
		xz -dc "$xz" >"$obj/.config" || return 1
		# Keys and signing are Debian's build infrastructure, not layout.
		{
			echo 'CONFIG_SYSTEM_TRUSTED_KEYS=""'
			echo 'CONFIG_SYSTEM_REVOCATION_KEYS=""'
			echo '# CONFIG_MODULE_SIG_ALL is not set'
			[ "$rev" = base ] || echo 'CONFIG_FUTEX_TP=y'
		} >>"$obj/.config"
		make -s -C "$tree" O="$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS" olddefconfig >/dev/null || return 1
		if [ "$rev" = head ]; then
			grep -qx 'CONFIG_FUTEX_TP=y' "$obj/.config" ||
				die "CONFIG_FUTEX_TP=y did not survive olddefconfig on $arch $cfg: see $obj/.config"
		fi
		;;
	*) die "unknown config '$cfg' in SIZES_CONFIGS: use test, rt, distro or distro-rt" ;;
	esac
}

# 6.12's linux/futex.h calls mutex_init() without including linux/mutex.h (core.c has it
# from earlier includes), so the probe includes it first.
probe=$out/probe.c
cat >"$probe" <<EOF
/* Generated by ci/series/sizes.sh: compiled with kernel/futex/core.o's command. */
#include <linux/sched.h>
#include <linux/mutex.h>
#include "$tree/kernel/futex/futex.h"
#define TPF_SIZE(name, val) asm volatile("\\n.ascii \\"@@tpf " name " %0\\"" : : "i" (val))
void tpf_sizes(void);
void tpf_sizes(void)
{
	TPF_SIZE("bucket", sizeof(struct futex_hash_bucket));
	TPF_SIZE("task", sizeof(struct task_struct));
}
EOF

# Print "BUCKET TASK" for the tree as checked out and configured in OBJ.
measure() {
	local arch=$1 obj=$2 log=$3 cmd
	flock "${TPF_BUILD_LOCK:-/tmp/tpf-build.lock}" make -C "$tree" O="$obj" ARCH="$KARCH" \
		CROSS_COMPILE="$CROSS" CC="ccache $GCC" -j"$jobs" kernel/futex/core.o >>"$log" 2>&1 ||
		die "building kernel/futex/core.o for $arch failed: see ${log#"$top"/}"
	cmd=$(sed -n 's/^savedcmd_kernel\/futex\/core.o := //p' "$obj/kernel/futex/.core.o.cmd" |
		sed -e 's/ *; .*//' -e 's/ *$//')
	[ -n "$cmd" ] || die "no compile command in $obj/kernel/futex/.core.o.cmd"
	cmd=${cmd/-Wp,-MMD,kernel\/futex\/.core.o.d/}
	cmd=${cmd/-c -o kernel\/futex\/core.o/-S -o -}
	cmd=${cmd% *}
	(cd "$obj" && eval "$cmd $probe") 2>>"$log" | sed -n 's/.*@@tpf \([a-z]*\) [$#]\{0,1\}\([0-9]*\).*/\1 \2/p' |
		awk '{v[$1]=$2} END {if (!v["bucket"] || !v["task"]) exit 1; print v["bucket"], v["task"]}' ||
		die "the size probe did not compile for $arch: see ${log#"$top"/}"
}

tsv=$out/sizes.tsv
: >"$tsv"
for a in $arches; do
	arch_env "$a"
	for cfg in $configs; do
		obj=$sdir/obj-sizes/$a-$cfg
		log=$out/$a-$cfg.log
		: >"$log"
		declare -A got=()
		for rev in base head; do
			c=tpf-base
			[ "$rev" = base ] || c=tpf-series
			g checkout -q -f "$c"
			make_config "$a" "$cfg" "$rev" "$obj" >>"$log" 2>&1 ||
				die "config $cfg for $a at $c failed: see ${log#"$top"/}"
			got[$rev]=$(measure "$a" "$obj" "$log")
		done
		read -r bb tb <<<"${got[base]}"
		read -r bh th <<<"${got[head]}"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$a" "$cfg" "$bb" "$bh" "$tb" "$th" >>"$tsv"
		echo "sizes: $a $cfg: bucket $bb -> $bh, task_struct $tb -> $th" >&2
	done
done
g checkout -q -f tpf-series

# "64 (=)" or "2496 -> 2560 (+64)"
d() { if [ "$1" = "$2" ]; then echo "$1 (=)"; else printf '%s -> %s (%+d)' "$1" "$2" $(($2 - $1)); fi; }
echo "| arch | config | futex_hash_bucket | task_struct |"
echo "|---|---|---|---|"
while IFS=$'\t' read -r a cfg bb bh tb th; do
	echo "| $a | $cfg | $(d "$bb" "$bh") | $(d "$tb" "$th") |"
done <"$tsv"
