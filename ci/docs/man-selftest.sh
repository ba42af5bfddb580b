#!/usr/bin/env bash
# Negative test of the errno cross-check, on both kernel bases: mutate COPIES of the
# built pages (drop an errno or its condition, add one outside the ABI, drop a return
# value, ...), feed it fake series (an errno missing, asserted for the wrong op, only in
# a comment, in the wrong context; no series at all) and mutated copies of the ABI table
# (a 7.2 row on 6.12, a condition no page has, an unknown base), and require
# tests/contract/man-check.sh to fail on each; the unmodified copies must pass.
# 6.12: the man-pages 6.03 build (MANDIR); 7.2: the man-pages 6.20 tree of
# ci/docs/man-upstream.sh check (tests/contract/man-bases.tsv).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ${0##*/} [MANDIR]   (6.12's pages, default build/man from ci/docs/man-build.sh; 7.2's: build/man-upstream/tree/man from ci/docs/man-upstream.sh check)"; }

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -le 1 ] || { usage >&2; exit 2; }

root=$TPF_ROOT
# man_dir BASE: the base's pages, from tests/contract/man-bases.tsv.
man_dir() {
	local d
	d=$(awk -F'\t' -v b="$1" '!/^#/ && $1 == b { print $2 }' "$root/tests/contract/man-bases.tsv")
	[ -n "$d" ] || die "base $1 has no row in tests/contract/man-bases.tsv: add it"
	echo "$TPF_BUILD/$d"
}
mandir=${1:-$(man_dir 6.12)}
updir=$(man_dir 7.2)
[ -f "$mandir/man2/futex.2" ] || die "$mandir/man2/futex.2 not found; fix: run ci/docs/man-build.sh (make man) first"
for f in man2/futex.2 man2const/FUTEX_LOCK.2const man2const/FUTEX_UNLOCK.2const; do
	[ -f "$updir/$f" ] || die "$updir/$f not found; fix: run ci/docs/man-upstream.sh check (make man-upstream) first"
done

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
	cmp -s "$1" "$1.new" && die "mutation found nothing to delete: $2 $3 in ${1##*/}; fix: update ci/docs/man-selftest.sh to the page text"
	mv "$1.new" "$1"
}

# fresh: new copies of the current base's pages (src) in $work/man, and of the ABI table.
fresh() {
	rm -rf "$work/man"
	mkdir -p "$work/man/man2" "$work/man/man2const"
	cp "$src/man2/futex.2" "$work/man/man2/"
	cp "$src/man2const/FUTEX_LOCK.2const" "$src/man2const/FUTEX_UNLOCK.2const" "$work/man/man2const/"
	cp "$root/tests/contract/tp-futex-abi.tsv" "$work/abi.tsv"
}

# replace FILE OLD NEW: replace the text OLD (several lines if need be) in FILE by NEW.
replace() {
	python3 - "$@" <<-'PY' || die "mutation found nothing to replace in ${1##*/}: ${2//$'\n'/\\n}; fix: update ci/docs/man-selftest.sh to the page text"
		import sys
		path, old, new = sys.argv[1:4]
		text = open(path).read()
		if old not in text:
		    sys.exit(1)
		open(path, "w").write(text.replace(old, new, 1))
	PY
}

# abi_set OP ERRNO CONDITION COLUMN VALUE: in the copy of the ABI table, set COLUMN of
# the row OP errno ERRNO CONDITION to VALUE.
abi_set() {
	# Through the environment: awk -v would take the backslashes of a regex as escapes.
	OP=$1 E=$2 COND=$3 NAME=$4 VAL=$5 awk -F'\t' -v OFS='\t' '
		/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; print; next }
		$1 == ENVIRON["OP"] && $2 == "errno" && $3 == ENVIRON["E"] && $4 == ENVIRON["COND"] { $col[ENVIRON["NAME"]] = ENVIRON["VAL"]; n++ }
		{ print }
		END { exit n != 1 }' "$work/abi.tsv" >"$work/abi.new" ||
		die "abi_set: no single row $1 $2 /$3/ in tests/contract/tp-futex-abi.tsv; fix: update ci/docs/man-selftest.sh to the table"
	mv "$work/abi.new" "$work/abi.tsv"
}

