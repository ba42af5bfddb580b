#!/usr/bin/env python3
"""Replay a GitHub Actions workflow job on this machine, step by step, as the runner would.

  ci/gh/replay-workflow.py [--workflow FILE] [--event EVENT] [--ref REF] [--leg LEG]
                        [--rev REV | --worktree] [--cold] [--dry-run] [--verbose] JOB...

--leg picks matrix legs: a leg's name (x86_64-7.2: its matrix values joined by '-'), or one or
more matrix values, comma-separated, that a leg must all have (x86_64; 7.2; x86_64,7.2).

For every matrix leg of every JOB (a job id, or "all" for every job of the workflow) it makes a
fresh `git clone` of the repository's committed HEAD (--rev: another commit; --worktree: HEAD
plus the work tree's uncommitted and untracked, non-ignored files) in
build/replay/<job>[-<leg>]/src and runs the job's steps there in order:

  run:   bash --noprofile --norc -eo pipefail (shell: bash), bash -e {0} (no shell:, like the
         runner's default on Linux), with ${{ }} expressions substituted (matrix, steps.<id>.outputs,
         env, github.event_name/ref/sha/..., runner, job, hashFiles, format, ...);
         workflow/job/step env:, GITHUB_OUTPUT/GITHUB_ENV/GITHUB_PATH/GITHUB_STEP_SUMMARY files,
         GITHUB_WORKSPACE, a fresh HOME (build/replay/<job>-<leg>/home, like /github/home);
  if:    evaluated (success(), failure(), always(), cancelled(), !, &&, ||, ==, !=, <, >, ...;
         an if: without a status function means success() && (...)); continue-on-error;
         timeout-minutes of the job (also ${{ matrix.* }}) and of each step are enforced like
         the runner does;
  uses:  actions/checkout = the clone; actions/cache/restore = ~/... paths linked to this host's
         own (e.g. ~/.cache/ccache, so a replay sees a warm ccache; --cold: a miss);
         actions/cache/save = prints what it would save; actions/upload-artifact = copies the
         files into build/replay/<job>-<leg>/artifacts/<name>/ (globs, !excludes, hidden-file
         rule, if-no-files-found); actions/download-artifact = copies an artifact of this replay
         back; any other action fails the leg.

The container: image and services are not started: steps run on this host (Debian 12 like the
workflow's debian:bookworm, as root like the container).  Step logs: logs/NN-<step>.log; the job
summary: summary.md; annotations (::error/::warning/::notice lines): annotations.txt; step times:
times.tsv.  One line per job and leg: PASS/FAIL/SKIP, the time and, for a failure, the failing step
and its log.  Exit status 1 if any leg failed, 2 on bad usage.

--dry-run prints, per job and leg, the substituted steps, the if: decision (when all earlier steps
passed, and when one failed) and what each uses: action would do, without cloning or running.
"""
import argparse
import fnmatch
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROG = "replay-workflow"
DEFAULT_WORKFLOW = ".github/workflows/ci.yml"
EVENTS = ("pull_request", "push", "workflow_dispatch", "schedule")
STATUS_FUNCS = ("success", "failure", "always", "cancelled")
# Host variables a step may see (the basics, and how this host reaches the network: proxies and
# extra CA certificates); everything else (MAKEFLAGS, MAKELEVEL, our Makefile's exported
# CPUS/MEM/ACCEL/KCONFIG, ...) stays out, as it would on a runner.
PASS_ENV = ("PATH", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ",
            "TERM", "http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
            "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE",
            "GIT_SSL_CAINFO")
DEFAULT_JOB_TIMEOUT = 360


class UsageError(Exception):
    """Bad input: one line naming what is wrong and the fix (exit 2)."""


class ExprError(Exception):
    """An expression the replay cannot evaluate."""


def rel(path):
    """Path relative to the repository root, for messages."""
    p = os.path.relpath(path, TOP)
    return path if p.startswith("..") else p


def fmt_time(s):
    s = int(round(s))
    return f"{s // 60}m{s % 60:02d}s"


# ---------------------------------------------------------------------------------------------
# Expressions: ${{ ... }}
# ---------------------------------------------------------------------------------------------

TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>'(?:[^']|'')*')
  | (?P<num>0x[0-9a-fA-F]+|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
  | (?P<op>==|!=|<=|>=|&&|\|\||[!<>()\[\],.*])
  | (?P<id>[A-Za-z_][A-Za-z0-9_-]*)
""", re.X)


def tokenize(src):
    toks, pos = [], 0
    while pos < len(src):
        m = TOKEN_RE.match(src, pos)
        if not m:
            raise ExprError(f"cannot parse expression '{src}' at '{src[pos:pos + 10]}'")
        pos = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        toks.append((kind, m.group(kind)))
    return toks


class Parser:
    """Recursive descent over the token list; nodes are tuples."""

    def __init__(self, src):
        self.src = src
        self.toks = tokenize(src)
        self.i = 0

    def peek(self, value=None):
        if self.i >= len(self.toks):
            return None
        t = self.toks[self.i]
        if value is not None and not (t[0] == "op" and t[1] == value):
            return None
        return t

    def take(self, value=None):
        t = self.peek(value)
        if t is None:
            want = f"'{value}'" if value else "more input"
            raise ExprError(f"expression '{self.src}': expected {want}")
        self.i += 1
        return t

    def parse(self):
        node = self.or_()
        if self.i != len(self.toks):
            raise ExprError(f"expression '{self.src}': unexpected '{self.toks[self.i][1]}'")
        return node

    def or_(self):
        node = self.and_()
        while self.peek("||"):
            self.take()
            node = ("or", node, self.and_())
        return node

    def and_(self):
        node = self.eq()
        while self.peek("&&"):
            self.take()
            node = ("and", node, self.eq())
        return node

    def eq(self):
        node = self.cmp()
        while self.peek("==") or self.peek("!="):
            op = self.take()[1]
            node = ("cmp", op, node, self.cmp())
        return node

    def cmp(self):
        node = self.unary()
        while any(self.peek(o) for o in ("<", "<=", ">", ">=")):
            op = self.take()[1]
            node = ("cmp", op, node, self.unary())
        return node

    def unary(self):
        if self.peek("!"):
            self.take()
            return ("not", self.unary())
        return self.postfix()

    def postfix(self):
        node = self.primary()
        while True:
            if self.peek("."):
                self.take()
                t = self.take()
                if t[0] == "id":
                    node = ("prop", node, t[1])
                elif t == ("op", "*"):
                    raise ExprError(f"expression '{self.src}': object filters (.*) are not supported by the replay")
                else:
                    raise ExprError(f"expression '{self.src}': expected a property name after '.'")
            elif self.peek("["):
                self.take()
                idx = self.or_()
                self.take("]")
                node = ("index", node, idx)
            else:
                return node

    def primary(self):
        t = self.take()
        kind, val = t
        if kind == "str":
            return ("lit", val[1:-1].replace("''", "'"))
        if kind == "num":
            return ("lit", int(val, 16) if val.lower().startswith("0x") else float(val))
        if kind == "op" and val == "(":
            node = self.or_()
            self.take(")")
            return node
        if kind == "id":
            if val in ("true", "false"):
                return ("lit", val == "true")
            if val == "null":
                return ("lit", None)
            if self.peek("("):
                self.take()
                args = []
                if not self.peek(")"):
                    args.append(self.or_())
                    while self.peek(","):
                        self.take()
                        args.append(self.or_())
                self.take(")")
                return ("call", val.lower(), args)
            return ("ctx", val.lower())
        raise ExprError(f"expression '{self.src}': unexpected '{val}'")


def uses_status_func(node):
    """Does the AST call success(), failure(), always() or cancelled() anywhere?"""
    if isinstance(node, list):
        return any(uses_status_func(n) for n in node)
    if not isinstance(node, tuple):
        return False
    if node[0] == "call" and node[1] in STATUS_FUNCS:
        return True
    return any(uses_status_func(c) for c in node[1:] if isinstance(c, (tuple, list)))


def truthy(v):
    if v is None or v is False:
        return False
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v != 0
    if isinstance(v, str):
        return v != ""
    return True


def to_num(v):
    if v is None:
        return 0
    if isinstance(v, bool):
        return 1 if v else 0
    if isinstance(v, (int, float)):
        return v
    if isinstance(v, str):
        s = v.strip()
        if s == "":
            return 0
        try:
            return int(s, 16) if s.lower().startswith("0x") else float(s)
        except ValueError:
            return float("nan")
    return float("nan")


def to_str(v):
    if v is None:
        return ""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (dict, list)):
        return json.dumps(v, indent=2)
    return str(v)


def compare(op, a, b):
    # GitHub: strings compare case-insensitively; different types are compared as numbers.
    if isinstance(a, str) and isinstance(b, str):
        a, b = a.casefold(), b.casefold()
    elif type(a) is not type(b) or a is None or isinstance(a, bool):
        a, b = to_num(a), to_num(b)
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def lookup(obj, key):
    """Property access: case-insensitive on mappings, null when missing."""
    if isinstance(obj, Placeholder):
        return obj.child(key)
    if isinstance(obj, dict):
        if key in obj:
            return obj[key]
        for k, v in obj.items():
            if isinstance(k, str) and k.casefold() == str(key).casefold():
                return v
        return None
    if isinstance(obj, list) and isinstance(key, (int, float)) and not isinstance(key, bool):
        i = int(key)
        return obj[i] if 0 <= i < len(obj) else None
    return None


class Placeholder:
    """A value only known at run time (dry-run): renders as <steps.key.outputs.key>."""

    def __init__(self, path):
        self.path = path

    def child(self, key):
        return Placeholder(f"{self.path}.{key}")

    def __str__(self):
        return f"<{self.path}>"


class Evaluator:
    def __init__(self, contexts, status, workspace):
        self.contexts = contexts          # name -> value
        self.status = status              # "success" | "failure" | "cancelled"
        self.workspace = workspace

    def eval(self, node):
        kind = node[0]
        if kind == "lit":
            return node[1]
        if kind == "ctx":
            if node[1] not in self.contexts:
                raise ExprError(f"unknown context '{node[1]}' (the replay knows: {', '.join(sorted(self.contexts))})")
            return self.contexts[node[1]]
        if kind == "prop":
            return lookup(self.eval(node[1]), node[2])
        if kind == "index":
            return lookup(self.eval(node[1]), self.eval(node[2]))
        if kind == "not":
            return not truthy(self.eval(node[1]))
        if kind == "and":
            left = self.eval(node[1])
            return self.eval(node[2]) if truthy(left) else left
        if kind == "or":
            left = self.eval(node[1])
            return left if truthy(left) else self.eval(node[2])
        if kind == "cmp":
            a, b = self.eval(node[2]), self.eval(node[3])
            if isinstance(a, Placeholder) or isinstance(b, Placeholder):
                return False
            return compare(node[1], a, b)
        if kind == "call":
            return self.call(node[1], [self.eval(a) for a in node[2]])
        raise ExprError(f"bad expression node {kind}")

    def call(self, name, args):
        if name == "success":
            return self.status == "success"
        if name == "failure":
            return self.status == "failure"
        if name == "always":
            return True
        if name == "cancelled":
            return self.status == "cancelled"
        if name == "contains":
            hay, needle = args
            if isinstance(hay, list):
                return any(compare("==", h, needle) for h in hay)
            return to_str(needle).casefold() in to_str(hay).casefold()
        if name == "startswith":
            return to_str(args[0]).casefold().startswith(to_str(args[1]).casefold())
        if name == "endswith":
            return to_str(args[0]).casefold().endswith(to_str(args[1]).casefold())
        if name == "format":
            out = to_str(args[0])
            out = out.replace("{{", "\0").replace("}}", "\1")
            for i, a in enumerate(args[1:]):
                out = out.replace("{" + str(i) + "}", to_str(a))
            return out.replace("\0", "{").replace("\1", "}")
        if name == "join":
            sep = to_str(args[1]) if len(args) > 1 else ","
            return sep.join(to_str(a) for a in args[0]) if isinstance(args[0], list) else to_str(args[0])
        if name == "tojson":
            return json.dumps(args[0], indent=2, default=str)
        if name == "fromjson":
            return json.loads(to_str(args[0]))
        if name == "hashfiles":
            return hash_files(self.workspace, [to_str(a) for a in args])
        raise ExprError(f"unknown function '{name}()' (the replay knows success failure always cancelled "
                        "contains startsWith endsWith format join toJSON fromJSON hashFiles)")


def find_expr_end(s, start):
    """Index of the '}}' closing the expression that starts at s[start:] (skips string literals)."""
    i, n = start, len(s)
    while i < n:
        c = s[i]
        if c == "'":
            j = i + 1
            while j < n:
                if s[j] == "'":
                    if j + 1 < n and s[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            i = j + 1
            continue
        if s.startswith("}}", i):
            return i
        i += 1
    raise ExprError(f"unterminated '${{{{' in: {s[:80]}")


def substitute(s, ev):
    """Replace every ${{ expr }} in the string s."""
    if not isinstance(s, str) or "${{" not in s:
        return s
    out, pos = [], 0
    while True:
        i = s.find("${{", pos)
        if i < 0:
            out.append(s[pos:])
            return "".join(out)
        j = find_expr_end(s, i + 3)
        out.append(s[pos:i])
        out.append(to_str(ev.eval(Parser(s[i + 3:j].strip()).parse())))
        pos = j + 2


def condition_ast(cond):
    """The if: condition as an AST, with the implicit success() && (...) when no status function."""
    if cond is None:
        return ("call", "success", [])
    if isinstance(cond, bool):
        src = "true" if cond else "false"
    else:
        src = str(cond).strip()
        if src.startswith("${{") and src.endswith("}}") and src.count("${{") == 1:
            src = src[3:-2].strip()
    node = Parser(src).parse()
    if not uses_status_func(node):
        node = ("and", ("call", "success", []), node)
    return node


def hash_files(workspace, patterns):
    """hashFiles(): sha256 over the sha256 of every matched file, in path order; '' if none."""
    files = set()
    for pat in patterns:
        neg = pat.startswith("!")
        p = pat[1:] if neg else pat
        matched = {f for f in glob.glob(os.path.join(workspace, p), recursive=True, include_hidden=True)
                   if os.path.isfile(f)}
        files = files - matched if neg else files | matched
    if not files:
        return ""
    total = hashlib.sha256()
    for f in sorted(files):
        with open(f, "rb") as fh:
            total.update(hashlib.sha256(fh.read()).digest())
    return total.hexdigest()


# ---------------------------------------------------------------------------------------------
# Workflow model
# ---------------------------------------------------------------------------------------------

def load_workflow(path, rev=None):
    """The workflow at PATH, as committed in REV when PATH is in this repository and REV is given
    (the runner reads the workflow of the commit it runs), else as the file on disk."""
    try:
        import yaml
    except ImportError:
        raise UsageError("python3-yaml is missing: apt-get install python3-yaml (listed in ci/deps/packages-docs.txt; 'make deps')")
    inrepo = not os.path.isabs(rel(path))
    if rev and inrepo:
        r = subprocess.run(["git", "-C", TOP, "show", f"{rev}:{rel(path)}"], capture_output=True, text=True)
        if r.returncode:
            if os.path.isfile(path):
                raise UsageError(f"{rel(path)} is not in commit {rev[:12]} (not committed yet?): commit it, "
                                 "or replay the work tree with WORKTREE=1")
            raise UsageError(f"no workflow file '{rel(path)}': use WORKFLOW=.github/workflows/<name>.yml "
                             f"(there: {', '.join(workflow_files()) or 'none'})")
        text = r.stdout
    else:
        if not os.path.isfile(path):
            raise UsageError(f"no workflow file '{rel(path)}': use WORKFLOW=.github/workflows/<name>.yml "
                             f"(there: {', '.join(workflow_files()) or 'none'})")
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    wf = yaml.safe_load(text)
    if not isinstance(wf, dict) or not isinstance(wf.get("jobs"), dict):
        raise UsageError(f"{rel(path)} has no jobs: mapping: is it a workflow file?")
    # YAML 1.1 reads the key "on" as the boolean true.
    if True in wf and "on" not in wf:
        wf["on"] = wf.pop(True)
    return wf


def workflow_files():
    d = os.path.join(TOP, ".github", "workflows")
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(".github/workflows", f) for f in os.listdir(d) if f.endswith((".yml", ".yaml")))


def triggers(wf):
    on = wf.get("on")
    if isinstance(on, str):
        return [on]
    if isinstance(on, list):
        return list(on)
    if isinstance(on, dict):
        return list(on)
    return []


def expand_matrix(strategy):
    """The matrix legs as a list of (leg name, matrix dict), the runner's include/exclude rules."""
    m = (strategy or {}).get("matrix")
    if not m:
        return [("", {})]
    if not isinstance(m, dict):
        raise UsageError("a matrix given as an expression cannot be replayed: write its values out")
    base = {k: v for k, v in m.items() if k not in ("include", "exclude")}
    combos = [{}] if base else []
    for k, vals in base.items():
        if not isinstance(vals, list):
            raise UsageError(f"matrix key '{k}' is not a list: the replay needs the values written out")
        combos = [dict(c, **{k: v}) for c in combos for v in vals]
    for ex in m.get("exclude") or []:
        combos = [c for c in combos if not all(c.get(k) == v for k, v in ex.items())]
    originals = [dict(c) for c in combos]
    for inc in m.get("include") or []:
        hit = False
        for c, orig in zip(combos, originals):
            if all(k not in orig or orig[k] == v for k, v in inc.items()):
                c.update(inc)
                hit = True
        if not hit:
            combos.append(dict(inc))
            originals.append(dict(inc))
    legs = []
    for c, orig in zip(combos, originals):
        keys = [k for k in orig if k in base] or list(orig)
        legs.append(("-".join(to_str(orig[k]) for k in keys), c))
    return legs


def leg_selected(sel, name, matrix):
    """--leg SEL: the leg's name, or comma-separated values that are all among its matrix values."""
    if sel == name:
        return True
    parts = [p.strip() for p in sel.split(",")]
    values = set(map(to_str, matrix.values()))
    return all(parts) and all(p in values for p in parts)


def shell_command(shell, script):
    """argv for a run: step, as the runner builds it on Linux."""
    if shell in (None, ""):
        return ["bash", "-e", script]
    if shell == "bash":
        return ["bash", "--noprofile", "--norc", "-eo", "pipefail", script]
    if shell == "sh":
        return ["sh", "-e", script]
    if shell == "python":
        return ["python3", script]
    if "{0}" in shell:
        return [a.replace("{0}", script) for a in shlex.split(shell)]
    raise UsageError(f"shell '{shell}' is not supported by the replay: use bash, sh, python or a command with {{0}}")


def parse_file_command(text, what):
    """NAME=value and NAME<<DELIM ... DELIM lines (GITHUB_OUTPUT, GITHUB_ENV)."""
    out = {}
    lines = text.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line == "":
            continue
        eq, hd = line.find("="), line.find("<<")
        if hd >= 0 and (eq < 0 or hd < eq):
            name, delim = line[:hd], line[hd + 2:]
            val = []
            while i < len(lines) and lines[i] != delim:
                val.append(lines[i])
                i += 1
            if i >= len(lines):
                raise ExprError(f"{what}: '{name}<<{delim}' is never closed by a '{delim}' line")
            i += 1
            out[name] = "\n".join(val)
        elif eq > 0:
            out[line[:eq]] = line[eq + 1:]
        else:
            raise ExprError(f"{what}: invalid line '{line[:60]}' (want NAME=value or NAME<<DELIMITER)")
    return out


ANNOT_RE = re.compile(r"^::(error|warning|notice)(?: ([^:]*))?::(.*)$")
ANNOT_KEYS = {"title", "file", "line", "endLine", "col", "endColumn"}


def scan_annotations(log):
    """Workflow-command annotations in a step log: (level, {props}, message, problem or None)."""
    found = []
    with open(log, errors="replace") as fh:
        for line in fh:
            m = ANNOT_RE.match(line.rstrip("\n"))
            if not m:
                continue
            props, problem = {}, None
            for part in (m.group(2) or "").split(","):
                if not part:
                    continue
                k, _, v = part.partition("=")
                props[k] = v
                if k not in ANNOT_KEYS:
                    problem = f"unknown annotation property '{k}' (known: {', '.join(sorted(ANNOT_KEYS))})"
            if "line" in props and not props["line"].isdigit():
                problem = f"line={props['line']} is not a number"
            found.append((m.group(1), props, m.group(3), problem))
    return found


# ---------------------------------------------------------------------------------------------
# Replaying one job leg
# ---------------------------------------------------------------------------------------------

def slug(s, n=40):
    s = re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-").lower()
    return s[:n].rstrip("-") or "step"


class Leg:
    def __init__(self, args, wf, wf_path, job_id, job, leg, matrix, session):
        self.args, self.wf, self.wf_path = args, wf, wf_path
        self.job_id, self.job, self.leg, self.matrix = job_id, job, leg, matrix
        self.session = session
        self.label = f"{job_id} {leg}".strip()
        self.dir = os.path.join(TOP, "build", "replay", f"{job_id}-{leg}" if leg else job_id)
        self.ws = os.path.join(self.dir, "src")
        self.home = os.path.join(self.dir, "home")
        self.runner = os.path.join(self.dir, "runner")
        self.art = os.path.join(self.dir, "artifacts")
        self.expr_ws = TOP if args.dry_run else self.ws   # hashFiles() root
        self.steps_ctx = {}
        self.env_file_vars = {}
        self.path_add = []
        self.status = "success"
        self.annotations = []

    # -- contexts ------------------------------------------------------------------------------
    def github_ctx(self, sha):
        ev = self.args.event
        ref = self.args.ref or {"pull_request": "refs/pull/1/merge"}.get(ev, "refs/heads/main")
        return {
            "event_name": ev, "ref": ref, "sha": sha, "workflow": self.wf.get("name") or rel(self.wf_path),
            "job": self.job_id, "repository": "tp-futex/tp-futex", "repository_owner": "tp-futex",
            "run_id": str(self.session["run_id"]), "run_number": "1", "run_attempt": "1",
            "actor": "replay", "server_url": "https://github.com", "api_url": "https://api.github.com",
            "workspace": self.ws, "event": {}, "base_ref": "main" if ev == "pull_request" else "",
            "head_ref": "replay" if ev == "pull_request" else "", "ref_name": ref.split("/")[-1],
            "ref_type": "branch", "action": "", "token": "",
        }

    def contexts(self, step_env):
        env = {}
        env.update(self.wf_env)
        env.update(self.job_env)
        env.update(self.env_file_vars)
        env.update(step_env or {})
        return {
            "github": self.github, "matrix": self.matrix, "steps": self.steps_ctx, "env": env,
            "runner": {"os": "Linux", "arch": "X64", "name": "replay", "temp": self.runner + "/temp",
                       "tool_cache": self.runner + "/tool_cache", "debug": ""},
            "job": {"status": self.status, "container": {}, "services": {}},
            "strategy": {"fail-fast": (self.job.get("strategy") or {}).get("fail-fast", True),
                         "job-index": 0, "job-total": 1, "max-parallel": 1},
            "secrets": {}, "vars": {}, "inputs": {}, "needs": {},
        }

    def evaluator(self, step_env=None, status=None):
        return Evaluator(self.contexts(step_env), status or self.status, self.expr_ws)

    def sub(self, value, step_env=None):
        return substitute(value, self.evaluator(step_env))

    def sub_map(self, mapping, base_env=None):
        out = {}
        for k, v in (mapping or {}).items():
            out[str(k)] = to_str(substitute(to_str(v), self.evaluator(dict(base_env or {}, **out))))
        return out

    # -- setup ---------------------------------------------------------------------------------
    def prepare(self, dry):
        self.github = self.github_ctx(self.session["sha"])
        self.wf_env = {}
        self.job_env = {}
        self.wf_env = self.sub_map(self.wf.get("env"))
        self.job_env = self.sub_map(self.job.get("env"), self.wf_env)
        if dry:
            # Outputs are only known at run time: show them as <steps.ID.outputs.NAME>.
            for st in self.job.get("steps") or []:
                if isinstance(st, dict) and st.get("id"):
                    self.steps_ctx[st["id"]] = {"outputs": Placeholder(f"steps.{st['id']}.outputs"),
                                                "outcome": "success", "conclusion": "success"}

    def clone(self):
        remove_tree(self.dir)
        need_disk(os.path.dirname(self.dir))
        os.makedirs(self.dir)
        for d in (self.home, self.runner + "/temp", self.art, os.path.join(self.dir, "logs")):
            os.makedirs(d, exist_ok=True)
        sha = self.session["sha"]
        run(["git", "clone", "-q", "--no-checkout", "--no-hardlinks", TOP, self.ws])
        run(["git", "-C", self.ws, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", sha])
        if self.args.worktree:
            overlay_worktree(self.ws)

    # Kernel trees and objects a passed leg leaves in its clone: gigabytes each, and nothing
    # reads them after the leg (its logs, results and artifacts stay).
    PRUNE = ("build/src", "build/series/linux", "build/series/obj", "build/obj", "build/edit",
             "build/litmus", "build/replay")

    def prune(self):
        """Remove the clone's kernel trees, objects and the job's home (ccache); prints what it freed."""
        paths = [os.path.join(self.ws, p) for p in self.PRUNE] + [os.path.join(self.home, ".cache")]
        paths = [p for p in paths if os.path.lexists(p)]
        before = shutil.disk_usage(self.dir).free
        for p in paths:
            remove_tree(p)
        if paths:
            freed = max(shutil.disk_usage(self.dir).free - before, 0)
            info(f"      pruned the clone's trees and objects ({freed / 1e9:.1f} GB freed; KEEP=1 keeps them)")

    # -- uses: ---------------------------------------------------------------------------------
    def action(self, uses, with_, log, dry):
        """Run (or describe, dry) a uses: step.  Returns (ok, message, outputs)."""
        name, _, ref = uses.partition("@")
        key = name.lower()
        if key == "actions/checkout":
            for k in with_:
                if k not in ("persist-credentials", "fetch-depth", "ref", "clean", "submodules", "lfs",
                             "set-safe-directory", "show-progress", "filter", "sparse-checkout"):
                    return False, f"checkout input '{k}' is not replayed (the workspace is the clone): drop it or extend the replay", {}
            if with_.get("ref"):
                return False, "checkout ref: is not replayed: give the commit with --rev instead", {}
            pc = to_str(with_.get("persist-credentials", "true"))
            return True, f"checkout: the replay's clone of {self.session['sha_label']} is the workspace (persist-credentials: {pc})", {}
        if key in ("actions/cache/restore", "actions/cache"):
            return self.cache_restore(with_, log, dry, combined=(key == "actions/cache"))
        if key == "actions/cache/save":
            return self.cache_save(with_, dry)
        if key == "actions/upload-artifact":
            return self.upload(with_, log, dry)
        if key == "actions/download-artifact":
            return self.download(with_, dry)
        return False, (f"unsupported action '{uses}': the replay knows actions/checkout, actions/cache(/restore, /save), "
                       "actions/upload-artifact and actions/download-artifact"), {}

    def cache_paths(self, with_):
        return [p.strip() for p in to_str(with_.get("path", "")).splitlines() if p.strip()]

    def expand_home(self, p):
        return os.path.join(self.home, p[2:]) if p.startswith("~/") else os.path.join(self.ws, p)

    def cache_restore(self, with_, log, dry, combined):
        paths = self.cache_paths(with_)
        key = to_str(with_.get("key", ""))
        rkeys = [k.strip() for k in to_str(with_.get("restore-keys", "")).splitlines() if k.strip()]
        if not paths or not key:
            return False, "cache: needs path: and key:", {}
        desc = f"key={key}" + (f" restore-keys={rkeys}" if rkeys else "") + f" paths={paths}"
        outputs = {"cache-hit": "false", "cache-primary-key": key, "cache-matched-key": ""}
        what = "cache (restore now, save in the post step)" if combined else "cache restore"
        if dry:
            how = "a miss (--cold)" if self.args.cold else "~/ paths linked to this host's own copies (a restore-key hit)"
            return True, f"{what}: {desc}; the replay: {how}", outputs
        done = []
        for p in paths:
            if not p.startswith("~/"):
                done.append(f"{p}: not restored (workspace paths start empty in the replay)")
                continue
            host = os.path.join(os.path.expanduser("~"), p[2:])
            dest = self.expand_home(p)
            if self.args.cold or not os.path.exists(host):
                done.append(f"{p}: miss" + ("" if self.args.cold else f" (no {host} on this host)"))
                continue
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            if os.path.lexists(dest):
                done.append(f"{p}: already present, left alone")
                continue
            os.symlink(host, dest)
            done.append(f"{p}: linked to this host's {host}")
            outputs["cache-matched-key"] = key
        if with_.get("fail-on-cache-miss") in (True, "true") and not outputs["cache-matched-key"]:
            return False, f"{what}: {desc}: miss and fail-on-cache-miss is set", outputs
        if combined:
            self.session["post_saves"].append((self, with_))
        return True, f"{what}: {desc}: " + "; ".join(done), outputs

    def cache_save(self, with_, dry):
        paths = self.cache_paths(with_)
        key = to_str(with_.get("key", ""))
        if not paths or not key:
            return False, "cache save: needs path: and key:", {}
        if dry:
            return True, f"cache save: would save key={key} paths={paths}", {}
        sizes = []
        for p in paths:
            full = self.expand_home(p)
            if os.path.exists(full):
                sizes.append(f"{p} ({du(full)})")
            else:
                sizes.append(f"{p} (missing: the real action warns and saves nothing for it)")
        return True, f"cache save: would save key={key}: " + ", ".join(sizes), {}

    def artifact_files(self, patterns, hidden):
        """upload-artifact's file selection: (root, files, search paths)."""
        inc = [p for p in patterns if not p.startswith("!")]
        exc = [p[1:] for p in patterns if p.startswith("!")]
        files, searches = [], []

        def full(p):
            p = os.path.expanduser(p) if p.startswith("~") else p
            return os.path.normpath(os.path.join(self.ws, p))

        def visible(path, base):
            if hidden:
                return True
            r = os.path.relpath(path, base)
            parts = [] if r == "." else r.split(os.sep)
            if os.path.isfile(path) and os.path.samefile(path, base):
                parts = [os.path.basename(path)]
            return not any(x.startswith(".") for x in parts)

        for p in inc:
            fp = full(p)
            if glob.has_magic(fp):
                parts = fp.split(os.sep)
                k = next(i for i, x in enumerate(parts) if glob.has_magic(x))
                base = os.sep.join(parts[:k]) or os.sep
                searches.append(base)
                matches = sorted(glob.glob(fp, recursive=True, include_hidden=True))
            else:
                base = fp
                searches.append(fp)
                matches = [fp] if os.path.exists(fp) else []
            for m in matches:
                if os.path.isdir(m):
                    for d, dirs, fs in os.walk(m):
                        for f in sorted(fs):
                            files.append((os.path.join(d, f), base))
                elif os.path.isfile(m):
                    files.append((m, base))
        out = []
        for f, base in files:
            if not visible(f, base):
                continue
            if any(fnmatch.fnmatch(f, full(e)) or f.startswith(full(e).rstrip("/") + "/") for e in exc):
                continue
            if f not in out:
                out.append(f)
        if len(searches) == 1 and os.path.isfile(searches[0]):
            root = os.path.dirname(searches[0])
        elif searches:
            root = os.path.commonpath(searches)
            if os.path.isfile(root):
                root = os.path.dirname(root)
        else:
            root = self.ws
        return root, out

    def upload(self, with_, log, dry):
        name = to_str(with_.get("name") or "artifact")
        patterns = [p.strip() for p in to_str(with_.get("path", "")).splitlines() if p.strip()]
        if not patterns:
            return False, "upload-artifact: needs path:", {}
        mode = to_str(with_.get("if-no-files-found") or "warn")
        if mode not in ("warn", "error", "ignore"):
            return False, f"upload-artifact: if-no-files-found '{mode}' is not warn, error or ignore", {}
        hidden = to_str(with_.get("include-hidden-files", "false")).lower() == "true"
        days = with_.get("retention-days")
        desc = f"upload-artifact '{name}' (retention-days {days if days is not None else 'default 90'})"
        if dry:
            return True, f"{desc}: would copy {patterns} to build/replay/.../artifacts/{name}/", {}
        if name in self.session["artifacts"]:
            return False, f"{desc}: an artifact named '{name}' was already uploaded in this run (v4 artifacts are immutable)", {}
        root, files = self.artifact_files(patterns, hidden)
        if not files:
            msg = f"{desc}: no files were found with the provided path: {' '.join(patterns)}"
            if mode == "error":
                return False, msg, {}
            if mode == "warn":
                with open(log, "a") as fh:
                    fh.write(f"::warning::{msg}. No artifacts will be uploaded.\n")
            self.session["artifacts"][name] = None
            return True, msg + ("" if mode == "ignore" else " (warning)"), {}
        dest = os.path.join(self.art, name)
        total = 0
        with open(log, "a") as fh:
            for f in files:
                r = os.path.relpath(f, root)
                d = os.path.join(dest, r)
                os.makedirs(os.path.dirname(d), exist_ok=True)
                shutil.copy2(f, d)
                total += os.path.getsize(f)
                fh.write(f"upload {r}\n")
        self.session["artifacts"][name] = dest
        return True, f"{desc}: {len(files)} files, {total / 1e6:.1f} MB -> {rel(dest)}/", \
            {"artifact-id": "0", "artifact-url": f"file://{dest}"}

    def download(self, with_, dry):
        name = to_str(with_.get("name", ""))
        path = to_str(with_.get("path") or ".")
        if not name:
            return False, "download-artifact: the replay needs name: (it does not download every artifact)", {}
        if dry:
            return True, f"download-artifact '{name}': would copy it into {path}", {}
        src = self.session["artifacts"].get(name)
        if not src:
            return False, f"download-artifact: no artifact '{name}' was uploaded earlier in this replay: replay the job that uploads it first, in the same command", {}
        dest = os.path.normpath(os.path.join(self.ws, path))
        shutil.copytree(src, dest, dirs_exist_ok=True)
        return True, f"download-artifact '{name}': copied into {rel(dest)}", {}

    # -- the job -------------------------------------------------------------------------------
    def step_env(self, st):
        return self.sub_map(st.get("env"), {**self.wf_env, **self.job_env, **self.env_file_vars})

    def describe_if(self, st):
        """Dry-run: the if: decision after passing steps and after a failed one."""
        node = condition_ast(st.get("if"))
        ok = truthy(Evaluator(self.contexts(None), "success", self.expr_ws).eval(node))
        # After a failed step: every earlier step with an id counts as failed.
        saved = {k: dict(v) for k, v in self.steps_ctx.items()}
        for v in self.steps_ctx.values():
            v["outcome"] = v["conclusion"] = "failure"
        bad = truthy(Evaluator(self.contexts(None), "failure", self.expr_ws).eval(node))
        self.steps_ctx.update(saved)
        if ok and bad:
            return "runs (also after a failed step)"
        if ok:
            return "runs (skipped after a failed step)"
        if bad:
            return "skipped (runs only after a failed step)"
        return "skipped"

    def process_env(self, step_env, files):
        env = {k: os.environ[k] for k in PASS_ENV if k in os.environ}
        if self.path_add:
            env["PATH"] = ":".join(reversed(self.path_add)) + ":" + env.get("PATH", "/usr/bin:/bin")
        env.update({
            "HOME": self.home, "CI": "true", "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": self.ws, "GITHUB_EVENT_NAME": self.github["event_name"],
            "GITHUB_REF": self.github["ref"], "GITHUB_REF_NAME": self.github["ref_name"],
            "GITHUB_SHA": self.github["sha"], "GITHUB_REPOSITORY": self.github["repository"],
            "GITHUB_RUN_ID": self.github["run_id"], "GITHUB_RUN_NUMBER": "1", "GITHUB_RUN_ATTEMPT": "1",
            "GITHUB_JOB": self.job_id, "GITHUB_WORKFLOW": self.github["workflow"],
            "GITHUB_SERVER_URL": self.github["server_url"], "GITHUB_ACTOR": "replay",
            "GITHUB_EVENT_PATH": files["event"], "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
            "RUNNER_TEMP": self.runner + "/temp", "RUNNER_NAME": "replay",
            "GITHUB_OUTPUT": files["output"], "GITHUB_ENV": files["env"], "GITHUB_PATH": files["path"],
            "GITHUB_STEP_SUMMARY": files["summary"], "GITHUB_STATE": files["state"],
        })
        env.update(self.wf_env)
        env.update(self.job_env)
        env.update(self.env_file_vars)
        env.update(step_env)
        return env

    def run_step(self, argv, env, cwd, log, timeout):
        """Run one process group; returns (exit code, timed out)."""
        with open(log, "ab") as out:
            proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
            verbose = self.args.verbose

            def pump():
                writable = True
                for chunk in iter(lambda: proc.stdout.readline(), b""):
                    if writable:
                        try:
                            out.write(chunk)
                            out.flush()
                        except OSError as e:  # a full disk: keep draining, so the step ends
                            writable = False
                            sys.stderr.write(f"{PROG}: cannot write {rel(log)} ({e.strerror}): the rest of the step's output is lost\n")
                    if verbose:
                        sys.stderr.buffer.write(b"    | " + chunk)
                        sys.stderr.flush()

            t = threading.Thread(target=pump, daemon=True)
            t.start()
            try:
                rc = proc.wait(timeout=timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                stop(proc)
                rc, timed_out = proc.wait(), True
            except KeyboardInterrupt:
                stop(proc)
                proc.wait()
                raise
            t.join(timeout=10)
        return rc, timed_out

    def job_timeout(self):
        """The job's timeout-minutes as a number; an expression (${{ matrix.timeout }}) substituted."""
        raw = self.job.get("timeout-minutes", DEFAULT_JOB_TIMEOUT)
        val = self.sub(to_str(raw))
        try:
            minutes = float(val)
        except ValueError:
            raise ExprError(f"job {self.job_id}: timeout-minutes '{raw}' gives '{val}', not a number: "
                            "fix the job's timeout-minutes (or the matrix value it names)") from None
        return int(minutes) if minutes == int(minutes) else minutes

    def replay(self, dry):
        steps = self.job.get("steps") or []
        defaults = ((self.wf.get("defaults") or {}).get("run") or {}).copy()
        defaults.update(((self.job.get("defaults") or {}).get("run") or {}))
        start = time.monotonic()
        times, failed_step, summary = [], None, []
        logs = os.path.join(self.dir, "logs")
        self.prepare(dry)
        job_to = self.job_timeout()
        deadline = start + job_to * 60
        if dry:
            self.print_header(job_to)
        for n, st in enumerate(steps, 1):
            if not isinstance(st, dict):
                raise UsageError(f"job {self.job_id}: step {n} is not a mapping")
            senv = self.step_env(st)
            name = st.get("name") or (f"Run {st['uses']}" if st.get("uses") else f"Run {str(st.get('run', '')).splitlines()[0]}")
            name = self.sub(name, senv)
            sid = st.get("id") or f"__{n}"
            if dry:
                self.print_step(n, st, senv, name)
                continue
            node = condition_ast(st.get("if"))
            go = truthy(self.evaluator(senv).eval(node))
            log = os.path.join(logs, f"{n:02d}-{slug(name)}.log")
            if not go:
                self.steps_ctx[sid] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
                cond = st.get("if") if "if" in st else "success()"
                info(f"  {n:2d}. skip            {name}   (if: {cond})")
                times.append((n, name, "skipped", 0.0))
                continue
            t0 = time.monotonic()
            remaining = deadline - t0
            to = remaining
            if st.get("timeout-minutes") is not None:
                to = min(to, float(self.sub(to_str(st["timeout-minutes"]), senv)) * 60)
            files = {k: os.path.join(self.runner, f"{n:02d}-{k}") for k in ("output", "env", "path", "summary", "state")}
            files["event"] = os.path.join(self.runner, "event.json")
            for f in files.values():
                if not os.path.exists(f):
                    with open(f, "w") as fh:
                        fh.write("{}\n" if f == files["event"] else "")
            outputs, msg, timed_out = {}, "", False
            with open(log, "w") as fh:
                fh.write(f"# step {n}: {name}\n")
            if "run" in st:
                script = self.sub(to_str(st["run"]), senv)
                shell = st.get("shell", defaults.get("shell"))
                sfile = os.path.join(self.runner, f"{n:02d}-step.sh")
                with open(sfile, "w") as fh:
                    fh.write(script + "\n")
                with open(log, "a") as fh:
                    fh.write("".join(f"# $ {line}\n" for line in script.splitlines()))
                wd = st.get("working-directory", defaults.get("working-directory"))
                cwd = os.path.join(self.ws, self.sub(wd, senv)) if wd else self.ws
                env = self.process_env(senv, files)
                argv = shell_command(shell, sfile)
                if to <= 0:
                    rc, timed_out = 124, True
                else:
                    rc, timed_out = self.run_step(argv, env, cwd, log, to)
                ok = rc == 0 and not timed_out
                if timed_out:
                    msg = f"timed out ({'job' if to >= remaining else 'step'} timeout-minutes)"
                elif rc:
                    msg = f"exit {rc}"
            elif "uses" in st:
                with_ = {k: (self.sub(v, senv) if isinstance(v, str) else v) for k, v in (st.get("with") or {}).items()}
                ok, msg, outputs = self.action(self.sub(st["uses"], senv), with_, log, False)
                with open(log, "a") as fh:
                    fh.write(msg + "\n")
            else:
                raise UsageError(f"job {self.job_id}: step {n} '{name}' has neither run: nor uses:")
            try:
                with open(files["output"]) as fh:
                    outputs.update(parse_file_command(fh.read(), "GITHUB_OUTPUT"))
                with open(files["env"]) as fh:
                    self.env_file_vars.update(parse_file_command(fh.read(), "GITHUB_ENV"))
                with open(files["path"]) as fh:
                    self.path_add.extend(p for p in fh.read().splitlines() if p.strip())
                with open(files["summary"]) as fh:
                    s = fh.read()
                if s:
                    summary.append(s)
            except ExprError as e:
                ok, msg = False, str(e)
            notes = []
            for a in scan_annotations(log):
                self.annotations.append((name,) + a)
                level, props, text, problem = a
                where = ",".join(f"{k}={v}" for k, v in props.items())
                notes.append(f"      annotation {level}{' ' + where if where else ''}: {text[:150]}")
                if problem:
                    notes.append(f"      annotation problem: {problem}")
            dt = time.monotonic() - t0
            outcome = "success" if ok else "failure"
            coe = truthy(substitute(st["continue-on-error"], self.evaluator(senv))) \
                if isinstance(st.get("continue-on-error"), str) else bool(st.get("continue-on-error"))
            conclusion = "success" if ok or coe else "failure"
            self.steps_ctx[sid] = {"outputs": outputs, "outcome": outcome, "conclusion": conclusion}
            word = "ok" if ok else ("FAIL (continue-on-error)" if coe else "FAIL")
            info(f"  {n:2d}. {word:<5} {fmt_time(dt):>8}   {name}" + (f"   [{msg}]" if not ok else "") +
                 (f"\n      {msg}" if ok and "uses" in st else "") +
                 (f"\n      log: {rel(log)}" if not ok else ""))
            for line in notes[:20]:
                info(line)
            if len(notes) > 20:
                info(f"      ... {len(notes) - 20} more in {rel(os.path.join(self.dir, 'annotations.txt'))}")
            times.append((n, name, outcome, dt))
            if conclusion == "failure" and self.status == "success":
                self.status = "failure"
                failed_step = (n, name, msg, log)
            if timed_out and to >= remaining:
                self.status = "cancelled"
                failed_step = failed_step or (n, name, msg, log)
                break
        for leg, with_ in [x for x in self.session["post_saves"] if x[0] is self]:
            ok, msg, _ = self.cache_save(with_, False)
            info(f"      post: {msg}")
        if dry:
            return None
        reap_orphans(self.dir)
        total = time.monotonic() - start
        with open(os.path.join(self.dir, "times.tsv"), "w") as fh:
            fh.write("step\tname\toutcome\tseconds\n")
            for n, name, oc, dt in times:
                fh.write(f"{n}\t{name}\t{oc}\t{dt:.1f}\n")
            fh.write(f"total\t{self.label}\t{self.status}\t{total:.1f}\n")
        with open(os.path.join(self.dir, "summary.md"), "w") as fh:
            fh.write("\n".join(summary))
        with open(os.path.join(self.dir, "annotations.txt"), "w") as fh:
            for name, level, props, text, problem in self.annotations:
                where = ",".join(f"{k}={v}" for k, v in props.items())
                fh.write(f"{level}\t{where}\t{text}\t{name}\n")
        return total, failed_step

    # -- dry-run output ------------------------------------------------------------------------
    def print_header(self, job_to):
        c = self.job.get("container")
        image = c.get("image") if isinstance(c, dict) else c
        opts = self.sub(c.get("options"), None) if isinstance(c, dict) and c.get("options") else ""
        jname = self.sub(self.job.get("name") or self.job_id)
        print(f"== {self.job_id}{' [' + self.leg + ']' if self.leg else ''}: {jname}")
        print(f"   workflow {rel(self.wf_path)}, event {self.github['event_name']}, ref {self.github['ref']}, "
              f"matrix {json.dumps(self.matrix) if self.matrix else '(none)'}")
        print(f"   runs-on {self.job.get('runs-on')}; container {image or '(none)'}"
              + (f"; options '{opts}'" if opts else "")
              + (f" (this host: /dev/kvm {'present' if os.path.exists('/dev/kvm') else 'absent'})" if "kvm" in opts else ""))
        print(f"   timeout-minutes {job_to}; env {' '.join(f'{k}={v}' for k, v in {**self.wf_env, **self.job_env}.items())}")
        node = condition_ast(self.job.get("if")) if "if" in self.job else None
        if node is not None:
            go = truthy(Evaluator(self.contexts(None), "success", self.expr_ws).eval(node))
            print(f"   job if: {self.job['if']} -> {'runs' if go else 'skipped'}")

    def print_step(self, n, st, senv, name):
        cond = st.get("if")
        decision = self.describe_if(st)
        print(f"   {n:2d}. {name}")
        print(f"       if: {cond if cond is not None else '(none: success())'} -> {decision}")
        if senv:
            print(f"       env: {' '.join(f'{k}={v}' for k, v in senv.items())}")
        if "run" in st:
            shell = st.get("shell") or "(default: bash -e {0})"
            script = self.sub(to_str(st["run"]), senv)
            print(f"       run [{shell}]:")
            for line in script.splitlines():
                print(f"         $ {line}")
        else:
            with_ = {k: (self.sub(v, senv) if isinstance(v, str) else v) for k, v in (st.get("with") or {}).items()}
            ok, msg, _ = self.action(self.sub(st["uses"], senv), with_, None, True)
            print(f"       uses: {st['uses']}")
            print(f"       -> {msg}" if ok else f"       -> ERROR: {msg}")


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

def info(msg):
    print(msg, file=sys.stderr, flush=True)


def run(argv, **kw):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode:
        raise UsageError(f"'{' '.join(argv[:4])} ...' failed: {r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.returncode}")
    return r.stdout


def stop(proc):
    """End the step's process group (which this replay started): TERM, then KILL after 10 s."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def reap_orphans(path):
    """End the processes a replay's steps left running under PATH (a detached `git gc --auto`,
    say), as the runner cleans up orphan processes when a job ends: every process whose working
    directory is under PATH, by its id."""
    ended = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        if cwd == path or cwd.startswith(path + "/"):
            try:
                os.kill(int(pid), signal.SIGTERM)
                ended.append(f"{pid} ({cmd[:60]})")
            except OSError:
                pass
    if ended:
        info(f"      cleaned up orphan processes: {', '.join(ended)}")
        time.sleep(1)


def remove_tree(path):
    """rm -rf PATH, after ending what an earlier replay left running in it; files that vanish
    or appear meanwhile only make it try again."""
    def gone(func, p, exc):
        if not isinstance(exc[1], (FileNotFoundError, OSError)):
            raise exc[1]
    for attempt in range(5):
        if not os.path.lexists(path):
            return
        reap_orphans(path)
        shutil.rmtree(path, onerror=gone)
        time.sleep(attempt)
    raise UsageError(f"cannot remove {rel(path)}: something keeps writing to it")


# The floor below which no leg starts: the static job's clone peaks at about 3 GB (the series
# tree of make checkpatch), a build-test leg's at about 4 GB (a kernel tree and its objects).
MIN_FREE_GB = 5


def need_disk(path):
    os.makedirs(path, exist_ok=True)
    free = shutil.disk_usage(path).free / 1e9
    if free < MIN_FREE_GB:
        raise UsageError(f"only {free:.1f} GB free on the disk of {rel(path)}, and a replayed job needs up to "
                         f"{MIN_FREE_GB} GB: remove old replays (rm -rf build/replay) or other build/ trees")


def du(path):
    total = 0
    p = os.path.realpath(path)
    if os.path.isfile(p):
        total = os.path.getsize(p)
    for d, _, fs in os.walk(p):
        for f in fs:
            try:
                total += os.lstat(os.path.join(d, f)).st_size
            except OSError:
                pass
    return f"{total / 1e6:.0f} MB"


def overlay_worktree(ws):
    """Copy the work tree's tracked (modified) and untracked non-ignored files over the clone and
    delete the files the work tree has deleted."""
    listed = run(["git", "-C", TOP, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]).split("\0")
    deleted = set(run(["git", "-C", TOP, "ls-files", "-z", "--deleted"]).split("\0"))
    for f in listed:
        if not f:
            continue
        src, dst = os.path.join(TOP, f), os.path.join(ws, f)
        if f in deleted or not os.path.lexists(src):
            if os.path.lexists(dst) and not os.path.isdir(dst):
                os.remove(dst)
            continue
        if os.path.isdir(src) and not os.path.islink(src):
            continue  # a submodule or nested repository: not replayed
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.lexists(dst):
            os.remove(dst)
        shutil.copy2(src, dst, follow_symlinks=False)


def list_jobs(extra=None):
    lines = []
    files = workflow_files()
    if extra and rel(extra) not in files:
        files.insert(0, rel(extra))
    for f in files:
        try:
            wf = load_workflow(os.path.join(TOP, f))
        except Exception as e:  # noqa: BLE001 - listing must not die on one broken file
            lines.append(f"  {f}: cannot read ({e})")
            continue
        for jid, job in wf["jobs"].items():
            legs = [leg for leg, _ in expand_matrix(job.get("strategy"))]
            legs_s = f" (legs: {', '.join(legs)})" if legs != [""] else ""
            lines.append(f"  WORKFLOW={f} JOB={jid}{legs_s}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(prog="ci/gh/replay-workflow.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("jobs", nargs="*", metavar="JOB", help="job id(s), or 'all'")
    ap.add_argument("--workflow", default=DEFAULT_WORKFLOW, help=f"workflow file (default {DEFAULT_WORKFLOW})")
    ap.add_argument("--event", help="github.event_name (default: pull_request if the workflow has it, else its first trigger)")
    ap.add_argument("--ref", help="github.ref (default: refs/pull/1/merge for pull_request, else refs/heads/main)")
    ap.add_argument("--leg", help="only the matrix legs named LEG (x86_64-7.2), or that have every one of "
                    "LEG's comma-separated matrix values (x86_64; 7.2; x86_64,7.2)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--rev", default="HEAD", help="commit to clone (default HEAD: the committed state)")
    g.add_argument("--worktree", action="store_true", help="clone HEAD, then copy the work tree's changed and untracked files over it")
    ap.add_argument("--cold", action="store_true", help="cache restores miss (a cold ccache)")
    ap.add_argument("--keep", action="store_true", help="keep a passed leg's kernel trees and objects (pruned by default)")
    ap.add_argument("--dry-run", action="store_true", help="print the substituted steps and decisions; run nothing")
    ap.add_argument("--verbose", action="store_true", help="also stream step output to the terminal")
    ap.add_argument("--list", action="store_true", help="list the jobs of every workflow file")
    args = ap.parse_args()

    if args.list:
        print(list_jobs())
        return 0
    wf_path = os.path.normpath(os.path.join(TOP, args.workflow))
    short = os.path.join(TOP, ".github", "workflows", args.workflow + ".yml")
    if not os.path.isfile(wf_path) and os.path.isfile(short):
        wf_path = short   # WORKFLOW=bench
    if args.worktree:
        sha = run(["git", "-C", TOP, "rev-parse", "HEAD"]).strip()
    else:
        r = subprocess.run(["git", "-C", TOP, "rev-parse", "--verify", "--quiet", f"{args.rev}^{{commit}}"],
                           capture_output=True, text=True)
        if r.returncode:
            raise UsageError(f"REV '{args.rev}' is not a commit of this repository: use e.g. REV=HEAD~1")
        sha = r.stdout.strip()
    wf = load_workflow(wf_path, None if args.worktree else sha)
    trig = triggers(wf)
    if not args.event:
        args.event = "pull_request" if "pull_request" in trig else (trig[0] if trig else "push")
    if args.event not in trig:
        raise UsageError(f"{rel(wf_path)} is not triggered by '{args.event}' (its triggers: {', '.join(map(str, trig))}): "
                         f"use EVENT={trig[0] if trig else 'push'}")
    if not args.jobs:
        raise UsageError(f"no JOB given: use JOB=<job> (or JOB=all); the jobs:\n{list_jobs(wf_path)}")
    jobs = list(wf["jobs"]) if args.jobs == ["all"] else args.jobs
    unknown = [j for j in jobs if j not in wf["jobs"]]
    if unknown:
        raise UsageError(f"no job '{unknown[0]}' in {rel(wf_path)}: the jobs are:\n{list_jobs(wf_path)}")

    session = {"sha": sha, "sha_label": sha[:12] + (" + work tree" if args.worktree else ""),
               "run_id": int(time.time()), "artifacts": {}, "post_saves": []}
    results = []
    matched = 0
    for jid in jobs:
        job = wf["jobs"][jid] or {}
        if "uses" in job:
            raise UsageError(f"job {jid} calls a reusable workflow ({job['uses']}): not replayed")
        legs = expand_matrix(job.get("strategy"))
        if args.leg:
            legs = [(n, m) for n, m in legs if leg_selected(args.leg, n, m)]
            if not legs and len(jobs) == 1:
                raise UsageError(f"job {jid} has no leg '{args.leg}': its legs are "
                                 f"{', '.join(n for n, _ in expand_matrix(job.get('strategy')) if n) or '(none: leave LEG unset)'}"
                                 " (LEG: a leg's name, or matrix values joined by ',')")
            matched += len(legs)
        for leg, matrix in legs:
            L = Leg(args, wf, wf_path, jid, job, leg, matrix, session)
            if args.dry_run:
                L.replay(True)
                print()
                continue
            L.github = L.github_ctx(sha)
            L.wf_env, L.job_env = {}, {}
            if "if" in job:
                L.wf_env = L.sub_map(wf.get("env"))
                if not truthy(Evaluator(L.contexts(None), "success", TOP).eval(condition_ast(job["if"]))):
                    results.append(("SKIP", L.label, 0, f"job if: {job['if']}"))
                    print(f"SKIP  {L.label:<24} {'':>8}  job if: {job['if']}", flush=True)
                    continue
            info(f"== replaying {L.label} ({rel(wf_path)}, event {args.event}, {session['sha_label']}) in {rel(L.dir)}/")
            t0 = time.monotonic()
            try:
                L.clone()
                total, failed = L.replay(False)
            except KeyboardInterrupt:
                print(f"FAIL  {L.label:<24} {fmt_time(time.monotonic() - t0):>8}  interrupted", flush=True)
                return 130
            except ExprError as e:
                line = f"FAIL  {L.label:<24} {fmt_time(time.monotonic() - t0):>8}  {e}"
                results.append(("FAIL", L.label, 0, line))
                print(line, flush=True)
                continue
            if failed:
                n, name, msg, log = failed
                line = f"FAIL  {L.label:<24} {fmt_time(total):>8}  step {n} '{name}' ({msg}): {rel(log)}"
                results.append(("FAIL", L.label, total, line))
            else:
                line = f"PASS  {L.label:<24} {fmt_time(total):>8}  {rel(L.dir)}/"
                results.append(("PASS", L.label, total, line))
                if not args.keep:
                    L.prune()
            print(line, flush=True)
    if args.leg and not matched:
        raise UsageError(f"none of the jobs {', '.join(jobs)} has a leg '{args.leg}'")
    if args.dry_run:
        return 0
    if len(results) > 1:
        print(f"replay: {sum(r[0] == 'PASS' for r in results)} passed, {sum(r[0] == 'FAIL' for r in results)} failed, "
              f"{sum(r[0] == 'SKIP' for r in results)} skipped")
    return 1 if any(r[0] == "FAIL" for r in results) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (UsageError, ExprError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(2)
