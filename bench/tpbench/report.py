"""make bench-report: docs/benchmarks.md, its plots and docs/bench/summary.txt from results.

The page is bench/templates/benchmarks.md.in with arch.md.in per arch, its sentences that depend
on the numbers are notes.md.in; summary.txt (make submission's cover letter) is summary.txt.in.
The page is the first kernel base of ci/bases.tsv (results/<arch>/); every other base with
results (results/<arch>-<base>/) gets a section of its own, base.md.in, after it.  summary.txt
quotes the base marked submit=yes when it has results, else the first base.
"""
import argparse
import os
import re
import statistics
import sys
from datetime import datetime, timezone

from . import goals as G
from .data import (ARCHES, LABEL, ROOT, TYPES, cpu, fnum, load_archs, load_bases, ok, ops,
                   plain, ratio, spread, table_order, tp_supported, vcpus)
from .plots import make_plots
from .text import Missing, Notes, case_name, fmt, fmt_ops, fmt_us, md_table, render

GENERATOR = "bench/report.py"
note = Notes("notes.md.in")
plain_text = Notes("summary.txt.in")

VERDICT = {G.MET: "met", G.MISSED: "**not met**", G.NOT_MEASURED: "n/a (not measured)",
           G.TP_UNSUPPORTED: "n/a (TP unsupported)"}
# The ratio columns of the throughput table: (type, over type, format).
RATIOS = [("tp", "ww", ".2f"), ("tp", "adaptive", ".2f"), ("tp", "rseq-adaptive", ".2f"),
          ("tp", "spin", ".2f"), ("pi", "ww", ".3f")]
# After TP/WW: TP's CPU time per op over WW's ("n/a" for results without CPU time).
RATIO_HEAD = ([f"{LABEL[x]}/{LABEL[y]}" for x, y, _ in RATIOS[:1]] + ["TP/WW CPU/op"]
              + [f"{LABEL[x]}/{LABEL[y]}" for x, y, _ in RATIOS[1:]])


# ---------------------------------------------------------------- tables

def case_table(a, head, cells):
    """The table of HEAD with a row per case of A in table order: the case, then CELLS(its
    summary rows by type), which is empty for no row."""
    rows = ([case_name(k)] + cells(a["cases"][k]) for k in sorted(a["cases"], key=table_order))
    return md_table(["case"] + head, [r for r in rows if len(r) > 1])


def ratio_cells(c):
    """The ratio columns of one case, in the order of RATIO_HEAD."""
    cells = [fmt(ratio(ops(c, x), ops(c, y)), f) for x, y, f in RATIOS]
    return cells[:1] + [fmt(ratio(cpu(c, "tp"), cpu(c, "ww")), ".2f", "n/a")] + cells[1:]


def throughput_table(a):
    def cell(r):
        if not r or r["status"] != "ok":
            return r["status"] if r else "–"
        sp, v = spread(r), fmt_ops(fnum(r["ops_per_sec_median"]))
        us = fmt_us(fnum(r.get("cpu_us_per_op_median")))
        return (v if sp is None else f"{v} ±{100 * sp:.0f}%") + (
            ", CPU n/a" if us == "n/a" else f", CPU {us} µs")

    return case_table(a, [LABEL[t] for t in TYPES] + RATIO_HEAD,
                      lambda c: [cell(c.get(t)) for t in TYPES] + ratio_cells(c))


def ratio_table(a):
    """The throughput ratios alone (the cover letter quotes no absolute rate from QEMU), and
    TP's CPU time per op over WW's."""
    return case_table(a, RATIO_HEAD, ratio_cells)


def has_cpu(a):
    """Whether A's results have the CPU time per op (a perf bench that reports it)."""
    return any(cpu(c, t) is not None for c in a["cases"].values() for t in TYPES)


def syscalls_table(a):
    def cells(c):
        per_op = [fmt(fnum((c.get(t) or {}).get(f"{x}_syscalls_per_op")), f)
                  for t in ("ww", "pi", "tp") for x, f in (("lock", ".2%"), ("unlock", ".3%"))]
        return per_op + [(ok(c, "tp") or {}).get("unlock_syscalls_total", "–")]

    return case_table(a, ["WW lock", "WW unlock", "PI lock", "PI unlock", "TP lock", "TP unlock",
                          "TP unlock syscalls (total)"], cells)


