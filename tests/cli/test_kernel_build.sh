#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/kernel-build.sh without building a kernel.  A fake kernel tree whose
# Makefile plays kbuild (each target leaves what kbuild would and notes
# that it ran) checks the script's own logic in milliseconds: every
# refusal (exit 2, one stderr line naming what was wrong, nothing built,
# nothing in the cache or --out), the cache key (same inputs, same key;
# a changed patch, fragment, source or compiler, another key), a
# fragment option that kconfig drops (exit 1, named), --out and its
# BZIMAGE:BUILD_DIR line, the cached second call, two concurrent calls,
# patches on a copy (the tree itself untouched), a calling make's
# MAKEFLAGS and ARCH kept away from kbuild.  Then, where Debian's
# linux-source-6.12 can be had (root and apt), the real thing once:
# `make tinyconfig` + ci/kernel.config + olddefconfig, every option of
# the fragment set in the .config (checked here, independently of the
# script), and a patch that does not apply refused.  The source is
# fetched into the machine's cache (VSB_KSRC_CACHE, default its src/)
# and kept there, as is the configured build folder; everything else
# lives in a scratch cache.
. "$(dirname "$0")/../lib.sh"

KB=$VSB_ROOT/ci/kernel-build.sh
FRAG=$VSB_ROOT/ci/kernel.config
. "$VSB_ROOT/ci/cache.bash"
REAL_CACHE=$(vsb_vm_cache "$VSB_ROOT")
export VSB_KSRC_CACHE=${VSB_KSRC_CACHE:-$REAL_CACHE/src}
export VSB_VM_CACHE=$TMP/cache
C=$VSB_VM_CACHE
unset VSB_KBUILD_VERBOSE

# --- Debian's tree, configured in the background -------------------------------
# kconfig on the real tree is most of this test's time (three kconfig
# runs: tinyconfig's two and the olddefconfig after the fragment): it
# runs while the fake-tree checks below do, into the machine's cache,
# as a user's `--print-config` would.  The key covers source, fragment
# and compiler, so a build folder configured for it by an earlier run
# is the same result and is only read: a changed fragment configures
# again.
kd=$(VSB_VM_CACHE=$TMP/dcache "$KB" --source debian:6.12 --print-key 2>"$TMP/dkerr")
drc=$?
dpid=''
if [ $drc -eq 0 ]; then
	dcache=$REAL_CACHE
	VSB_VM_CACHE=$dcache "$KB" --source debian:6.12 --print-config >"$TMP/dout" 2>"$TMP/derr" &
	dpid=$!
fi

# --- a fake kernel tree ---------------------------------------------------------
fake_tree() {	# fake_tree DIR
	mkdir -p "$1/arch/x86" "$1/scripts/kconfig" "$1/mm"
	: >"$1/Kconfig"
	: >"$1/arch/x86/Kconfig"
	printf 'line %s\n' 1 2 3 4 5 6 7 8 >"$1/mm/vmstat.c"
	cat >"$1/Makefile" <<'EOF'
VERSION = 6
PATCHLEVEL = 99
SUBLEVEL = 0
# plays kbuild for tests/cli/test_kernel_build.sh
LOG = echo "$@ O=$(O) ARCH=$(ARCH)" >>$(O)/fake.log
tinyconfig:
	@$(LOG)
	@ln -sfn $(CURDIR) $(O)/source
	@printf 'CONFIG_64BIT=y\n# CONFIG_SMP is not set\nCONFIG_CC_OPTIMIZE_FOR_SIZE=y\n' >$(O)/.config
olddefconfig:
	@$(LOG)
	@grep -v '^CONFIG_FAKE_DROPPED=' $(O)/.config >$(O)/.config.t; mv $(O)/.config.t $(O)/.config
	@mkdir -p $(O)/include/config
	@echo "6.99.0$$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"/\1/p' $(O)/.config)" >$(O)/include/config/kernel.release
bzImage:
	@$(LOG)
	@sleep $${FAKE_SLEEP:-0}
	@mkdir -p $(O)/arch/x86/boot && cat mm/vmstat.c >$(O)/arch/x86/boot/bzImage
modules:
	@$(LOG)
	@echo symvers >$(O)/Module.symvers
EOF
}
T=$TMP/tree
fake_tree "$T"
printf -- '--- a/mm/vmstat.c\n+++ b/mm/vmstat.c\n@@ -3,3 +3,3 @@\n line 3\n-line 4\n+line FOUR\n line 5\n' >"$TMP/p1.patch"
# applies only on top of p1
printf -- '--- a/mm/vmstat.c\n+++ b/mm/vmstat.c\n@@ -3,3 +3,3 @@\n line 3\n-line FOUR\n+line 4b\n line 5\n' >"$TMP/p2.patch"
printf -- '--- a/mm/vmstat.c\n+++ b/mm/vmstat.c\n@@ -3,3 +3,3 @@\n line 3\n-line 44\n+line 45\n line 5\n' >"$TMP/bad.patch"
echo 'just text' >"$TMP/text.patch"
tree_sum() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum); }

