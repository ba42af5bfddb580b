#!/usr/bin/env python3
"""Find reflow leftovers in the series: a line of a filled paragraph that could have
taken the next line's first word, or a line longer than the text's limit.

An edit that shortens or lengthens a sentence inside a filled paragraph leaves a short
line (or an over-long one) behind; checkpatch sees neither in comments, rst or changelogs.

    ci/series/reflow.py TREE [COVER]

TREE is a series tree (tag tpf-base and branch tpf-series, ci/kernel/tree.sh --series);
COVER is the cover letter text (submission/cover-letter.txt).  Checked: every changelog
body and COVER (no line over 75 columns, checkpatch's COMMIT_LOG_LONG_LINE, but URLs),
the block comments the series adds to .c and .h files (tabs count 8), and the prose of
the .rst lines it adds (no line over 80; literal blocks are code).  A paragraph's width is
its longest line: a greedy fill at any width leaves no line that could take the next
word within it, an edit does.  Two spaces follow a full stop.  Not prose, so never
refilled: list items start paragraphs, indentation changes end them, and tags, URLs,
tables, kernel-doc parameters, diagrams (tabs, '=', '|') and lines ending in ':' are left
alone.  Exit 1 with one line per finding (where: line N: what; the fix), 0 and a count
line otherwise.
"""
import re
import subprocess
import sys

LOG_MAX = 75      # checkpatch's COMMIT_LOG_LONG_LINE
RST_MAX = 80

LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)]|\(\w\))\s+")
# Lines that are not filled prose: tags, links, code, kernel-doc parameters, markup.
NOT_PROSE = re.compile(
    r"^\s*([A-Za-z-]+-by:|Link:|Cc:|Fixes:|Closes:|https?://|```|[|>=#.:@]|\[\d+\]|\$ |\w+\(\)\s*$|"
    r"[A-Za-z_][A-Za-z_0-9]*\(.*\);?\s*$|[{}]|-{3,}|={3,}|~{3,}|\^{3,}|Litmus tests?:|.*\t|.*(==| = |\w\|\w|[^.?!:\s] {2,}\S))"
)


def git(tree, *args):
    return subprocess.run(["git", "-C", tree, *args], capture_output=True, text=True,
                          check=True).stdout


def paragraphs(lines):
    """Split (number, prefix, text) lines into filled paragraphs: a blank line, a list
    item, a change of indentation or a line that is not prose ends one."""
    par, indent = [], None
    for no, pfx, text in lines:
        t = text.rstrip()
        lead = len(t) - len(t.lstrip())
        m = LIST_ITEM.match(t)
        if not t.strip() or NOT_PROSE.match(t):
            if par:
                yield par
            par, indent = [], None
            continue
        if m:
            if par:
                yield par
            par, indent = [(no, pfx, t)], len(m.group(0))
            continue
        if par and lead != indent:
            yield par
            par = []
        if not par:
            indent = lead
        par.append((no, pfx, t))
    if par:
        yield par


def check_lines(where, lines, maxlen, findings):
    """lines: (number, prefix, text).  A line longer than maxlen (if any) is a finding;
    so is a line of a filled paragraph that could have taken the next line's first word
    within the paragraph's own width (its longest line): greedy filling at any width
    never leaves one, an edit inside the paragraph does."""
    for no, pfx, text in lines:
        cols = len((pfx + text.rstrip()).expandtabs(8))
        if maxlen and cols > maxlen and not re.search(r"https?://\S+$", text):
            findings.append(f"{where}: line {no}: {cols} columns, over {maxlen}: refill the paragraph")
    for par in paragraphs(lines):
        cols = [len((pfx + t).expandtabs(8)) for _, pfx, t in par]
        width = max(cols)
        for i in range(len(par) - 1):
            if par[i][2].endswith(":"):
                continue
            w = par[i + 1][2].split()[0]
            # Two spaces after a full stop, as the kernel's changelogs and comments have.
            sep = 2 if re.search(r"[.?!]$", par[i][2]) else 1
            if cols[i] + sep + len(w) <= width:
                findings.append(f"{where}: line {par[i][0]}: ends at column {cols[i]} though the "
                                f"next line's '{w}' fits within the paragraph's width ({width}): "
                                "refill the paragraph")


