#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/kernel-build.sh runs its tools under one locale, C, whatever the
# user's (issue 45): the words it reads from apt, git and patch, and
# the messages of make and the compilers in the build log, are the ones
# it was written against.  A fake kernel tree whose Makefile plays kbuild
# writes down the locale each kbuild target sees, and a `patch` first on
# PATH the one the patch check sees; the user's locale is German in
# every variable there is.  No kernel is built.
#
# It times nothing and runs no bench on this host: it runs in the guest
# lane, the shorter one (tests/run.sh).
#
# lane: guest
. "$(dirname "$0")/../lib.sh"

export VSB_VM_CACHE=$TMP/cache
unset VSB_KBUILD_VERBOSE
KB=$VSB_ROOT/ci/kernel-build.sh

T=$TMP/tree
mkdir -p "$T/arch/x86" "$T/scripts/kconfig" "$T/mm" "$TMP/bin"
: >"$T/Kconfig"
: >"$T/arch/x86/Kconfig"
printf 'line %s\n' 1 2 3 >"$T/mm/vmstat.c"
# each target: the locale variables it was given, sorted, in a file of
# its own (make -j runs bzImage and modules side by side)
cat >"$T/Makefile" <<'EOF'
VERSION = 6
PATCHLEVEL = 99
SUBLEVEL = 0
LOG = env | grep -E '^(LANG|LANGUAGE|LC_[A-Z]+)=' | LC_ALL=C sort >$(O)/locale.$@
tinyconfig:
	@$(LOG)
	@printf 'CONFIG_64BIT=y\n' >$(O)/.config
olddefconfig:
	@$(LOG)
	@mkdir -p $(O)/include/config
	@echo 6.99.0 >$(O)/include/config/kernel.release
bzImage:
	@$(LOG)
	@mkdir -p $(O)/arch/x86/boot && cat mm/vmstat.c >$(O)/arch/x86/boot/bzImage
modules:
	@$(LOG)
	@echo symvers >$(O)/Module.symvers
EOF
printf -- '--- a/mm/vmstat.c\n+++ b/mm/vmstat.c\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line TWO\n line 3\n' \
	>"$TMP/p.patch"
# patch as itself, its locale written down first
real_patch=$(command -v patch) || { echo "# no patch here (Debian package patch)"; exit 4; }
cat >"$TMP/bin/patch" <<EOF
#!/bin/bash
env | grep -E '^(LANG|LANGUAGE|LC_[A-Z]+)=' >>"$TMP/patch.log"
exec "$real_patch" "\$@"
EOF
chmod +x "$TMP/bin/patch"

# the user's locale: every variable set, none of them C
LOCALE_ENV=(LANG=de_DE.UTF-8 LANGUAGE=de:en LC_ALL=de_DE.UTF-8 LC_MESSAGES=de_DE.UTF-8
	LC_NUMERIC=de_DE.UTF-8 LC_COLLATE=de_DE.UTF-8 LC_CTYPE=de_DE.UTF-8)
env "${LOCALE_ENV[@]}" PATH="$TMP/bin:$PATH" "$KB" --source "$T" --patch "$TMP/p.patch" \
	--out "$TMP/o" >"$TMP/out" 2>"$TMP/err"
rc=$?
B=$(readlink -f "$TMP/o/build")
if [ $rc -eq 0 ] && [ -f "$B/locale.modules" ]; then
	ok "a build under the user's locale runs (exit 0)"
else
	not_ok "a build under the user's locale runs" "exit $rc" "$(tail -n 3 "$TMP/err")"
fi

# what every kbuild target and every patch run saw: LANG and LC_ALL C,
# no other locale variable
want=$'LANG=C\nLC_ALL=C'
for what in tinyconfig olddefconfig bzImage modules; do
	seen=$(cat "$B/locale.$what" 2>/dev/null)
	[ -n "$seen" ] && [ "$seen" = "$want" ] &&
		ok "make $what runs under LANG=C LC_ALL=C, no other locale variable" ||
		not_ok "make $what runs under LANG=C LC_ALL=C" "saw:" "${seen:-(nothing)}"
done
seen=$(LC_ALL=C sort -u "$TMP/patch.log" 2>/dev/null)
[ -n "$seen" ] && [ "$seen" = "$want" ] &&
	ok "patch runs under LANG=C LC_ALL=C, no other locale variable" ||
	not_ok "patch runs under LANG=C LC_ALL=C" "saw:" "${seen:-(nothing)}"

done_testing