def fairness_table(a):
    def cell(r):
        if not r:
            return "–"
        return (" / ".join(fmt_ops(fnum(r[f"thr_{x}_median"])) for x in ("min", "avg", "max"))
                + f" ({fmt(fnum(r['thr_min_avg_ratio']))})")

    return case_table(a, [LABEL[t] for t in TYPES], lambda c: [cell(ok(c, t)) for t in TYPES])


def kinds_table(a):
    def cells(c):
        r = ok(c, "tp")
        if not r:
            return []
        kinds = [fnum(r.get(x)) or 0 for x in ("stolen_total", "top_total", "handoff_total")]
        tot = sum(kinds)
        return [fmt(fnum(r.get("lock_syscalls_per_op")), ".2%")] + [
            f"{v:.0f} ({100 * v / tot:.1f}%)" if tot else f"{v:.0f}" for v in kinds]

    if not any(ok(c, "tp") for c in a["cases"].values()):
        return note("no-tp-data")
    return case_table(a, ["FUTEX_LOCK calls / op", "stolen (0)", "top waiter (1)",
                          "handoff (2)"], cells)


def goals_per_arch(archs, results):
    """The page's goal table: one column per arch."""
    def runner(meta):
        r = meta.get("runner", "?")
        return "make run" if r.startswith("make run") else r

    lines = ["| goal | target | " + " | ".join(a["arch"] for a in archs) + " |",
             "|---|---|" + "---|" * len(archs),
             "| measured with | | " + " | ".join(note("measured-with", runner=runner(a["meta"]),
                                                   m=Missing(a["meta"])) for a in archs) + " |"]
    for g in G.GOALS:
        lines.append(f"| {g.name} | {g.target} | " + " | ".join(
            f"{r.measured} ({VERDICT[r.status]})" for r in
            (results[a["arch"]][g.key] for a in archs)) + " |")
    return "\n".join(lines)


def arch_section(a, res, made, title=None, patches="kernel/patches"):
    """One arch's section; TITLE: its heading (default the arch), PATCHES: its series."""
    arch, meta, key = a["arch"], a["meta"], a.get("key", a["arch"])
    goals = md_table(["goal", "measured", "target", "verdict", "worst case"],
                     [[r.goal.name, r.measured, r.goal.target, VERDICT[r.status],
                       r.where] for r in res.values()])
    try:  # busy: the 1-minute load average (it counts the vCPU threads) > host CPUs + 1
        busy = max(float(meta.get(k, "0").split()[0]) for k in (
            "host_loadavg_start", "host_loadavg_end")) > int(meta.get("host_nproc")) + 1
    except (TypeError, ValueError, IndexError):
        busy = False
    return render(
        "arch.md.in", arch=arch, title=title or arch, patches=patches, m=Missing(meta),
        skipped="".join(f"\n| skipped: {t} | {why} |"
                        for t, why in sorted((meta.get("skipped") or {}).items())),
        busy=busy, no_tp=not tp_supported(a), goals_table=goals,
        throughput_heading=note("throughput-heading"), throughput_table=throughput_table(a),
        syscalls_table=syscalls_table(a), syscalls_svg=made.get(f"syscalls-{key}", ""),
        fairness_table=fairness_table(a), fairness_svg=made.get(f"fairness-{key}", ""),
        kinds_table=kinds_table(a), kinds_svg=made.get(f"tpkinds-{key}", ""))


# ---------------------------------------------------------------- reading

