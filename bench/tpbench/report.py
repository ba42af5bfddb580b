"""docs/benchmarks.md, its plots and the plain-text summary from `make bench` results.

The page is bench/templates/benchmarks.md.in with one bench/templates/arch.md.in per arch; the
sentences that depend on the numbers are the entries of bench/templates/notes.md.in.  The
plain text (docs/bench/summary.txt, the benchmark block of make submission's cover letter,
and docs/bench/real-programs.txt) comes from bench/templates/summary.txt.in.
"""
import argparse
import os
import re
import statistics
import sys
from datetime import datetime, timezone

from . import goals as G
from .data import (ARCHES, LABEL, ROOT, TYPES, fnum, load_archs, ok, ops, plain, ratio,
                   spread, table_order, host_busy, tp_supported, vcpus)
from .plots import make_plots
from .text import (Missing, Notes, blocks, case_name, fmt_ops, fmt_pct, fmt_r, md_table,
                   render)

GENERATOR = "bench/report.py"
note = Notes("notes.md.in")
plain_text = Notes("summary.txt.in")

# v3 anchor (Waiman Long, 2016): 144 threads on a 4-socket 72-core Haswell-EX,
# 10 s per run, load = pause instructions in the critical section.
V3_WW = {5: 34925195, 10: 25191955, 20: 16322731, 30: 13109462, 40: 11052076,
         50: 9722942}
V3_TP = {5: 54622973, 10: 42577283, 20: 29424333, 30: 33664095, 40: 27998446,
         50: 25793991}
V3_SLEEP = ["1us sleep", "175,824", "179,067", "1.02"]

VERDICT = {G.MET: "met", G.MISSED: "**not met**", G.NOT_MEASURED: "n/a (not measured)",
           G.TP_UNSUPPORTED: "n/a (TP unsupported)"}


def runner_short(meta):
    r = meta.get("runner", "?")
    if r.startswith("make run"):
        return "make run"
    return r


# ---------------------------------------------------------------- tables

def throughput_table(a):
    cases = a["cases"]
    head = ["case"] + [LABEL[t] for t in TYPES] + ["TP/WW", "TP/adaptive", "TP/spin", "PI/WW"]
    rows = []
    for k in sorted(cases, key=table_order):
        c = cases[k]
        row = [case_name(k)]
        for t in TYPES:
            r = c.get(t)
            if not r:
                row.append("–")
            elif r["status"] != "ok":
                row.append(r["status"])
            else:
                sp = spread(r)
                row.append(f"{fmt_ops(ops(c, t))} ±{100 * sp:.0f}%" if sp is not None
                           else fmt_ops(ops(c, t)))
        row += [fmt_r(ratio(ops(c, "tp"), ops(c, "ww"))),
                fmt_r(ratio(ops(c, "tp"), ops(c, "adaptive"))),
                fmt_r(ratio(ops(c, "tp"), ops(c, "spin"))),
                fmt_r(ratio(ops(c, "pi"), ops(c, "ww")), 3)]
        rows.append(row)
    return md_table(head, rows)


def syscalls_table(a):
    cases = a["cases"]
    head = ["case", "WW lock", "WW unlock", "PI lock", "PI unlock", "TP lock", "TP unlock",
            "TP unlock syscalls (total)"]
    rows = []
    for k in sorted(cases, key=table_order):
        c = cases[k]
        row = [case_name(k)]
        for t in ("ww", "pi", "tp"):
            r = c.get(t) or {}
            row += [fmt_pct(fnum(r.get("lock_syscalls_per_op"))),
                    fmt_pct(fnum(r.get("unlock_syscalls_per_op")), 3)]
        r = ok(c, "tp")
        row.append(r.get("unlock_syscalls_total", "–") if r else "–")
        rows.append(row)
    return md_table(head, rows)


