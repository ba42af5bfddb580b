#!/usr/bin/env python3
"""make check-port: the series of every base against the submission series, patch by patch.

The submission base's series (the row of ci/bases.tsv with submit=yes) is the source; every
other base's series is a port of it.  Patches are paired by subject.  For each pair, the
changelog and every file's changed lines (the +/- lines of its diff, without context or line
numbers) are compared; where they differ, the number of differing lines (difflib) must be
exactly the one kernel/port.tsv records for that base, patch and file, with the reason the
two must differ.  A patch of one series only must be listed there too (file "*").

So a fix that reaches one series only changes a count and fails here; a fix made in both
leaves every count as it was.  After a deliberate change to a difference, check the shown
diff and update the count (UPDATE=1 rewrites the counts, keeping the reasons, and prints
what changed).

usage: ci/series/port.py [--update] [--show]   (run from anywhere; exit 1 on drift)
"""
import difflib
import glob
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TABLE = os.path.join(ROOT, "kernel", "port.tsv")


def die(msg):
    print(f"check-port: {msg}", file=sys.stderr)
    sys.exit(2)


def bases():
    rows = []
    with open(os.path.join(ROOT, "ci", "bases.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            if len(c) != 6:
                die(f"ci/bases.tsv: row '{line.strip()}' does not have 6 tab-separated columns")
            rows.append({"base": c[0], "patches": c[3], "submit": c[5] == "yes"})
    src = [r for r in rows if r["submit"]]
    if len(src) != 1:
        die("ci/bases.tsv: exactly one row must have submit=yes (the source series)")
    return src[0], [r for r in rows if not r["submit"]]


def parse(path):
    """(subject, changelog lines, {file: [+/- lines]}) of one git format-patch file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        raw = f.read()
    head, _, body = raw.partition("\n\n")
    m = re.search(r"^Subject: \[PATCH[^\]]*\] (.*(?:\n .*)*)", head, re.M)
    if not m:
        die(f"{os.path.relpath(path, ROOT)}: no Subject: line (not git format-patch output?)")
    subject = m.group(1).replace("\n ", " ")
    log, _, diff = body.partition("\n---\n")
    files, cur = {}, None
    for line in diff.split("\n"):
        d = re.match(r"^diff --git a/(\S+) b/(\S+)", line)
        if d:
            cur = d.group(2)
            files[cur] = []
            continue
        if cur is None or line.startswith(("+++ ", "--- ", "@@")):
            continue
        if line.startswith(("+", "-")):
            files[cur].append(line)
    return subject, log.strip("\n").split("\n"), files


def series(d):
    out = {}
    paths = sorted(glob.glob(os.path.join(ROOT, d, "*.patch")))
    if not paths:
        die(f"no patches in {d}/ (ci/bases.tsv names it)")
    for p in paths:
        s, log, files = parse(p)
        if s in out:
            die(f"{d}/: two patches have the subject '{s}': subjects pair the series")
        out[s] = (os.path.basename(p)[:4], log, files)
    return out


def ndiff(a, b):
    """Number of lines that differ between two line lists, and the unified diff."""
    ud = list(difflib.unified_diff(a, b, lineterm="", n=1))
    n = sum(1 for l in ud[2:] if l[:1] in "+-")
    return n, ud


def load_table():
    rows, order = {}, []
    if not os.path.exists(TABLE):
        return rows, order
    with open(TABLE) as f:
        for i, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            if len(c) != 5:
                die(f"kernel/port.tsv:{i}: want 5 tab-separated columns (base, subject, file, lines, reason)")
            base, subj, path, n, reason = c
            if not reason.strip():
                die(f"kernel/port.tsv:{i}: no reason: say why the two series must differ there")
            rows[(base, subj, path)] = (n, reason)
            order.append((base, subj, path))
    return rows, order


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip())
        return 0
    bad = [a for a in args if a not in ("--update", "--show")]
    if bad:
        die(f"unknown argument '{bad[0]}': use --update or --show (see --help)")
    update, show = "--update" in args, "--show" in args
    src, others = bases()
    table, order = load_table()
    seen, found = set(), {}
    drift = 0
    for o in others:
        A, B = series(src["patches"]), series(o["patches"])
        print(f"== {o['base']} ({o['patches']}/) against {src['base']} ({src['patches']}/), the source")
        for s in list(A) + [s for s in B if s not in A]:
            if s in A and s in B:
                items = [("changelog", A[s][1], B[s][1])]
                fa, fb = A[s][2], B[s][2]
                items += [(f, fa.get(f, []), fb.get(f, [])) for f in sorted(set(fa) | set(fb))]
                tag = f"{A[s][0]}/{B[s][0]}"
            else:
                only = src["base"] if s in A else o["base"]
                items = [("*", [f"only in {only}"], [])]
                tag = f"{(A.get(s) or B.get(s))[0]} ({only} only)"
            for path, a, b in items:
                key = (o["base"], s, path)
                if path == "*":
                    n, ud = 1, []
                elif a == b:
                    continue
                else:
                    n, ud = ndiff(a, b)
                found[key] = str(n)
                seen.add(key)
                want = table.get(key, (None, None))[0]
                state = "ok" if want == str(n) else "DRIFT"
                if state == "DRIFT":
                    drift += 1
                print(f"  {state:5} {tag:12} {s[:52]:52} {path} ({n} lines differ"
                      + ("" if want in (None, str(n)) else f", kernel/port.tsv says {want}")
                      + (", not in kernel/port.tsv" if want is None else "") + ")")
                if ud and (show or state == "DRIFT"):
                    for l in ud[2:80]:
                        print(f"        {l}")
                    if len(ud) > 80:
                        print(f"        ... ({len(ud) - 80} more lines; ci/series/port.py --show)")
    stale = [k for k in order if k not in seen]
    for k in stale:
        drift += 1
        print(f"  STALE {k[0]}: '{k[1]}' {k[2]}: kernel/port.tsv lists a difference that is gone")
    if update:
        lines = []
        with open(TABLE) as f:
            lines = [l for l in f if l.startswith("#")]
        out = []
        for k in order:
            if k in found:
                out.append("\t".join([k[0], k[1], k[2], found[k], table[k][1]]))
        for k, n in found.items():
            if k not in table:
                out.append("\t".join([k[0], k[1], k[2], n, "TODO: say why the series must differ here"]))
        with open(TABLE, "w") as f:
            f.writelines(lines)
            f.write("\n".join(out) + "\n")
        print(f"check-port: kernel/port.tsv rewritten ({len(out)} rows); check every TODO reason and the diff")
        return 0
    if drift:
        print(f"check-port: {drift} difference(s) between the series that kernel/port.tsv does not record: "
              "bring the fix to the other series (make series-edit BASE=...), or, if the difference is "
              "meant, update its count and reason in kernel/port.tsv (make check-port UPDATE=1)")
        return 1
    print(f"check-port: every difference between the series is recorded in kernel/port.tsv "
          f"({len(seen)} entries, each with its reason)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
