#!/usr/bin/env python3
"""Enforce this repository's hardening rules on GitHub Actions workflow files.

  ci/gh/workflow-policy.py WORKFLOW.yml...     (make check-workflows runs it on .github/workflows/*)
  ci/gh/workflow-policy.py --rules            the rule names, one a line

Prints "FILE:LINE: [rule] problem: fix" per finding and exits 1 if there is any (2 on bad usage).
The rules:

  pin                  every remote action is used at a full 40-hex commit SHA
  pin-comment          ... followed by its tag as a comment ("@<sha> # v4.2.2"; Dependabot
                       updates both)
  checkout-credentials every actions/checkout step has persist-credentials: false
  permissions          top-level permissions: exactly contents: read; no job grants a write
  pull-request-target  no pull_request_target trigger (it runs fork code with a write token)
  run-untrusted        no ${{ github.event.* }} or ${{ github.head_ref }} in a run: (script
                       injection): pass it through env: instead
  timeout              every job has timeout-minutes
  retention            every actions/upload-artifact step has retention-days
  no-always            no always() in an if: (it also runs in cancelled jobs): use !cancelled()
  container-digest     job containers and services are pinned by @sha256: digest
  cache-split          no combined actions/cache: restore with actions/cache/restore, save with
                       actions/cache/save
  cache-save-main      every actions/cache/save step runs only on pushes to main:
                       if: ... github.event_name == 'push' && github.ref == 'refs/heads/main'
  push-branches        a push: trigger lists its branches (no run for every branch push)
  cancel-main          concurrency cancel-in-progress is never plain true (it would cancel main):
                       use ${{ github.event_name == 'pull_request' }}
"""
import re
import sys

RULES = ("pin", "pin-comment", "checkout-credentials", "permissions", "pull-request-target",
         "run-untrusted", "timeout", "retention", "no-always", "container-digest", "cache-split",
         "cache-save-main", "push-branches", "cancel-main")
USES_RE = re.compile(r"^\s*(?:-\s+)?uses:\s*['\"]?([^'\"\s#]+)['\"]?\s*(#.*)?$")
SHA_RE = re.compile(r"^[0-9a-f]{40}$")
TAG_RE = re.compile(r"^#\s*v?\d+(\.\d+)*\S*$")
UNTRUSTED_RE = re.compile(r"\$\{\{[^}]*\bgithub\s*\.\s*(event\s*\.|head_ref\b)")
DIGEST_RE = re.compile(r"@sha256:[0-9a-f]{64}$")


def load(path):
    import yaml

    class LDict(dict):
        pass

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader, node):
        loader.flatten_mapping(node)
        d = LDict()
        d.line = node.start_mark.line + 1
        d.key_line = {}
        for k_node, v_node in node.value:
            k = loader.construct_object(k_node, deep=True)
            d[k] = loader.construct_object(v_node, deep=True)
            d.key_line[k] = k_node.start_mark.line + 1
        return d

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    return text, yaml.load(text, Loader=Loader)   # noqa: S506 - a SafeLoader subclass


def line_of(d, key=None):
    if key is not None and hasattr(d, "key_line") and key in d.key_line:
        return d.key_line[key]
    return getattr(d, "line", 1)


