#!/bin/sh
# Real programs on TP futexes, in the guest (busybox sh), run by ci/bench/real.sh:
#
#	run.sh bench ROUNDS SECONDS THREADS
#	run.sh verify SECONDS THREADS
#
# bench: each program with plain glibc and with libtp-shim.so, side by side and
# interleaved (the order flips every round), ROUNDS times; one line per run:
#	TPF-REAL <program> <glibc|tp> <round> <ops/s>
# First, one short run of each under the shim with TP_SHIM_STATS=1, which says
# where its lock calls went (TPF-REAL-STATS lines; never in a measured run,
# as the counters cost).
# verify: stress-ng --mutex and --futex under the shim with --verify and
# TP_SHIM_STATS=1 (the mutex workers must lock on TP futexes), TPF-REAL-VERIFY
# lines.  Exit status 1 if any run failed.
set -u
export LD_LIBRARY_PATH=/tpf/real/lib
bin=/tpf/real/bin
shim=/tpf/lib/libtp-shim.so
failed=0
# sysbench mutex is fixed work: this many locks per thread per second asked for.
locks=100000

# prog NAME SECONDS THREADS: the command line of program NAME (word-split by the caller).
prog() {
	case "$1" in
	sysbench-mutex)
		# Fixed work: THREADS x locks of one mutex; ops/s from the total time.
		echo "$bin/sysbench mutex --threads=$3 --mutex-num=1 --mutex-locks=$((locks * $2)) --mutex-loops=50 run"
		;;
	sysbench-threads)
		echo "$bin/sysbench threads --threads=$3 --thread-locks=1 --thread-yields=10 --time=$2 run"
		;;
	stress-ng-mutex)
		echo "$bin/stress-ng --mutex 1 --mutex-procs $3 --timeout $2 --metrics-brief"
		;;
	stress-ng-futex)
		echo "$bin/stress-ng --futex $3 --timeout $2 --metrics-brief"
		;;
	esac
}

# ops NAME THREADS OUTFILE SECONDS: ops/s from a program's output.
ops() {
	case "$1" in
	sysbench-mutex)
		awk -v n="$(($2 * locks * $4))" '/total time:/ { t = $3 + 0 } END { if (t > 0) printf "%.0f\n", n / t }' "$3"
		;;
	sysbench-threads)
		awk '/total time:/ { t = $3 + 0 } /total number of events:/ { e = $5 } END { if (t > 0 && e != "") printf "%.0f\n", e / t }' "$3"
		;;
	stress-ng-*)
		# "stress-ng: metrc: [pid] mutex  <bogo ops> <real> <usr> <sys> <ops/s real> <ops/s cpu>"
		awk -v s="${1#stress-ng-}" '$4 == s && $5 ~ /^[0-9]+$/ { print int($9) }' "$3"
		;;
	esac
}

# one NAME MODE ROUND SECONDS THREADS
one() {
	cmd=$(prog "$1" "$4" "$5")
	if [ "$2" = tp ]; then
		# shellcheck disable=SC2086 # the command line is words
		env LD_PRELOAD=$shim $cmd >/tmp/real.out 2>&1
	else
		# shellcheck disable=SC2086
		$cmd >/tmp/real.out 2>&1
	fi
	rc=$?
	v=$(ops "$1" "$5" /tmp/real.out "$4")
	if [ "$rc" -ne 0 ] || [ -z "$v" ] || grep -q 'tp-shim: .*using glibc' /tmp/real.out; then
		echo "TPF-REAL-FAIL $1 $2 $3 exit=$rc"
		sed 's/^/# /' /tmp/real.out | tail -n 20
		failed=1
		return
	fi
	echo "TPF-REAL $1 $2 $3 $v"
}

progs="sysbench-mutex sysbench-threads stress-ng-mutex stress-ng-futex"

case "${1:-}" in
bench)
	rounds=$2 secs=$3 threads=$4
	echo "TPF-REAL-CONFIG rounds=$rounds seconds=$secs threads=$threads"
	for p in $progs; do
		cmd=$(prog "$p" 1 "$threads")
		# shellcheck disable=SC2086
		env TP_SHIM_STATS=1 LD_PRELOAD=$shim $cmd 2>&1 >/dev/null |
			sed -n "s/^tp-shim: stats: pid [0-9]*: /TPF-REAL-STATS $p /p" | sort | uniq -c |
			sed 's/^ *\([0-9]*\) \(.*\)/\2 (x\1)/'
	done
	r=1
	while [ "$r" -le "$rounds" ]; do
		for p in $progs; do
			if [ $((r % 2)) = 1 ]; then order="glibc tp"; else order="tp glibc"; fi
			for m in $order; do
				one "$p" "$m" "$r" "$secs" "$threads"
			done
		done
		r=$((r + 1))
	done
	;;
verify)
	secs=$2 threads=$3
	for s in mutex futex; do
		# shellcheck disable=SC2086
		env TP_SHIM_STATS=1 LD_PRELOAD=$shim $bin/stress-ng --$s "$threads" --timeout "$secs" \
			--verify --metrics-brief >/tmp/real.out 2>&1
		rc=$?
		sed 's/^/# /' /tmp/real.out
		# The mutex stressor's workers must have locked on TP futexes (TP_SHIM_STATS).
		tp=1
		[ "$s" = mutex ] && { grep -q 'first lock call on TP futexes' /tmp/real.out || tp=0; }
		if [ "$rc" -eq 0 ] && [ "$tp" = 1 ] && grep -q 'successful run completed' /tmp/real.out &&
			! grep -qiE 'fail|verif.*error|using glibc' /tmp/real.out; then
			echo "TPF-REAL-VERIFY stress-ng-$s ok"
		else
			echo "TPF-REAL-VERIFY stress-ng-$s FAIL exit=$rc"
			failed=1
		fi
	done
	;;
*)
	echo "usage: run.sh bench ROUNDS SECONDS THREADS | run.sh verify SECONDS THREADS" >&2
	exit 2
	;;
esac
exit "$failed"
