#!/usr/bin/env bash
# Negative test of the errno cross-check: mutate COPIES of the built pages
# (drop an errno, add an errno outside the ABI, drop a return value, ...) and
# require ci/man-check-contract.sh to fail on each; the unmodified copy must pass.
set -euo pipefail

usage() { echo "usage: ${0##*/} [MANDIR]   (default: build/man, from ci/man-build.sh)"; }
die() { echo "man-selftest: $*" >&2; exit 1; }

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -le 1 ] || { usage >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
mandir=${1:-$root/build/man}
[ -f "$mandir/man2/futex.2" ] || die "$mandir/man2/futex.2 not found; fix: run ci/man-build.sh (make man) first"

work=$(mktemp -d "${TMPDIR:-/tmp}/man-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT

# drop_entry FILE ERRNO TAG: delete the .TP entry ".B ERRNO" whose next line is
# TAG (e.g. ".RB ( FUTEX_LOCK )"); TAG "-" deletes the first ".B ERRNO" entry
# in the ERRORS section.
drop_entry() {
	awk -v errno="$2" -v tag="$3" '
		function flush() { if (n && !(hit && !done)) for (i = 1; i <= n; i++) print buf[i]; else if (n) done = 1; n = 0; hit = 0 }
		/^\.SH ERRORS/ { inerr = 1 }
		/^\.SH / && !/^\.SH ERRORS/ { inerr = 0 }
		/^\.(TP|SH|SS|\\")/ { flush() }
		{ buf[++n] = $0 }
		inerr && n == 2 && buf[1] == ".TP" && $0 == ".B " errno && tag == "-" { hit = 1 }
		inerr && n == 3 && buf[1] == ".TP" && buf[2] == ".B " errno && $0 == tag { hit = 1 }
		END { flush() }' "$1" >"$1.new"
	cmp -s "$1" "$1.new" && die "mutation found nothing to delete: $2 $3 in ${1##*/}; fix: update ci/man-selftest.sh to the page text"
	mv "$1.new" "$1"
}

fresh() {
	rm -rf "$work/man"
	mkdir -p "$work/man"
	cp -r "$mandir/man2" "$mandir/man2const" "$work/man/"
}

# fake_series ERRNO...: a one-patch "series" whose selftest code names ERRNOs.
fake_series() {
	rm -rf "$work/patches"
	mkdir -p "$work/patches"
	{
		printf 'Subject: [PATCH] selftests/futex: fake\n---\n'
		printf 'diff --git a/%s b/%s\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n' \
			"$st" "$st" "$st" $#
		for e in "$@"; do printf '+\tASSERT_EQ(errno, %s);\n' "$e"; done
	} >"$work/patches/0001-fake.patch"
}
st=tools/testing/selftests/futex/functional/futex_tp.c
mapfile -t asserted < <(awk -F'\t' '!/^#/ && $2 == "errno" && $4 == "yes" {print $3}' "$root/tests/contract/tp-futex-abi.tsv" | sort -u)
[ ${#asserted[@]} -gt 0 ] || die "no selftest=yes errnos in tests/contract/tp-futex-abi.tsv; fix: the table"

pass=0 fail=0
checkargs=(--no-selftests)
expect() { # expect pass|fail DESCRIPTION [TEXT that the failing check must name]
	if "$root/ci/man-check-contract.sh" "${checkargs[@]}" "$work/man" >"$work/log" 2>&1; then got=pass; else got=fail; fi
	if [ "$got" = "$1" ] && { [ -z "${3:-}" ] || grep '^not ok' "$work/log" | grep -qF -- "$3"; }; then
		pass=$((pass + 1))
		echo "ok - $2: check ${got}ed as expected${3:+ ($3)}"
	else
		fail=$((fail + 1))
		echo "not ok - $2: expected the check to $1${3:+ naming \"$3\"}, it did not"
		sed 's/^/    /' "$work/log"
	fi
}

f2=$work/man/man2/futex.2
c=$work/man/man2const

fresh
expect pass "unmodified copy"

fresh
drop_entry "$f2" ETIMEDOUT ".RB ( FUTEX_LOCK )"
expect fail "futex.2 without the ETIMEDOUT (FUTEX_LOCK) entry" "ETIMEDOUT tagged (FUTEX_LOCK)"

fresh
sed -i '/^\.RB ( FUTEX_UNLOCK_PI ,$/{N;s/.*\n\.BR FUTEX_UNLOCK )$/.RB ( FUTEX_UNLOCK_PI )/}' "$f2"
expect fail "futex.2 with EPERM no longer tagged FUTEX_UNLOCK" "EPERM tagged (FUTEX_UNLOCK)"

fresh
sed -i '/^\.SH ERRORS/a .TP\n.B EAGAIN\n.RB ( FUTEX_UNLOCK )\nMade-up error outside the ABI.' "$f2"
expect fail "futex.2 with an EAGAIN (FUTEX_UNLOCK) entry outside the ABI" "EAGAIN is tagged FUTEX_UNLOCK"

fresh
sed -i 's/^Returns 0, 1, or 2 if the caller acquired the lock\.$/Returns 0 or 1 if the caller acquired the lock./; /^\.TP$/{N;/\n2$/{N;N;d}}' "$f2"
expect fail "futex.2 without FUTEX_LOCK return value 2" "documents 2 for FUTEX_LOCK"

fresh
sed -i 's/it never fails with the error/it may fail with the error/; s/^\.BR EINTR \.$/.BR EAGAIN ./' "$f2"
expect fail "futex.2 no longer saying FUTEX_LOCK never fails with EINTR" "never fails with EINTR"

fresh
drop_entry "$c/FUTEX_UNLOCK.2const" EPERM -
expect fail "FUTEX_UNLOCK.2const without EPERM" "FUTEX_UNLOCK.2const: ERRORS has EPERM"

fresh
drop_entry "$c/FUTEX_LOCK.2const" ENOMEM -
expect fail "FUTEX_LOCK.2const without ENOMEM" "FUTEX_LOCK.2const: ERRORS has ENOMEM"

fresh
rm "$c/FUTEX_LOCK.2const"
expect fail "FUTEX_LOCK.2const missing" "FUTEX_LOCK.2const: page exists"

# The selftest half of the check, against fake series.
fresh
checkargs=(--patches "$work/patches/*.patch")
fake_series "${asserted[@]}"
expect pass "fake series whose selftests assert every listed errno"

fake_series "${asserted[@]/ETIMEDOUT/}"
expect fail "fake series whose selftests never mention ETIMEDOUT" "selftests assert ETIMEDOUT"

echo "man-selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || die "the contract check missed a mutation above; fix: tests/contract/check_man_contract.py"