# --- refusals -----------------------------------------------------------------------
# exit 2, exactly one stderr line matching PATTERN, nothing on stdout,
# no cache folder, no --out folder
refused() {	# refused DESC PATTERN ARGS...
	local d=$1 pat=$2 rc
	shift 2
	rm -rf "$C" "$TMP/o"
	"$KB" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 2 ] && one_line "$TMP/err" && matches "$pat" "$TMP/err" &&
	   [ ! -s "$TMP/out" ] && [ ! -e "$C" ] && [ ! -e "$TMP/o" ]; then
		ok "refused, exit 2, one line: $d"
	else
		not_ok "refused, exit 2, one line: $d" "exit $rc; stderr:" "$(head -n3 "$TMP/err")" \
			"stdout: $(head -n2 "$TMP/out")" "left: $(ls "$C" "$TMP/o" 2>/dev/null | head -n3)"
	fi
}
mkdir -p "$TMP/notkernel" "$TMP/dirty"
echo hello >"$TMP/notkernel/README"
fake_tree "$TMP/dirty"
: >"$TMP/dirty/.config"
printf 'CONFIG_SMP=y\nSMP=y\n' >"$TMP/badfrag"
: >"$TMP/afile"
refused "no --source" 'no --source given' --out "$TMP/o"
refused "an unknown option" 'unknown option: --frobnicate' --source "$T" --frobnicate --out "$TMP/o"
refused "--source without its value" '--source needs a value' --source
refused "an unknown Debian series" "unknown Debian series '5.10'" --source debian:5.10 --out "$TMP/o"
refused "a Debian version that is no version" "'6/12' is not a Debian version" --source debian:6.12=6/12 --out "$TMP/o"
refused "a path that does not exist" 'no such file or folder' --source "$TMP/nowhere" --out "$TMP/o"
refused "a file as the source" 'not a folder' --source "$TMP/afile" --out "$TMP/o"
refused "a folder that is not a kernel tree" 'not a kernel tree' --source "$TMP/notkernel" --out "$TMP/o"
refused "a tree with an in-tree .config" "in-tree build \(\.config\).*mrproper" --source "$TMP/dirty" --out "$TMP/o"
refused "no --out" 'no --out DIR given' --source "$T"
refused "--out is a regular file" 'exists and is not a folder' --source "$T" --out "$TMP/afile"
refused "a patch that does not exist" "--patch $TMP/none.patch: no such file" --source "$T" --patch "$TMP/none.patch" --out "$TMP/o"
refused "a patch file that is no patch" 'not a patch' --source "$T" --patch "$TMP/text.patch" --out "$TMP/o"
refused "a patch that does not apply" "bad.patch does not apply to $T: mm/vmstat.c: Hunk #1 FAILED" \
	--source "$T" --patch "$TMP/bad.patch" --out "$TMP/o"