def fairness_table(a):
    cases = a["cases"]
    rows = []
    for k in sorted(cases, key=table_order):
        c = cases[k]
        row = [case_name(k)]
        for t in TYPES:
            r = ok(c, t)
            if not r:
                row.append("–")
                continue
            row.append(f"{fmt_ops(fnum(r['thr_min_median']))} / "
                       f"{fmt_ops(fnum(r['thr_avg_median']))}"
                       f" / {fmt_ops(fnum(r['thr_max_median']))} "
                       f"({fmt_r(fnum(r['thr_min_avg_ratio']))})")
        rows.append(row)
    return md_table(["case"] + [LABEL[t] for t in TYPES], rows)


def kinds_table(a):
    cases = a["cases"]
    rows = []
    for k in sorted(cases, key=table_order):
        r = ok(cases[k], "tp")
        if not r:
            continue
        s, tw, h = (fnum(r.get(x)) or 0 for x in ("stolen_total", "top_total", "handoff_total"))
        tot = s + tw + h
        pct = (lambda v: f"{v:.0f} ({100 * v / tot:.1f}%)") if tot else (lambda v: f"{v:.0f}")
        rows.append([case_name(k), fmt_pct(fnum(r.get("lock_syscalls_per_op"))),
                     pct(s), pct(tw), pct(h)])
    if not rows:
        return note("no-tp-data")
    return md_table(["case", "FUTEX_LOCK calls / op", "stolen (0)", "top waiter (1)",
                     "handoff (2)"], rows)


def goals_table(res):
    return md_table(["goal", "measured", "target", "verdict", "worst case"],
                    [[r.goal.name, r.measured(), r.goal.target, VERDICT[r.status],
                      r.worst_case()] for r in res.values()])


def goals_per_arch(archs, results):
    """The page's goal table: one column per arch."""
    L = ["| goal | target | " + " | ".join(a["arch"] for a in archs) + " |",
         "|---|---|" + "---|" * len(archs),
         "| measured with | | " + " | ".join(
             note("measured-with", runner=runner_short(a["meta"]), m=Missing(a["meta"]))
             for a in archs) + " |"]
    for g in G.GOALS:
        res = [results[a["arch"]][g.key] for a in archs]
        L.append(f"| {g.name} | {g.target} | "
                 + " | ".join(f"{r.measured()} ({VERDICT[r.status]})" for r in res) + " |")
    return "\n".join(L)


def arch_section(a, res, made):
    arch = a["arch"]
    return render(
        "arch.md.in", arch=arch, m=Missing(a["meta"]), busy=host_busy(a["meta"]),
        no_tp=not tp_supported(a), goals_table=goals_table(res),
        throughput_heading=note("throughput-heading"), throughput_table=throughput_table(a),
        syscalls_table=syscalls_table(a), syscalls_svg=made.get(f"syscalls-{arch}", ""),
        fairness_table=fairness_table(a), fairness_svg=made.get(f"fairness-{arch}", ""),
        kinds_table=kinds_table(a), kinds_svg=made.get(f"tpkinds-{arch}", ""))


# ---------------------------------------------------------------- reading

