#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The revision a build writes into every result (the Makefile's GIT_REV,
# `git_revision:`): `git describe --always`, and for a tree with edits
# (tracked files changed, or files git does not ignore and does not
# track, which the Makefile's wildcards build too) "-dirty+" and 8 hex
# digits of a hash of those edits.  history takes the runs of one
# revision for one build, and a step between them for the machine's
# (harness/lib/judge/history.c); a bare "-dirty" says nothing about which
# edits, so two such runs may be two builds.  With the hash, the same
# edits name the same build: a make test of a tree with edits gets the
# same rule as a clean clone, and another edit is another revision.
#
# usage: ci/git-rev.sh [DIR]   prints the revision, or "unknown" outside git
set -uo pipefail
cd "${1:-.}" 2>/dev/null || { echo unknown; exit 0; }
rev=$(git describe --always 2>/dev/null) || { echo unknown; exit 0; }
# edits: what git status lists, tracked changes and untracked files alike
[[ -n $(git status --porcelain --untracked-files=all 2>/dev/null) ]] ||
	{ echo "$rev"; exit 0; }
hash=$({ git diff HEAD --binary
	 git ls-files -o --exclude-standard -z | xargs -0r sha1sum --; } | sha1sum | cut -c1-8)
echo "$rev-dirty+$hash"
