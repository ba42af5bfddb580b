#!/usr/bin/env bash
# The man-pages series for upstream (man-pages/patches-6.20), checked against man-pages
# 6.20's own tree.  That tree is rebuilt from Debian sid's manpages and manpages-dev
# 6.20 (ci/deps/sid.sh; nothing is installed): man/man2/*.2, man/man2const/*.2const,
# man/man2type/*.2type and man/man7/futex.7 at upstream's paths, Debian's symlinks as
# upstream's ".so" link pages, .TH dates and versions back to the "(date)" and
# "(unreleased)" placeholders of upstream's git; committed with a fixed identity and
# date (the same commit every run) and tagged man-pages-6.20.
#
#   ci/docs/man-upstream.sh check    rebuild build/man-upstream/tree, git am the series and
#                                    check it: subjects, cover letter, base blobs, and on
#                                    every page the series touches mandoc -man -Tlint,
#                                    groff -man -ww, semantic newlines, white space, ASCII,
#                                    SEE ALSO order, .TH/sections, rendered width, .so links
#                                    and cross references; one line per finding, any fails
#   ci/docs/man-upstream.sh edit     the same, in build/man-upstream/edit, to change the
#                                    series with git commit --amend or git rebase -i
#   ci/docs/man-upstream.sh export   write the commits of the edit tree back to
#                                    man-pages/patches-6.20 (the cover letter keeps its
#                                    subject and blurb), then check
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() { sed -n 's/^#   //p' "$0"; }
case "${1:-}" in
-h | --help) usage; exit 0 ;;
check | edit | export) mode=$1 ;;
"") usage >&2; exit 2 ;;
*) die "unknown mode '$1': use check, edit or export" ;;
esac
[ $# -eq 1 ] || die "too many arguments: give one mode (check, edit or export)"

root=$TPF_ROOT
series=$root/man-pages/patches-6.20
out=$TPF_BUILD/man-upstream
tag=man-pages-6.20
project_name=tp-futex
project_email=tp-futex@users.noreply.github.com
project_author="$project_name <$project_email>"

need_cmd git git
need_cmd zcat gzip
need_cmd mandoc mandoc
need_cmd groff groff
need_cmd preconv groff-base

# Fixed identity and dates: the same input gives the same commits in every run.
export GIT_AUTHOR_NAME="man-pages import" GIT_AUTHOR_EMAIL="tp-futex@users.noreply.github.com"
export GIT_COMMITTER_NAME="man-pages import" GIT_COMMITTER_EMAIL="tp-futex@users.noreply.github.com"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
export GIT_CONFIG_NOSYSTEM=1 TZ=UTC LC_ALL=C
# Always the given tree's repository, never one found above it (this repository).
g() {
	GIT_DIR=$tree/.git GIT_WORK_TREE=$tree git -C "$tree" -c commit.gpgsign=false -c tag.gpgsign=false \
		-c core.hooksPath=/dev/null -c core.autocrlf=false -c init.defaultBranch=main "$@"
}

# build_tree DIR: the man-pages 6.20 tree, committed and tagged, in DIR (replaced).
build_tree() {
	local pkg src base sub t n links=0 bad
	tree=$1
	pkg=$("$root/ci/deps/sid.sh" manpages manpages manpages-dev | tail -n1) ||
		die "cannot fetch Debian sid's manpages-dev (ci/deps/sid.sh above): check the network, then rerun"
	src=$pkg/usr/share/man
	if ! [ -f "$src/man2/futex.2.gz" ] || ! [ -f "$src/man7/futex.7.gz" ]; then
		die "$src has no man2/futex.2.gz or man7/futex.7.gz: remove $pkg and rerun ci/deps/sid.sh manpages manpages manpages-dev"
	fi
	zcat "$src/man2/futex.2.gz" | grep -q '^\.TH futex 2 .*"Linux man-pages 6\.20"$' ||
		die "sid's futex.2 is not from man-pages 6.20 ($(zcat "$src/man2/futex.2.gz" | grep -m1 '^\.TH')): rebase man-pages/patches-6.20 onto what sid has and update this script"

	rm -rf "$tree"
	mkdir -p "$tree/man/man2" "$tree/man/man7"
	# Few processes (they are slow to start on some hosts): one find per kind of page.
	while read -r sub; do
		# The section's directory, as upstream has it: man2, man2const, man2type.
		case $sub in
		2 | 2[a-z]*) mkdir -p "$tree/man/man$sub" ;;
		*) die "unexpected page section '$sub' in manpages-dev's man2: teach ci/docs/man-upstream.sh its directory" ;;
		esac
		find "$src/man2" -maxdepth 1 -type f -name "*.$sub.gz" -exec cp -t "$tree/man/man$sub" {} +
	done < <(find "$src/man2" -maxdepth 1 -name '*.gz' -printf '%f\n' | sed 's/.*\.\([^.]*\)\.gz$/\1/' | sort -u)
	cp "$src/man7/futex.7.gz" "$tree/man/man7/"
	[ ! -L "$src/man7/futex.7.gz" ] || die "$src/man7/futex.7.gz is a symlink: teach ci/docs/man-upstream.sh"
	n=$(find "$tree/man" -name '*.gz' | wc -l)
	find "$tree/man" -name '*.gz' -exec gzip -d {} +
	find "$tree/man" -type f -exec sed -i '/^\.TH /s/ [0-9]\{4\}-[0-9][0-9]-[0-9][0-9] "Linux man-pages 6\.20"$/ (date) "Linux man-pages (unreleased)"/' {} +
	# Debian turns upstream's link pages (".so man2/stat.2") into symlinks.
	while read -r base t; do
		base=${base%.gz}
		t=${t%.gz}
		case $t in
		../man*/*) t=${t#../} ;;
		*/*) die "symlink $src/man2/$base.gz -> $t has an unexpected form: teach ci/docs/man-upstream.sh" ;;
		*) t=man${t##*.}/$t ;;
		esac
		printf '.so %s\n' "$t" >"$tree/man/man${base##*.}/$base"
		links=$((links + 1))
	done < <(find "$src/man2" -maxdepth 1 -type l -name '*.gz' -printf '%f %l\n')
	n=$((n + links))
	bad=$(grep -l '^\.TH .*"Linux man-pages 6\.20"' -r "$tree/man" | head -n3 | tr '\n' ' ') || true
	[ -z "$bad" ] || die "could not restore the (date) placeholder in $bad: check their .TH lines and the sed in ci/docs/man-upstream.sh"

	g init -q
	g add -A man
	g commit -q -m "man-pages 6.20" -m "Rebuilt from Debian's manpages and manpages-dev $(sed 's/.*manpages-dev=\([^ ]*\).*/\1/' "$pkg/.tpf-versions") by ci/docs/man-upstream.sh: man/man2, man/man2const and man/man7/futex.7, .TH placeholders as in upstream's git."
	g tag "$tag"
	info "man-pages 6.20 tree: $n pages ($links link pages) in ${tree#"$root"/}, tag $tag"
}

