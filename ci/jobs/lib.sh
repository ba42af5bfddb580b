#!/usr/bin/env bash
# ci/jobs/lib.sh: the step runner of the job scripts (sourced, after ci/lib.sh).  A job script
# is what one GitHub Actions job runs and what `make ci-job` runs locally; the workflow YAML
# only sets up the container, restores and saves the cache, calls the script and uploads.
#
#   step NAME CMD...     run CMD, unless an earlier step failed (then it is skipped), as the
#                        steps of a job do
#   always NAME CMD...   run CMD even after a failure (a step with if: ${{ !cancelled() }})
#   failed NAME          true if the step NAME ran and failed
#   job_help N ARG       with ARG -h or --help: print the script's comment lines 2..N, exit 0
#   job_leg ARG...       the ARCH BASE of a per-leg job: checked (or die with the usage),
#                        then leg=(ARCH=... BASE=...) for the make steps
#   finish               print the steps with their result and time (and append them to
#                        $GITHUB_STEP_SUMMARY when set); exit 1 if a step failed
# shellcheck shell=bash

job_names=()
job_results=()
job_secs=()
job_failed=0

job_run() {
	local kind=$1 name=$2 start rc=0
	shift 2
	if [ "$kind" = step ] && [ "$job_failed" = 1 ]; then
		job_names+=("$name")
		job_results+=(skipped)
		job_secs+=(0)
		return 0
	fi
	echo "::group::$name"
	echo "== $name: $*"
	start=$SECONDS
	"$@" || rc=$?
	echo "::endgroup::"
	job_names+=("$name")
	job_secs+=($((SECONDS - start)))
	if [ "$rc" = 0 ]; then
		job_results+=(ok)
	else
		job_results+=("FAIL ($rc)")
		job_failed=1
		echo "== $name: FAILED with status $rc"
	fi
}

job_help() {
	case "${2:-}" in -h | --help) sed -n "2,$1p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
}

job_leg() {
	[ $# = 2 ] || die "usage: ci/jobs/${0##*/} ARCH BASE (ARCH: ${TPF_ARCHES// / or }; BASE: ${TPF_BASES// / or })"
	check_arch "$1"
	base_env "$2"
	# shellcheck disable=SC2034 # read by the job script that sources this file
	leg=(ARCH="$1" BASE="$2")
}

step() { job_run step "$@"; }
always() { job_run always "$@"; }

failed() {
	local i
	for i in "${!job_names[@]}"; do
		[ "${job_names[$i]}" = "$1" ] && [[ ${job_results[$i]} == FAIL* ]] && return 0
	done
	return 1
}

finish() {
	local i table
	table=$(
		printf '| step | result | time |\n|---|---|---:|\n'
		for i in "${!job_names[@]}"; do
			printf '| %s | %s | %ss |\n' "${job_names[$i]}" "${job_results[$i]}" "${job_secs[$i]}"
		done
	)
	echo
	echo "== ${0##*/}: steps"
	for i in "${!job_names[@]}"; do
		printf '   %-12s %5ss  %s\n' "${job_results[$i]}" "${job_secs[$i]}" "${job_names[$i]}"
	done
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		printf '### %s\n\n%s\n\n' "${0##*/}" "$table" >>"$GITHUB_STEP_SUMMARY"
	fi
	if [ "$job_failed" = 1 ]; then
		echo "${0##*/}: FAILED (the first failed step above; its log is in the group of that name)"
		exit 1
	fi
	echo "${0##*/}: passed"
}