def findings(a):
    """A few data-driven sentences per arch."""
    out, nv, smp = [], vcpus(a), a["meta"].get("smp")
    try:
        if smp is not None and int(smp) != nv:
            out.append(note("finding.smp", vcpus=nv, smp=smp))
    except ValueError:
        pass
    cases = {k: c for k, c in a["cases"].items() if plain(k)}
    fit = [c for k, c in cases.items() if k[0] <= nv]
    below = [c for c in fit if ops(c, "spin") is not None and ops(c, "ww") is not None
             and ops(c, "spin") < ops(c, "ww")]
    if below:
        out.append(note("finding.spin-below-ww", below=len(below), total=len(fit)))
    if not tp_supported(a):
        return out
    for t in sorted({k[0] for k in cases}):
        pts = [(k[1], ratio(ops(c, "tp"), ops(c, "ww"))) for k, c in sorted(cases.items())
               if k[0] == t]
        pts = [p for p in pts if p[1] is not None]
        if len(pts) >= 2:
            (l0, r0), (l1, r1) = pts[0], pts[-1]
            out.append(note("finding.tp-ww-trend", threads=t, vs="≤" if t <= nv else ">",
                            first=r0, first_load=l0, last=r1, last_load=l1,
                            rises=r1 > r0 * 1.05, falls=r1 < r0 / 1.05))

    def lock_pct(t):
        vals = (fnum(ok(c, t).get("lock_syscalls_per_op")) for c in cases.values() if ok(c, t))
        return [100 * x for x in vals if x is not None]

    wl, tl = lock_pct("ww"), lock_pct("tp")
    if wl and tl:
        out.append(note("finding.lock-syscalls", ww_min=min(wl), ww_max=max(wl),
                        tp_min=min(tl), tp_max=max(tl)))
    rows = [ok(c, "tp") for c in cases.values() if ok(c, "tp")]
    s, tw, h, n, unl = (sum(fnum(r.get(x)) or 0 for r in rows) for x in (
        "stolen_total", "top_total", "handoff_total", "ops_total", "unlock_syscalls_total"))
    calls = sum((fnum(r.get("lock_syscalls_per_op")) or 0) * (fnum(r.get("ops_total")) or 0)
                for r in rows)
    tot = s + tw + h
    if tot and n:
        out.append(note("finding.tp-kernel", lock=100 * calls / n, unlock=100 * unl / n,
                        unlock_calls=unl, ops=n, stolen=100 * s / tot, top=100 * tw / tot,
                        handoff=100 * h / tot))
    pts = G.cpu_points(a)
    if pts:
        def busy(t):
            vals = [fnum((ok(a["cases"][k], t) or {}).get("cpu_util_median")) for _, k, *_ in pts]
            vals = [v for v in vals if v is not None]
            return f"{min(vals):.2f}–{max(vals):.2f}" if vals else None

        xs = [x for x in (ratio(cpu(a["cases"][k], "tp"), cpu(a["cases"][k], "ww"))
                          for _, k, *_ in pts) if x is not None]
        if xs:
            out.append(note("finding.cpu", lo=min(xs), hi=max(xs), cases=len(xs), vcpus=nv,
                            tp=busy("tp"), ww=busy("ww"), util=busy("tp") and busy("ww")))
    return out


def missed_why(a, res):
    """One bullet per missed goal of one arch: the numbers behind the miss and where to read why."""
    out = []
    for key, r in res.items():
        if r.status != G.MISSED:
            continue
        f = {"measured": r.measured, "where": r.where}
        if key == "tp-spin":
            pts = [(k[1], x) for k, x in G.tp_spin_points(a)]
            f.update(points=", ".join(note("missed.tp-spin.point", ratio=x, load=load)
                                      for load, x in pts),
                     shrinks=len(pts) > 1 and pts[-1][1] > pts[0][1])
        elif key == "tp-best":
            bad = G.tp_losses(a)
            f.update(peers=G.PEER_NAMES, slower=len(bad), comparisons=sum(
                         ops(c, "tp") is not None and ops(c, t) is not None
                         for c in a["cases"].values() for t in G.PEERS),
                     within=all(w for *_, w in bad),
                     cases="; ".join(note("missed.tp-best.case", case=case_name(k),
                                          type=LABEL[t]) for k, t, *_ in bad))
        elif key == "longest-wait":
            f = missed_wait(a, f)
        elif key == "previous":  # and how TP/WW moved over all cases
            rel, prev = G.previous_points(a), a["previous"]["cases"].values()
            f.update(untimed=all(x.get("wait_max_us_max") in (None, "", "na")
                                 for c in prev for x in c.values()),
                     cases=len(rel), lower=sum(1 for x, _, sp in rel if x < 1 - sp),
                     higher=sum(1 for x, _, sp in rel if x > 1 + sp),
                     median=statistics.median(x for x, *_ in rel))
            f["scattered"] = f["lower"] <= f["higher"] and f["median"] >= 0.95
        elif key == "exit-cost":
            e, f["control"] = a["exit"], ""
            f["some"] = e["ratio_max"] >= G.GOAL["exit-cost"].threshold
            if "control_ratio" in e:
                f["control"] = note("missed.exit-cost.control", ratio=e["control_ratio"],
                                    lo=e["control_ratio_min"], hi=e["control_ratio_max"],
                                    noise=min(e["control_ratio_min"], e["control_ratio"])
                                    <= e["ratio"])
        out.append(note("missed." + key, **f))
    return out