def findings(a):
    """A few data-driven sentences per arch."""
    out = []
    nv = vcpus(a)
    smp = a["meta"].get("smp")
    try:
        if smp is not None and int(smp) != nv:
            out.append(note("finding.smp", vcpus=nv, smp=smp))
    except ValueError:
        pass
    below = [k for k, c in a["cases"].items() if plain(k) and k[0] <= nv
             and ops(c, "spin") is not None and ops(c, "ww") is not None
             and ops(c, "spin") < ops(c, "ww")]
    total = [k for k in a["cases"] if plain(k) and k[0] <= nv]
    if below:
        out.append(note("finding.spin-below-ww", below=len(below), total=len(total)))
    if not tp_supported(a):
        return out
    for t in sorted({k[0] for k in a["cases"] if plain(k)}):
        pts = [(k[1], ratio(ops(a["cases"][k], "tp"), ops(a["cases"][k], "ww")))
               for k in sorted(a["cases"]) if plain(k) and k[0] == t]
        pts = [p for p in pts if p[1] is not None]
        if len(pts) >= 2:
            trend = "rises" if pts[-1][1] > pts[0][1] * 1.05 else \
                "falls" if pts[-1][1] < pts[0][1] / 1.05 else "flat"
            out.append(note("finding.tp-ww-trend", threads=t, vs="≤" if t <= nv else ">",
                            first=pts[0][1], first_load=pts[0][0], last=pts[-1][1],
                            last_load=pts[-1][0], trend=note("trend." + trend)))
    s = tw = h = 0.0
    calls = ops_ = 0.0
    unl = 0.0
    for k, c in a["cases"].items():
        r = ok(c, "tp")
        if not plain(k) or not r:
            continue
        s += fnum(r.get("stolen_total")) or 0
        tw += fnum(r.get("top_total")) or 0
        h += fnum(r.get("handoff_total")) or 0
        ops_ += fnum(r.get("ops_total")) or 0
        unl += fnum(r.get("unlock_syscalls_total")) or 0
        calls += (fnum(r.get("lock_syscalls_per_op")) or 0) * (fnum(r.get("ops_total")) or 0)
    wl = [fnum(c["ww"].get("lock_syscalls_per_op")) for k, c in a["cases"].items()
          if plain(k) and ok(c, "ww")]
    tl = [fnum(c["tp"].get("lock_syscalls_per_op")) for k, c in a["cases"].items()
          if plain(k) and ok(c, "tp")]
    wl, tl = [x for x in wl if x is not None], [x for x in tl if x is not None]
    if wl and tl:
        out.append(note("finding.lock-syscalls", ww_min=100 * min(wl), ww_max=100 * max(wl),
                        tp_min=100 * min(tl), tp_max=100 * max(tl)))
    tot = s + tw + h
    if tot and ops_:
        out.append(note("finding.tp-kernel", lock=100 * calls / ops_, unlock=100 * unl / ops_,
                        unlock_calls=unl, ops=ops_, stolen=100 * s / tot, top=100 * tw / tot,
                        handoff=100 * h / tot))
    return out


def missed_why(a, res):
    """One bullet per missed goal of one arch: the numbers behind the miss and where to read why."""
    out = []

    def missed(key):
        return res[key].ok is False

    def shown(key):
        return {"measured": res[key].measured(), "where": res[key].worst_case()}

    if missed("tp-spin"):
        pts = [(k[1], r) for k, r in G.tp_spin_points(a)]
        out.append(note("missed.tp-spin", **shown("tp-spin"),
                        points=", ".join(note("missed.tp-spin.point", ratio=r, load=l)
                                         for l, r in pts),
                        shrinks=note.opt(len(pts) > 1 and pts[-1][1] > pts[0][1],
                                         "missed.tp-spin.shrinks")))
    if missed("tp-best"):
        bad = G.tp_losses(a)
        within = all(w for *_, w in bad)
        out.append(note("missed.tp-best", slower=len(bad), comparisons=2 * len(a["cases"]),
                        cases="; ".join(note("missed.tp-best.case", case=case_name(k),
                                             type=LABEL[t]) for k, t, *_ in bad),
                        tail=note("missed.tp-best." + ("within" if within else "beyond"))))
    if missed("tp-ww-sleep"):
        out.append(note("missed.tp-ww-sleep", **shown("tp-ww-sleep")))
    if missed("unlock-syscalls"):
        out.append(note("missed.unlock-syscalls", **shown("unlock-syscalls")))
    if missed("fairness"):
        out.append(note("missed.fairness", **shown("fairness")))
    if missed("longest-wait"):
        out.append(missed_wait(a, shown("longest-wait")))
    if missed("previous"):
        prev_rows = [r for c in a["previous"]["cases"].values() for r in c.values()]
        untimed = all(r.get("wait_max_us_max") in (None, "", "na") for r in prev_rows)
        out.append(note("missed.previous", **shown("previous"),
                        untimed=note.opt(untimed, "missed.previous.untimed"),
                        spread=baseline_spread(a)))
    if missed("exit-cost"):
        e = a["exit"]
        control = ""
        if "control_ratio" in e:
            lo = min(e["control_ratio_min"], e["control_ratio"])
            control = note("missed.exit-cost.control", ratio=e["control_ratio"],
                           lo=e["control_ratio_min"], hi=e["control_ratio_max"],
                           verdict=note("missed.exit-cost." +
                                        ("noise" if lo <= e["ratio"] else "beyond-noise")))
        some = e["ratio_max"] >= G.GOAL["exit-cost"].threshold
        out.append(note("missed.exit-cost", **shown("exit-cost"), control=control,
                        boots=note("missed.exit-cost." + ("some-boots" if some else "all-boots"))))
    return out


