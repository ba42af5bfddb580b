"""The templates of bench/templates/ and the number formats of the tables.

A template is a str.format string ({field}, {field:.2f}, {meta[key]}) with two additions:
  {field:?text|other}  "text" if the field is true, else "other" ("|other" is optional); both
      may hold fields, always formatted (a None field with a format spec comes out empty)
  a line that comes out empty is left out with the blank line after it (or before it, at the
      end): optional paragraphs need no blank-line bookkeeping
"@@#" lines are comments; a file's final newline is not part of it.  A file is one template
(render()) or entries (Notes): "@@ NAME: TEXT", or a line "@@ NAME" and the lines up to the
next entry (without blank lines at either end).
"""
import os
import string

from .data import ROOT


class _Formatter(string.Formatter):
    def format_field(self, value, spec):
        if spec.startswith("?"):
            yes, _, no = spec[1:].partition("|")
            return yes if value else no
        return "" if value is None and spec else format(value, spec)


def _read(name):
    with open(os.path.join(ROOT, "bench", "templates", name), encoding="utf-8") as fh:
        lines = fh.read().removesuffix("\n").split("\n")
    return "\n".join(x for x in lines if not x.startswith("@@#"))


def fill(template, **fields):
    lines, out, i = template.split("\n"), [], 0
    while i < len(lines):
        text = _Formatter().format(lines[i], **fields)
        if text or not lines[i]:
            out.append(text)
        elif i + 1 < len(lines) and not lines[i + 1]:
            i += 1
        elif i + 1 == len(lines) and out and not out[-1]:
            out.pop()
        i += 1
    return "\n".join(out)


def render(name, **fields):
    """The template file bench/templates/NAME filled in."""
    return fill(_read(name), **fields)


class Notes:
    """The entries of one template file: note = Notes("x.in"); note("entry", field=value)."""

    def __init__(self, name):
        self.entries = {}
        for part in ("\n" + _read(name)).split("\n@@ ")[1:]:
            head, _, text = part.partition("\n")
            entry, colon, line = head.partition(": ")
            self.entries[entry.strip()] = line if colon else text.strip("\n")

    def __call__(self, entry, **fields):
        return fill(self.entries[entry], **fields)


class Missing(dict):
    """A meta.json for the templates: '?' for a missing key."""

    def __missing__(self, key):
        return "?"


def fmt_ops(v):
    if v is None:
        return "–"
    if v >= 1e6:
        return f"{v / 1e6:.2f}M"
    return f"{v / 1e3:.1f}k" if v >= 1e3 else f"{v:.0f}"


def fmt_us(v):
    """Microseconds to 3 significant digits (no exponent), or "n/a"."""
    if v is None:
        return "n/a"
    return f"{v:.0f}" if v >= 100 else f"{v:.3g}"


def fmt(v, spec=".2f", none="–"):
    return none if v is None else format(v, spec)


def case_name(k):
    t, load, wait, shared, pinned = k
    s = f"{t} thr, 1us sleep ({wait}/1024)" if wait else f"{t} thr, load {load}"
    return s + (", shared" if shared else "") + ("" if pinned else ", unpinned")


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    return "\n".join(out + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])
