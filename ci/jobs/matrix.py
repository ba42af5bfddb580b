#!/usr/bin/env python3
"""The workflows' matrices, from the tables: ci/jobs/matrix.py [--github]

Prints one JSON matrix per job kind (for fromJSON() in .github/workflows/*.yml), built from
ci/arches.tsv (the arches), ci/bases.tsv (the bases, and the build-dir suffix: none for the
first row, -<base> for the others, as ci/lib.sh's base_env) and ci/jobs/timeouts.tsv (each
leg's timeout-minutes):

  series        one leg per base
  build-test    one leg per arch and base; a leg whose arch is the runner's own (uname -m)
                gets container_options --device /dev/kvm (ci/vm/boot falls back to TCG when
                the guest does not boot under it)
  debug-stress  one leg per arch and base
  bench-full    one leg per arch and base

--github: as NAME=JSON lines for $GITHUB_OUTPUT; otherwise pretty-printed.  A base without a
timeout row fails, naming the row to add.
"""
import json
import os
import platform
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def rows(path, sep=None, ncol=None):
    out = []
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split(sep)
            if ncol and len(c) < ncol:
                sys.exit(f"matrix.py: {path}: row '{line.strip()}' has fewer than {ncol} columns")
            out.append(c)
    return out


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip())
        return 0
    if args not in ([], ["--github"]):
        sys.exit(f"matrix.py: unknown argument '{args[0]}': use --github or nothing (see --help)")
    arches = [c[0] for c in rows("ci/arches.tsv")]
    bases = [c[0] for c in rows("ci/bases.tsv", "\t", 6)]
    timeouts = {(c[0], c[1]): int(c[2]) for c in rows("ci/jobs/timeouts.tsv", "\t", 4)}
    host = {"amd64": "x86_64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())

    def timeout(job, base):
        if (job, base) not in timeouts:
            sys.exit(f"matrix.py: no timeout for job {job} on base {base}: add a row to ci/jobs/timeouts.tsv")
        return timeouts[(job, base)]

    def suffix(base):
        return "" if base == bases[0] else f"-{base}"

    out = {"series": {"include": [
        {"base": b, "suffix": suffix(b), "timeout": timeout("series", b)} for b in bases]}}
    for job in ("build-test", "debug-stress", "bench-full"):
        legs = []
        for b in bases:
            for a in arches:
                leg = {"arch": a, "base": b, "suffix": suffix(b), "timeout": timeout(job, b)}
                if job == "build-test":
                    leg["container_options"] = "--device /dev/kvm" if a == host else ""
                legs.append(leg)
        out[job] = {"include": legs}
    if args == ["--github"]:
        for k, v in out.items():
            print(f"{k}={json.dumps(v, separators=(',', ':'))}")
    else:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
