#!/usr/bin/env bash
# The per-patch series check: checkpatch --strict (ci/series/checkpatch.sh), codespell
# (ci/series/spelling.sh), reflow leftovers (ci/series/reflow.py), then build the kernel at
# every patch for x86_64 and arm64 in the scratch tree build/series/linux (O= dirs
# build/series/obj/<arch> reused from patch to patch, ccache, tinyconfig +
# kernel/config/common.config + <arch>.config via merge_config.sh + olddefconfig, -j2 under
# flock /tmp/tpf-build.lock), then the head with PREEMPT_RT (kernel/config/rt.config, O=
# build/series/obj-rt/<arch>), then W=1 and sparse on the files the series touches, base
# against head (ci/series/warnings.sh).  Prints a patch x arch table (ok/FAIL; row RT for the
# PREEMPT_RT build). Logs: build/series/check/; the table also as
# build/series/check/build/results.tsv (patch, arch, ok|FAIL, seconds, subject) for the CI job
# summary (ci/gh/summary-series.sh).  Exit 1 if anything failed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
# The whole script is one { ... } block: bash reads it completely before running it, so editing
# this file during a long run cannot derail that run.
{

usage() { echo "usage: ci/series/check.sh   (env: ARCHES=\"$TPF_ARCHES\", JOBS=2)"; }
case "${1:-}" in -h|--help) usage; exit 0 ;; "") ;; *) die "unknown argument '$1': it takes none (see --help)" ;; esac

top=$TPF_ROOT
sdir=${TPF_SERIES_DIR:-$top/build/series$BASE_SUFFIX}
arches=${ARCHES:-$TPF_ARCHES}
jobs=${JOBS:-2}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "JOBS='$jobs' is not a positive integer: use e.g. JOBS=2"
for a in $arches; do
  arch_env "$a"
  need_cmd "$GCC"
done
for t in git make perl flock ccache flex bison bc; do
  need_cmd "$t"
done
for f in common $arches; do
  [[ -s $top/kernel/config/$f.config ]] || die "missing kernel/config/$f.config: restore it from git"
done
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$top}
# Our own make's flags (-j jobserver, command-line variables) must not leak into kbuild.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

mkdir -p "$sdir"
exec 9>"$sdir/.tree.lock"
flock -n 9 || { echo "waiting for ${sdir#"$top"/}/linux: another check-series/submission/checkpatch is using it" >&2; flock 9; }
export TPF_SERIES_LOCKED=1

fail=()
info=$("$top/ci/kernel/tree.sh" --series) || exit 1
tree=$(sed -n 's/.* tree=\([^ ]*\) .*/\1/p' <<<"$info")
out=$sdir/check
mkdir -p "$out"

echo "== checkpatch --strict"
"$top/ci/series/checkpatch.sh" || fail+=(checkpatch)
echo "== codespell"
"$top/ci/series/spelling.sh" || fail+=(codespell)
echo "== reflow leftovers (changelogs, the comments and rst the series adds, the cover letter)"
python3 "$top/ci/series/reflow.py" "$tree" "$top/submission/cover-letter.txt" || fail+=(reflow)

echo "== build at every patch ($arches)"
g() { git -C "$tree" -c advice.detachedHead=false "$@"; }
trap 'g checkout -q -f tpf-series 2>/dev/null || true' EXIT
mapfile -t commits < <(g rev-list --reverse tpf-base..tpf-series)
rm -rf "$out/build"; mkdir -p "$out/build"
declare -A res
for i in "${!commits[@]}"; do
  c=${commits[$i]}
  g checkout -q -f "$c"
  for a in $arches; do
    arch_env "$a"
    obj=$sdir/obj/$a
    log=$out/build/$(printf '%04d' $((i + 1)))-$a.log
    start=$SECONDS
    # The same config as make test (ci/kernel/config.sh, with its check that every
    # requested option survived, but for the series' own options before the patch that
    # adds them), at every patch.
    if { TPF_CONFIG_PREFIX=1 "$top/ci/kernel/config.sh" "$a" "$tree" "$obj" &&
         flock "${TPF_BUILD_LOCK:-/tmp/tpf-build.lock}" make -C "$tree" O="$obj" ARCH="$KARCH" \
           CROSS_COMPILE="$CROSS" CC="ccache $GCC" -j"$jobs" "$(basename "$IMAGE")"; } >"$log" 2>&1; then
      res[$i,$a]=ok
    else
      res[$i,$a]=FAIL
      fail+=("build $(printf '%04d' $((i + 1))) $a")
    fi
    printf '  %04d %-7s %-4s %4ds  %s\n' $((i + 1)) "$a" "${res[$i,$a]}" $((SECONDS - start)) "$(g log -1 --format=%s "$c")"
    printf '%04d\t%s\t%s\t%d\t%s\n' $((i + 1)) "$a" "${res[$i,$a]}" $((SECONDS - start)) "$(g log -1 --format=%s "$c")" \
      >>"$out/build/results.tsv"
  done
done
g checkout -q -f tpf-series

# PREEMPT_RT (kernel/config/rt.config): spinlock_t is 32 bytes there, so this is the build
# in which the series' bucket-size BUILD_BUG_ON has something to catch.
echo "== the series with PREEMPT_RT ($arches)"
rt_subject="the series with PREEMPT_RT (kernel/config/rt.config)"
for a in $arches; do
  arch_env "$a"
  obj=$sdir/obj-rt/$a
  log=$out/build/rt-$a.log
  start=$SECONDS
  if { "$top/ci/kernel/config.sh" "$a" "$tree" "$obj" rt &&
       flock "${TPF_BUILD_LOCK:-/tmp/tpf-build.lock}" make -C "$tree" O="$obj" ARCH="$KARCH" \
         CROSS_COMPILE="$CROSS" CC="ccache $GCC" -j"$jobs" "$(basename "$IMAGE")"; } >"$log" 2>&1; then
    res[rt,$a]=ok
  else
    res[rt,$a]=FAIL
    fail+=("PREEMPT_RT build $a")
  fi
  printf '  RT   %-7s %-4s %4ds  %s\n' "$a" "${res[rt,$a]}" $((SECONDS - start)) "$rt_subject"
  printf 'RT\t%s\t%s\t%d\t%s\n' "$a" "${res[rt,$a]}" $((SECONDS - start)) "$rt_subject" >>"$out/build/results.tsv"
done

echo "== W=1 and sparse on the files the series touches ($arches)"
"$top/ci/series/warnings.sh" "$tree" || fail+=("W=1/sparse")

echo
printf '%-5s %-60s' "patch" "subject"
for a in $arches; do printf ' %-7s' "$a"; done
echo
for i in "${!commits[@]}"; do
  printf '%04d  %-60s' $((i + 1)) "$(g log -1 --format=%s "${commits[$i]}" | cut -c1-60)"
  for a in $arches; do printf ' %-7s' "${res[$i,$a]}"; done
  echo
done
printf '%-5s %-60s' RT "$rt_subject"
for a in $arches; do printf ' %-7s' "${res[rt,$a]}"; done
echo
(( ${#commits[@]} )) || echo "(no patches)"

if (( ${#fail[@]} )); then
  die "failed: ${fail[*]} (see above; logs in ${out#"$top"/}/: checkpatch/, spelling/, build/NNNN-ARCH.log)"
fi
echo "check-series: ${#commits[@]} patches: checkpatch clean, codespell clean, no reflow leftovers, every patch builds for $arches, so does the series with PREEMPT_RT, and W=1 and sparse find nothing new in the files it touches"
exit 0
}