refused "patches that apply only in the other order" "p2.patch does not apply.*FAILED" \
	--source "$T" --patch "$TMP/p2.patch" --patch "$TMP/p1.patch" --out "$TMP/o"
refused "a fragment line that is not CONFIG_X=VALUE" 'not a CONFIG_X=VALUE line: SMP=y' \
	--source "$T" --fragment "$TMP/badfrag" --out "$TMP/o"
if "$KB" --help >"$TMP/out" 2>"$TMP/err" && grep -q '^Usage:' "$TMP/out" && [ ! -s "$TMP/err" ]; then
	ok "--help: usage on stdout, exit 0"
else
	not_ok "--help: usage on stdout, exit 0" "$(head -n3 "$TMP/err")"
fi

# --- the cache key ----------------------------------------------------------------------
key() { "$KB" --print-key "$@" 2>"$TMP/kerr" | tail -n1; }
same_key() {	# same_key DESC A B
	[ -n "$2" ] && [ "$2" = "$3" ] && ok "$1" || not_ok "$1" "$2 vs $3" "$(head -n2 "$TMP/kerr")"
}
other_key() {	# other_key DESC A B
	[ -n "$2" ] && [ -n "$3" ] && [ "$2" != "$3" ] && ok "$1" || not_ok "$1" "$2 vs $3" "$(head -n2 "$TMP/kerr")"
}
G=$TMP/gtree
fake_tree "$G"
git -C "$G" init -q && git -C "$G" add -A &&
	git -C "$G" -c user.name=t -c user.email=t@t commit -q -m base || not_ok "a git tree for the key checks"
k0=$(key --source "$G")
[[ $k0 =~ ^[0-9a-f]{16}$ ]] && ok "--print-key prints a 16-digit key: $k0" || not_ok "--print-key prints a 16-digit key" "$k0"
same_key "same inputs, same key (a git tree)" "$k0" "$(key --source "$G")"
[ ! -e "$C" ] && ok "--print-key writes nothing to the cache" || not_ok "--print-key writes nothing to the cache"
cp "$G/mm/vmstat.c" "$TMP/vmstat.c.orig"
echo 'line 9' >>"$G/mm/vmstat.c"
k1=$(key --source "$G")
other_key "an uncommitted edit of a tracked file changes the key" "$k0" "$k1"
cp "$TMP/vmstat.c.orig" "$G/mm/vmstat.c"
same_key "the edit undone, the key is back" "$k0" "$(key --source "$G")"
echo new >"$G/mm/new.c"
k1=$(key --source "$G")
other_key "an untracked file changes the key" "$k0" "$k1"
git -C "$G" add -A && git -C "$G" -c user.name=t -c user.email=t@t commit -q -m two
other_key "committing it (same files, another HEAD) changes the key" "$k1" "$(key --source "$G")"
kp1=$(key --source "$T" --patch "$TMP/p1.patch")
other_key "a patch changes the key" "$(key --source "$T")" "$kp1"
sed 's/FOUR/4/' "$TMP/p1.patch" >"$TMP/p1b.patch"
other_key "a patch's content changes the key" "$kp1" "$(key --source "$T" --patch "$TMP/p1b.patch")"
other_key "the patches' order changes the key" "$(key --source "$T" --patch "$TMP/p1.patch" --patch "$TMP/p2.patch")" \
	"$(key --source "$T" --patch "$TMP/p2.patch" --patch "$TMP/p1.patch")"
{ cat "$FRAG"; echo '# one more comment'; } >"$TMP/frag2"
other_key "the fragment's content changes the key" "$(key --source "$T")" "$(key --source "$T" --fragment "$TMP/frag2")"
other_key "another tree changes the key" "$(key --source "$T")" "$(key --source "$G")"
k3=$(key --source "$T")
cp -a "$T" "$TMP/tree2"
other_key "the same files in another folder: another key (a build refers to its tree)" "$k3" \
	"$(key --source "$TMP/tree2")"
