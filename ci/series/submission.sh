#!/usr/bin/env bash
# make submission V=N [SIGNOFF="Name <email>"]: write outgoing/vN/ with the mails of version N of
# the series, ready for git send-email (this script never sends anything):
#   standalone/  the first patches of the series that submission/standalone.txt names (checkpatch,
#              two selftest fixes): one mail each, not in the TP thread, To/Cc from
#              get_maintainer.pl
#   kernel/    git format-patch -vN --cover-letter of the rest of the submission base's
#              series (ci/bases.tsv, the row with submit=yes: kernel/patches-7.2 applied with
#              git am onto Debian's linux-source-7.2 in build/series-7.2/linux; BASE= picks
#              another), author and Signed-off-by the submitter, To/Cc headers per patch from
#              that tree's scripts/get_maintainer.pl (+ linux-api for UAPI changes, + Waiman
#              Long, whose design it is), cover letter from submission/cover-letter.txt
#   man-pages/ the RFC series for upstream man-pages (man-pages/patches-6.20/*.patch, checked
#              first by ci/docs/man-upstream.sh check), author and Signed-off-by the submitter,
#              To the man-pages maintainer and list
#   SEND.txt   the exact git send-email commands (the man-pages series in reply to the cover)
# The directory is built next to its final place and renamed at the end: never half-written.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { echo "usage: ci/series/submission.sh N [\"Name <email>\"]   (make submission V=N [SIGNOFF=\"Name <email>\"])"; }
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
(( $# <= 2 )) || die "too many arguments: give V and optionally SIGNOFF (make submission V=N SIGNOFF=\"Name <email>\")"
ver=${1:-}
signoff=${2:-}

top=$TPF_ROOT
cd "$top"
# The base: BASE= (TPF_BASE) if given, else the row of ci/bases.tsv marked submit=yes.
if [[ -z ${TPF_BASE:-} ]]; then
  TPF_BASE=$(bases_where submit | head -n1)
  [[ -n $TPF_BASE ]] || die "ci/bases.tsv marks no base submit=yes: mark one, or give BASE="
fi
export TPF_BASE
base_env "$TPF_BASE"
waiman="Waiman Long <longman@redhat.com>"

# --- inputs --------------------------------------------------------------------------------
[[ -n $ver ]] || die "no version given: use make submission V=N with N >= 4 (v3 was the last upstream posting)"
[[ $ver =~ ^[0-9]+$ ]] || die "V='$ver' is not a version number: use an integer N >= 4, e.g. make submission V=4"
ver=$((10#$ver))
(( ver >= 4 )) || die "V=$ver is too small: v3 was the last upstream posting, so use V=4 or later"
for t in git perl; do
  need_cmd "$t" "$t"
done
if [[ -z $signoff ]]; then
  name=$(git config user.name || true)
  email=$(git config user.email || true)
  [[ -n $name && -n $email ]] ||
    die "no Signed-off-by identity: pass SIGNOFF=\"Your Name <you@example.org>\" or set git config user.name and user.email"
  signoff="$name <$email>"
fi
[[ $signoff =~ ^([^\<\>@]*[^\<\>@[:space:]])[[:space:]]+\<([^\<\>[:space:]@]+@[^\<\>[:space:]@]+\.[^\<\>[:space:]@]+)\>$ ]] ||
  die "SIGNOFF='$signoff' is not \"Full Name <user@domain>\": fix SIGNOFF (or git config user.name / user.email)"
so_name=${BASH_REMATCH[1]} so_email=${BASH_REMATCH[2]}
[[ -f submission/cover-letter.txt ]] || die "missing submission/cover-letter.txt: restore it from git"
# Mail prose wraps at 76 columns (a link may not): a reviewer reads the cover letter as sent.
long=$(awk 'length > 76 && !/:\/\// { print FNR; exit }' submission/cover-letter.txt)
[[ -z $long ]] || die "submission/cover-letter.txt:$long is longer than 76 columns: rewrap that paragraph"
out=outgoing/v$ver
[[ ! -e $out ]] || die "$out already exists: remove it (rm -rf $out) or pick another V"

# --- the series, as commits ------------------------------------------------------------------
sdir=${TPF_SERIES_DIR:-$top/build/series$BASE_SUFFIX}
mkdir -p "$sdir" outgoing
exec 9>"$sdir/.tree.lock"
flock -n 9 || { echo "waiting for ${sdir#"$top"/}/linux: another check-series/submission/checkpatch is using it" >&2; flock 9; }
export TPF_SERIES_LOCKED=1
info=$(ci/kernel/tree.sh --series) || exit 1
tree=$(sed -n 's/.* tree=\([^ ]*\) .*/\1/p' <<<"$info")
base=$(sed -n 's/^base=\([0-9a-f]*\) .*/\1/p' <<<"$info")
count=$(sed -n 's/.* count=\([0-9]*\) .*/\1/p' <<<"$info")
debver=$(sed -n 's/.* debver=\(.*\)$/\1/p' <<<"$info")
[[ -f $tree/scripts/get_maintainer.pl ]] || die "no scripts/get_maintainer.pl in $tree: remove build/series and rerun"
git -C "$tree" checkout -q -f tpf-series

tmp=$(mktemp -d "outgoing/.v$ver.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/kernel"

# --- authorship ------------------------------------------------------------------------------
# Commits by the project's placeholder identity (the series in kernel/patches is written by the
# project, not by a person who can certify the DCO) go out authored by the submitter, who signs
# them off.  Commits by anybody else keep their author (see the NOTE below).
project_author="tp-futex <tp-futex@users.noreply.github.com>"
git -C "$tree" branch -f tpf-submit tpf-series
# shellcheck disable=SC2016 # expanded by the shell of git rebase --exec
GIT_COMMITTER_NAME=$so_name GIT_COMMITTER_EMAIL=$so_email PA=$project_author SO="$so_name <$so_email>" \
  git -C "$tree" rebase -q --exec \
  '[ "$(git log -1 --format="%an <%ae>")" != "$PA" ] || git commit -q --amend --no-edit --author="$SO"' \
  tpf-base tpf-submit >"$tmp/rebase.log" 2>&1 ||
  { cat "$tmp/rebase.log" >&2; die "could not prepare the submitter's branch tpf-submit in $tree"; }
rm -f "$tmp/rebase.log"
git -C "$tree" checkout -q -f tpf-series

# --- the standalone patches: the first commits, named by submission/standalone.txt ---------------
[[ -f submission/standalone.txt ]] || die "missing submission/standalone.txt: restore it from git"
mapfile -t standalone < <(sed -e '/^#/d' -e '/^[[:space:]]*$/d' submission/standalone.txt)
mapfile -t commits < <(git -C "$tree" rev-list --reverse tpf-base..tpf-submit)
nstand=0
while (( nstand < ${#commits[@]} )) &&
  printf '%s\n' "${standalone[@]}" | grep -qxF -- "$(git -C "$tree" log -1 --format=%s "${commits[$nstand]}")"; do
  nstand=$((nstand + 1))
done
(( nstand == ${#standalone[@]} )) ||
  die "submission/standalone.txt names ${#standalone[@]} patches but only the first $nstand commits of the series match them: list subjects exactly, and keep those patches first in the series"
tp_from=tpf-base
(( nstand == 0 )) || tp_from=${commits[$((nstand - 1))]}

# --- git format-patch with Signed-off-by -------------------------------------------------
fp() {
  GIT_COMMITTER_NAME=$so_name GIT_COMMITTER_EMAIL=$so_email GIT_AUTHOR_NAME=$so_name GIT_AUTHOR_EMAIL=$so_email \
    git -C "$tree" -c format.signOff=false -c format.coverFromDescription=none \
    format-patch -q --signoff "$@" || die "git format-patch failed in $tree"
}
mkdir -p "$tmp/standalone"
for ((i = 0; i < nstand; i++)); do
  # Each its own mail: numbered by its place in the series only in the file name.
  fp --no-numbered --start-number $((i + 1)) -o "$top/$tmp/standalone" -1 "${commits[$i]}"
done
fp -v"$ver" --cover-letter --thread=shallow -o "$top/$tmp/kernel" "$tp_from..tpf-submit"
mapfile -t spatches < <(find "$tmp/standalone" -name '*.patch' | sort)
mapfile -t kpatches < <(find "$tmp/kernel" -name '*.patch' ! -name '*0000-cover-letter.patch' | sort)
cover=$(find "$tmp/kernel" -name '*0000-cover-letter.patch')
[[ -n $cover && ${#kpatches[@]} == $((count - nstand)) && ${#spatches[@]} == "$nstand" ]] ||
  die "git format-patch wrote ${#spatches[@]} + ${#kpatches[@]} patches for $count commits: check $tree"

# Upstream needs the author's own Signed-off-by; the kit only adds the submitter's.
unsigned=$(git -C "$tree" log --reverse --format='%an <%ae>%x09%(trailers:key=Signed-off-by,valueonly,separator=%x1f)' tpf-base..tpf-submit |
  awk -F'\t' -v me="$so_name <$so_email>" '{ n++; if ($1 != me && index($2, $1) == 0) { bad[$1] = bad[$1] " " n } }
    END { for (a in bad) printf "patch%s by %s; ", bad[a], a }')
authornote=""
if [[ -n $unsigned ]]; then
  authornote="NOTE: no Signed-off-by from the author of ${unsigned%; } -- get the author's sign-off (or make the submitter the author) before sending."
  echo "submission: $authornote" >&2
fi

# --- recipients ------------------------------------------------------------------------------
# gm FILE OPTS...: one address per line from get_maintainer.pl, run in the tree.
gm() {
  local f=$1; shift
  (cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats "$@" "$top/$f") ||
    die "scripts/get_maintainer.pl failed on $(basename "$f")"
}
# add_headers FILE TO CC: insert To:/Cc: header lines (folded) before the end of the mail headers.
add_headers() {
  local f=$1 to=$2 cc=$3
  TO=$to CC=$cc perl -0pi -e '
    sub fold { my ($h, $v) = @_; my @a = grep { length } split /\n/, $v; return "" unless @a;
               return "$h: " . join(",\n ", @a) . "\n"; }
    my ($h, $b) = split /\n\n/, $_, 2;
    $h =~ s/^(?:To|Cc):.*\n?(?:[ \t].*\n?)*//mgi;
    $h =~ s/\n*\z/\n/;
    $_ = $h . fold("To", $ENV{TO}) . fold("Cc", $ENV{CC}) . "\n" . $b;' "$f"
}
shq() { local q="'\\''"; printf "'%s'" "${1//\'/$q}"; }
uniq_lines() { awk 'NF && !seen[tolower($0)]++'; }

all_to="" all_cc=""
uapi=0
for p in "${spatches[@]}"; do
  to=$(gm "$p" --m --no-r --no-l | uniq_lines)
  cc=$(gm "$p" --no-m --r --l | uniq_lines)
  [[ -n $to ]] || die "get_maintainer.pl found no maintainer for $(basename "$p"): check the files it touches"
  cc=$(grep -vixF -f <(printf '%s\n' "$to") <<<"$cc" || true)
  add_headers "$p" "$to" "$cc"
done
for p in "${kpatches[@]}"; do
  to=$(gm "$p" --m --no-r --no-l | uniq_lines)
  cc=$(gm "$p" --no-m --r --l | uniq_lines)
  if grep -qE '^diff --git a/include/uapi/' "$p"; then
    cc=$(printf '%s\nlinux-api@vger.kernel.org\n' "$cc" | uniq_lines)
    uapi=1
  fi
  cc=$(printf '%s\n%s\n' "$cc" "$waiman" | uniq_lines)
  [[ -n $to ]] || die "get_maintainer.pl found no maintainer for $(basename "$p"): check the files it touches"
  cc=$(grep -vixF -f <(printf '%s\n' "$to") <<<"$cc" || true)
  add_headers "$p" "$to" "$cc"
  all_to+=$to$'\n' all_cc+=$cc$'\n'
done
all_to=$(uniq_lines <<<"$all_to")
# A maintainer who is To: on one patch and Cc: on another stays To: on the cover.
all_cc=$(grep -vixF -f <(printf '%s\n' "$all_to") <<<"$all_cc" | uniq_lines || true)

# --- cover letter --------------------------------------------------------------------------
bench=$tmp/bench.txt
# Source: docs/bench/summary.txt (make bench-report writes it next to docs/benchmarks.md: per arch
# the machine and the throughput table, then the real programs), else the same block generated
# on the fly from results/<arch>/ by bench/report.py, else a placeholder line.
if [[ -f docs/bench/summary.txt ]]; then
  cp docs/bench/summary.txt "$bench"
elif compgen -G 'results/*/summary.csv' >/dev/null && [[ -x bench/report.py ]] &&
     python3 bench/report.py --results results --out "$tmp/benchmarks.md" --plots "$tmp/plots" \
       --source "results/<arch>/ (make bench BENCH=full), tabulated by bench/report.py" >/dev/null 2>&1; then
  cp "$tmp/plots/summary.txt" "$bench"
else
  echo "[No benchmark results yet: no docs/bench/summary.txt or results/<arch>/summary.csv.  Run make bench BENCH=full for x86_64 and arm64 and make bench-report, then regenerate this submission.]" >"$bench"
fi
rm -rf "$tmp/benchmarks.md" "$tmp/plots"

shopt -s nullglob
mpatches=(man-pages/patches-6.20/*.patch)
shopt -u nullglob
mtext=$tmp/man.txt
if (( ${#mpatches[@]} )); then
  printf '%s\n' "The man-pages patches (an RFC against man-pages 6.20, adding" \
    "FUTEX_LOCK(2const) and FUTEX_UNLOCK(2const)) follow in reply to this" \
    "mail, addressed to the man-pages list." >"$mtext"
else
  printf '%s\n' "A man-pages patch documenting FUTEX_LOCK and FUTEX_UNLOCK will be sent" \
    "separately." >"$mtext"
fi

subject=$(head -n1 submission/cover-letter.txt)
tail -n +2 submission/cover-letter.txt >"$tmp/blurb.txt"
# The upstream release a Debian version is built from: 7.2.13-1 -> v7.2.13.
upstream=v${debver%%-*}
VERSION=$ver DEBVER=$debver BENCH=$bench MAN=$mtext UPSTREAM=$upstream PKG=$BASE_PKG perl -0pi -e '
  sub slurp { local $/; open my $fh, "<", $_[0] or die "$_[0]: $!"; my $s = <$fh>; $s =~ s/\n+\z//; $s }
  s/\@VERSION\@/$ENV{VERSION}/g; s/\@DEBIAN_VERSION\@/$ENV{DEBVER}/g;
  s/\@UPSTREAM\@/$ENV{UPSTREAM}/g; s/\@BASE_PACKAGE\@/$ENV{PKG}/g;
  s/\@BENCHMARKS\@/slurp($ENV{BENCH})/ge; s/\@MANPAGES\@/slurp($ENV{MAN})/ge;' "$tmp/blurb.txt"
if grep -qE '@[A-Z_]+@' "$tmp/blurb.txt"; then
  die "submission/cover-letter.txt has an unknown placeholder: $(grep -oE '@[A-Z_]+@' "$tmp/blurb.txt" | head -1) (known: @VERSION@ @UPSTREAM@ @BASE_PACKAGE@ @DEBIAN_VERSION@ @BENCHMARKS@ @MANPAGES@)"
fi
SUBJ=$subject BLURB=$tmp/blurb.txt perl -0pi -e '
  sub slurp { local $/; open my $fh, "<", $_[0] or die "$_[0]: $!"; my $s = <$fh>; $s =~ s/\n+\z//; $s }
  s/\*\*\* SUBJECT HERE \*\*\*/$ENV{SUBJ}/; s/\*\*\* BLURB HERE \*\*\*/slurp($ENV{BLURB})/e;' "$cover"
grep -q 'SUBJECT HERE\|BLURB HERE' "$cover" && die "could not fill in the cover letter $cover"
add_headers "$cover" "$all_to" "$all_cc"
rm -f "$tmp/blurb.txt" "$bench" "$mtext"
cover_id=$(sed -n '1,/^$/{s/^Message-I[dD]: *//p}' "$cover" | head -n1)
[[ -n $cover_id ]] || die "no Message-Id in $cover: git format-patch --thread should have written one"

# --- man-pages series --------------------------------------------------------------------------
if (( ${#mpatches[@]} )); then
  ci/docs/man-upstream.sh check >"$tmp/man-check.log" 2>&1 ||
    { cat "$tmp/man-check.log" >&2; die "the man-pages series is not lint-clean against man-pages 6.20 (ci/docs/man-upstream.sh check above): fix man-pages/patches-6.20"; }
  rm -f "$tmp/man-check.log"
  mkdir -p "$tmp/man-pages"
  for p in "${mpatches[@]}"; do
    m=$tmp/man-pages/$(basename "$p")
    cp "$p" "$m"
    # The submitter authors and signs off every mail (DCO), as in the kernel series.
    FROM="$so_name <$so_email>" PA=$project_author perl -0pi -e '
      my ($h, $b) = split /\n\n/, $_, 2;
      $h =~ s/^From: \Q$ENV{PA}\E$/From: $ENV{FROM}/m;
      $_ = "$h\n\n$b";' "$m"
    [[ $(basename "$m") == 0000-* ]] ||
      git interpret-trailers --in-place --if-exists addIfDifferent \
        --trailer "Signed-off-by: $so_name <$so_email>" "$m"
    add_headers "$m" "alx@kernel.org" \
      "$(printf '%s\n' linux-man@vger.kernel.org linux-api@vger.kernel.org "$waiman")"
  done
  if grep -l "^From: $project_author" "$tmp"/man-pages/*.patch >/dev/null 2>&1; then
    die "a man-pages mail is still from $project_author: check man-pages/patches-6.20 (From: lines)"
  fi
  echo "submission: man-pages series: ${#mpatches[@]} patches, in reply to $cover_id"
else
  echo "submission: man-pages/patches-6.20/ has no patches: skipping the man-pages series"
fi

# --- SEND.txt -------------------------------------------------------------------------------
{
  echo "# tp-futex v$ver: generated by make submission on $(date -u +%Y-%m-%dT%H:%MZ); nothing has been sent."
  echo "# Base: upstream $upstream (Debian $BASE_PKG $debver), imported locally as $base (${sdir#"$top"/}/linux, tag tpf-base; not an upstream commit, so the mails carry no base-commit)."
  echo "# Recipients are the To:/Cc: headers of each file (scripts/get_maintainer.pl$( ((uapi)) && echo ", + linux-api@vger.kernel.org for the UAPI change")),"
  echo "# Signed-off-by and sender: $so_name <$so_email>.  Run from the repository root, each command"
  echo "# with --dry-run first (needs Debian's git-email and your sendemail.* SMTP settings)."
  [[ -z $authornote ]] || echo "# $authornote"
  echo
  n=1
  for p in "${spatches[@]}"; do
    echo "# $n. On its own, to its own maintainers (submission/standalone.txt): $(awk '/^Subject: /{s=substr($0, 10); f=1; next} f && /^[ \t]/{s=s $0; next} f{print s; exit}' "$p")"
    echo "git send-email --from=$(shq "$so_name <$so_email>") --no-thread --confirm=always --suppress-cc=self $out/standalone/$(basename "$p")"
    echo
    n=$((n + 1))
  done
  echo "# $n. The kernel series (cover letter first; format-patch already threaded it)."
  echo "git send-email --from=$(shq "$so_name <$so_email>") --no-thread --confirm=always --suppress-cc=self $out/kernel/*.patch"
  if (( ${#mpatches[@]} )); then
    echo
    echo "# $((n + 1)). The man-pages series, in reply to the kernel cover letter."
    echo "git send-email --from=$(shq "$so_name <$so_email>") --thread --no-chain-reply-to --in-reply-to='$cover_id' --confirm=always --suppress-cc=self $out/man-pages/*.patch"
  fi
} >"$tmp/SEND.txt"

# Paths inside the files refer to the final directory.
# --- checkpatch on the mails as they will be sent -----------------------------------------------
# FILE_PATH_CHANGES (new files) is judged by make checkpatch, which checks MAINTAINERS coverage.
# The TP mails go out without the standalone patches, so they are checked by the base's own
# checkpatch.pl (with its data files), which does not know the Originally-by: tag yet: that
# one warning, "Non-standard signature: Originally-by:", is expected (maintainer-tip.rst
# documents the tag; the standalone checkpatch patch teaches it); anything else fails.
cpbase=$tmp/checkpatch-base
mkdir -p "$cpbase"
for f in checkpatch.pl spelling.txt const_structs.checkpatch; do
  git -C "$tree" show "tpf-base:scripts/$f" >"$cpbase/$f" 2>/dev/null || rm -f "$cpbase/$f"
done
[[ -s $cpbase/checkpatch.pl ]] || die "no scripts/checkpatch.pl at tpf-base in $tree"
expected='^WARNING:BAD_SIGN_OFF: Non-standard signature: Originally-by:$'
cpbad=0
for p in "${spatches[@]}" "${kpatches[@]}"; do
  cp_script=scripts/checkpatch.pl
  [[ $p == */standalone/* ]] || cp_script=$top/$cpbase/checkpatch.pl
  cplog=$(cd "$tree" && PATH=/usr/bin:$PATH perl "$cp_script" --strict --show-types --color=never \
    --ignore FILE_PATH_CHANGES "$top/$p" 2>&1) || true
  if grep -E '^(ERROR|WARNING|CHECK):' <<<"$cplog" | grep -qvE "$expected"; then
    echo "submission: checkpatch on $(basename "$p"):" >&2
    grep -E '^(ERROR|WARNING|CHECK):' <<<"$cplog" | grep -vE "$expected" | sed 's/^/    /' >&2
    cpbad=$((cpbad + 1))
  fi
done
rm -rf "$cpbase"
(( cpbad == 0 )) || die "checkpatch --strict is not clean on $cpbad of the mails: fix the series (make series-edit), or the author/sign-off"
echo "submission: checkpatch --strict: all ${#spatches[@]} standalone and ${#kpatches[@]} series mails clean (the series by the base's checkpatch.pl, but for the Originally-by: tag it does not know)"

mv -T "$tmp" "$out" 2>/dev/null || die "could not rename $tmp to $out (did another run create it?)"
trap - EXIT
echo "submission: wrote $out/: ${#spatches[@]} standalone patches, ${#kpatches[@]} kernel patches + cover letter (v$ver, signed off by $so_name <$so_email>)"
echo
cat "$out/SEND.txt"