# patch_files: the series' patches in order, cover letter excluded.
patch_files() {
	local p
	for p in "$series"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$p" ] || continue
		case ${p##*/} in 0000-*) continue ;; esac
		echo "$p"
	done
}

apply_series() {
	local p
	if [ "$mode" = check ] && [ -z "$(patch_files)" ]; then
		die "no patches in ${series#"$root"/}: restore them from git"
	fi
	while read -r p; do
		if ! g am -q --whitespace=error "$p" >"$out/am.log" 2>&1; then
			g am --abort >/dev/null 2>&1 || true
			die "${p##*/} does not apply to man-pages 6.20 ($(grep -m1 -i 'error\|fail' "$out/am.log" || head -n1 "$out/am.log")): rebase it in ci/docs/man-upstream.sh edit, then export"
		fi
	done < <(patch_files)
}

findings=()
finding() { findings+=("$*"); }

# header FILE: the mail header of a patch, continuation lines unfolded.
header() {
	awk '/^$/ { exit } /^[ \t]/ { h = h " " substr($0, 2); next } { if (h != "") print h; h = $0 } END { if (h != "") print h }' "$1" | sed 's/  */ /g'
}

check_mails() {
	local cover=$series/0000-cover-letter.patch p name subj total=0 i=0 n want files listed f
	total=$(patch_files | wc -l)
	if [ ! -f "$cover" ]; then
		finding "${series#"$root"/}: no 0000-cover-letter.patch: the series needs a cover letter that says why it is an RFC"
	else
		header "$cover" | grep -qxF "From: $project_author" ||
			finding "0000-cover-letter.patch: From: is not the project identity '$project_author': make submission rewrites it to the submitter, keep it"
		subj=$(header "$cover" | sed -n 's/^Subject: //p')
		case $subj in
		"[RFC PATCH 0/$total] "?*) ;;
		*) finding "0000-cover-letter.patch: subject '$subj' does not start with '[RFC PATCH 0/$total]': export with --subject-prefix='RFC PATCH'" ;;
		esac
		grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$cover" &&
			finding "0000-cover-letter.patch: still has git format-patch's *** SUBJECT HERE *** or *** BLURB HERE ***: write the subject and the blurb"
		grep -qi 'not merged\|not in mainline\|not part of mainline' "$cover" ||
			finding "0000-cover-letter.patch: the blurb does not say why this is an RFC: say that the kernel side is not merged (yet)"
	fi
	while read -r p; do
		i=$((i + 1))
		name=${p##*/}
		want=$(printf '%04d' "$i")
		[ "${name%%-*}" = "$want" ] || finding "$name: numbered ${name%%-*}, expected $want: renumber the series (export does)"
		header "$p" | grep -qxF "From: $project_author" ||
			finding "$name: From: is not the project identity '$project_author': make submission rewrites it to the submitter, keep it"
		grep -q '^Signed-off-by:' "$p" &&
			finding "$name: has a Signed-off-by: drop it, make submission adds the submitter's"
		subj=$(header "$p" | sed -n 's/^Subject: //p')
		case $subj in
		"[RFC PATCH $i/$total] "*) subj=${subj#"[RFC PATCH $i/$total] "} ;;
		*)
			finding "$name: subject '$subj' does not start with '[RFC PATCH $i/$total]': export with --subject-prefix='RFC PATCH'"
			continue
			;;
		esac
		# Upstream's style: "man/man2/futex.2: Do something", or several pages separated by ", ".
		if ! [[ $subj =~ ^(man/man[0-9][a-z]*/[^\ ,:]+(,\ man/man[0-9][a-z]*/[^\ ,:]+)*):\ [A-Z] ]]; then
			finding "$name: subject '$subj' is not in upstream's style 'man/manN/page.N: Do something' (capitalized, the touched pages before the colon)"
			continue
		fi
		listed=$(printf '%s\n' "${BASH_REMATCH[1]}" | sed 's/, /\n/g' | sort -u)
		files=$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$p" | sort -u)
		[ "$listed" = "$files" ] ||
			finding "$name: subject names '$(echo "$listed" | tr '\n' ' ' | sed 's/ $//')' but the patch changes '$(echo "$files" | tr '\n' ' ' | sed 's/ $//')': name exactly the pages it changes"
		if [[ $subj == *": Add page" ]]; then
			for f in $files; do
				if ! grep -B1 "^+++ b/$f\$" "$p" | grep -q '^--- /dev/null$'; then
					finding "$name: subject says 'Add page' but $f is not a new file"
				fi
			done
		fi
		# The series must be against this tree: every preimage blob is in the 6.20 commit.
		while read -r n; do
			[ -n "$n" ] || continue
			[[ $n =~ ^0+$ ]] && continue
			g cat-file -e "$n^{blob}" 2>/dev/null ||
				finding "$name: preimage blob $n is not in man-pages 6.20: regenerate the patch from the 6.20 tree (ci/docs/man-upstream.sh edit, export)"
		done < <(sed -n 's/^index \([0-9a-f]*\)\.\..*/\1/p' "$p")
	done < <(patch_files)
}