same_key "a tree outside git: same key twice" "$k3" "$(key --source "$T")"
touch -d '2001-01-01' "$T/Kconfig"
other_key "a tree outside git: a touched file changes the key" "$k3" "$(key --source "$T")"
mkdir -p "$TMP/cc"
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "gcc (Fake) 99.1"; exit 0; }\nexec /usr/bin/gcc "$@"\n' >"$TMP/cc/gcc"
chmod +x "$TMP/cc/gcc"
other_key "another compiler version changes the key" "$(key --source "$T")" \
	"$(PATH=$TMP/cc:$PATH key --source "$T")"

# --- a build, faked -------------------------------------------------------------------------
# kconfig and the build need make, flex, bison, bc, libelf-dev, libssl-dev:
# without them (and without root to install them) the script skips (4)
fake_builds() {
	tsum=$(tree_sum "$T")
	rm -rf "$C" "$TMP/o"
	"$KB" --source "$T" --out "$TMP/o" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	spec=$(tail -n1 "$TMP/out")
	bz=${spec%%:*} bd=${spec#*:}
	if [ $rc -eq 0 ] && [ "$(wc -l <"$TMP/out")" -eq 1 ] && [ -f "$bz" ] && [ -f "$bd/Module.symvers" ] &&
	   [ "$bd" = "$C/kbuild/$(key --source "$T")" ]; then
		ok "a build: exit 0, one stdout line BZIMAGE:BUILD_DIR into the cache"
	else
		not_ok "a build: exit 0, one stdout line BZIMAGE:BUILD_DIR" "exit $rc, stdout: $(head -n3 "$TMP/out")" "$(tail -n3 "$TMP/err")"
	fi
	[ "$(readlink "$TMP/o/bzImage")" = "$bz" ] && [ "$(readlink "$TMP/o/build")" = "$bd" ] &&
		grep -q "^KDIR=$bd\$" "$TMP/o/kernel.env" && grep -q '^KREL=6.99.0-vsb-[0-9a-f]\{16\}$' "$TMP/o/kernel.env" &&
		ok "--out DIR: bzImage and build links, kernel.env with KDIR and KREL <version>-vsb-<key>" ||
		not_ok "--out DIR: bzImage and build links, kernel.env" "$(ls -l "$TMP/o")" "$(cat "$TMP/o/kernel.env")"
	grep -q "^tinyconfig O=$bd ARCH=\$" "$bd/fake.log" && grep -q '^olddefconfig' "$bd/fake.log" &&
		grep -q '^bzImage' "$bd/fake.log" && grep -q '^modules' "$bd/fake.log" &&
		ok "kbuild ran tinyconfig, olddefconfig, bzImage, modules with O=the build folder" ||
		not_ok "kbuild ran tinyconfig, olddefconfig, bzImage, modules" "$(cat "$bd/fake.log")"
	miss=0
	while IFS= read -r l; do
		case $l in
		*=n) grep -q "^${l%=n}=" "$bd/.config" && miss=1 ;;
		*)   grep -qxF "$l" "$bd/.config" || miss=1 ;;
		esac
	done < <(sed -e 's/[[:space:]]#.*$//' -e 's/[[:space:]]*$//' -e '/^#/d' -e '/^$/d' "$FRAG")
	[ $miss -eq 0 ] && ok "the fragment's lines are merged into the .config" || not_ok "the fragment's lines are merged"
	t0=$(date +%s)
	"$KB" --source "$T" --out "$TMP/o" >"$TMP/out2" 2>"$TMP/err2"
	rc=$?
	[ $rc -eq 0 ] && cmp -s "$TMP/out" "$TMP/out2" && [ "$(grep -c '^bzImage' "$bd/fake.log")" -eq 1 ] &&
		[ $(($(date +%s) - t0)) -le 5 ] &&
		ok "the second call builds nothing and gives the same spec" ||
		not_ok "the second call builds nothing" "exit $rc" "$(cat "$bd/fake.log")" "$(cat "$TMP/err2")"
	[ "$(tree_sum "$T")" = "$tsum" ] && ok "the tree of your own is not written to" || not_ok "the tree is not written to"

	# MAKEFLAGS from a calling `make O=...`, and ARCH, must not reach kbuild
	printf '\n# another key\n' | cat "$FRAG" - >"$TMP/frag3"
	MAKEFLAGS=' -- O=/tmp/vsb-evil' ARCH=arm "$KB" --source "$T" --fragment "$TMP/frag3" --out "$TMP/o3" \
		>"$TMP/out" 2>"$TMP/err"
	bd3=$(tail -n1 "$TMP/out" | cut -d: -f2-)
	[ -n "$bd3" ] && grep -q "^bzImage O=$bd3 ARCH=\$" "$bd3/fake.log" && [ ! -e /tmp/vsb-evil ] &&
		ok "a calling make's MAKEFLAGS (O=) and ARCH do not reach kbuild" ||
		not_ok "MAKEFLAGS and ARCH do not reach kbuild" "$(cat "$bd3/fake.log" 2>&1)" "$(tail -n2 "$TMP/err")"

	# two calls at once with the same key: one builds, the other waits
	printf '\n# a third key\n' | cat "$FRAG" - >"$TMP/frag4"
	FAKE_SLEEP=1 "$KB" --source "$T" --fragment "$TMP/frag4" --out "$TMP/o4a" >"$TMP/c1" 2>"$TMP/e1" &
	p1=$!
	FAKE_SLEEP=1 "$KB" --source "$T" --fragment "$TMP/frag4" --out "$TMP/o4b" >"$TMP/c2" 2>"$TMP/e2" &
	p2=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
	bd4=$(tail -n1 "$TMP/c1" | cut -d: -f2-)
	[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s "$TMP/c1" "$TMP/c2" && [ -n "$bd4" ] &&
		[ "$(grep -c '^bzImage' "$bd4/fake.log")" -eq 1 ] && [ "$(grep -c '^tinyconfig' "$bd4/fake.log")" -eq 1 ] &&
		ok "two concurrent calls, one key: both exit 0 with one spec, one build" ||
		not_ok "two concurrent calls, one key" "exit $r1 $r2" "$(cat "$bd4/fake.log" 2>&1)" "$(cat "$TMP/e1" "$TMP/e2")"

	# patches: on a copy, in order
	"$KB" --source "$T" --patch "$TMP/p1.patch" --patch "$TMP/p2.patch" --out "$TMP/o5" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	bz5=$(tail -n1 "$TMP/out" | cut -d: -f1)
	k5=$(key --source "$T" --patch "$TMP/p1.patch" --patch "$TMP/p2.patch")
	[ $rc -eq 0 ] && grep -qx 'line 4b' "$bz5" && grep -qx 'line 4b' "$C/kbuild/$k5.src/mm/vmstat.c" &&
		[ "$(tree_sum "$T")" = "$tsum" ] &&
		ok "two patches applied in order to a copy (kbuild/<key>.src), the tree itself untouched" ||
		not_ok "two patches applied in order to a copy" "exit $rc" "$(tail -n3 "$TMP/err")"

	# a git tree with a patch: the copy has what git tracks or does not ignore
	printf '*.o\n' >"$G/.gitignore"
	echo junk >"$G/mm/junk.o"
	"$KB" --source "$G" --patch "$TMP/p1.patch" --out "$TMP/o6" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	k7=$(key --source "$G" --patch "$TMP/p1.patch")
	[ $rc -eq 0 ] && [ -f "$C/kbuild/$k7.src/mm/new.c" ] && [ -f "$C/kbuild/$k7.src/.gitignore" ] &&
		[ ! -e "$C/kbuild/$k7.src/mm/junk.o" ] && [ ! -e "$C/kbuild/$k7.src/.git" ] &&
		grep -qx 'line FOUR' "$C/kbuild/$k7.src/mm/vmstat.c" && grep -qx 'line 4' "$G/mm/vmstat.c" &&
		ok "a git tree with a patch: the copy holds the tracked and untracked files, not the ignored ones nor .git" ||
		not_ok "a git tree with a patch: the copy" "exit $rc" "$(ls -a "$C/kbuild/$k7.src" "$C/kbuild/$k7.src/mm" 2>&1)" "$(tail -n3 "$TMP/err")"

	# a fragment option kconfig drops: exit 1, named in one line
	{ cat "$FRAG"; echo 'CONFIG_FAKE_DROPPED=y	# the fake olddefconfig drops it'; } >"$TMP/frag5"
	"$KB" --source "$T" --fragment "$TMP/frag5" --print-config >"$TMP/out" 2>"$TMP/err"
	rc=$?
	k6=$(key --source "$T" --fragment "$TMP/frag5")
	if [ $rc -eq 1 ] && [ "$(grep -c 'error' "$TMP/err")" -eq 1 ] &&
	   grep -q "error: 'CONFIG_FAKE_DROPPED=y' .* does not hold after olddefconfig" "$TMP/err" &&
	   [ ! -e "$C/kbuild/$k6/.vsb-configured" ] && [ ! -s "$TMP/out" ]; then
		ok "an option kconfig drops fails the configuration (exit 1), one line naming it"
	else
		not_ok "an option kconfig drops fails the configuration, named" "exit $rc" "$(cat "$TMP/err")"
	fi
	"$KB" --source "$T" --print-config >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "$C/kbuild/$(key --source "$T")/.config" ] &&
		ok "--print-config prints the .config's path" ||
		not_ok "--print-config prints the .config's path" "exit $rc $(cat "$TMP/out")" "$(cat "$TMP/err")"
}
rm -rf "$C" "$TMP/o"
"$KB" --source "$T" --out "$TMP/oprobe" >/dev/null 2>"$TMP/err"
if [ $? -eq 4 ]; then
	why=$(sed -n 's/^kernel-build: SKIP: //p' "$TMP/err" | head -n1)
	for d in "a build" "--out DIR" "kbuild's targets" "the fragment merged" "the cached second call" \
		 "the tree not written to" "MAKEFLAGS and ARCH" "two concurrent calls" "patches on a copy" \
		 "a git tree with a patch" "an option kconfig drops" "--print-config's path"; do
		skip "$d" "$why"
	done
