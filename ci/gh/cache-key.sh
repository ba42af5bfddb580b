#!/usr/bin/env bash
# Print the ccache key parts that hashFiles() cannot compute: arch, the kernel base
# (TPF_BASE, make's BASE: its Debian package and version, ci/bases.tsv) and the arch's
# compiler version (ARCH=all: both arches' compilers, for the per-patch build job).  As
# key=<value> on stdout, and also appended to $GITHUB_OUTPUT when that is set (GitHub
# Actions step output).  The workflow's key is ccache-<job>-<this>-<run id>, restored from the
# newest ccache-<job>-<this>-: one cache per job, arch, base and compiler.
# Env TPF_EXPECT_SUFFIX (make cache-key SUFFIX=, also empty): fail unless it is the base's
# build-dir suffix (BASE_SUFFIX of ci/lib.sh), the one the workflow's artifact paths name.
set -euo pipefail

. "$(dirname "$0")/../lib.sh"
usage() { echo "usage: ci/gh/cache-key.sh ARCH   (ARCH: ${TPF_ARCHES// / | } | all; env: TPF_BASE, TPF_EXPECT_SUFFIX)"; }

ccs=()
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  all) for a in $TPF_ARCHES; do arch_env "$a"; ccs+=("$GCC"); done ;;
  "") die "no ARCH given: use ARCH=${TPF_ARCHES// /, ARCH=} or ARCH=all" ;;
  *) arch_env "$1"; ccs=("$GCC") ;;
esac
(( $# == 1 )) || { die "too many arguments: give exactly one ARCH"; }
arch=$1
if [[ -n ${TPF_EXPECT_SUFFIX+set} && $TPF_EXPECT_SUFFIX != "$BASE_SUFFIX" ]]; then
  die "base $BASE has the build-dir suffix '$BASE_SUFFIX' (ci/bases.tsv, ci/lib.sh base_env), not '$TPF_EXPECT_SUFFIX': set suffix: '$BASE_SUFFIX' for base '$BASE' in the workflow matrix's include:"
fi

debver=$(debian_version)
[[ -n $debver ]] || die "$BASE_PKG is not installed: run 'make deps'"
key="$arch-$BASE_PKG-$debver"
for cc in "${ccs[@]}"; do
  command -v "$cc" >/dev/null 2>&1 || die "missing compiler '$cc': run 'make deps'"
  ccver=$("$cc" -dumpfullversion 2>/dev/null || "$cc" -dumpversion)
  # The Debian package version of the compiler catches rebuilds with the same upstream version.
  pkg=$(dpkg-query -S "$(readlink -f "$(command -v "$cc")")" 2>/dev/null | head -1 | cut -d: -f1 || true)
  pkgver=
  if [[ -n $pkg ]]; then pkgver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true); fi
  key+="-$cc-$ccver${pkgver:+-$pkgver}"
done
# Only characters that are safe in a cache key and a GITHUB_OUTPUT line.
key=$(printf '%s' "$key" | tr -c 'A-Za-z0-9._+-' '_')

echo "key=$key"
if [[ -n ${GITHUB_OUTPUT:-} ]]; then
  echo "key=$key" >> "$GITHUB_OUTPUT"
fi
