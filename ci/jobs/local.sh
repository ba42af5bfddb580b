#!/usr/bin/env bash
# Run a CI job the way the runner does: ci/jobs/local.sh [--worktree] [--cold] JOB [ARGS...]
# clones the committed HEAD (--worktree: with the uncommitted changes too) into
# build/jobs/JOB[-ARGS]/, runs `make deps` there and then ci/jobs/JOB.sh ARGS, the script
# the workflow's job calls.  --cold: an empty ccache, as a first run on a runner.  The
# clone stays for its logs and results; the next run of the same job and leg replaces it.
# Exit status: the job's.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; }
worktree=0
cold=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--worktree) worktree=1; shift ;;
	--cold) cold=1; shift ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { usage >&2; exit 2; }
job=$1
shift
jobs=
for f in "$TPF_ROOT"/ci/jobs/*.sh; do
	f=${f##*/}
	case $f in lib.sh | local.sh) ;; *) jobs="$jobs ${f%.sh}" ;; esac
done
case " $jobs " in
*" $job "*) ;;
*) die "no job '$job': the jobs are${jobs} (ci/jobs/*.sh)" ;;
esac

name=$job
for a in "$@"; do name=$name-$a; done
dir=$TPF_BUILD/jobs/$name
rm -rf "$dir"
mkdir -p "$TPF_BUILD/jobs"
git clone -q --no-hardlinks "$TPF_ROOT" "$dir"
if [ "$worktree" = 1 ]; then
	# The uncommitted changes, tracked and new, as the clone's working tree.
	(cd "$TPF_ROOT" && git diff HEAD --binary) | (cd "$dir" && git apply --allow-empty --binary)
	(cd "$TPF_ROOT" && git ls-files --others --exclude-standard -z) |
		(cd "$TPF_ROOT" && xargs -0r cp --parents -t "$dir")
fi
env=()
if [ "$cold" = 1 ]; then
	env+=(CCACHE_DIR="$dir/.ccache-cold")
fi
info "job $job${*:+ ($*)} in ${dir#"$TPF_ROOT"/} ($(git -C "$dir" log -1 --format=%h)$([ "$worktree" = 1 ] && echo ' + the working tree'))"
start=$SECONDS
rc=0
(cd "$dir" && env "${env[@]}" make deps && env "${env[@]}" "ci/jobs/$job.sh" "$@") || rc=$?
info "job $job${*:+ ($*)}: $([ "$rc" = 0 ] && echo passed || echo "FAILED ($rc)") in $((SECONDS - start)) s (logs and results under ${dir#"$TPF_ROOT"/})"
exit "$rc"
