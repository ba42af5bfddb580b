#!/usr/bin/env bash
# Consistency check: every errno that tests/guest/tp-badinput.c expects from
# FUTEX_LOCK / FUTEX_UNLOCK (its EXPECT_ERR() rows) must be listed for that op as
# kind=errno in the single ABI source tests/contract/tp-futex-abi.tsv, on every kernel
# base of ci/bases.tsv (tp-badinput.c runs on all of them): a row whose bases column
# is all, or rows that name each base.
# Usage: tests/contract/stress-abi-check.sh     exit 0 = consistent
set -euo pipefail
. "$(dirname "$0")/../../ci/lib.sh"
TOP=$TPF_ROOT
TSV=$TOP/tests/contract/tp-futex-abi.tsv
SRC=$TOP/tests/guest/tp-badinput.c
[ -f "$TSV" ] || { echo "stress-abi-check: $TSV missing" >&2; exit 1; }
python3 - "$TSV" "$SRC" "$TPF_BASES" <<'PY'
import re, sys
tsv, src, bases = sys.argv[1], sys.argv[2], sys.argv[3].split()
allowed = {}      # (op, errno) -> the bases it is a row of
col = None
for line in open(tsv):
    if line.startswith('#') or not line.strip():
        continue
    f = line.rstrip('\n').split('\t')
    if col is None:
        col = f.index('bases') if 'bases' in f else None
        if col is None:
            print("stress-abi-check: %s has no bases column; fix: the table header" % tsv)
            sys.exit(1)
        continue
    if len(f) > col and f[1] == 'errno':
        on = bases if f[col] == 'all' else f[col].split(',')
        allowed.setdefault((f[0], f[2]), set()).update(on)
text = open(src).read()
defines = dict(re.findall(r'^#define\s+(EXP_\w+)\s+(E[A-Z]+)\s*$', text, re.M))
rows = re.findall(r'EXPECT_ERR\(\s*([LU])\b[^;]*?,\s*(E[A-Z_]+)\s*,\s*[^,;]*\)\s*;', text, re.S)
if not rows:
    print("stress-abi-check: no EXPECT_ERR rows found"); sys.exit(1)
bad = 0
seen = set()
for op, err in rows:
    err = defines.get(err, err)
    name = 'FUTEX_LOCK' if op == 'L' else 'FUTEX_UNLOCK'
    seen.add((name, err))
for name, err in sorted(seen):
    missing = [b for b in bases if b not in allowed.get((name, err), ())]
    ok = not missing
    print("%s %s %s%s" % ("ok" if ok else "not ok", name, err,
                          "" if ok else " (no row for base %s)" % ", ".join(missing)))
    bad |= not ok
print("# %d EXPECT_ERR rows, %d distinct (op, errno) pairs, %s" %
      (len(rows), len(seen), "all in the contract" if not bad else "SOME NOT IN THE CONTRACT"))
sys.exit(1 if bad else 0)
PY
