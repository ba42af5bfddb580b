#!/bin/sh
# Guest side of the patch 3 evidence (docs/evidence/README.md): run a stock futex selftest
# (OLD: sleep 10 ms, then one futex_wake()) and patch 3's version of it (NEW: retry the wake
# until the waiter is queued) N times each, interleaved, and print how often each failed.
#   wake-retry.sh OLD NEW [N]      (busybox sh; exit 0 unless an argument is wrong)
set -eu
[ $# -ge 2 ] || { echo "usage: wake-retry.sh OLD NEW [N]" >&2; exit 2; }
old_bin=$1
new_bin=$2
n=${3:-60}
old=0
new=0
i=0
while [ "$i" -lt "$n" ]; do
	"$old_bin" >/tmp/old.log 2>&1 || { old=$((old + 1)); grep -m1 'returned' /tmp/old.log || true; }
	"$new_bin" >/tmp/new.log 2>&1 || { new=$((new + 1)); grep -m1 'returned' /tmp/new.log || true; }
	i=$((i + 1))
done
echo "WAKE-RETRY ${old_bin##*/} runs=$n old_failed=$old new_failed=$new"