def missed_wait(a, f):
    """The fields of the longest-wait bullet: TP's wait against the other types' in that case."""
    v, k = G.tp_longest_wait(a)
    med = fnum(a["cases"][k]["tp"].get("wait_max_us_median"))
    others = {t: w for t in TYPES if t != "tp" and (w := G.longest_wait(a, t, k)) is not None}
    floor = max(others.items(), key=lambda tw: tw[1], default=None)
    f.update(has_median=med is not None, median=med / 1000 if med is not None else None,
             machine=note("missed.wait.machine"), spin_sentence="", other_sentence="")
    if "spin" in others:
        f["spin_sentence"] = note("missed.wait.spin", spin=others["spin"] / 1000,
                         other=floor[0] != "spin", type=LABEL[floor[0]], wait=floor[1] / 1000)
    if floor and floor[1] >= G.WAIT_SAME * v:
        f["other_sentence"] = note("missed.wait.as-long", **f)
    elif floor and floor[1] >= G.WAIT_LIMIT_US:
        f["other_sentence"] = note("missed.wait.also-past", **f,
                                   outlier=med is not None and med <= G.WAIT_LIMIT_US)
    elif floor:
        f["other_sentence"] = note("missed.wait.longest", **f)
    return f


def reading(archs, results):
    """The "Reading" section after "Automatic findings:"."""
    def per_arch(arch, lines):
        return [note("reading.arch", arch=arch), "\n".join(lines)] if lines else []

    met = []
    for a in archs:
        res = results[a["arch"]].values()
        met.append(note("reading.goals-met", arch=a["arch"], accel=a["meta"].get("accel", "?"),
                        met=sum(r.status == G.MET for r in res), goals=len(res),
                        na=sum(r.status not in (G.MET, G.MISSED) for r in res)))
    parts = ["\n".join(met)]
    lo = [note("reading.loss", arch=a["arch"], case=case_name(k), tp=fmt_ops(tp),
               type=LABEL[t], other=fmt_ops(o), ratio=tp / o, within=w)
          for a in archs for k, t, tp, o, w in G.tp_losses(a)]
    if lo:
        parts += [note("reading.losses"), "\n".join(lo)]
    elif any(tp_supported(a) for a in archs):
        parts.append(note("reading.no-losses"))
    for a in archs:
        parts += per_arch(a["arch"], findings(a))
    short = []
    for a in archs:
        pairs = [(tp, best) for tp, best in map(G.tp_vs_best, a["cases"].values())
                 if tp is not None and best is not None]
        if pairs:
            short.append((a["arch"], sum(tp < best for tp, best in pairs), len(pairs)))
    if short:
        parts.append(note("reading.in-short", arches="; ".join(
            note("reading.in-short.arch", arch=arch, lost=lost, cases=n)
            for arch, lost, n in short)))
        if any(lost * 2 > n for _, lost, n in short):
            parts.append(note("reading.losing-most"))
    why = [(a["arch"], missed_why(a, results[a["arch"]])) for a in archs if tp_supported(a)]
    if any(w for _, w in why):
        parts.append(note("reading.missed"))
        for arch, w in why:
            parts += per_arch(arch, w)
    return "\n\n".join(p for p in parts if p)


# ---------------------------------------------------------------- real programs

def real_stat(line):
    """A TPF-REAL-STATS text ("<what> (xN)", N = processes that printed it) for the table."""
    m = re.match(r"(.*) \(x(\d+)\)$", line)
    what, n = (m.group(1), int(m.group(2))) if m else (line, 1)
    entry = "real.stat.first" if what.startswith("first lock call ") else "real.stat.totals"
    return note(entry, n=n, many=n != 1, what=what.removeprefix("first lock call "))


def real_verdict(r):
    """The sentence that compares each program's ratios with the control's spread."""
    ctl = next((p for p in r["programs"] if p["program"] == "stress-ng-futex"), None)
    if not ctl:
        return ""
    others = [(p, p["ratio_min"] > ctl["ratio_max"], p["ratio_max"] < ctl["ratio_min"])
              for p in r["programs"] if p is not ctl]
    return note("real.verdict", lo=ctl["ratio_min"], hi=ctl["ratio_max"], moved="; ".join(
        note("real.moved", program=p["program"], ratio=p["ratio_median"], faster=faster)
        for p, faster, slower in others if faster or slower),
        inside=", ".join(f"`{p['program']}`" for p, faster, slower in others
                         if not (faster or slower)))