mandoc_ignore=(
	-e 'STYLE: lower case character in document title:'
	-e 'UNSUPP: ignoring macro in table:'
	-e 'WARNING: cannot parse date, using it verbatim: TH (date)'
	-e 'WARNING: empty block: UR'
	-e 'WARNING: missing date, using "": TH'
	-e "WARNING: undefined escape, printing literally: \\\\"
)

# lint_page DIR PATH: the findings of upstream's linters (and of the checks a script can
# do from upstream's CONTRIBUTING) on DIR/PATH, one a line, "PATH:LINE: ..." where known.
lint_page() {
	local dir=$1 path=$2
	(
		cd "$dir/man"
		p=${path#man/}
		{ mandoc -man -Tlint "$p" 2>&1 || true; } | grep -v -F "${mandoc_ignore[@]}" || true
		groff -K utf-8 -man -t -M. -ww -z "$p" 2>&1 || true
		# lint-man-poems (upstream's two regexes): semantic newlines.
		grep -nP '^(?!.[A-Z])(?:(?!Subject: )(?!Author: )(?!for \().)*[^ ]\. [^ ]' "$p" |
			sed "s|^\([0-9]*\):|$p:\1: use semantic newlines, a sentence goes on after a period: |" || true
		grep -nP '^(?![.[:space:]])(?:(?!\bfor \()[^\t:=0-9[])*; [^ ][^\t:=0-9[]*$' "$p" |
			sed "s|^\([0-9]*\):|$p:\1: use semantic newlines, a clause goes on after a semicolon: |" || true
		grep -n '[[:space:]]$' "$p" | sed "s|^\([0-9]*\):|$p:\1: trailing white space: |" || true
		grep -n '^$' "$p" | sed "s|^\([0-9]*\):|$p:\1: blank line, use .P: |" || true
		LC_ALL=C awk -f - "$p" <<-'EOF' || true
			function lc(s) { s = tolower(s); gsub(/\\-/, "-", s); return s }
			/^\.SH / { insa = ($0 ~ /^\.SH "?SEE ALSO"?$/); n = 0; next }
			insa && /^\.(P|PP|LP|IP|TP|SS)( |$)/ { insa = 0 }
			insa && /^\.BR [^ ]+ \([0-9][a-z]*\)/ {
				name = lc($2); sec = $3; gsub(/[(),.]/, "", sec)
				if (n > 0 && (sec < psec || (sec == psec && name < pname)))
					printf "%s:%d: SEE ALSO not sorted by section, then name (man-pages(7)): %s(%s) after %s(%s)\n", FILENAME, FNR, $2, sec, pn, psec
				psec = sec; pname = name; pn = $2; n++
			}
		EOF
		# Rendered width: no line of the 80-column terminal output may be longer.
		groff -K utf-8 -man -t -Tascii -rLL=78n -P-cbou "$p" 2>/dev/null |
			awk -v p="$p" 'length > 80 { printf "%s: rendered line %d is %d columns (over 80): %s\n", p, NR, length, $0 }' || true
	)
}

# new_findings BASEDIR TREEDIR PATH: the findings of lint_page on the patched page that
# the 6.20 page does not already have (compared without line numbers).
new_findings() {
	local norm='s/^((mandoc: |troff: |an\.tmac: ?)?[^: ]+):[0-9]+:([0-9]+:)?/\1:@:/; s/rendered line [0-9]+ /rendered line @ /'
	awk -F '\t' 'NR == FNR { seen[$1] = 1; next } !($1 in seen) { print $2 }' \
		<(lint_page "$1" "$3" | sed -E "h; $norm; G; s/\n/\t/") \
		<(lint_page "$2" "$3" | sed -E "h; $norm; G; s/\n/\t/")
}

# check_new_page PATH: the layout of a page the series adds (man-pages(7), the 6.20 2const pages).
check_new_page() {
	local path=$1 f=$tree/$1 title sect th secs want order line
	title=${path##*/}
	sect=${title##*.}
	title=${title%.*}
	sed -n '1,12p' "$f" | grep -q '^\.\\" SPDX-License-Identifier: Linux-man-pages-copyleft$' ||
		finding "$path: no '.\\\" SPDX-License-Identifier: Linux-man-pages-copyleft' in the license header (new text)"
	th=$(grep -m1 '^\.TH ' "$f" || true)
	[ "$th" = ".TH $title $sect (date) \"Linux man-pages (unreleased)\"" ] ||
		finding "$path: .TH line '$th', expected '.TH $title $sect (date) \"Linux man-pages (unreleased)\"'"
	secs=$(sed -n 's/^\.SH "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$f" | tr '\n' '|')
	case $secs in
	"NAME|LIBRARY|SYNOPSIS|DESCRIPTION|"*) ;;
	*) finding "$path: sections start '${secs//|/, }', expected NAME, LIBRARY, SYNOPSIS, DESCRIPTION" ;;
	esac
	for want in "RETURN VALUE" ERRORS STANDARDS HISTORY "SEE ALSO"; do
		[[ "|$secs" == *"|$want|"* ]] || finding "$path: no $want section"
	done
	# Canonical order (man-pages(7)).
	order="NAME|LIBRARY|SYNOPSIS|CONFIGURATION|DESCRIPTION|OPTIONS|EXIT STATUS|RETURN VALUE|ERRORS|ENVIRONMENT|FILES|ATTRIBUTES|VERSIONS|STANDARDS|HISTORY|NOTES|CAVEATS|BUGS|EXAMPLES|AUTHORS|REPORTING BUGS|COPYRIGHT|SEE ALSO"
	while IFS= read -r line; do finding "$line"; done < <(awk -v order="$order" -v secs="$secs" -v p="$path" 'BEGIN {
		n = split(order, o, "|"); for (i = 1; i <= n; i++) rank[o[i]] = i
		m = split(secs, s, "|"); last = 0
		for (i = 1; i < m; i++) {
			if (!(s[i] in rank)) { printf "%s: section %s is not one of man-pages(7)\n", p, s[i]; continue }
			if (rank[s[i]] < last) printf "%s: section %s is out of the man-pages(7) order\n", p, s[i]
			last = rank[s[i]]
		}
	}')
	if ! sed -n '/^\.SH NAME$/,/^\.SH /p' "$f" | grep -q "^$title\( \\\\-\|$\)"; then
		finding "$path: NAME does not start with $title"
	fi
	if [ "$sect" = 2const ]; then
		sed -n '/^\.SH ERRORS$/{n;N;p;q}' "$f" | tr '\n' ' ' | grep -q '^See \.BR futex (2)\. $' ||
			finding "$path: ERRORS does not start with 'See futex(2).' (the 6.20 futex 2const pages do)"
	fi
}

check_tree() {
	local changed added path base_dir f t r name sec
	changed=$(g diff --name-only --diff-filter=AM "$tag" HEAD -- man)
	added=$(g diff --name-only --diff-filter=A "$tag" HEAD -- man)
	[ -n "$changed" ] || finding "the series changes no page under man/"
	base_dir=$out/base
	rm -rf "$base_dir"
	for path in $changed; do
		f=$tree/$path
		if head -n1 "$f" | grep -q '^\.so '; then
			continue
		fi
		if g cat-file -e "$tag:$path" 2>/dev/null; then
			mkdir -p "$base_dir/$(dirname "$path")"
			g show "$tag:$path" >"$base_dir/$path"
			# Only what the series adds: drop the findings the 6.20 page already has.
			while IFS= read -r r; do finding "$r"; done < <(new_findings "$base_dir" "$tree" "$path")
		else
			while IFS= read -r r; do finding "$r"; done < <(lint_page "$tree" "$path")
		fi
		# ASCII only, in the lines the series adds.
		while IFS= read -r r; do finding "$path: non-ASCII text added: $r"; done < <(
			g diff "$tag" HEAD -- "$path" | sed -n 's/^+//p' | grep -v '^++ ' | grep -P '[^\x00-\x7F]' || true)
		# Cross references to section 2 and 2const pages must name pages of the tree.
		while read -r name sec; do
			[ -e "$tree/man/man$sec/$name.$sec" ] ||
				finding "$path: refers to $name($sec), which man-pages 6.20 does not have (man/man$sec/$name.$sec)"
		done < <(sed -n 's/^\.BR \([A-Za-z0-9_]*\) (\(2\|2const\)).*/\1 \2/p' "$f" | sort -u)
	done
	for path in $added; do
		head -n1 "$tree/$path" | grep -q '^\.so ' || check_new_page "$path"
	done
	# lint-man-so: every link page of the tree points at a page that exists.
	while IFS= read -r f; do
		t=$(sed -n '1s/^\.so //p' "$f")
		case $t in man2/* | man2[a-z]*/* | man7/futex.7) ;; *) continue ;; esac
		[ -f "$tree/man/$t" ] || finding "${f#"$tree"/}: .so $t, which does not exist"
	done < <(grep -rl '^\.so ' "$tree/man")
}

