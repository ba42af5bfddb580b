#!/usr/bin/env bash
# Show that the build went through ccache: --begin snapshots `ccache --print-stats` into
# build/ccache-stats.begin; without it, print the hits and misses since that snapshot and the cache
# size against its limit (CCACHE_MAXSIZE), and append the same line to $GITHUB_STEP_SUMMARY when that
# is set.  A snapshot instead of `ccache -z`, so the counters of a shared ccache stay as they are.
# No compiler call through ccache since the snapshot gives a ::warning:: annotation.
set -euo pipefail

usage() { echo "usage: ci/gh/ccache-stats.sh [--begin]"; }
. "$(dirname "$0")/../lib.sh"
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  --begin) mode=begin ;;
  "") mode=report ;;
  *) die "unknown argument '$1': give --begin (before the build) or nothing (after it)" ;;
esac
(( $# <= 1 )) || die "too many arguments: give --begin or nothing"

top=$TPF_ROOT
need_cmd ccache
snap=$top/build/ccache-stats.begin
dir=$(ccache --get-config cache_dir)

if [[ $mode == begin ]]; then
  mkdir -p "$top/build"
  ccache --print-stats >"$snap"
  echo "gh-ccache-stats: counters of $dir noted (limit $(ccache --get-config max_size))"
  exit 0
fi
[[ -f $snap ]] || die "no build/ccache-stats.begin: run 'make ci-ccache-begin' before the build"
now=$(mktemp); trap 'rm -f "$now"' EXIT
ccache --print-stats >"$now"
get() { awk -F'\t' -v k="$2" '$1 == k { v = $2 } END { print v + 0 }' "$1"; }
delta() { echo $(( $(get "$now" "$1") - $(get "$snap" "$1") )); }
hits=$(( $(delta direct_cache_hit) + $(delta preprocessed_cache_hit) ))
misses=$(delta cache_miss)
calls=$((hits + misses))
rate=0
(( calls )) && rate=$((hits * 100 / calls))
size=$(( $(get "$now" cache_size_kibibyte) / 1024 ))
line="ccache: $hits hits, $misses misses ($rate% hits) since the build started; cache $size MiB (limit $(ccache --get-config max_size)) in $dir"
echo "$line"
if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  printf '### ccache\n\n%s\n\n' "$line" >>"$GITHUB_STEP_SUMMARY"
fi
if (( calls == 0 )); then
  echo "::warning title=ccache unused::no compiler call went through ccache since 'make ci-ccache-begin': check CC=\"ccache ...\" in ci/kernel/build.sh and ci/series/check.sh"
fi
