#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/git-rev.sh, the revision every result names: in a throwaway git
# repository, a clean tree is `git describe`; edits to tracked files, or
# a file git neither tracks nor ignores, add "-dirty+" and a hash of the
# edits, the same for the same edits and another for others; ignored
# files change nothing; outside git it is "unknown".
. "$(dirname "$0")/../lib.sh"

GR=$VSB_ROOT/ci/git-rev.sh
command -v git >/dev/null || { echo "# git missing"; exit 4; }
R=$TMP/repo
mkdir -p "$R" && cd "$R" || exit 1
{ git init -q . && git config user.email t@example.org && git config user.name t &&
  printf 'a\n' >a.c && printf 'build/\n' >.gitignore && git add a.c .gitignore &&
  git commit -qm one; } || { echo "# cannot make a git repository here"; exit 4; }
head=$(git describe --always)

[ "$("$GR" "$R")" = "$head" ] && ok "a clean tree is its describe ($head)" ||
	not_ok "a clean tree is its describe" "$("$GR" "$R")"
printf 'b\n' >>a.c
r1=$("$GR" "$R")
[[ $r1 =~ ^$head-dirty\+[0-9a-f]{8}$ ]] && ok "an edit adds -dirty and its hash ($r1)" ||
	not_ok "an edit adds -dirty and its hash" "$r1"
[ "$("$GR" "$R")" = "$r1" ] && ok "the same edit gives the same revision" ||
	not_ok "the same edit gives the same revision" "$("$GR" "$R")"
printf 'c\n' >>a.c
r2=$("$GR" "$R")
[[ $r2 =~ ^$head-dirty\+[0-9a-f]{8}$ && $r2 != "$r1" ]] && ok "another edit, another hash ($r2)" ||
	not_ok "another edit, another hash" "$r1 then $r2"
git checkout -q a.c
mkdir -p build && printf 'x\n' >build/out.o
[ "$("$GR" "$R")" = "$head" ] && ok "an ignored file leaves the tree clean" ||
	not_ok "an ignored file leaves the tree clean" "$("$GR" "$R")"
printf 'new\n' >b.c
r3=$("$GR" "$R")
[[ $r3 =~ ^$head-dirty\+[0-9a-f]{8}$ ]] && ok "an untracked source file makes it dirty ($r3)" ||
	not_ok "an untracked source file makes it dirty" "$r3"
printf 'other\n' >b.c
[ "$("$GR" "$R")" != "$r3" ] && ok "... and its contents are in the hash" ||
	not_ok "... and its contents are in the hash" "$r3 both times"
rm -f b.c
mkdir -p "$TMP/nogit"
[ "$(GIT_CEILING_DIRECTORIES=$TMP "$GR" "$TMP/nogit")" = unknown ] &&
	ok "outside git: unknown" || not_ok "outside git: unknown" "$(GIT_CEILING_DIRECTORIES=$TMP "$GR" "$TMP/nogit")"
done_testing
