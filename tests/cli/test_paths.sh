#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# No dead path: every repository path that the code, the scripts, the
# docs and the README name must exist, so that a file moved into a
# layer's folder cannot leave readers looking for it where it was.
# A path is a word starting with a top-level folder (harness/, tests/,
# docs/ ...) or, as the harness's comments write them, with lib/<layer>/
# (under harness/).  Words that are patterns, not names, are checked as
# such: one with a '*' must match some file; one with a placeholder
# (<id>, NAME, $var, {a,b}) is left alone.  Paths that only a run makes
# are listed below, each with why.  Data files (CSV, charts, fixtures'
# data) and patches are not read: their text is not the project's prose.
. "$(dirname "$0")/../lib.sh"

command -v git >/dev/null && git -C "$VSB_ROOT" rev-parse --git-dir >/dev/null 2>&1 ||
	{ echo "# not a git checkout: no list of the project's files"; exit 4; }
cd "$VSB_ROOT" || exit 1

# Made at run time, so absent from a checkout (or meant never to exist):
made_at_run_time() {
	case $1 in
	results/*) return 0 ;;	# where the README and docs tell users to write
	build/*) return 0 ;;	# make's output folder (O= moves it)
	ci/out/*) return 0 ;;	# what CI's scripts write (ci/regression, ci/history)
	kmod/vmstat_bench.ko | kmod/Module.symvers | kmod/modules.order | \
	'kmod/*.o' | 'kmod/*.ko' | 'kmod/*.mod' | 'kmod/*.mod.c' | 'kmod/.*.cmd')
		return 0 ;;	# `make kmod`'s products, named to load or clean them
	'tests/unit/*.c')
		return 0 ;;	# the Makefile's guard: no unit test outside a layer folder
	fleet/inventory) return 0 ;;	# a site's own, copied from fleet/inventory.example
	fleet/fleet.sweep) return 0 ;;	# test_fleet.sh's name for its sweep inside the guest
	esac
	return 1
}


top='bench|kmod|harness|ci|configs|docs|fleet|plots|tests|build|results|\.ci'
layer='base|stats|model|machine|store|charts|judge'

# extract FILE...: "FILE:LINE:PATH" for each repository path named
extract() {
	grep -HnoE "(^|[^A-Za-z0-9_./~\$-])(($top)/|lib/($layer)/)[A-Za-z0-9_.*/<>\$-]*" "$@" 2>/dev/null |
		sed -E 's/^([^:]*:[0-9]+:)[^A-Za-z.]?/\1/; s/[.\/-]+$//' |
		awk -F: '$3 ~ /\// { print }'
}

# dead PATH: 0 when PATH names nothing, else 1 (exists, a pattern or a run's)
dead() {
	local p=$1 g
	case $p in
	*'<'* | *'$'* | *'{'*) return 1 ;;
	esac
	# an all-capitals part is a placeholder: configs/NAME.sweep, lib/LAYER
	[[ /$p =~ /[A-Z][A-Z_]+(\.|/|$) ]] && return 1
	case $p in lib/*) p=harness/$p ;; esac
	made_at_run_time "$p" && return 1
	if [[ $p == *'*'* ]]; then
		for g in $p; do [ -e "$g" ] && return 1; done
		return 0
	fi
	[ -e "$p" ] && return 1
	return 0
}

# The extractor itself, on text with one live, one dead and one pattern
# path, so that a broken pattern cannot pass by finding nothing.
printf '%s\n' '/* see harness/lib/base/clock.c and harness/lib/util.c */' \
	'# plots/*.gp, configs/NAME.sweep, results/<name>/x.csv' >"$TMP/probe.c"
extract "$TMP/probe.c" | cut -d: -f3 >"$TMP/probe.paths"
found=$(tr '\n' ' ' <"$TMP/probe.paths")
[ "$found" = "harness/lib/base/clock.c harness/lib/util.c plots/*.gp configs/NAME.sweep results/<name>/x.csv " ] &&
	ok "the extractor finds the paths in a comment" ||
	not_ok "the extractor finds the paths in a comment" "found: $found"
dead_probe=$(while read -r p; do dead "$p" && echo "$p"; done <"$TMP/probe.paths")
[ "$dead_probe" = "harness/lib/util.c" ] &&
	ok "of those, only the gone harness/lib/util.c is dead" ||
	not_ok "of those, only the gone harness/lib/util.c is dead" "dead: $dead_probe"

# not this file: it names gone paths on purpose (the probe, the list above)
git ls-files | grep -vE '\.(png|svg|csv|gz|patch|db)$|^tests/fixtures/.*\.(csv|txt|json)$' |
	grep -vxE '\.gitignore|tests/cli/test_paths\.sh' >"$TMP/files"
mapfile -t files <"$TMP/files"
extract "${files[@]}" >"$TMP/named"
n=$(wc -l <"$TMP/named")
[ "$n" -ge 500 ] && ok "paths named in the tree found ($n)" ||
	not_ok "paths named in the tree found ($n)" "fewer than 500: the extractor is broken"

ndead=0
while IFS=: read -r f line p; do
	dead "$p" || continue
	not_ok "$f:$line names $p, which does not exist"
	ndead=$((ndead + 1))
done <"$TMP/named"
[ "$ndead" -eq 0 ] && ok "every path named in code, docs and the README exists"

done_testing