report() {
	local n=${#findings[@]}
	if [ "$n" -ne 0 ]; then
		printf 'man-upstream: %s\n' "${findings[@]}" >&2
		die "$n finding(s) above in man-pages/patches-6.20: fix them in ci/docs/man-upstream.sh edit, then export"
	fi
}

case $mode in
check)
	mkdir -p "$out"
	build_tree "$out/tree"
	apply_series
	check_mails
	check_tree
	report
	echo "man-upstream: $(patch_files | wc -l) patches (+ cover letter) apply to man-pages 6.20 and lint clean: $(g diff --name-only "$tag" HEAD | tr '\n' ' ' | sed 's/ $//')"
	;;
edit)
	tree=$out/edit
	if [ -d "$tree/.git" ]; then
		if [ -n "$(g status --porcelain)" ] ||
			[ "$(g rev-parse HEAD)" != "$(cat "$tree/.git/tpf-exported" 2>/dev/null)" ]; then
			die "${tree#"$root"/} has work that is not exported: run ci/docs/man-upstream.sh export, or remove ${tree#"$root"/}"
		fi
	fi
	mkdir -p "$out"
	build_tree "$tree"
	unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL
	apply_series
	g rev-parse HEAD >"$tree/.git/tpf-exported"
	g config user.name "$project_name"
	g config user.email "$project_email"
	echo "man-upstream: edit the series in ${tree#"$root"/} (one commit per patch on top of tag $tag; author $project_author, no Signed-off-by), then ci/docs/man-upstream.sh export"
	;;