# fake_series [MODE OP ERRNO KEY]: a one-patch "series" whose selftest code has one
# TEST() per errno row of the current base's ABI rows with selftest yes or todo:, each a call of the
# row's op and an ASSERT_EQ(errno) under a comment naming the row's first stcontext
# keyword (KEY; - if any context will do).  MODE changes the first row that matches
# OP ERRNO KEY: drop (no TEST), wrongop (call the other op), comment (the
# assertion only in a comment), noctx (a comment without the keyword).
fake_series() {
	rm -rf "$work/patches"
	mkdir -p "$work/patches"
	awk -F'\t' -v mode="${1:-}" -v target="${2:-} ${3:-} ${4:-}" '
		!/^#/ && !hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
		/^#/ || !NF { next }
		$col["kind"] != "errno" || $col["selftest"] ~ /^no:/ { next }
		$col["bases"] != "all" && index("," $col["bases"] ",", "," base ",") == 0 { next }
		{
			op = $col["op"]; e = $col["value"]; key = $col["stcontext"]
			sub(/\|.*/, "", key)
			m = !done && (op " " e " " key) == target ? mode : ""
			if (m != "") done = 1
			if (m == "drop") next
			if (m == "wrongop") op = (op == "FUTEX_LOCK") ? "FUTEX_UNLOCK" : "FUTEX_LOCK"
			call = (op == "FUTEX_LOCK") ? "futex_lock(&word, NULL, 0)" : "futex_unlock(&word, 0)"
			n++
			out[++k] = "/* " (m == "noctx" ? "nothing to see" : key) " */"
			out[++k] = "TEST(fake_" n ")"
			out[++k] = "{"
			out[++k] = "\tASSERT_EQ(-1, " call ");"
			out[++k] = (m == "comment") ? "\t/* ASSERT_EQ(" e ", errno); */" : "\tASSERT_EQ(" e ", errno);"
			out[++k] = "}"
			out[++k] = ""
		}
		END {
			if (target != "  " && !done) { print "fake_series: no row " target > "/dev/stderr"; exit 1 }
			printf "Subject: [PATCH] selftests/futex: fake\n---\n"
			printf "diff --git a/%s b/%s\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", st, st, st, k
			for (i = 1; i <= k; i++) print "+" out[i]
		}' st="$st" base="$base" "$root/tests/contract/tp-futex-abi.tsv" >"$work/patches/0001-fake.patch" ||
		die "fake_series $*: no such row of base $base in tests/contract/tp-futex-abi.tsv; fix: update ci/docs/man-selftest.sh to the table"
}
st=tools/testing/selftests/futex/functional/futex_tp.c
awk -F'\t' '/^#/ || !NF { next } !h { for (i = 1; i <= NF; i++) if ($i == "selftest") c = i; h = 1; next }
	$c == "yes" { n++ } END { exit !n }' "$root/tests/contract/tp-futex-abi.tsv" ||
	die "no selftest=yes rows in tests/contract/tp-futex-abi.tsv; fix: the table"

pass=0 fail=0
checkargs=(--no-selftests)
# expect pass|fail DESCRIPTION [TEXT that the failing check (a not ok line, or the
# checker's error) must name]: man-check.sh of the current base on the copies.
expect() {
	if "$root/tests/contract/man-check.sh" --base "$base" --abi "$work/abi.tsv" "${checkargs[@]}" "$work/man" >"$work/log" 2>&1; then got=pass; else got=fail; fi
	if [ "$got" = "$1" ] && { [ -z "${3:-}" ] ||
		{ grep '^not ok' "$work/log" | grep -v '# TODO' || true; grep '^check_man_contract: ' "$work/log" || true; } | grep -qF -- "$3"; }; then
		pass=$((pass + 1))
		echo "ok - $base: $2: check ${got}ed as expected${3:+ ($3)}"
	else
		fail=$((fail + 1))
		echo "not ok - $base: $2: expected the check to $1${3:+ naming \"$3\"}, it did not"
		sed 's/^/    /' "$work/log"
	fi
}

f2=$work/man/man2/futex.2
c=$work/man/man2const

# --- 6.12: man-pages 6.03 (futex.2 per-op layout), kernel/patches ---
base=6.12 src=$mandir
fresh
expect pass "unmodified copy"

fresh
drop_entry "$f2" ETIMEDOUT ".RB ( FUTEX_LOCK )"
expect fail "futex.2 without the ETIMEDOUT (FUTEX_LOCK) entry" "ERRORS (FUTEX_LOCK) has ETIMEDOUT"

fresh
sed -i '/^\.RB ( FUTEX_UNLOCK_PI ,$/{N;s/.*\n\.BR FUTEX_UNLOCK )$/.RB ( FUTEX_UNLOCK_PI )/}' "$f2"
expect fail "futex.2 with EPERM no longer tagged FUTEX_UNLOCK" "ERRORS (FUTEX_UNLOCK) has EPERM"

fresh
sed -i '/^\.SH ERRORS/a .TP\n.B EAGAIN\n.RB ( FUTEX_UNLOCK )\nMade-up error outside the ABI.' "$f2"
expect fail "futex.2 with an EAGAIN (FUTEX_UNLOCK) entry outside the ABI" "EAGAIN is listed for FUTEX_UNLOCK"