def missed_wait(a, shown):
    """The bullet of the longest-wait goal: TP's wait against the other types' in that case."""
    v, k = G.tp_longest_wait(a)
    med = fnum(a["cases"][k]["tp"].get("wait_max_us_median"))
    ms = med / 1000 if med is not None else None
    others = {t: G.longest_wait(a, t, k) for t in TYPES if t != "tp"}
    others = {t: w for t, w in others.items() if w is not None}
    floor = max(others.items(), key=lambda tw: tw[1]) if others else None
    spin = others.get("spin")
    s = note("missed.wait", **shown, median=note.opt(med is not None, "missed.wait.median",
                                                      median=ms))
    if spin is not None:
        s += note("missed.wait.spin", spin=spin / 1000,
                  other=note.opt(floor and floor[0] != "spin", "missed.wait.spin.other",
                                 type=LABEL[floor[0]], wait=floor[1] / 1000))
    if floor and floor[1] >= v:
        s += note("missed.wait.as-long", machine=note("missed.wait.machine"))
    elif floor and floor[1] >= G.WAIT_LIMIT_US:
        outlier = med is not None and med <= G.WAIT_LIMIT_US
        s += note("missed.wait.also-past", machine=note("missed.wait.machine"),
                  tail=note("missed.wait.outlier", median=ms) if outlier
                  else note("missed.wait.look"))
    elif floor:
        s += note("missed.wait.longest",
                  though=note.opt(med is not None, "missed.wait.though", median=ms))
    return s


def baseline_spread(a):
    """How TP/WW moved against the previous run over all cases, as a sentence."""
    prev = a.get("previous")
    rel = []
    for k, c in a["cases"].items():
        pc = prev["cases"].get(k) if prev else None
        now = ratio(ops(c, "tp"), ops(c, "ww"))
        before = ratio(ops(pc, "tp"), ops(pc, "ww")) if pc else None
        sp = [spread(x) for x in (c.get("tp"), c.get("ww"))]
        if now is None or before is None or None in sp:
            continue
        rel.append((now / before, sum(sp)))
    if not rel:
        return ""
    lower = sum(1 for r, sp in rel if r < 1 - sp)
    higher = sum(1 for r, sp in rel if r > 1 + sp)
    med = statistics.median(r for r, _ in rel)
    scattered = lower <= higher and med >= 0.95
    return note("missed.previous.spread", cases=len(rel), lower=lower, higher=higher,
                median=med,
                verdict=note("missed.previous." + ("scattered" if scattered else "drop")))


def reading(archs, results):
    """The "Reading" section after "Automatic findings:"."""
    parts = []
    met = []
    for a in archs:
        res = results[a["arch"]].values()
        na = sum(1 for r in res if r.ok is None)
        met.append(note("reading.goals-met", arch=a["arch"], accel=a["meta"].get("accel", "?"),
                        met=sum(1 for r in res if r.status == G.MET), goals=len(res),
                        na=note.opt(na, "reading.not-measurable", na=na)))
    parts.append("\n".join(met))
    lo = [note("reading.loss", arch=a["arch"], case=case_name(k), tp=fmt_ops(tp),
               type=LABEL[t], other=fmt_ops(o), ratio=tp / o,
               within=note.opt(w, "reading.loss.within"))
          for a in archs for k, t, tp, o, w in G.tp_losses(a)]
    if lo:
        parts += [note("reading.losses"), "\n".join(lo)]
    elif any(tp_supported(a) for a in archs):
        parts.append(note("reading.no-losses"))
    for a in archs:
        fl = findings(a)
        if fl:
            parts += [note("reading.arch", arch=a["arch"]), "\n".join(fl)]
    summary = []
    for a in archs:
        n = lost = 0
        for c in a["cases"].values():
            tp, best = G.tp_vs_best(c)
            if tp is None or best is None:
                continue
            n += 1
            lost += tp < best
        if n:
            summary.append((a["arch"], lost, n))
    if summary:
        parts.append(note("reading.in-short", arches="; ".join(
            note("reading.in-short.arch", arch=arch, lost=lost, cases=n)
            for arch, lost, n in summary)))
        if any(lost * 2 > n for _, lost, n in summary):
            parts.append(note("reading.losing-most"))
    why = [(x["arch"], missed_why(x, results[x["arch"]])) for x in archs if tp_supported(x)]
    if any(w for _, w in why):
        parts.append(note("reading.missed"))
        for arch, w in why:
            if w:
                parts += [note("reading.arch", arch=arch), "\n".join(w)]
    return blocks(*parts)