export)
	tree=$out/edit
	[ -d "$tree/.git" ] || die "no ${tree#"$root"/}: run ci/docs/man-upstream.sh edit first"
	[ -z "$(g status --porcelain)" ] || die "${tree#"$root"/} has uncommitted changes: commit them (git commit --amend or a new commit), then export"
	[ "$(g rev-list --count "$tag..HEAD")" -gt 0 ] || die "${tree#"$root"/} has no commits on top of $tag: nothing to export"
	need_cmd perl perl
	tmp=$out/export
	rm -rf "$tmp"
	# The cover letter is from the project identity too; its date is the export's.
	GIT_AUTHOR_NAME=$project_name GIT_AUTHOR_EMAIL=$project_email
	GIT_COMMITTER_NAME=$project_name GIT_COMMITTER_EMAIL=$project_email
	unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
	mkdir -p "$tmp"
	g -c core.abbrev=9 format-patch -q --no-signature --zero-commit --cover-letter --subject-prefix="RFC PATCH" -o "$tmp" "$tag..HEAD"
	old=$series/0000-cover-letter.patch
	if [ -f "$old" ]; then
		# Keep the cover letter's subject and blurb.
		osubj=$(header "$old" | sed -n 's/^Subject: \[[^]]*\] //p')
		odate=$(header "$old" | sed -n 's/^Date: //p')
		awk '/^$/ && !b { b = 1; next } b' "$old" | awk '/^[^ ].* \([0-9]+\):$/ { exit } { print }' >"$tmp/blurb"
		# Keep its Date too, so that an unchanged series exports byte for byte.
		SUBJ=$osubj BLURB=$tmp/blurb ODATE=$odate perl -0pi -e '
			sub slurp { local $/; open my $fh, "<", $_[0] or die; my $s = <$fh>; $s =~ s/\n+\z//; $s }
			s/^Date: .*$/Date: $ENV{ODATE}/m if $ENV{ODATE};
			s/\*\*\* SUBJECT HERE \*\*\*/$ENV{SUBJ}/; s/\*\*\* BLURB HERE \*\*\*/slurp($ENV{BLURB})/e;' "$tmp"/0000-cover-letter.patch
		rm -f "$tmp/blurb"
	fi
	rm -rf "$series"
	mkdir -p "$series"
	cp "$tmp"/*.patch "$series"/
	g rev-parse HEAD >"$tree/.git/tpf-exported"
	echo "man-upstream: exported $(g rev-list --count "$tag..HEAD") patches + cover letter to ${series#"$root"/}"
	exec "$0" check
	;;
esac
