#!/usr/bin/env bash
# Errno/return-value cross-check: tests/contract/tp-futex-abi.tsv (the single
# source; one row per condition) against the ERRORS / RETURN VALUE text of the
# built futex.2 and 2const pages, and against the errnos the TP selftests in
# kernel/patches assert for each op.  A missing page, a glob that matches no
# patch or a series without selftests fails; --no-selftests skips that half.
set -euo pipefail
. "$(dirname "$0")/../../ci/lib.sh"

usage() { echo "usage: ${0##*/} [--no-selftests | --patches GLOB] [MANDIR]   (defaults: --patches 'kernel/patches/*.patch', build/man)"; }

selftests=(--patches "kernel/patches/*.patch")
case "${1:-}" in
-h | --help) usage; exit 0 ;;
--no-selftests) selftests=(--no-selftests); shift ;;
--patches)
	[ $# -ge 2 ] || { usage >&2; exit 2; }
	selftests=(--patches "$2")
	shift 2
	;;
esac
[ $# -le 1 ] || { usage >&2; exit 2; }

root=$TPF_ROOT
mandir=${1:-$root/build/man}
need_cmd python3 python3
need_cmd mandoc mandoc
[ -f "$mandir/man2/futex.2" ] || die "$mandir/man2/futex.2 not found; fix: run ci/docs/man-build.sh (make man) first"

cd "$root"
exec python3 tests/contract/check_man_contract.py \
	--abi tests/contract/tp-futex-abi.tsv \
	--futex2 "$mandir/man2/futex.2" \
	--const-dir "$mandir/man2const" \
	"${selftests[@]}"