# ---------------------------------------------------------------- real programs

def real_what(program):
    """What the program does, for the table (its name if notes.md.in does not say)."""
    entry = "real.what." + program
    return note(entry) if entry in note else program


def real_stat(line):
    """A TPF-REAL-STATS text ("<what> (xN)", N = processes that printed it) for the table."""
    m = re.match(r"(.*) \(x(\d+)\)$", line)
    what, n = (m.group(1), int(m.group(2))) if m else (line, 1)
    procs = note("real.processes" if n != 1 else "real.process", n=n)
    if what.startswith("first lock call "):
        return note("real.stat.first", processes=procs, what=what[len("first lock call "):])
    return note("real.stat.totals", processes=procs, what=what)


def real_verdict(r):
    """The sentence that compares each program's ratios with the control's spread."""
    ctl = next((p for p in r["programs"] if p["program"] == "stress-ng-futex"), None)
    if not ctl:
        return ""
    out = []
    for p in r["programs"]:
        if p is ctl:
            continue
        if p["ratio_min"] > ctl["ratio_max"]:
            out.append(note("real.faster", program=p["program"], ratio=p["ratio_median"]))
        elif p["ratio_max"] < ctl["ratio_min"]:
            out.append(note("real.slower", program=p["program"], ratio=p["ratio_median"]))
    inside = [f"`{p['program']}`" for p in r["programs"] if p is not ctl and
              not (p["ratio_min"] > ctl["ratio_max"] or p["ratio_max"] < ctl["ratio_min"])]
    return note("real.verdict", lo=ctl["ratio_min"], hi=ctl["ratio_max"],
                moved="; ".join(out) if out else note("real.none-moved"),
                inside=note.opt(inside, "real.inside", programs=", ".join(inside)))


def real_section(archs):
    """The "Real programs" section: ci/bench/real.sh's summary.json per arch."""
    have = [a for a in archs if a.get("real")]
    parts = []
    for a in have:
        r = a["real"]
        rows = [note("real.row", p=p, what=real_what(p["program"]),
                     glibc=fmt_ops(p["glibc_median"]), tp=fmt_ops(p["tp_median"]),
                     stats="; ".join(real_stat(x) for x in p.get("shim_stats", [])) or "-")
                for p in r["programs"]]
        parts.append(note("real.arch", arch=a["arch"], r=Missing(r),
                          rounds=note("real.rounds" if r["rounds"] != 1 else "real.round",
                                      n=r["rounds"]),
                          rows="\n".join(rows), verdict=real_verdict(r)))
    return note("real.section", none=not have, arches="\n\n".join(parts))


def real_text(archs):
    """The real-programs results as plain text, for a mail ("" without any)."""
    have = [a for a in archs if a.get("real")]
    if not have:
        return ""
    return plain_text("real", arches="\n\n".join(
        plain_text("real-arch", arch=a["arch"], r=a["real"], rows="\n".join(
            plain_text("real-row", p=p, control=plain_text.opt(
                p["program"] == "stress-ng-futex", "real-control"))
            for p in a["real"]["programs"]))
        for a in have))


