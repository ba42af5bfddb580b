#!/usr/bin/env bash
# Consistency check: every errno that tests/guest/tp-badinput.c expects from
# FUTEX_LOCK / FUTEX_UNLOCK (its EXPECT_ERR() rows) must be listed for that op as
# kind=errno in the single ABI source tests/contract/tp-futex-abi.tsv.
# Usage: tests/contract/stress-abi-check.sh     exit 0 = consistent
set -euo pipefail
. "$(dirname "$0")/../../ci/lib.sh"
TOP=$TPF_ROOT
TSV=$TOP/tests/contract/tp-futex-abi.tsv
SRC=$TOP/tests/guest/tp-badinput.c
[ -f "$TSV" ] || { echo "stress-abi-check: $TSV missing" >&2; exit 1; }
python3 - "$TSV" "$SRC" <<'PY'
import re, sys
tsv, src = sys.argv[1], sys.argv[2]
allowed = set()
for line in open(tsv):
    if line.startswith('#') or not line.strip():
        continue
    f = line.rstrip('\n').split('\t')
    if len(f) >= 3 and f[1] == 'errno':
        allowed.add((f[0], f[2]))
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
    ok = (name, err) in allowed
    print("%s %s %s" % ("ok" if ok else "not ok", name, err))
    bad |= not ok
print("# %d EXPECT_ERR rows, %d distinct (op, errno) pairs, %s" %
      (len(rows), len(seen), "all in the contract" if not bad else "SOME NOT IN THE CONTRACT"))
sys.exit(1 if bad else 0)
PY
