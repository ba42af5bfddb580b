#!/usr/bin/env bash
# Errno/return-value cross-check, for one kernel base: the rows of
# tests/contract/tp-futex-abi.tsv (the single source; one row per condition) that hold on
# the base (bases all or naming it) against the ERRORS / RETURN VALUE text of the base's
# futex.2 and 2const pages (tests/contract/man-bases.tsv: 6.12 build/man, 7.2 the man-pages
# 6.20 tree of ci/docs/man-upstream.sh), and against the errnos the TP selftests of the
# base's series (ci/bases.tsv: kernel/patches, kernel/patches-7.2) assert for each op.
# The base: --base, else TPF_BASE (make's BASE=), else the first row of ci/bases.tsv.
# A missing page, a glob that matches no patch or a series without selftests fails;
# --no-selftests skips that half.  --abi checks another table (ci/docs/man-selftest.sh).
set -euo pipefail
. "$(dirname "$0")/../../ci/lib.sh"

usage() {
	echo "usage: ${0##*/} [--base BASE] [--abi TSV] [--no-selftests | --patches GLOB] [MANDIR]"
	echo "  BASE: ${TPF_BASES// / or } (default: TPF_BASE, else ${TPF_BASES%% *}); MANDIR and GLOB default to the base's"
	echo "  (tests/contract/man-bases.tsv, ci/bases.tsv): 6.12 build/man and 'kernel/patches/*.patch'"
}

root=$TPF_ROOT
base=$BASE
abi=tests/contract/tp-futex-abi.tsv
selftests=()
mandir=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--base | --abi | --patches)
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		case $1 in
		--base) base=$2 ;;
		--abi) abi=$2 ;;
		--patches) selftests=(--patches "$2") ;;
		esac
		shift 2
		;;
	--no-selftests) selftests=(--no-selftests); shift ;;
	-*) usage >&2; exit 2 ;;
	*)
		[ -z "$mandir" ] || { usage >&2; exit 2; }
		mandir=$1
		shift
		;;
	esac
done

case " $TPF_BASES " in
*" $base "*) ;;
*) die "unknown base '$base': use --base ${TPF_BASES// / or --base } (the rows of ci/bases.tsv)" ;;
esac
base_env "$base"
row=$(awk -F'\t' -v b="$base" '!/^#/ && $1 == b' "$root/tests/contract/man-bases.tsv")
IFS=$'\t' read -r _ base_mandir layout made_by <<<"$row"
[ -n "${made_by:-}" ] ||
	die "base $base has no 4-column row in tests/contract/man-bases.tsv: add the man pages that document it (base, mandir, layout, made-by)"
[ ${#selftests[@]} -gt 0 ] || selftests=(--patches "${BASE_PATCHES#"$root"/}/*.patch")
mandir=${mandir:-$TPF_BUILD/$base_mandir}
need_cmd python3 python3
need_cmd mandoc mandoc
[ -f "$mandir/man2/futex.2" ] || die "$mandir/man2/futex.2 not found (base $base); fix: run $made_by first"

cd "$root"
exec python3 tests/contract/check_man_contract.py \
	--abi "$abi" \
	--base "$base" --known-bases "$TPF_BASES" \
	--futex2-layout "$layout" \
	--futex2 "$mandir/man2/futex.2" \
	--const-dir "$mandir/man2const" \
	"${selftests[@]}"
