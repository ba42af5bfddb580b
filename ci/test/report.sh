#!/usr/bin/env bash
# shellcheck disable=SC2154,SC2016 # summary.env sets arch, passed, ...; `x` is Markdown
# Print the per-arch results tables and one closing "N passed, N failed"
# line, from the results dirs ci/vm/verdict.sh wrote.  --markdown writes the
# same as GitHub-flavoured Markdown (for $GITHUB_STEP_SUMMARY).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/test/report.sh [--markdown] (RESULTDIR | ARCH)..."
}
md=0
case "${1:-}" in
-h | --help) usage; exit 0 ;;
--markdown) md=1; shift ;;
esac
[ $# -ge 1 ] || { usage >&2; exit 2; }

tp=0 tf=0
for dir in "$@"; do
	case "$dir" in x86_64 | arm64) dir=$(resultdir "$dir" "${KCONFIG:-}") ;; esac
	if [ ! -f "$dir/summary.env" ]; then
		a=$(basename "$dir")
		if [ "$md" = 1 ]; then
			printf '### %s\n\n**no results**: the run did not get as far as the guest.\n\n' "$a"
		else
			printf '== %s: no results (the run did not get as far as the guest)\n' "$a"
		fi
		tf=$((tf + 1))
		continue
	fi
	base=${TPF_BASES%% *} # summaries from before the base table have no base=
	# shellcheck disable=SC1091
	. "$dir/summary.env"
	verdict=PASS
	{ [ "$failed" != 0 ] || [ -n "$problems" ]; } && verdict=FAIL
	if [ "$md" = 1 ]; then
		printf '### %s (%s, base %s): %s\n\n' "$arch" "$kconfig" "$base" "$verdict"
		printf '| passed | failed | skipped | boot | tests | CPUs | accel | kernel |\n'
		printf '|---:|---:|---:|---:|---:|---:|---|---|\n'
		printf '| %s | %s | %s | %s s | %s s | %s | %s | %s |\n\n' \
			"$passed" "$failed" "$skipped" "$boot_s" "$test_s" "$cpus" "$accel" "$kernel"
	else
		printf '== %s (%s, base %s): %s\n' "$arch" "$kconfig" "$base" "$verdict"
		printf '   %-8s %-8s %-8s %-9s %-9s %-5s %s\n' passed failed skipped boot tests CPUs accel
		printf '   %-8s %-8s %-8s %-9s %-9s %-5s %s\n' "$passed" "$failed" "$skipped" \
			"${boot_s}s" "${test_s}s" "$cpus" "$accel"
	fi
	if [ -n "$problems" ]; then
		IFS=';' read -r -a plist <<<"$problems"
		for p in "${plist[@]}"; do
			if [ "$md" = 1 ]; then printf -- '- **%s**\n' "$p"; else printf '   PROBLEM: %s\n' "$p"; fi
		done
		if [ "$md" = 1 ]; then printf '\nserial log: `%s`\n\n' "$log"; else printf '   serial log: %s\n' "$log"; fi
	fi
	# Every test by name: failures first with their logs, then the full list.
	while IFS=$'\t' read -r n st name detail tlog; do
		[ "$st" = fail ] || continue
		if [ "$md" = 1 ]; then
			printf -- '- FAIL `%s` (%s), log `%s`\n' "$name" "$detail" "$tlog"
		else
			printf '   FAIL %s: %s (%s) log: %s\n' "$n" "$name" "$detail" "$tlog"
		fi
	done <"$dir/results.tsv"
	if [ "$md" = 1 ]; then
		printf '\n<details><summary>all %s tests</summary>\n\n| # | result | test | detail |\n|---:|---|---|---|\n' \
			"$(wc -l <"$dir/results.tsv")"
		awk -F'\t' '{ gsub(/\|/, "\\|", $4); printf "| %s | %s | `%s` | %s |\n", $1, $2, $3, $4 }' "$dir/results.tsv"
		printf '\n</details>\n\n'
	else
		printf '   %-4s %-6s %-40s %s\n' "#" result test detail
		awk -F'\t' '{ d = $4; sub(/^time=/, "", d); printf "   %-4s %-6s %-40s %s\n", $1, $2, $3, d }' "$dir/results.tsv"
	fi
	tp=$((tp + passed))
	tf=$((tf + failed))
	[ -n "$problems" ] && tf=$((tf + 1))
done
[ "$md" = 1 ] && echo
echo "$tp passed, $tf failed"