else
	rm -rf "$C"
	fake_builds
fi
rm -rf "$C"

# --- the kernel cache's folder: one per machine (ci/cache.bash), and ab's
# C side (harness/ab/check.c) finding the same one -------------------------------
mkdir -p "$TMP/home" "$TMP/rohome" && chmod 555 "$TMP/rohome"
cache_case() {	# cache_case DESC WANT ENV...: both sides say WANT
	local d=$1 want=$2 sh c; shift 2
	sh=$(env -u VSB_VM_CACHE -u XDG_CACHE_HOME "$@" bash -c \
		'. "$1/ci/cache.bash" && vsb_vm_cache "$1"' _ "$VSB_ROOT")
	c=$(env -u VSB_VM_CACHE -u XDG_CACHE_HOME "$@" PATH=/nonexistent "$VSB" ab \
		--base debian:6.1.0-999 --new debian:6.1.0-999 "$VSB_ROOT/configs/ab-quick.sweep" \
		-o "$TMP/o-cache" -n 2>&1 | sed -n 's/.*: not in \(.*\) and apt-cache cannot run.*/\1/p')
	[ "$sh" = "$want" ] && [ "$c" = "$want" ] && [ ! -e "$TMP/o-cache" ] && ok "cache folder, $d: $want" ||
		not_ok "cache folder, $d" "want $want" "ci/cache.bash: $sh" "ab: $c"
}
cache_case "VSB_VM_CACHE first" /some/cache VSB_VM_CACHE=/some/cache XDG_CACHE_HOME=/xdg HOME="$TMP/home"
cache_case "then XDG_CACHE_HOME" /xdg/vmstat-bench/vm XDG_CACHE_HOME=/xdg HOME="$TMP/home"
cache_case "then the home's, shared by every clone" "$TMP/home/.cache/vmstat-bench/vm" HOME="$TMP/home"
if [ "$(id -u)" != 0 ]; then
	cache_case "a home not writable: the checkout's" "$VSB_ROOT/.cache/vm" HOME="$TMP/rohome"
