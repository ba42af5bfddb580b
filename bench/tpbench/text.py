"""Text: number formats, Markdown tables and the templates of bench/templates/.

Templates are str.format strings ({field}, {field:.2f}, {meta[key]}) with three additions:

  @@# text          a comment line
  @@? FIELD text    the line "text" if FIELD is true, else nothing ("@@? !FIELD": if false)
  {field}           alone on a line: nothing if the field is ""

A line that is left out takes the blank line after it along (or the one before it, at the end
of the template), so optional paragraphs need no blank-line bookkeeping.  A template file is
one template (render()), or named entries each starting at a line "@@ NAME" (notes(); the
blank lines around an entry are not part of it, leading spaces are).  The final newline of a
file is not part of its template.
"""
import os
import re

from .data import ROOT

TEMPLATES = os.path.join(ROOT, "bench", "templates")
_FIELD_LINE = re.compile(r"\{(\w+)\}")


def _read(name):
    with open(os.path.join(TEMPLATES, name), encoding="utf-8") as fh:
        text = fh.read()
    if text.endswith("\n"):
        text = text[:-1]
    return "\n".join(x for x in text.split("\n") if not x.startswith("@@#"))


def _drop_empty(template, fields):
    """TEMPLATE with the "@@?" lines resolved and the lines that are a single empty field left
    out, each with one blank line."""
    lines = template.split("\n")
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("@@? "):
            name, _, line = line[4:].partition(" ")
            keep = not fields[name[1:]] if name.startswith("!") else bool(fields[name])
        else:
            m = _FIELD_LINE.fullmatch(line)
            keep = not (m and fields.get(m.group(1)) == "")
        if keep:
            out.append(line)
        elif i + 1 < len(lines) and lines[i + 1] == "":
            i += 1
        elif i + 1 == len(lines) and out and out[-1] == "":
            out.pop()
        i += 1
    return "\n".join(out)


def fill(template, **fields):
    return _drop_empty(template, fields).format(**fields)


def render(name, **fields):
    """The template file bench/templates/NAME filled in."""
    return fill(_read(name), **fields)


_notes = {}


def notes(name):
    """{entry: template} of the template file bench/templates/NAME."""
    if name not in _notes:
        entries, cur = {}, None
        for line in _read(name).split("\n"):
            if line.startswith("@@ "):
                cur = line[3:].strip()
                entries[cur] = []
            elif cur is not None:
                entries[cur].append(line)
        _notes[name] = {k: "\n".join(v).strip("\n") for k, v in entries.items()}
    return _notes[name]


class Notes:
    """The entries of one notes file, filled in: Notes("x.in")("entry", field=value)."""

    def __init__(self, name):
        self.name = name

    def __call__(self, entry, **fields):
        return fill(notes(self.name)[entry], **fields)

    def __contains__(self, entry):
        return entry in notes(self.name)

    def opt(self, cond, entry, **fields):
        """The entry filled in if COND, else "" (an optional part of a sentence)."""
        return self(entry, **fields) if cond else ""


class Missing(dict):
    """format_map() mapping: '?' for a missing key (meta.json fields)."""

    def __missing__(self, key):
        return "?"


def fmt_ops(v):
    if v is None:
        return "–"
    if v >= 1e6:
        return f"{v / 1e6:.2f}M"
    if v >= 1e3:
        return f"{v / 1e3:.1f}k"
    return f"{v:.0f}"


def fmt_r(v, d=2):
    return "–" if v is None else f"{v:.{d}f}"


def fmt_pct(v, d=2):
    return "–" if v is None else f"{100 * v:.{d}f}%"


def case_name(k):
    t, load, wait, shared = k
    s = f"{t} thr, load {load}"
    if wait:
        s = f"{t} thr, 1us sleep ({wait}/1024)"
    if shared:
        s += ", shared"
    return s


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def blocks(*parts):
    """Markdown blocks (paragraphs, lists, tables) separated by one blank line; empty parts
    are left out."""
    return "\n\n".join(p for p in parts if p)
