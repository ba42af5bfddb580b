#!/usr/bin/env bash
# Generate .config in an O= dir: tinyconfig + kernel/config fragments (common, the arch,
# base-<BASE>.config and <ARCH>-<BASE>.config if there are, the KCONFIG variant), then
# check that every option the fragments ask for survived olddefconfig (the last
# fragment's line for an option is the one asked for).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/kernel/config.sh ARCH SRC OBJDIR [KCONFIG]   (KCONFIG: extra kernel/config/KCONFIG.config)"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 3 ] || { usage >&2; exit 2; }
arch=$1 src=$2 obj=$3 variant=${4:-}
arch_env "$arch"

frags=("$TPF_ROOT/kernel/config/common.config" "$TPF_ROOT/kernel/config/$arch.config")
[ ! -f "$TPF_ROOT/kernel/config/base-$BASE.config" ] || frags+=("$TPF_ROOT/kernel/config/base-$BASE.config")
[ ! -f "$TPF_ROOT/kernel/config/$arch-$BASE.config" ] || frags+=("$TPF_ROOT/kernel/config/$arch-$BASE.config")
if [ -n "$variant" ]; then
	[ -f "$TPF_ROOT/kernel/config/$variant.config" ] ||
		die "unknown KCONFIG '$variant': no kernel/config/$variant.config (see kernel/config/)"
	frags+=("$TPF_ROOT/kernel/config/$variant.config")
fi
for f in "${frags[@]}"; do
	[ -s "$f" ] || die "missing config fragment $f: restore it from git"
done

mkdir -p "$obj"
kmake=(make -s -C "$src" O="$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS")
"${kmake[@]}" tinyconfig >/dev/null
KCONFIG_CONFIG="$obj/.config" "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
	"$obj/.config" "${frags[@]}" >"$obj/merge_config.log" 2>&1 ||
	die "merge_config.sh failed: see $obj/merge_config.log"
"${kmake[@]}" olddefconfig >/dev/null

# Every CONFIG_X=v and "# CONFIG_X is not set" line must be in .config as asked.
# TPF_CONFIG_PREFIX=1 (ci/series/check.sh, building a prefix of the series): an option
# whose symbol no Kconfig file of the tree defines yet (CONFIG_FUTEX_TP before the patch
# that adds it) is not asked for; everywhere else a missing option is an error.
defined() { grep -rqx --include='Kconfig*' -e "config ${1#CONFIG_}" -e "menuconfig ${1#CONFIG_}" "$src"; }
dropped=()
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF -- "$line" "$obj/.config" ||
			{ [ "${TPF_CONFIG_PREFIX:-}" = 1 ] && ! defined "${line%%=*}"; } ||
			dropped+=("$line (got: $(grep -E "^(# )?${line%%=*}[= ]" "$obj/.config" || echo unset))")
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		if grep -qE "^$opt=" "$obj/.config"; then dropped+=("$line (got: $(grep -E "^$opt=" "$obj/.config"))"); fi
		;;
	esac
done < <(awk '/^CONFIG_[A-Za-z0-9_]+=/ { o = $0; sub(/=.*/, "", o) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { o = $2 }
	o != "" { if (!(o in want)) order[++n] = o; want[o] = $0; o = "" }
	END { for (i = 1; i <= n; i++) print want[order[i]] }' "${frags[@]}")
if [ ${#dropped[@]} -gt 0 ]; then
	die "config option dropped by olddefconfig for $arch: ${dropped[*]}; fix its dependencies in kernel/config/"
fi

# An option every test kernel needs whatever the fragments say: distribution kernels all have
# rseq (glibc registers it in every thread; on x86_64 7.2 the vDSO robust try-unlock
# depends on it, which kernel/config/x86_64-7.2.config asks for).
grep -qx 'CONFIG_RSEQ=y' "$obj/.config" ||
	die "CONFIG_RSEQ=y missing from the $arch kernel's .config: every distribution kernel has it; keep it in kernel/config/common.config"