def check(path):
    found = []

    def bad(line, rule, msg):
        found.append(f"{path}:{line}: [{rule}] {msg}")

    text, wf = load(path)
    if not isinstance(wf, dict) or not isinstance(wf.get("jobs"), dict):
        bad(1, "permissions", "not a workflow (no jobs: mapping)")
        return found
    on_key = "on" if "on" in wf else True
    on = wf.get(on_key)

    # Actions pinned by SHA with the tag as a comment (from the raw lines: YAML drops comments).
    for n, line in enumerate(text.splitlines(), 1):
        m = USES_RE.match(line)
        if not m:
            continue
        ref, comment = m.group(1), (m.group(2) or "").strip()
        if ref.startswith("./") or ref.startswith("docker://"):
            continue
        name, _, ver = ref.partition("@")
        if not SHA_RE.match(ver):
            bad(n, "pin", f"'{ref}' is not pinned by a full commit SHA: use {name}@<40-hex sha> # <tag>")
        elif not TAG_RE.match(comment):
            bad(n, "pin-comment", f"'{ref}' has no tag comment: append '# vX.Y.Z' (the tag that SHA is)")

    # Triggers.
    trig = on if isinstance(on, dict) else ({t: None for t in on} if isinstance(on, list) else {on: None})
    if "pull_request_target" in trig:
        bad(line_of(wf, on_key), "pull-request-target", "pull_request_target runs with a write token: use pull_request")
    if "push" in trig:
        push = trig["push"]
        if not isinstance(push, dict) or not (push.get("branches") or push.get("tags")):
            bad(line_of(wf, on_key), "push-branches", "push: runs for every branch: add branches: [main]")

    # Permissions.
    perms = wf.get("permissions")
    if perms != {"contents": "read"}:
        bad(line_of(wf, "permissions") if "permissions" in wf else 1, "permissions",
            "the top level needs exactly 'permissions: contents: read'")

    def cancel_check(conc, where):
        if isinstance(conc, dict) and conc.get("cancel-in-progress") is True:
            bad(line_of(conc, "cancel-in-progress"), "cancel-main",
                f"{where} cancel-in-progress: true also cancels runs on main: use ${{{{ github.event_name == 'pull_request' }}}}")
    cancel_check(wf.get("concurrency"), "workflow")

    for jid, job in wf["jobs"].items():
        if not isinstance(job, dict):
            continue
        jl = line_of(wf["jobs"], jid)
        jp = job.get("permissions")
        if jp is not None and (isinstance(jp, str) or any(v == "write" for v in jp.values())):
            bad(line_of(job, "permissions"), "permissions", f"job {jid} grants '{jp}': keep jobs read-only")
        if "timeout-minutes" not in job and "uses" not in job:
            bad(jl, "timeout", f"job {jid} has no timeout-minutes (the default is 360): set one")
        cancel_check(job.get("concurrency"), f"job {jid}")
        if "always()" in str(job.get("if", "")):
            bad(line_of(job, "if"), "no-always", f"job {jid}: always() also runs in cancelled runs: use !cancelled()")
        images = []
        c = job.get("container")
        if c is not None:
            images.append((c.get("image") if isinstance(c, dict) else c, line_of(job, "container")))
        for sname, svc in (job.get("services") or {}).items():
            images.append((svc.get("image") if isinstance(svc, dict) else svc, line_of(job["services"], sname)))
        for image, line in images:
            if not DIGEST_RE.search(str(image or "")):
                bad(line, "container-digest", f"job {jid}: image '{image}' is not pinned: use name:tag@sha256:<digest>")
        for st in job.get("steps") or []:
            if not isinstance(st, dict):
                continue
            sl = line_of(st)
            label = f"job {jid}, step '{st.get('name') or st.get('uses') or 'run'}'"
            cond = str(st.get("if", ""))
            if "always()" in cond:
                bad(line_of(st, "if"), "no-always", f"{label}: always() also runs in cancelled runs: use ${{{{ !cancelled() }}}}")
            run = st.get("run")
            if isinstance(run, str) and UNTRUSTED_RE.search(run):
                bad(line_of(st, "run"), "run-untrusted",
                    f"{label}: github.event.* / github.head_ref expanded inside run: (script injection): pass it via env:")
            uses = str(st.get("uses", "")).split("@")[0].lower()
            with_ = st.get("with") or {}
            if uses == "actions/checkout" and str(with_.get("persist-credentials", "")).lower() != "false":
                bad(sl, "checkout-credentials", f"{label}: add 'with: persist-credentials: false'")
            if uses == "actions/upload-artifact" and "retention-days" not in with_:
                bad(sl, "retention", f"{label}: add 'retention-days:' (default 90 days)")
            if uses == "actions/cache":
                bad(sl, "cache-split", f"{label}: the combined actions/cache also saves from pull requests: "
                    "use actions/cache/restore, and actions/cache/save on main only")
            if uses == "actions/cache/save":
                c = re.sub(r"\s+", " ", cond.replace('"', "'"))
                if "github.event_name == 'push'" not in c or "github.ref == 'refs/heads/main'" not in c:
                    bad(line_of(st, "if") if "if" in st else sl, "cache-save-main",
                        f"{label}: save only on pushes to main: if: ${{{{ !cancelled() && github.event_name == 'push' "
                        "&& github.ref == 'refs/heads/main' }}")
    return found


def main(argv):
    if not argv:
        print("workflow-policy: no workflow file given: use ci/gh/workflow-policy.py .github/workflows/*.yml (see --help)",
              file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if argv == ["--rules"]:
        print("\n".join(RULES))
        return 0
    try:
        import yaml  # noqa: F401
    except ImportError:
        print("workflow-policy: python3-yaml is missing: apt-get install python3-yaml (in ci/deps/packages-docs.txt; 'make deps')",
              file=sys.stderr)
        return 2
    findings = []
    for path in argv:
        try:
            findings += check(path)
        except OSError as e:
            print(f"workflow-policy: cannot read '{path}': {e.strerror}", file=sys.stderr)
            return 2
        except Exception as e:  # noqa: BLE001 - a YAML error is a finding, not a crash
            findings.append(f"{path}:1: [yaml] cannot parse: {str(e).splitlines()[0]}")
    for f in findings:
        print(f)
    if findings:
        return 1
    print(f"workflow-policy: {len(argv)} workflow(s) follow the {len(RULES)} rules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
