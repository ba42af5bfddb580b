#!/usr/bin/env bash
# Turn one test-mode serial log into results: results.tap, results.tsv,
# per-test logs and summary.env.  The run's verdict (end marker, splats, clocksource) is
# ci/vm/boot's, read from SERIAL.log.verdict; this adds the TAP's own accounting.  Exit 0
# only if every test passed or skipped and ci/vm/boot found no problem.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/vm/verdict.sh ARCH SERIAL.log OUTDIR [KCONFIG]"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 3 ] || { usage >&2; exit 2; }
arch=$1 log=$2 out=$3 variant=${4:-}
check_arch "$arch"
[ -f "$log" ] || die "no serial log $log: run 'make test ARCH=$arch'"
mkdir -p "$out/logs"
rm -f "$out"/logs/*.log

# Split the log: "# RUN n name" opens test n; its "ok n"/"not ok n" closes it.
tr -d '\r' <"$log" | awk -v dir="$out/logs" -v tap="$out/results.tap" -v tsv="$out/results.tsv" '
	BEGIN { printf "" > tap; printf "" > tsv }
	/^# RUN [0-9]+ / { n = $3; f = sprintf("%s/%03d.log", dir, n); cur = f; print > cur; next }
	/^(not )?ok [0-9]+ / {
		print > tap
		st = ($1 == "not") ? "fail" : "pass"
		num = (st == "fail") ? $3 : $2
		line = $0; sub(/^(not )?ok [0-9]+ /, "", line)
		name = line; detail = ""
		if (index(line, " # ")) { name = substr(line, 1, index(line, " # ") - 1); detail = substr(line, index(line, " # ") + 3) }
		if (detail ~ /^SKIP/) st = "skip"
		printf "%s\t%s\t%s\t%s\t%s/%03d.log\n", num, st, name, detail, dir, num > tsv
		if (cur != "") { print >> cur; close(cur) }
		cur = ""; next
	}
	/^TAP version|^1\.\.[0-9]+$/ { print > tap; next }
	cur != "" { print >> cur }'

marker=$(grep -a '^TPF-END-OF-RUN ' "$log" | tail -n1 || true)
booted=$(grep -a '^TPF-BOOTED ' "$log" | tail -n1 || true)
val() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" <<<"$2"; }
passed=$(awk -F'\t' '$2 == "pass"' "$out/results.tsv" | wc -l)
failed=$(awk -F'\t' '$2 == "fail"' "$out/results.tsv" | wc -l)
skipped=$(awk -F'\t' '$2 == "skip"' "$out/results.tsv" | wc -l)
planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out/results.tap" | head -n1)
boot=$(val uptime "$booted")
end=$(val end "$marker")
test_s=""
[ -n "$boot" ] && [ -n "$end" ] && test_s=$(awk -v a="$boot" -v b="$end" 'BEGIN { printf "%.0f", b - a }')
problems=()
[ -n "$booted" ] || problems+=("the guest never reached init")
if [ -n "$planned" ] && [ $((passed + failed + skipped)) -ne "$planned" ]; then
	problems+=("$((planned - passed - failed - skipped)) of $planned planned tests never reported")
fi
if [ -f "$log.verdict" ]; then
	while IFS= read -r p; do problems+=("${p#problem: }"); done <"$log.verdict"
else
	problems+=("ci/vm/boot gave no verdict for $log (the boot never ran, or was killed)")
fi
if [ -f "$log.splats" ]; then
	cp "$log.splats" "$out/splats.txt"
else
	rm -f "$out/splats.txt"
fi
accel=tcg
grep -q -- '-accel kvm' "$log.cmd" 2>/dev/null && accel=kvm
cpus=$(val cpus "$booted")
{
	echo "arch=$arch"
	echo "kconfig=${variant:-default}"
	echo "base=$BASE"
	echo "passed=$passed"
	echo "failed=$failed"
	echo "skipped=$skipped"
	echo "boot_s=${boot:-?}"
	echo "test_s=${test_s:-?}"
	echo "cpus=${cpus:-?}"
	echo "accel=$accel"
	echo "kernel=$(val kernel "$booted")"
	echo "clocksource=$(val clocksource "$booted")"
	echo "debian=$(debian_version)"
	echo "series=$(series_key)"
	echo "log=$log"
	printf 'problems=%q\n' "$(IFS=';'; echo "${problems[*]}")"
} >"$out/summary.env"
[ "$failed" = 0 ] && [ ${#problems[@]} = 0 ]