else
	cache_case "no home: the checkout's" "$VSB_ROOT/.cache/vm" HOME=/nonexistent
fi

# --- Debian's linux-source-6.12, for real ----------------------------------------
# (its configuration was started at the top)
DEB_CHECKS=("debian:6.12: same key twice" "debian:6.1 and debian:6.12: two keys"
	    "debian:6.12: tinyconfig + ci/kernel.config, every option set"
	    "debian:6.12: a patch that does not apply is refused, nothing built")
deb_skip() {	# deb_skip FROM WHY: the Debian checks from number FROM on skip
	local i
	for ((i = $1; i < ${#DEB_CHECKS[@]}; i++)); do skip "${DEB_CHECKS[i]}" "$2"; done
	done_testing
	exit
}
skip_why() { sed -n 's/^kernel-build: SKIP: //p' "$1" | head -n1; }
[ $drc -ne 4 ] || deb_skip 0 "$(skip_why "$TMP/dkerr")"
[ $drc -eq 0 ] || { not_ok "debian:6.12 --print-key" "exit $drc" "$(cat "$TMP/dkerr")"; deb_skip 0 "--print-key failed"; }
same_key "${DEB_CHECKS[0]}" "$kd" "$(key --source debian:6.12)"
k61=$(key --source debian:6.1)
if [ -n "$k61" ]; then
	other_key "${DEB_CHECKS[1]}" "$k61" "$kd"
else
	skip "${DEB_CHECKS[1]}" "$(skip_why "$TMP/kerr")"
fi
wait "$dpid"
rc=$?
[ $rc -ne 4 ] || deb_skip 2 "$(skip_why "$TMP/derr")"
cfg=$(tail -n1 "$TMP/dout")
if [ $rc -eq 0 ] && [ "$cfg" = "$dcache/kbuild/$kd/.config" ] && [ -f "$cfg" ]; then
	miss=''
	while IFS= read -r l; do
		case $l in
		*=n) ! grep -q "^${l%=n}=" "$cfg" || miss+=" $l" ;;
		*)   grep -qxF "$l" "$cfg" || miss+=" $l" ;;
		esac
	done < <(sed -e 's/[[:space:]]#.*$//' -e 's/[[:space:]]*$//' -e '/^#/d' -e '/^$/d' "$FRAG")
	n=$(grep -c '^CONFIG_' "$FRAG")
	if [ -z "$miss" ] && grep -qx "CONFIG_LOCALVERSION=\"-vsb-$kd\"" "$cfg"; then
		ok "${DEB_CHECKS[2]} ($n lines)"
	else
		not_ok "${DEB_CHECKS[2]}" "missing:$miss"
	fi
else
	not_ok "${DEB_CHECKS[2]}" "exit $rc" "$(tail -n4 "$TMP/derr")"
fi
# a patch to a file kconfig reads, so the check needs no whole tree
printf -- '--- a/mm/Kconfig\n+++ b/mm/Kconfig\n@@ -1,3 +1,3 @@\n-no such line\n+a new line\n no such context\n no more\n' \
	>"$TMP/k.patch"
rm -rf "$C"
refused "${DEB_CHECKS[3]}" \
	"k.patch does not apply to linux-source-6.12 .*mm/Kconfig: Hunk #1 FAILED" \
	--source debian:6.12 --patch "$TMP/k.patch" --out "$TMP/o"
done_testing
