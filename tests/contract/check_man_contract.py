#!/usr/bin/env python3
"""Cross-check the tp-futex ABI table against the man pages and the selftests.

Usage: check_man_contract.py --abi TSV --futex2 PAGE --const-dir DIR
                             [--patches GLOB | --no-selftests]

The ABI table (tests/contract/tp-futex-abi.tsv) is the single source of the
return values and errnos of FUTEX_LOCK and FUTEX_UNLOCK.  This script renders
the pages with mandoc(1) and checks, for each op:

  futex.2     the op has a DESCRIPTION entry; every listed errno has an ERRORS
              entry tagged "(..., OP, ...)"; no ERRORS entry is tagged with the
              op for an errno outside the list; the op's RETURN VALUE entry
              names exactly the listed return values; every "never" errno is
              mentioned in the op's DESCRIPTION entry.
  OP.2const   the ERRORS section lists exactly the op's errnos, the RETURN
              VALUE section names exactly the listed values, and every "never"
              errno is mentioned but not listed under ERRORS.
  selftests   every errno marked "yes" in the selftest column appears in the
              code (comments stripped) of an added line of
              tools/testing/selftests/futex/ in the series patches; SKIP when
              the series (or its selftests) is not there.

Prints one "ok"/"not ok"/"ok ... # SKIP" line per check and a closing
"man-contract: N passed, N failed, N skipped" line; exits 1 on any failure.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

OPS = ("FUTEX_LOCK", "FUTEX_UNLOCK")
INT_RE = re.compile(r"(?<![\w.,(-])\d+(?![\w)]|,\d)")


class Report:
    def __init__(self):
        self.n = 0
        self.passed = self.failed = self.skipped = 0

    def check(self, cond, what, why=""):
        self.n += 1
        if cond:
            self.passed += 1
            print(f"ok {self.n} - {what}")
        else:
            self.failed += 1
            print(f"not ok {self.n} - {what}" + (f": {why}" if why else ""))

    def skip(self, what, why):
        self.n += 1
        self.skipped += 1
        print(f"ok {self.n} - {what} # SKIP {why}")


def die(msg):
    print(f"check_man_contract: {msg}", file=sys.stderr)
    sys.exit(2)


def load_abi(path):
    rows = []
    try:
        fh = open(path, encoding="ascii")
    except OSError as e:
        die(f"cannot read ABI table {path}: {e.strerror}; fix the --abi path")
    with fh:
        header = None
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                continue
            if len(cols) != len(header):
                die(f"{path}:{lineno}: {len(cols)} columns, header has "
                    f"{len(header)}; use tabs between columns")
            row = dict(zip(header, cols))
            if row["op"] not in OPS or row["kind"] not in ("return", "errno", "never"):
                die(f"{path}:{lineno}: bad op or kind: {row['op']} {row['kind']}")
            rows.append(row)
    if not rows:
        die(f"{path}: no rows")
    return rows


def render(page):
    """Render a man page to plain text, one paragraph line per input paragraph."""
    try:
        out = subprocess.run(["mandoc", "-Tascii", "-Owidth=1000", page],
                             check=True, capture_output=True).stdout
    except FileNotFoundError:
        die("mandoc not found; install it: apt-get install mandoc")
    except subprocess.CalledProcessError as e:
        die(f"mandoc failed on {page}: {e.stderr.decode(errors='replace').strip()}")
    text = re.sub(r".\x08", "", out.decode("ascii", errors="replace"))
    return text.splitlines()


def sections(lines):
    """Map section name -> list of body lines."""
    secs, cur = {}, None
    for line in lines:
        if line and not line[0].isspace():
            cur = line.strip()
            secs.setdefault(cur, [])
        elif cur is not None:
            secs[cur].append(line)
    return secs


def indent(line):
    return len(line) - len(line.lstrip(" "))


def entries(body, tag_re):
    """Split a section body into (tag, text) for tags at indent 7."""
    out, tag, buf = [], None, []
    for line in body:
        if line.strip() and indent(line) <= 7:
            if tag is not None:
                out.append((tag, " ".join(buf)))
            tag, buf = None, []
            m = tag_re.match(line.strip())
            if m and indent(line) == 7:
                tag = m.group(1)
                buf = [line.strip()[len(tag):].strip()]
            continue
        if tag is not None:
            buf.append(line.strip())
    if tag is not None:
        out.append((tag, " ".join(buf)))
    return [(t, re.sub(r"\s+", " ", x).strip()) for t, x in out]


def error_tags(text):
    """'(FUTEX_A, FUTEX_B) blah' -> {'FUTEX_A', 'FUTEX_B'}."""
    m = re.match(r"\(([^)]*)\)", text)
    if not m:
        return set()
    return {t.strip() for t in m.group(1).split(",") if t.strip()}


def ints(text):
    return set(INT_RE.findall(text))


def check_futex2(rep, rows, page):
    name = os.path.basename(page)
    secs = sections(render(page))
    for need in ("DESCRIPTION", "RETURN VALUE", "ERRORS"):
        if need not in secs:
            rep.check(False, f"{name}: has a {need} section", "missing")
            return
    desc = dict(entries(secs["DESCRIPTION"], re.compile(r"(FUTEX_[A-Z0-9_]+)\b")))
    rv = dict(entries(secs["RETURN VALUE"], re.compile(r"(FUTEX_[A-Z0-9_]+)$")))
    documented = set()
    for errno, text in entries(secs["ERRORS"], re.compile(r"(E[A-Z0-9]+)\b")):
        for op in error_tags(text) & set(OPS):
            documented.add((op, errno))

    for op in OPS:
        rep.check(op in desc, f"{name}: DESCRIPTION has an entry for {op}")
        want_rv = {r["value"] for r in rows if r["op"] == op and r["kind"] == "return"}
        got_rv = ints(rv.get(op, ""))
        for v in sorted(want_rv):
            rep.check(v in got_rv, f"{name}: RETURN VALUE documents {v} for {op}",
                      "not in the op's entry" if op in rv else "no entry for the op")
        for v in sorted(got_rv - want_rv):
            rep.check(False, f"{name}: RETURN VALUE documents only ABI values for {op}",
                      f"{v} is not in the ABI table")
        want_err = {r["value"] for r in rows if r["op"] == op and r["kind"] == "errno"}
        got_err = {e for o, e in documented if o == op}
        for e in sorted(want_err):
            rep.check(e in got_err, f"{name}: ERRORS has {e} tagged ({op})")
        for e in sorted(got_err - want_err):
            rep.check(False, f"{name}: ERRORS tags only ABI errnos with ({op})",
                      f"{e} is tagged {op} but not in the ABI table")
        for r in rows:
            if r["op"] == op and r["kind"] == "never":
                rep.check(re.search(rf"\b{r['value']}\b", desc.get(op, "")) is not None,
                          f"{name}: {op} entry says it never fails with {r['value']}")


def check_const(rep, rows, op, page):
    name = os.path.basename(page)
    if not os.path.isfile(page):
        rep.check(False, f"{name}: page exists", "missing")
        return
    secs = sections(render(page))
    errs = {e for e, _ in entries(secs.get("ERRORS", []), re.compile(r"(E[A-Z0-9]+)\b"))}
    rv_text = " ".join(l.strip() for l in secs.get("RETURN VALUE", []))
    got_rv = ints(rv_text.replace("-1", ""))
    want_rv = {r["value"] for r in rows if r["op"] == op and r["kind"] == "return"}
    want_err = {r["value"] for r in rows if r["op"] == op and r["kind"] == "errno"}
    for v in sorted(want_rv):
        rep.check(v in got_rv, f"{name}: RETURN VALUE documents {v}")
    for v in sorted(got_rv - want_rv):
        rep.check(False, f"{name}: RETURN VALUE documents only ABI values",
                  f"{v} is not in the ABI table")
    for e in sorted(want_err):
        rep.check(e in errs, f"{name}: ERRORS has {e}")
    for e in sorted(errs - want_err):
        rep.check(False, f"{name}: ERRORS lists only ABI errnos",
                  f"{e} is not in the ABI table for {op}")
    whole = " ".join(" ".join(v) for v in secs.values())
    for r in rows:
        if r["op"] == op and r["kind"] == "never":
            rep.check(re.search(rf"\b{r['value']}\b", whole) is not None
                      and r["value"] not in errs,
                      f"{name}: says it never fails with {r['value']}")


def selftest_lines(patches):
    """Added lines of tools/testing/selftests/futex/ files in the patches."""
    lines, cur = [], None
    for p in patches:
        with open(p, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("+++ "):
                    path = line[4:].strip()
                    path = path[2:] if path.startswith("b/") else path
                    cur = path if path.startswith("tools/testing/selftests/futex/") else None
                elif cur and line.startswith("+"):
                    lines.append(line[1:])
    return lines


def check_selftests(rep, rows, pattern):
    patches = sorted(glob.glob(pattern))
    yes = [r for r in rows if r["kind"] == "errno" and r["selftest"] == "yes"]
    if not patches:
        for r in yes:
            rep.skip(f"selftests assert {r['value']} ({r['op']})",
                     f"no series patches match {pattern} yet")
        return
    added = selftest_lines(patches)
    if not added:
        for r in yes:
            rep.skip(f"selftests assert {r['value']} ({r['op']})",
                     "the series adds nothing under tools/testing/selftests/futex/ yet")
        return
    # Code only: an errno named in a comment is not an assertion.
    blob = re.sub(r"/\*.*?\*/", " ", "".join(added), flags=re.S)
    blob = re.sub(r"//[^\n]*", " ", blob)
    for r in yes:
        rep.check(re.search(rf"\b{r['value']}\b", blob) is not None,
                  f"selftests assert {r['value']} ({r['op']})",
                  "no selftest code in the series names it; assert it, or mark it no:WHY in the table")
    for r in rows:
        if r["kind"] == "errno" and r["selftest"] != "yes":
            why = r["selftest"].split(":", 1)[-1]
            rep.skip(f"selftests assert {r['value']} ({r['op']})", why)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--abi", required=True)
    ap.add_argument("--futex2", required=True)
    ap.add_argument("--const-dir", required=True)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--patches", default="kernel/patches/*.patch")
    g.add_argument("--no-selftests", action="store_true")
    a = ap.parse_args()

    rows = load_abi(a.abi)
    if not os.path.isfile(a.futex2):
        die(f"{a.futex2} not found; build it first: make man")
    rep = Report()
    check_futex2(rep, rows, a.futex2)
    for op in OPS:
        check_const(rep, rows, op, os.path.join(a.const_dir, f"{op}.2const"))
    if not a.no_selftests:
        check_selftests(rep, rows, a.patches)
    print(f"1..{rep.n}")
    print(f"man-contract: {rep.passed} passed, {rep.failed} failed, {rep.skipped} skipped")
    sys.exit(1 if rep.failed else 0)


if __name__ == "__main__":
    main()