def check_changelogs(tree, findings):
    revs = git(tree, "rev-list", "--reverse", "tpf-base..tpf-series").split()
    for k, r in enumerate(revs, 1):
        body = git(tree, "log", "-1", "--format=%B", r).rstrip("\n").split("\n")
        where = f"patch {k:04d} changelog ({body[0][:50]})"
        check_lines(where, [(n, "", t) for n, t in enumerate(body[2:], 3)], LOG_MAX, findings)
    return len(revs)


def added_files(tree, suffixes):
    out = git(tree, "diff", "--name-only", "--diff-filter=AM", "tpf-base", "tpf-series")
    return [f for f in out.split() if f.endswith(suffixes)
            and not f.startswith(("tools/", "scripts/"))]


def added_line_numbers(tree, path):
    """Line numbers (in tpf-series) of the lines the series adds to path."""
    diff = git(tree, "diff", "-U0", "tpf-base", "tpf-series", "--", path)
    nums = set()
    for m in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff, re.M):
        start, count = int(m.group(1)), int(m.group(2) or 1)
        nums.update(range(start, start + count))
    return nums


def check_comments(tree, findings):
    files = added_files(tree, (".c", ".h"))
    for f in files:
        text = git(tree, "show", f"tpf-series:{f}").split("\n")
        added = added_line_numbers(tree, f)
        # Runs of " * text" lines inside block comments, all added by the series.
        run = []
        for no, line in enumerate(text + [""], 1):
            m = re.match(r"^(\s*\* ?)(.*)$", line)
            if m and no in added and not line.strip().startswith("*/") and "/*" not in line:
                run.append((no, m.group(1), m.group(2)))
                continue
            if run:
                check_lines(f, run, 0, findings)
            run = []
    return len(files)


def rst_literal_lines(text):
    """Line numbers of the literal blocks of an rst text (the indented lines after a
    paragraph that ends in '::', and directive bodies): code, not prose."""
    lit, block, base = set(), False, 0
    for no, line in enumerate(text, 1):
        lead = len(line) - len(line.lstrip())
        if block:
            if not line.strip() or lead > base:
                lit.add(no)
                continue
            block = False
        if line.rstrip().endswith("::"):
            block, base = True, lead
    return lit


def rst_prose(text, added):
    lit = rst_literal_lines(text)
    return [(n, "", t) for n, t in enumerate(text, 1) if n in added and n not in lit]


def check_rst(tree, findings):
    files = added_files(tree, (".rst",))
    for f in files:
        text = git(tree, "show", f"tpf-series:{f}").split("\n")
        added = added_line_numbers(tree, f)
        lines = rst_prose(text, added)
        for no, _, t in lines:
            if len(t) > RST_MAX:
                findings.append(f"{f}: line {no}: {len(t)} columns, over {RST_MAX}: refill the paragraph")
        # Paragraphs are runs of consecutive lines.
        run = []
        for item in lines + [(None, "", "")]:
            if run and (item[0] is None or item[0] != run[-1][0] + 1):
                check_lines(f, run, 0, findings)
                run = []
            if item[0] is not None:
                run.append(item)
    return len(files)


def check_cover(path, findings):
    lines = open(path, encoding="utf-8").read().rstrip("\n").split("\n")
    # The first line is the subject; @VERSION@-style placeholders are short words.
    check_lines(path, [(n, "", t) for n, t in enumerate(lines[1:], 2)], LOG_MAX, findings)


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0)
    if len(sys.argv) not in (2, 3):
        print("usage: ci/series/reflow.py TREE [COVER]   (see --help)", file=sys.stderr)
        sys.exit(2)
    tree = sys.argv[1]
    findings = []
    n = check_changelogs(tree, findings)
    nc = check_comments(tree, findings)
    nr = check_rst(tree, findings)
    if len(sys.argv) == 3:
        check_cover(sys.argv[2], findings)
    for f in findings:
        print(f"reflow: {f}")
    if findings:
        print(f"reflow: {len(findings)} finding(s) in {n} changelogs, {nc} C files, {nr} rst files")
        sys.exit(1)
    print(f"reflow: clean ({n} changelogs, comments in {nc} C files, {nr} rst files"
          f"{', the cover letter' if len(sys.argv) == 3 else ''})")


if __name__ == "__main__":
    main()
