#!/usr/bin/env bash
# make evidence: run today's TP tests on the kernel of an earlier series.
#
#   ci/bench/evidence.sh ARCH REV [RUNS]
#
# Builds the kernel of kernel/patches/ at commit REV of this repo (TPF_PATCHES_DIR, its own
# tree and O= dir, as make bench-baseline does) and boots it once per TP selftest built from
# the current series (build/guest/<arch>-default/bin/selftests/futex_tp*) and for
# tests/guest/tp-rewrite; futex_tp_handoff, whose failures on a weak series are
# probabilistic under TCG, boots RUNS times (default 3).  A test that passes on the current
# series and fails here shows what the current series fixes.
# Output: build/evidence/<arch>/<test>[-N].log (the serial console) and a table on stdout
# (TAP ok / not ok counts, exit status).  EVIDENCE_SAVE=1 copies the logs to docs/evidence/
# as old-series-<arch>-<test>[-N].log.  Exits non-zero only when a boot did not run the test.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage >&2; exit 2; fi
arch=$1
rev=$2
runs=${3:-3}
check_arch "$arch"
# The default base only (ci/bases.tsv's first row): REV= names an earlier kernel/patches/.
first_base_only evidence
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS '$runs' is not a positive number: use e.g. 3"
dir=$(earlier_series "$rev")
short=$(git -C "$TPF_ROOT" rev-parse --short "$rev^{commit}")

# Today's tests, built against the current series.
"$TPF_ROOT/ci/kernel/build.sh" "$arch" >/dev/null
"$TPF_ROOT/ci/guest/build.sh" "$arch" >/dev/null
bin=$TPF_BUILD/guest/$(buildname "$arch")/bin
tests=("$bin"/selftests/futex_tp* "$bin"/tests/tp-rewrite)
for t in "${tests[@]}"; do
	[ -x "$t" ] || die "no test binary $t: the current series has no such test (make test ARCH=$arch builds them)"
done

# The earlier series' kernel.
export TPF_PATCHES_DIR=$dir
# An earlier series may predate its own Kconfig options (CONFIG_FUTEX_TP): the config
# check does not ask for an option that the tree does not define.
export TPF_CONFIG_PREFIX=1
key=$(series_key)
"$TPF_ROOT/ci/kernel/build.sh" "$arch" >/dev/null
"$TPF_ROOT/ci/guest/build.sh" "$arch" >/dev/null
info "today's tests on series $key (commit $short), $arch"

out=$TPF_BUILD/evidence/$arch
rm -rf "$out"
mkdir -p "$out"
rc=0
printf '%-28s %4s %7s %6s\n' test ok "not ok" status
for t in "${tests[@]}"; do
	name=$(basename "$t")
	n=1
	[ "$name" = futex_tp_handoff ] && n=$runs
	for ((i = 1; i <= n; i++)); do
		log=$out/$name.log
		[ "$n" = 1 ] || log=$out/$name-$i.log
		st=0
		"$TPF_ROOT/ci/vm/boot" --no-build --arch "$arch" --timeout 300 --log "$log" --cmd "$t" >/dev/null 2>&1 || st=$?
		ok=$(tr -d '\r' <"$log" | grep -cE '^ok [0-9]' || true)
		bad=$(tr -d '\r' <"$log" | grep -cE '^not ok [0-9]' || true)
		printf '%-28s %4s %7s %6s\n' "$(basename "$log" .log)" "$ok" "$bad" "$st"
		if [ "$ok" = 0 ] && [ "$bad" = 0 ]; then
			info "$(basename "$log"): no TAP result: the boot did not run the test (status $st)"
			rc=1
		fi
	done
done
if [ "${EVIDENCE_SAVE:-0}" = 1 ]; then
	for log in "$out"/*.log; do
		cp "$log" "$TPF_ROOT/docs/evidence/old-series-$arch-$(basename "$log")"
	done
	info "logs copied to docs/evidence/old-series-$arch-*.log"
fi
exit "$rc"