def real_section(archs, base=None):
    """The "Real programs" section: ci/bench/real.sh's summary.json per arch (BASE: the row of
    ci/bases.tsv they were measured on, default the first)."""
    parts = []
    for a in (a for a in archs if a["real"]):
        r, rows = a["real"], []
        for p in r["programs"]:
            what = "real.what." + p["program"]
            rows.append(note("real.row", p=p, glibc=fmt_ops(p["glibc_median"]),
                             what=note(what) if what in note.entries else p["program"],
                             tp=fmt_ops(p["tp_median"]),
                             stats="; ".join(map(real_stat, p.get("shim_stats", []))) or "-"))
        parts.append(note("real.arch", arch=a["arch"], r=Missing(r), many=r["rounds"] != 1,
                          rows="\n".join(rows), verdict=real_verdict(r)))
    suffix = base["suffix"] if base else ""
    return note("real.section", none=not parts, arches="\n\n".join(parts), suffix=suffix,
                make_base=f" BASE={base['base']}" if suffix else "")


# ---------------------------------------------------------------- bases

def base_version(b, archs):
    """The upstream version base B was measured on: meta.json's base_version (Debian's version
    of the kernel source, 7.2.13-1; ci/bench/perf-bench.sh), else the guest's uname -r, else
    the base's name."""
    metas = [a["meta"] for a in archs]
    for m in metas:
        if m.get("base_version"):
            return m["base_version"].split("-")[0]
    for m in metas:
        v = re.match(r"\d+\.\d+(\.\d+)?", m.get("guest_kernel", ""))
        if v:
            return v.group(0)
    return b["base"]


def base_title(b, archs):
    """'Linux 7.2.13 (Debian sid linux-source-7.2)': base B's version and Debian source."""
    origin = next((a["meta"]["base_origin"] for a in archs if a["meta"].get("base_origin")),
                  "Debian sid" if b["from"] == "sid" else "Debian")
    return f"Linux {base_version(b, archs)} ({origin} {b['package']})"


def demote(text):
    """TEXT with every heading one level lower (## -> ###): a page part inside a base section."""
    return re.sub(r"^(#{2,5}) ", r"#\1 ", text, flags=re.M)


# ---------------------------------------------------------------- outputs

def plot_list(made, suffix=""):
    return "\n\n".join(note("plot", caption=note("caption." + name), path=made[name + suffix])
                        for name in ("tp-ww", "tp-ceiling", "tp-adaptive")
                        if name + suffix in made)


def bases_line(groups, bases, results_dir):
    """The page's sentence on its kernel bases: the first group's (the page), the other
    groups' sections, and the bases without results."""
    (b0, archs0, _, _), others = groups[0], groups[1:]
    have = {g[0]["base"] for g in groups}
    return note("bases", title=base_title(b0, archs0), patches=b0["patches"],
                others="; ".join(note("bases.other", title=g[2], patches=g[0]["patches"])
                                 for g in others),
                missing="; ".join(note("bases.missing", base=b["base"], patches=b["patches"],
                                       results=os.path.relpath(results_dir, ROOT),
                                       suffix=b["suffix"])
                                  for b in bases if b["base"] not in have))


def base_section(g, first, made, have_gp, results_dir):
    """The section of a base other than the page's own: G = (row, archs, title, results)."""
    b, archs, title, results = g
    ver = base_version(b, archs)
    return render(
        "base.md.in", title=title, base=b["base"], patches=b["patches"], suffix=b["suffix"],
        results=os.path.relpath(results_dir, ROOT), first=first,
        arches=", ".join(a["arch"] for a in archs),
        goals_table=goals_per_arch(archs, results), no_gnuplot=not have_gp,
        plots=plot_list(made, b["suffix"]), reading=reading(archs, results),
        real_section=demote(real_section(archs, b)),
        arch_sections="\n\n".join(demote(arch_section(
            a, results[a["arch"]], made, f"{a['arch']}, Linux {ver}", b["patches"]))
            for a in archs))


def page(groups, bases, made, have_gp, results_dir):
    (b0, archs, title0, results) = groups[0]
    return render(
        "benchmarks.md.in", generator=GENERATOR, results=os.path.relpath(results_dir, ROOT),
        no_cpu=not any(has_cpu(a) for g in groups for a in g[1]),
        now=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        bases=bases_line(groups, bases, results_dir),
        host_nproc=archs[0]["meta"].get("host_nproc", "?"),
        goals_table=goals_per_arch(archs, results), no_gnuplot=not have_gp,
        plots=plot_list(made, b0["suffix"]),
        reading=reading(archs, results), real_section=real_section(archs, b0),
        arch_sections="\n\n".join(arch_section(a, results[a["arch"]], made,
                                                patches=b0["patches"]) for a in archs),
        other_bases="\n\n".join(base_section(g, title0, made, have_gp, results_dir)
                                 for g in groups[1:]))


