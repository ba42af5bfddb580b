#!/usr/bin/env bash
# Soak: repeated tp-stress runs (fresh seed each) on every arch until DURATION seconds
# of wall time are used.  Env: DURATION (total s, default 3600), ARCHES, KCONFIG, CPUS,
# RUN (seconds per run, default 300).  Fails on the first failing run (its seed and log
# are printed and kept in build/stress/).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
total=${DURATION:-3600}
per=${RUN:-300}
arches=${ARCHES:-$TPF_ARCHES}
end=$((SECONDS + total))
n=0
while [ "$SECONDS" -lt "$end" ]; do
	for arch in $arches; do
		left=$((end - SECONDS))
		[ "$left" -gt 30 ] || break 2
		d=$per
		[ "$d" -le "$left" ] || d=$left
		seed=$(( $(date +%s) ^ (RANDOM << 8) ^ n ))
		n=$((n + 1))
		info "soak run $n: $arch ${d}s seed $seed"
		if ! ARCH=$arch DURATION=$d SEED=$seed "$TPF_ROOT/ci/stress/run.sh"; then
			die "soak run $n failed on $arch (seed $seed): see the newest build/stress/stress-$arch-*.log; reproduce with make stress ARCH=$arch SEED=$seed DURATION=$d KCONFIG=${KCONFIG:-}"
		fi
	done
done
info "soak: $n runs passed in $SECONDS s"