fresh
sed -i 's/^Returns 0, 1, or 2 if the caller acquired the lock\.$/Returns 0 or 1 if the caller acquired the lock./; /^\.TP$/{N;/\n2$/{N;N;d}}' "$f2"
expect fail "futex.2 without FUTEX_LOCK return value 2" "RETURN VALUE (FUTEX_LOCK) documents 2"

fresh
sed -i 's/it never fails with the error/it can fail with the error/' "$f2"
grep -q '^\.BR EINTR \.$' "$f2" || die "mutation lost EINTR in futex.2; fix: update ci/docs/man-selftest.sh to the page text"
expect fail "futex.2 saying FUTEX_LOCK can fail with EINTR (EINTR still named)" "FUTEX_LOCK entry says /never fails with the error EINTR/"

fresh
drop_entry "$f2" EINVAL ".RB ( FUTEX_LOCK ,"
expect fail "futex.2 without the PI-waiters EINVAL entry (other EINVAL entries stay)" "ERRORS (FUTEX_LOCK) has EINVAL when /PI waiters are queued/"

fresh
drop_entry "$c/FUTEX_UNLOCK.2const" EPERM -
expect fail "FUTEX_UNLOCK.2const without EPERM" "FUTEX_UNLOCK.2const: ERRORS has EPERM"

fresh
drop_entry "$c/FUTEX_LOCK.2const" ENOMEM -
expect fail "FUTEX_LOCK.2const without ENOMEM" "FUTEX_LOCK.2const: ERRORS has ENOMEM"

fresh
sed -i "s/^names no thread in the caller's PID namespace,\$/is not a good one,/" "$c/FUTEX_LOCK.2const"
expect fail "FUTEX_LOCK.2const with an ESRCH entry that lost its condition" "FUTEX_LOCK.2const: ERRORS has ESRCH when"

fresh
sed -i '/^(which needs SMP support),$/a the architecture lacks the atomic futex compare-and-swap,' "$c/FUTEX_LOCK.2const"
expect fail "FUTEX_LOCK.2const with the impossible cmpxchg ENOSYS cause back" "FUTEX_LOCK.2const: ERRORS has ENOSYS when /does not support TP futexes"

fresh
sed -i '/^\.SH STANDARDS/i .TP\n.B EINVAL\nThe moon is full.' "$c/FUTEX_UNLOCK.2const"
expect fail "FUTEX_UNLOCK.2const with an EINVAL condition outside the ABI" "FUTEX_UNLOCK.2const: ERRORS entry EINVAL \"The moon is full.\" is a condition"

fresh
rm "$c/FUTEX_LOCK.2const"
expect fail "FUTEX_LOCK.2const missing" "FUTEX_LOCK.2const: page exists"

fresh
rm "$f2"
expect fail "futex.2 missing"

# The selftest half of the check, against fake series.
fresh
checkargs=(--patches "$work/patches/*.patch")
fake_series
expect pass "fake series whose selftests assert every yes and todo row"

fake_series drop FUTEX_LOCK ETIMEDOUT -
expect fail "fake series that never asserts ETIMEDOUT" "selftests assert ETIMEDOUT for FUTEX_LOCK"

fake_series wrongop FUTEX_UNLOCK EPERM -
expect fail "fake series asserting EPERM after FUTEX_LOCK instead of FUTEX_UNLOCK" "selftests assert EPERM for FUTEX_UNLOCK"

fake_series comment FUTEX_LOCK EDEADLK -
expect fail "fake series naming EDEADLK only in a comment" "selftests assert EDEADLK for FUTEX_LOCK"

fake_series noctx FUTEX_LOCK EINVAL PI
expect fail "fake series asserting FUTEX_LOCK EINVAL, but never for PI waiters" "selftests assert EINVAL for FUTEX_LOCK in a context naming PI"

checkargs=(--patches "$work/no-such-dir/*.patch")
expect fail "a --patches glob that matches nothing" "series patches found"

printf 'Subject: [PATCH] docs: nothing\n---\ndiff --git a/README b/README\n--- a/README\n+++ b/README\n@@ -1 +1 @@\n-a\n+b\n' >"$work/patches/0001-fake.patch"
checkargs=(--patches "$work/patches/*.patch")
expect fail "a series without selftests" "the series adds code under"

# The bases column: a 7.2-only row does not hold on 6.12, and a base must exist.
checkargs=(--no-selftests)
fresh
abi_set FUTEX_LOCK ENOSYS "FUTEX_ROBUST_UNLOCK or FUTEX_ROBUST_LIST32 was ORed" bases all
expect fail "ABI table with the 7.2 robust-flag ENOSYS row of FUTEX_LOCK on every base" "has ENOSYS when /FUTEX_ROBUST_UNLOCK or FUTEX_ROBUST_LIST32 was ORed/"

fresh
abi_set FUTEX_LOCK ETIMEDOUT "timeout expired before the lock was acquired" bases "6.12,7.3"
expect fail "ABI table with a row for an unknown base" "unknown base 7.3"

