#!/usr/bin/env python3
"""Cross-check the tp-futex ABI table against the man pages and the selftests.

Usage: check_man_contract.py --abi TSV --futex2 PAGE --const-dir DIR
                             [--base BASE [--known-bases "B1 B2 ..."]]
                             [--futex2-layout per-op|index]
                             [--patches GLOB | --no-selftests]

The ABI table (tests/contract/tp-futex-abi.tsv) has one row per return value,
errno condition and "never" errno of FUTEX_LOCK and FUTEX_UNLOCK; each row has
a condition (a regex) and the kernel bases it holds on (all, or a list).  With
--base, only the rows of that base are checked (without it, every row);
--known-bases makes a row that names any other base an error.  This script
renders the pages with mandoc(1) and checks, for each op:

  futex.2     per-op layout (man-pages 6.03, the default):
              the op has a DESCRIPTION entry; every errno row's condition
              matches an ERRORS entry for that errno that applies to the op
              (tagged "(..., OP, ...)", or untagged, i.e. generic); every entry
              tagged with the op is an ABI errno and matches the condition of
              one of the op's rows for it; the op's RETURN VALUE entry names
              exactly the listed values and matches each return row's
              condition; every "never" row's condition matches the op's
              DESCRIPTION entry and the errno is not tagged with the op.
              index layout (man-pages 6.20: futex.2 lists the op, OP.2const
              has its text and its ERRORS start "See futex(2)"): the op has a
              DESCRIPTION entry; if RETURN VALUE has an entry for the op, it
              is checked as above; every entry tagged with the op is an ABI
              errno and matches a row's condition; no ERRORS entry that
              applies to the op (tagged or untagged) lists a "never" errno.
  OP.2const   the same against the page's ERRORS (every entry counts),
              RETURN VALUE (the whole section) and whole text.
  selftests   every errno row marked "yes" (or "todo:") is asserted in the
              series: on a line that a patch adds under
              tools/testing/selftests/futex/, in code (comments and string
              literals do not count), inside an ASSERT_*/EXPECT_* macro or an
              ==/!= comparison, attributed to the op by the nearest TP call
              (futex_lock(), FUTEX_LOCK, ..., or a wrapper of exactly one of
              them that the series defines) at or above it in the same
              function, with one of the row's stcontext keywords in its
              context: the comment and header above the function and the
              lines since the last blank line.  No patches, or no selftest
              lines in them, is a failure.

Prints one TAP line per check ("# TODO" for todo rows, which never fail) and
a closing "man-contract: N passed, N failed, N skipped, N todo" line; exits 1
on any failure, 2 on unusable input.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

OPS = ("FUTEX_LOCK", "FUTEX_UNLOCK")
KINDS = ("return", "errno", "never")
COLUMNS = ("op", "kind", "value", "condition", "selftest", "stcontext", "meaning", "bases")
LAYOUTS = ("per-op", "index")
INT_RE = re.compile(r"(?<![\w.,(-])\d+(?![\w)]|,\d)")
SELFTEST_DIR = "tools/testing/selftests/futex/"

# A TP call in selftest code, and the op it belongs to; call_re() adds the
# wrappers that the series' selftests define.
OP_CALL_RE = re.compile(
    r"\b(?:(?P<lock>futex_lock)|(?P<unlock>futex_unlock))\s*\("
    r"|\bFUTEX_(?P<raw>LOCK|UNLOCK)(?:_PRIVATE)?\b")
ASSERTION_RE = re.compile(r"\b(?:ASSERT|EXPECT)_[A-Z_]+\s*\(|[=!]=")


class Report:
    def __init__(self):
        self.n = 0
        self.passed = self.failed = self.skipped = self.todo = 0

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

    def todo_check(self, cond, what, why):
        self.n += 1
        self.todo += 1
        if cond:
            print(f"ok {self.n} - {what} # TODO {why} (now asserted: change the row to yes)")
        else:
            print(f"not ok {self.n} - {what} # TODO {why}")


def die(msg):
    print(f"check_man_contract: {msg}", file=sys.stderr)
    sys.exit(2)


def load_abi(path, known_bases=None):
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
                missing = [c for c in COLUMNS if c not in header]
                if missing or header[:3] != ["op", "kind", "value"]:
                    die(f"{path}:{lineno}: header must start with op, kind, value "
                        f"and have {', '.join(COLUMNS)}; missing: {', '.join(missing) or '-'}")
                continue
            if len(cols) != len(header):
                die(f"{path}:{lineno}: {len(cols)} columns, header has "
                    f"{len(header)}; use tabs between columns")
            row = dict(zip(header, cols))
            row["line"] = lineno
            if row["op"] not in OPS or row["kind"] not in KINDS:
                die(f"{path}:{lineno}: bad op or kind: {row['op']} {row['kind']}")
            try:
                row["cond_re"] = re.compile(row["condition"], re.I)
            except re.error as e:
                die(f"{path}:{lineno}: bad condition regex {row['condition']!r}: {e}")
            st = row["selftest"]
            if st != "yes" and not re.match(r"(no|todo):\S", st):
                die(f"{path}:{lineno}: selftest must be yes, todo:WHY or no:WHY, not {st!r}")
            if st.startswith("todo:") or st == "yes":
                if row["kind"] != "errno":
                    die(f"{path}:{lineno}: only errno rows can be asserted by the selftests")
                if not row["stcontext"]:
                    die(f"{path}:{lineno}: empty stcontext; use - for any context")
            bases = row["bases"].split(",")
            if row["bases"] != "all" and (not all(bases) or "all" in bases):
                die(f"{path}:{lineno}: bases must be all or a comma-separated list "
                    f"of bases, not {row['bases']!r}")
            if known_bases and row["bases"] != "all":
                unknown = [b for b in bases if b not in known_bases]
                if unknown:
                    die(f"{path}:{lineno}: unknown base {', '.join(unknown)} in bases: "
                        f"use all or bases of ci/bases.tsv ({', '.join(known_bases)})")
            row["base_set"] = None if row["bases"] == "all" else set(bases)
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


def norm(text):
    return re.sub(r"\s+", " ", text).strip()


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
    return [(t, norm(x)) for t, x in out]


def error_tags(text):
    """'(FUTEX_A, FUTEX_B) blah' -> {'FUTEX_A', 'FUTEX_B'}."""
    m = re.match(r"\(([^)]*)\)", text)
    if not m:
        return set()
    return {t.strip() for t in m.group(1).split(",") if t.strip()}


def ints(text):
    return set(INT_RE.findall(text))


def short(text, n=70):
    return text if len(text) <= n else text[:n - 3] + "..."


def rows_of(rows, op, kind):
    return [r for r in rows if r["op"] == op and r["kind"] == kind]


def check_errors(rep, name, op, rows, applies, tagged, require=True):
    """applies: (errno, text) entries that apply to op (tagged or generic);
    tagged: those that name the op explicitly (all entries of a 2const page).
    require: every errno row must have a matching entry (else only tagged
    entries are checked against the rows)."""
    where = f"{name}: ERRORS" + (f" ({op})" if name == "futex.2" else "")
    erows = rows_of(rows, op, "errno")
    for r in erows if require else ():
        e = r["value"]
        hit = any(x == e and r["cond_re"].search(t) for x, t in applies)
        have = [t for x, t in tagged if x == e]
        why = (f"no entry for {e} matches; the {e} entries for the op say: "
               + " | ".join(short(t) for t in have)) if have else f"no {e} entry for the op"
        rep.check(hit, f"{where} has {e} when /{r['condition']}/", why)
    want = {r["value"] for r in erows}
    for e, t in tagged:
        if e not in want:
            rep.check(False, f"{where} lists only ABI errnos",
                      f"{e} is listed for {op} but not in the ABI table: {short(t)}")
            continue
        rep.check(any(r["value"] == e and r["cond_re"].search(t) for r in erows),
                  f"{where} entry {e} \"{short(t, 50)}\" is a condition in the ABI table",
                  f"it matches no condition of a {op} {e} row; add a row or fix the page")


def check_returns(rep, name, op, rows, text):
    where = f"{name}: RETURN VALUE" + (f" ({op})" if name == "futex.2" else "")
    rrows = rows_of(rows, op, "return")
    got = ints(text)
    for r in rrows:
        rep.check(r["value"] in got and r["cond_re"].search(text) is not None,
                  f"{where} documents {r['value']} as /{r['condition']}/",
                  "no RETURN VALUE text for the op" if not text else
                  f"not in: {short(text, 120)}")
    for v in sorted(got - {r["value"] for r in rrows}):
        rep.check(False, f"{where} documents only ABI values",
                  f"{v} is not in the ABI table")


def check_futex2(rep, rows, page, layout="per-op"):
    name = os.path.basename(page)
    secs = sections(render(page))
    for need in ("DESCRIPTION", "RETURN VALUE", "ERRORS"):
        if need not in secs:
            rep.check(False, f"{name}: has a {need} section", "missing")
            return
    desc = dict(entries(secs["DESCRIPTION"], re.compile(r"(FUTEX_[A-Z0-9_]+)\b")))
    rv = dict(entries(secs["RETURN VALUE"], re.compile(r"(FUTEX_[A-Z0-9_]+)$")))
    errs = [(e, error_tags(t), t) for e, t in
            entries(secs["ERRORS"], re.compile(r"(E[A-Z0-9]+)\b"))]

    for op in OPS:
        rep.check(op in desc, f"{name}: DESCRIPTION has an entry for {op}")
        if layout == "index":
            check_index(rep, name, op, rows, rv, errs)
            continue
        check_returns(rep, name, op, rows, rv.get(op, ""))
        applies = [(e, t) for e, tags, t in errs if op in tags or not tags]
        tagged = [(e, t) for e, tags, t in errs if op in tags]
        check_errors(rep, name, op, rows, applies, tagged)
        for r in rows_of(rows, op, "never"):
            rep.check(r["cond_re"].search(desc.get(op, "")) is not None
                      and r["value"] not in {e for e, _ in tagged},
                      f"{name}: {op} entry says /{r['condition']}/ and ERRORS does not tag {r['value']} with it")


def check_index(rep, name, op, rows, rv, errs):
    """futex.2 as an index (man-pages 6.20): the op's values and errors are in
    OP.2const, whose ERRORS start "See futex(2)", so futex.2's untagged
    entries apply to the op too."""
    if op in rv:
        check_returns(rep, name, op, rows, rv[op])
    applies = [(e, t) for e, tags, t in errs if op in tags or not tags]
    tagged = [(e, t) for e, tags, t in errs if op in tags]
    check_errors(rep, name, op, rows, applies, tagged, require=False)
    for r in rows_of(rows, op, "never"):
        listed = [t for e, t in applies if e == r["value"]]
        rep.check(not listed,
                  f"{name}: ERRORS lists no {r['value']} that applies to {op} (the op never returns it)",
                  f"{r['value']} entry: {short(listed[0])}" if listed else "")


def check_const(rep, rows, op, page):
    name = os.path.basename(page)
    if not os.path.isfile(page):
        rep.check(False, f"{name}: page exists", "missing")
        return
    secs = sections(render(page))
    for need in ("DESCRIPTION", "RETURN VALUE", "ERRORS"):
        if need not in secs:
            rep.check(False, f"{name}: has a {need} section", "missing")
            return
    errs = entries(secs["ERRORS"], re.compile(r"(E[A-Z0-9]+)\b"))
    rv_text = norm(" ".join(secs["RETURN VALUE"]).replace("-1", ""))
    check_returns(rep, name, op, rows, rv_text)
    check_errors(rep, name, op, rows, errs, errs)
    whole = norm(" ".join(" ".join(v) for v in secs.values()))
    for r in rows_of(rows, op, "never"):
        rep.check(r["cond_re"].search(whole) is not None
                  and r["value"] not in {e for e, _ in errs},
                  f"{name}: says /{r['condition']}/ and ERRORS does not list {r['value']}")


def patch_segments(patches):
    """Hunks of tools/testing/selftests/futex/ files: lists of (text, added)."""
    segs, cur, path = [], None, None
    for p in patches:
        with open(p, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                line = line.rstrip("\n")
                if line.startswith("diff --git ") or line.startswith("--- "):
                    path, cur = None, None
                elif line.startswith("+++ "):
                    path = line[4:].strip()
                    path = path[2:] if path.startswith("b/") else path
                    path = path if path.startswith(SELFTEST_DIR) else None
                    cur = None
                elif line.startswith("@@"):
                    cur = [] if path else None
                    if cur is not None:
                        segs.append((path, cur))
                elif cur is not None and line[:1] in ("+", " ", ""):
                    cur.append((line[1:], line.startswith("+")))
                elif cur is not None and not line.startswith("-"):
                    cur = None      # end of the hunk (e.g. "-- " signature)
    return segs


def code_only(lines):
    """The code of each line: comments and string/char literals blanked."""
    out, in_comment = [], False
    for text in lines:
        res, i = [], 0
        while i < len(text):
            if in_comment:
                j = text.find("*/", i)
                if j < 0:
                    i = len(text)
                else:
                    in_comment, i = False, j + 2
                    res.append(" ")
                continue
            if text.startswith("/*", i):
                in_comment, i = True, i + 2
                continue
            if text.startswith("//", i):
                break
            c = text[i]
            if c in "\"'":
                j = i + 1
                while j < len(text) and text[j] != c:
                    j += 2 if text[j] == "\\" else 1
                res.append(c + c)
                i = j + 1
                continue
            res.append(c)
            i += 1
        out.append("".join(res))
    return out


def op_of_match(m, wrappers):
    if m.group("lock") or m.group("raw") == "LOCK":
        return "FUTEX_LOCK"
    if m.group("unlock") or m.group("raw") == "UNLOCK":
        return "FUTEX_UNLOCK"
    return wrappers.get(m.group("name"))


def call_re(wrappers):
    names = "|".join(sorted(map(re.escape, wrappers))) or r"(?!x)x"
    return re.compile(OP_CALL_RE.pattern + rf"|\b(?P<name>{names})\s*\(")


def last_op(code, rx, wrappers):
    op = None
    for m in rx.finditer(code):
        op = op_of_match(m, wrappers) or op
    return op


def functions(segs):
    """Yield (name, header lines, body code lines) of the top-level C functions
    (kernel style: the body opens with "{" and closes with "}" in column 0)."""
    for _path, seg in segs:
        raw = [t for t, _ in seg]
        code = code_only(raw)
        head, body, in_body = [], [], False
        for text, c in zip(raw, code):
            if not in_body:
                head = [] if text.startswith("}") else head + [(text, c)]
                in_body = text.startswith("{")
                continue
            if text.startswith("}"):
                names = re.findall(r"\b(\w+)\s*\(", " ".join(c for _, c in head))
                yield (names[-1] if names else None), head, body
                head, body, in_body = [], [], False
                continue
            body.append(c)


def wrapper_ops(segs):
    """Functions the series adds whose body calls exactly one TP op, directly or
    through another such function (lock_for() -> futex_lock() -> FUTEX_LOCK),
    and does not test errno itself (a probe like tp_supported() is no wrapper)."""
    bodies = {}
    for name, _head, body in functions(segs):
        if name:        # all definitions of a name (TEST, ...) count together
            bodies.setdefault(name, []).extend(body)
    bodies = {n: b for n, b in bodies.items()
              if not any(re.search(r"\berrno\s*[=!]=|[=!]=\s*errno\b", c) for c in b)}
    wrappers = {}
    for _ in range(5):
        rx, new = call_re(wrappers), {}
        for name, body in bodies.items():
            ops = {op_of_match(m, wrappers) for c in body for m in rx.finditer(c)} - {None}
            if len(ops) == 1:
                new[name] = ops.pop()
        if new == wrappers:
            break
        wrappers = new
    return wrappers


def assertions(segs):
    """(errno, op, context) for every errno an added line asserts; context is
    the comment and header of the enclosing function plus the paragraph."""
    wrappers = wrapper_ops(segs)
    rx = call_re(wrappers)
    found = []
    for _path, seg in segs:
        raw = [t for t, _ in seg]
        code = code_only(raw)
        op, head, para, in_body = None, [], [], False
        for (text, added), c in zip(seg, code):
            if not in_body:
                head = [] if text.startswith("}") else head + [text]
                in_body = text.startswith("{")
                continue
            if text.startswith("}"):        # end of a function: forget its calls
                op, head, para, in_body = None, [], [], False
                continue
            if not text.strip():
                para = []
                continue
            para.append(text)
            op = last_op(c, rx, wrappers) or op
            if added and op and ASSERTION_RE.search(c):
                for e in set(re.findall(r"\bE[A-Z0-9]{2,}\b", c)):
                    found.append((e, op, "\n".join(head + para)))
    return found


def keyword_hit(keywords, text):
    if keywords == "-":
        return True
    return any(re.search(rf"(?<![\w]){re.escape(k.strip())}(?![\w])", text, re.I)
               for k in keywords.split("|") if k.strip())


def check_selftests(rep, rows, pattern):
    patches = sorted(glob.glob(pattern))
    asserted = [r for r in rows if r["kind"] == "errno" and r["selftest"] != "no"
                and not r["selftest"].startswith("no:")]
    rep.check(bool(patches), f"selftests: series patches found ({pattern})",
              "no file matches; fix the --patches glob (a missing series is not a pass)")
    if not patches:
        return
    segs = patch_segments(patches)
    rep.check(bool(segs), f"selftests: the series adds code under {SELFTEST_DIR}",
              f"none of the {len(patches)} patches touches {SELFTEST_DIR}")
    found = assertions(segs) if segs else []
    for r in asserted:
        what = (f"selftests assert {r['value']} for {r['op']}"
                + ("" if r["stcontext"] == "-" else f" in a context naming {r['stcontext']}"))
        hit = any(e == r["value"] and op == r["op"] and keyword_hit(r["stcontext"], para)
                  for e, op, para in found)
        if r["selftest"] == "yes":
            same_op = any(e == r["value"] and op == r["op"] for e, op, _ in found)
            rep.check(hit, what,
                      "asserted for the op, but never in a context that names one of the keywords"
                      if same_op else
                      "no added selftest code asserts it after a call of the op; "
                      "assert it, or mark the row todo:WHY or no:WHY")
        else:
            rep.todo_check(hit, what, r["selftest"].split(":", 1)[1])
    for r in rows:
        if r["kind"] == "errno" and r["selftest"].startswith("no:"):
            rep.skip(f"selftests assert {r['value']} for {r['op']} (/{r['condition']}/)",
                     r["selftest"].split(":", 1)[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--abi", required=True)
    ap.add_argument("--futex2", required=True)
    ap.add_argument("--const-dir", required=True)
    ap.add_argument("--base", help="check only the rows of this kernel base")
    ap.add_argument("--known-bases", help="space-separated bases a row may name")
    ap.add_argument("--futex2-layout", choices=LAYOUTS, default="per-op")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--patches", default="kernel/patches/*.patch")
    g.add_argument("--no-selftests", action="store_true")
    a = ap.parse_args()

    known = a.known_bases.split() if a.known_bases else None
    if a.base and known and a.base not in known:
        die(f"unknown base {a.base!r}: use one of {', '.join(known)}")
    rows = load_abi(a.abi, known)
    if a.base:
        rows = [r for r in rows if r["base_set"] is None or a.base in r["base_set"]]
        if not rows:
            die(f"{a.abi}: no rows for base {a.base}")
    print(f"# base {a.base or 'any'}: {len(rows)} rows of {a.abi}, futex.2 layout {a.futex2_layout}")
    rep = Report()
    if os.path.isfile(a.futex2):
        check_futex2(rep, rows, a.futex2, a.futex2_layout)
    else:
        rep.check(False, f"{os.path.basename(a.futex2)}: page exists",
                  f"{a.futex2} not found; build it first: make man")
    for op in OPS:
        check_const(rep, rows, op, os.path.join(a.const_dir, f"{op}.2const"))
    if a.no_selftests:
        print("# selftest checks not run (--no-selftests)")
    else:
        check_selftests(rep, rows, a.patches)
    print(f"1..{rep.n}")
    print(f"man-contract{' (base ' + a.base + ')' if a.base else ''}: "
          f"{rep.passed} passed, {rep.failed} failed, "
          f"{rep.skipped} skipped, {rep.todo} todo")
    sys.exit(1 if rep.failed else 0)


if __name__ == "__main__":
    main()
