#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/kernel-build.sh's sourced parts (ci/kbuild-*.bash).  The script is
# one brace group, read whole before it runs, so that an edit of it
# during a 15-minute build changes nothing that build does; its parts
# keep that only if they are sourced at the start and hold nothing but
# function definitions and constants.  Checks that every part is
# sourced and runs nothing but constant assignments when sourced; that
# a build whose parts and script are overwritten while it configures
# still ends as it began; and that the cache key covers each part's text
# (an edit of any part changes the key), but kbuild-base.bash's (where
# a build starts, not what it builds).  A fake kernel tree plays kbuild;
# no kernel is built.
#
# It times nothing and runs no bench on this host: it runs in the guest
# lane, the shorter one (tests/run.sh).
#
# lane: guest
. "$(dirname "$0")/../lib.sh"

export VSB_VM_CACHE=$TMP/cache
unset VSB_KBUILD_VERBOSE VSB_KBUILD_KEEP
for t in gcc make; do
	command -v "$t" >/dev/null || { echo "# no $t here (the key and the fake kbuild need it)"; exit 4; }
done

# every ci/kbuild-*.bash is sourced by kernel-build.sh, at its start
sourced=$(sed -n 's|^\. "\$REPO/ci/\(kbuild-[a-z]*\.bash\)".*|\1|p' "$VSB_ROOT/ci/kernel-build.sh" | sort)
present=$(cd "$VSB_ROOT/ci" && ls kbuild-*.bash | sort)
[ -n "$present" ] && [ "$sourced" = "$present" ] &&
	ok "kernel-build.sh sources each ci/kbuild-*.bash (${present//$'\n'/ })" ||
	not_ok "kernel-build.sh sources each part" "sourced: $sourced" "present: $present"

# sourced alone in a bare shell (set -u, no variables): no output, no
# error, and nothing traced but constant assignments (a function
# definition is not traced; a command or a $(...) would be)
for part in $present; do
	env -i PATH="$PATH" bash --norc --noprofile -c 'set -ux; . "$1"; declare -F | grep -q .' \
		_ "$VSB_ROOT/ci/$part" >"$TMP/out" 2>"$TMP/trace"
	rc=$?
	ran=$(grep -v '^+ \. ' "$TMP/trace" | grep -vE '^\+\+ [A-Z][A-Z0-9_]*=' |
		grep -v '^+ declare -F' | grep -v '^+ grep -q' || true)
	[ $rc -eq 0 ] && [ ! -s "$TMP/out" ] && [ -z "$ran" ] &&
		ok "$part: function definitions and constants only" ||
		not_ok "$part: function definitions and constants only" "exit $rc" \
			"$(head -3 "$TMP/out")" "${ran:0:300}"
done

# A copy of the script and its parts, overwritten in place while the
# build configures (a `make` first on PATH does it at tinyconfig): the
# build, whose later steps are in the parts (configure, kmake,
# build_kernel, write_out), must end as it would have.
CO=$TMP/co
mkdir -p "$CO/ci" "$TMP/bin"
cp "$VSB_ROOT/ci/kernel-build.sh" "$VSB_ROOT/ci/cache.bash" "$VSB_ROOT"/ci/kbuild-*.bash \
	"$VSB_ROOT/ci/kernel.config" "$CO/ci/"
G=$TMP/tree
git init -q "$G"
fake_kernel_tree "$G"
echo 'int a;' >"$G/mm/vmstat.c"
git -C "$G" add -A && git -C "$G" -c user.name=t -c user.email=t@t commit -q -m one
real_make=$(command -v make)
cat >"$TMP/bin/make" <<EOF
#!/bin/bash
if [[ " \$* " == *" tinyconfig "* ]]; then
	for f in "$CO"/ci/kbuild-*.bash "$CO/ci/kernel-build.sh"; do
		printf 'echo overwritten >&2; exit 7\n' >"\$f"
	done
fi
exec "$real_make" "\$@"
EOF
chmod +x "$TMP/bin/make"
PATH="$TMP/bin:$PATH" "$CO/ci/kernel-build.sh" --source "$G" --out "$TMP/o" >"$TMP/out" 2>"$TMP/err"
rc=$?
last=$(tail -n1 "$TMP/out")
[ $rc -eq 0 ] && [ "$(head -c 12 "$CO/ci/kbuild-build.bash")" = 'echo overwri' ] &&
	[ "$last" = "$(readlink "$TMP/o/bzImage"):$(readlink "$TMP/o/build")" ] &&
	[ -f "$(readlink "$TMP/o/build")/.vsb-complete" ] && ! grep -q overwritten "$TMP/err" &&
	ok "the script and its parts overwritten during a build: the build ends as it began" ||
	not_ok "a build survives an edit of its parts" "exit $rc" "$last" "$(tail -n3 "$TMP/err")"

# the key covers each part's text, not kbuild-base.bash's
cp "$VSB_ROOT/ci/kernel-build.sh" "$VSB_ROOT"/ci/kbuild-*.bash "$CO/ci/"
key() { "$CO/ci/kernel-build.sh" --source "$G" --print-key 2>/dev/null; }
k0=$(key)
[ -n "$k0" ] || not_ok "--print-key on the copy" "$("$CO/ci/kernel-build.sh" --source "$G" --print-key 2>&1 | tail -2)"
for part in $present; do
	echo '# an edit that forgets RECIPE' >>"$CO/ci/$part"
	k=$(key)
	if [ "$part" = kbuild-base.bash ]; then
		[ -n "$k" ] && [ "$k" = "$k0" ] &&
			ok "an edit of $part leaves the key (where a build starts, not what)" ||
			not_ok "an edit of $part leaves the key" "$k0 vs $k"
	else
		[ -n "$k" ] && [ "$k" != "$k0" ] &&
			ok "an edit of $part changes the key" || not_ok "an edit of $part changes the key" "$k0 vs $k"
	fi
	k0=$k
done

done_testing