# ---------------------------------------------------------------- outputs

def page(archs, results, made, have_gp, results_dir):
    plots = [note("plot", caption=note("caption." + name), path=made[name])
             for name in ("tp-ww", "tp-ceiling", "tp-adaptive") if name in made]
    v3 = [[str(l), f"{V3_WW[l]:,}", f"{V3_TP[l]:,}", f"{V3_TP[l] / V3_WW[l]:.2f}"]
          for l in sorted(V3_WW)] + [V3_SLEEP]
    return render(
        "benchmarks.md.in", generator=GENERATOR, results=os.path.relpath(results_dir, ROOT),
        now=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        host_nproc=archs[0]["meta"].get("host_nproc", "?"),
        goals_table=goals_per_arch(archs, results), no_gnuplot=not have_gp,
        plots="\n\n".join(plots),
        v3_table=md_table(["load", "WW ops (10 s)", "TP ops (10 s)", "TP/WW"], v3),
        reading=reading(archs, results), real_section=real_section(archs),
        arch_sections="\n\n".join(arch_section(a, results[a["arch"]], made) for a in archs))


def summary(archs, source):
    """docs/bench/summary.txt: per arch the machine and the throughput table, then the real
    programs; the benchmark block of make submission's cover letter."""
    by = {a["arch"]: a for a in archs}
    parts = []
    for arch in ARCHES:
        a = by.get(arch)
        if a:
            parts.append(plain_text("arch", arch=arch, underline="-" * len(arch),
                                    m=Missing(a["meta"]),
                                    throughput_heading=note("throughput-heading"),
                                    throughput_table=throughput_table(a)))
        else:
            parts.append(plain_text("no-arch", arch=arch, underline="-" * len(arch)))
    return plain_text("summary", arches="\n\n".join(parts), source=source,
                      real_programs=real_text(archs))


def main():
    p = argparse.ArgumentParser(
        prog=GENERATOR, description=__doc__.split("\n\n")[0],
        epilog="Writes OUT, PLOTS/*.svg, PLOTS/data/*.dat, PLOTS/summary.txt and "
               "PLOTS/real-programs.txt.  Without gnuplot the page says the plots are missing.")
    p.add_argument("--results", default=os.path.join(ROOT, "results"),
                   help="directory with <arch>/summary.csv (default results/)")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks.md"),
                   help="the page (default docs/benchmarks.md)")
    p.add_argument("--plots", default=os.path.join(ROOT, "docs", "bench"),
                   help="plots and text blocks (default docs/bench)")
    p.add_argument("--source", help="where the summary says its numbers are from "
                   "(default: the page, as 'docs/benchmarks.md (make bench-report)')")
    a = p.parse_args()
    archs = load_archs(a.results)
    if not archs:
        sys.exit(f"bench-report: no <arch>/summary.csv under {a.results}: run "
                 "'make bench ARCH=x86_64 BENCH=full' (or BENCH_SAVE=1) first")
    results = {x["arch"]: G.evaluate(x) for x in archs}
    os.makedirs(a.plots, exist_ok=True)
    made, have_gp = make_plots(archs, a.plots)
    # image links relative to the page
    rel = os.path.relpath(a.plots, os.path.dirname(os.path.abspath(a.out)))
    made = {k: os.path.join(rel, os.path.basename(v)) for k, v in made.items()}
    with open(a.out, "w") as fh:
        fh.write(page(archs, results, made, have_gp, a.results) + "\n")
    source = a.source or f"{os.path.relpath(os.path.abspath(a.out), ROOT)} (make bench-report)"
    with open(os.path.join(a.plots, "summary.txt"), "w") as fh:
        fh.write(summary(archs, source) + "\n")
    real = real_text(archs)
    with open(os.path.join(a.plots, "real-programs.txt"), "w") as fh:
        fh.write(real + "\n" if real else "")
    print(f"bench-report: wrote {a.out} ({', '.join(x['arch'] for x in archs)}; "
          f"{len(made)} plots)", file=sys.stderr)
    return 0