# --- 7.2: man-pages 6.20 (futex.2 index layout, the 2const pages), kernel/patches-7.2 ---
base=7.2 src=$updir
checkargs=(--no-selftests)
fresh
expect pass "unmodified copy"

fresh
replace "$f2" $'.TP\n.BR FUTEX_LOCK (2const)\n.TQ\n' $'.TP\n'
expect fail "futex.2 without FUTEX_LOCK in the TP futex operations" "futex.2: DESCRIPTION has an entry for FUTEX_LOCK"

fresh
replace "$f2" $'.SH ERRORS\n' $'.SH ERRORS\n.TP\n.B EINTR\nA made-up error of every operation.\n'
expect fail "futex.2 with an untagged EINTR entry, which FUTEX_LOCK.2const's \"See futex(2)\" inherits" "futex.2: ERRORS lists no EINTR that applies to FUTEX_LOCK"

fresh
replace "$f2" $'.SH ERRORS\n' $'.SH ERRORS\n.TP\n.B EAGAIN\n.RB ( FUTEX_UNLOCK )\nMade-up error outside the ABI.\n'
expect fail "futex.2 with an EAGAIN (FUTEX_UNLOCK) entry outside the ABI" "EAGAIN is listed for FUTEX_UNLOCK"

fresh
drop_entry "$c/FUTEX_LOCK.2const" ENOSYS ".B FUTEX_ROBUST_UNLOCK"
expect fail "FUTEX_LOCK.2const without the robust-flag ENOSYS entry" "FUTEX_LOCK.2const: ERRORS has ENOSYS when /FUTEX_ROBUST_UNLOCK or FUTEX_ROBUST_LIST32 was ORed/"

fresh
drop_entry "$c/FUTEX_UNLOCK.2const" ENOSYS ".B FUTEX_ROBUST_LIST32"
expect fail "FUTEX_UNLOCK.2const without the FUTEX_ROBUST_LIST32-alone ENOSYS entry" "FUTEX_UNLOCK.2const: ERRORS has ENOSYS when /FUTEX_ROBUST_LIST32 was ORed"

fresh
drop_entry "$c/FUTEX_UNLOCK.2const" EFAULT ".B FUTEX_ROBUST_UNLOCK"
expect fail "FUTEX_UNLOCK.2const without the list_op_pending EFAULT entry" "FUTEX_UNLOCK.2const: ERRORS has EFAULT when /FUTEX_ROBUST_UNLOCK"

fresh
replace "$c/FUTEX_UNLOCK.2const" $'.I uaddr\ndoes not point to mapped, writable memory.\n' $'.I uaddr\nis not what it should be.\n'
expect fail "FUTEX_UNLOCK.2const whose only unmapped-memory EFAULT is the uaddr2 one" 'FUTEX_UNLOCK.2const: ERRORS has EFAULT when /\buaddr (is not mapped'

fresh
replace "$c/FUTEX_UNLOCK.2const" $'is not NULL\nand\n.B FUTEX_ROBUST_UNLOCK\nwas not ORed into the operation.\n' $'is not NULL.\n'
expect fail "FUTEX_UNLOCK.2const refusing uaddr2 even with FUTEX_ROBUST_UNLOCK (the 6.12 rule)" "FUTEX_UNLOCK.2const: ERRORS has EINVAL when /val or val3 argument is not 0"

fresh
abi_set FUTEX_UNLOCK ENOSYS "FUTEX_ROBUST_LIST32 was ORed into the operation without FUTEX_ROBUST_UNLOCK" condition "FUTEX_ROBUST_LIST32 is the moon"
expect fail "ABI table with a 7.2 row whose condition no page has" "FUTEX_UNLOCK.2const: ERRORS has ENOSYS when /FUTEX_ROBUST_LIST32 is the moon/"

fresh
abi_set FUTEX_UNLOCK EINVAL "val, uaddr2, or val3 argument is not 0, or timeout is not NULL" bases all
expect fail "ABI table with the 6.12 uaddr2 EINVAL row of FUTEX_UNLOCK on every base" "FUTEX_UNLOCK.2const: ERRORS has EINVAL when /val, uaddr2, or val3 argument is not 0, or timeout is not NULL/"

checkargs=(--patches "$work/patches/*.patch")
fresh
fake_series
expect pass "fake series whose selftests assert every yes and todo row of 7.2"

fake_series drop FUTEX_UNLOCK EINVAL uaddr2
expect fail "fake series that never asserts FUTEX_UNLOCK's EINVAL for a stray uaddr2" "selftests assert EINVAL for FUTEX_UNLOCK in a context naming uaddr2"

echo "man-selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || die "the contract check missed a mutation above; fix: tests/contract/check_man_contract.py"