def summary(g, source, quoted_base):
    """docs/bench/summary.txt: the emulation caveat, the kernel base, per arch the machine and
    the throughput ratios, then the real programs.  G: the group of the base it quotes;
    QUOTED_BASE: the row of the base the submission targets (ci/bases.tsv submit=yes)."""
    b, archs, title, _ = g
    by = {a["arch"]: a for a in archs}
    make_base = f" BASE={b['base']}" if b["suffix"] else ""
    parts = [plain_text("arch", arch=x, underline="-" * len(x), m=Missing(by[x]["meta"]),
                        ratio_table=ratio_table(by[x])) if x in by else
             plain_text("no-arch", arch=x, underline="-" * len(x), make_base=make_base)
             for x in ARCHES]
    real = [plain_text("real-arch", arch=a["arch"], r=a["real"], rows="\n".join(
        plain_text("real-row", p=p, control=p["program"] == "stress-ng-futex")
        for p in a["real"]["programs"])) for a in archs if a["real"]]
    return plain_text("summary", arches="\n\n".join(parts), source=source,
                      base=plain_text("base" if quoted_base in (None, b) else "base.other",
                                      title=title, base=b["base"],
                                      target=(quoted_base or b)["base"]),
                      real=plain_text("real", arches="\n\n".join(real)) if real else "")


def main():
    p = argparse.ArgumentParser(
        prog=GENERATOR, description=__doc__.split("\n\n")[0],
        epilog="Writes OUT, PLOTS/*.svg, PLOTS/data/*.dat and PLOTS/summary.txt.  Without "
               "gnuplot the page says the plots are missing.")
    p.add_argument("--results", default=os.path.join(ROOT, "results"),
                   help="directory with <arch>/summary.csv, and <arch>-<base>/summary.csv for "
                   "the other kernel bases of ci/bases.tsv (default results/)")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks.md"),
                   help="the page (default docs/benchmarks.md)")
    p.add_argument("--plots", default=os.path.join(ROOT, "docs", "bench"),
                   help="plots and summary.txt (default docs/bench)")
    p.add_argument("--source", help="where the summary says its numbers are from "
                   "(default: the page, as 'docs/benchmarks.md (make bench-report)')")
    a = p.parse_args()
    bases = load_bases()
    groups = []  # (row of ci/bases.tsv, its archs, its title, {arch: goal results})
    for b in bases:
        archs = load_archs(a.results, suffix=b["suffix"])
        if archs:
            groups.append((b, archs, base_title(b, archs),
                           {x["arch"]: G.evaluate(x) for x in archs}))
    if not groups:
        sys.exit(f"bench-report: no <arch>/summary.csv under {a.results}: run "
                 "'make bench ARCH=x86_64 BENCH=full' (or BENCH_SAVE=1) first")
    os.makedirs(a.plots, exist_ok=True)
    made, have_gp = {}, True
    for b, archs, _, _ in groups:
        m, have_gp = make_plots(archs, a.plots, b["suffix"], b["base"] if b["suffix"] else "")
        made.update(m)
    # image links relative to the page
    rel = os.path.relpath(a.plots, os.path.dirname(os.path.abspath(a.out)))
    made = {k: os.path.join(rel, os.path.basename(v)) for k, v in made.items()}
    with open(a.out, "w") as fh:
        fh.write(page(groups, bases, made, have_gp, a.results) + "\n")
    source = a.source or f"{os.path.relpath(os.path.abspath(a.out), ROOT)} (make bench-report)"
    submit = next((b for b in bases if b["submit"] == "yes"), None)
    quoted = next((g for g in groups if g[0] is submit), groups[0])
    with open(os.path.join(a.plots, "summary.txt"), "w") as fh:
        fh.write(summary(quoted, source, submit) + "\n")
    print(f"bench-report: wrote {a.out} ("
          + "; ".join(f"{b['base']}: {', '.join(x['arch'] for x in archs)}"
                      for b, archs, _, _ in groups)
          + f"; {len(made)} plots; summary.txt quotes {quoted[0]['base']})", file=sys.stderr)
    return 0
