#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fifth hostile probe's classes (issue 45) in ab's folder, exact mode
# and the scripts that start QEMU; the bisect side is in
# test_hostile_bisect.sh, with the classes named there:
#   [sym] [own]  ab's -o: links, and folders or files of another user (or
#                that anyone may write), refused before they are trusted
#   [comma]      a checkout or work folder with a comma: QEMU loads the
#                plugin and opens the disk it was given (a planted shared
#                object at the name before the comma is never loaded)
#   [exact]      exact mode's limits, judged once the mode is known
#   [ci]         vm-run.sh, kmod-run.sh and kernel-build.sh refuse before
#                work, in one line
#   [disk]       a full disk (a file size limit, SIGXFSZ ignored: writes
#                fail as on a full disk) is an error, and a chart is
#                written whole or not at all
# Nothing boots: ab runs with --dry-run, QEMU with -machine none.
#
# It times nothing and boots no guest: it runs in the guest lane to even
# the lanes out (tests/run.sh).
# lane: guest
. "$(dirname "$0")/../lib.sh"

unset VSB_VM_ACCEL
export VSB_VM_CACHE=$TMP/cache
have_nobody=0
id nobody >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && have_nobody=1

# result DESC PATTERN RC: RC is 2 with one stderr line matching PATTERN
result() {
	local d=$1 pat=$2 rc=$3 why=()
	[ "$rc" -eq 2 ] || why+=("exit $rc (want 2)")
	one_line "$TMP/err" || why+=("$(wc -l <"$TMP/err") stderr lines (want 1)")
	matches "$pat" "$TMP/err" || why+=("stderr does not match /$pat/")
	if [ ${#why[@]} -eq 0 ]; then ok "$d"; else not_ok "$d" "${why[@]}" "$(head -c 300 "$TMP/err")"; fi
}

# ---- ab: a kernel of 6.12 built "here", a folder of this very question ----
mkdir -p "$TMP/k/build/include/config"
python3 - "$TMP/k/bzImage" <<'EOF'
import sys
b = bytearray(0x400)
b[0x202:0x206] = b"HdrS"
b[0x20e:0x210] = (0x100).to_bytes(2, "little")
v = b"6.12.0-h45 (h45@probe) #1 SMP\0"
b[0x300:0x300 + len(v)] = v
open(sys.argv[1], "wb").write(b)
EOF
echo 6.12.0-h45 >"$TMP/k/build/include/config/kernel.release"
K=$TMP/k/bzImage:$TMP/k/build
SW=$TMP/q.sweep
printf 'name q\nbench counter\nbackend kmod\ncpus 0\nvariant this-cpu-add\n' >"$SW"
HASH=$(python3 -c "
import sys
h = 0xcbf29ce484222325
for c in open(sys.argv[1], 'rb').read():
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
print('%016x' % h)" "$SW")
AB=(ab --dry-run --base "$K" --new "$K" "$SW")
mkfolder() {	# mkfolder DIR: an ab folder of AB's question, one boot a side done
	rm -rf "$1"
	mkdir -p "$1/base/boot-1" "$1/new/boot-1"
	printf 'base: %s\nnew: %s\nsweep_hash: %s\nboots: 1\nsmp: 2\nmem: 1024\nmonitor: none\npossible: 0\nnodes: 0\ncmdline: none\nmode: exact\n' \
		"$K" "$K" "$HASH" >"$1/ab.txt"
	printf 'accel: tcg\nsweep_status: 0\n' | tee "$1/base/boot-1/ab-boot.txt" >"$1/new/boot-1/ab-boot.txt"
}
mkfolder "$TMP/a"
"$VSB" "${AB[@]}" -o "$TMP/a" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 0 ] && grep -q 'continues the ab run there' "$TMP/out" &&
	ok "[own] ab --dry-run continues a folder of its own (the base the cases plant in)" ||
	not_ok "[own] the base ab folder" "$(cat "$TMP/err")"
echo victim >"$TMP/victim"
for name in summary.md mix.csv compare ab.txt base new base/boot-1 base/boot-1/ab-boot.txt \
	    new/boot-1/ab-boot.txt; do
	mkfolder "$TMP/a"
	rm -rf "${TMP:?}/a/$name"
	ln -s "$TMP/victim" "$TMP/a/$name"
	"$VSB" "${AB[@]}" -o "$TMP/a" >"$TMP/out" 2>"$TMP/err"
	result "[sym] ab -o DIR with DIR/$name a link: refused before the boots" \
		"$name|symbolic link" $?
done
for name in summary.md mix.csv; do
	for kind in fifo dir; do
		mkfolder "$TMP/a"
		case $kind in fifo) mkfifo "$TMP/a/$name" ;; dir) mkdir "$TMP/a/$name" ;; esac
		"$VSB" "${AB[@]}" -o "$TMP/a" >"$TMP/out" 2>"$TMP/err"
		result "[sym] ab -o DIR with DIR/$name a $kind: refused before the boots" "$name" $?
	done
done
if ((have_nobody)); then
	for name in . base new base/boot-1 new/boot-1 base/boot-1/ab-boot.txt \
		    new/boot-1/ab-boot.txt ab.txt; do
		mkfolder "$TMP/a"
		chown nobody "$TMP/a/$name"
		"$VSB" "${AB[@]}" -o "$TMP/a" >"$TMP/out" 2>"$TMP/err"
		result "[own] ab -o DIR with DIR/$name owned by nobody: not continued" 'owned by nobody' $?
	done
	ln -s "$TMP/a" "$TMP/alink" && chown -h nobody "$TMP/alink"
	mkfolder "$TMP/a"
	"$VSB" "${AB[@]}" -o "$TMP/alink" >"$TMP/out" 2>"$TMP/err"
	result "[sym] ab -o a link another user owns: not followed" 'symbolic link' $?
else
	skip "[own] ab folders owned by nobody" "not root or no user nobody"
fi
for name in . base new base/boot-1 base/boot-1/ab-boot.txt; do
	for m in g+w o+w; do
		mkfolder "$TMP/a"
		chmod "$m" "$TMP/a/$name"
		"$VSB" "${AB[@]}" -o "$TMP/a" >"$TMP/out" 2>"$TMP/err"
		result "[own] ab -o DIR with DIR/$name $m: not continued" 'writable by' $?
	done
done

# ---- [exact] the mode's limits -----------------------------------------
for mb in 1 2 3; do
	"$VSB" "${AB[@]}" --max-boots $mb -o "$TMP/n" >"$TMP/out" 2>"$TMP/err"
	[ $? -eq 0 ] && grep -q '^mode exact' "$TMP/out" && [ ! -e "$TMP/n" ] &&
		ok "[exact] exact mode (the default under TCG) takes --max-boots $mb" ||
		not_ok "[exact] exact mode takes --max-boots $mb" "$(cat "$TMP/err")"
done
for v in '--exact --possible 65' '--exact --possible 255' '--timed --max-boots 3' \
	 '--timed --max-boots 5'; do
	# shellcheck disable=SC2086
	"$VSB" "${AB[@]}" $v -o "$TMP/n" >"$TMP/out" 2>"$TMP/err"
	result "[exact] ab $v: refused before any boot" 'exact mode counts|max-boots' $?
done
printf 'name q\nbench counter\nbackend kmod\ncpus 0\nvariant this-cpu-add\nguest-possible 100\n' >"$TMP/p.sweep"
"$VSB" ab --dry-run --exact --base "$K" --new "$K" "$TMP/p.sweep" >"$TMP/out" 2>"$TMP/err"
result "[exact] a point of 100 possible CPUs in exact mode: refused before any boot" 'exact mode counts' $?
for acc in foo KVM 'tcg ' 1; do
	VSB_VM_ACCEL=$acc "$VSB" "${AB[@]}" >"$TMP/out" 2>"$TMP/err"
	result "[exact] ab with VSB_VM_ACCEL='$acc': refused before any boot" 'VSB_VM_ACCEL' $?
done

# ---- [comma] QEMU's option strings ----------------------------------------
PLUGIN_SO=$VSB_ROOT/${VSB_BUILD_DIR:-build}/qemu-plugin/vsb-insn.so
if command -v qemu-system-x86_64 >/dev/null && command -v gcc >/dev/null && [ -f "$PLUGIN_SO" ]; then
	# a checkout at $TMP/x,y: a planted $TMP/x runs its constructor if loaded
	printf '%s\n' '#include <stdio.h>' \
		'__attribute__((constructor)) static void pwn(void) { FILE *f = fopen(getenv("PWN"), "w"); if (f) fclose(f); }' \
		'#include <stdlib.h>' 'int qemu_plugin_version = 1;' >"$TMP/evil.c"
	sed -i '1i #include <stdlib.h>' "$TMP/evil.c"
	gcc -shared -fPIC -o "$TMP/x" "$TMP/evil.c"
	# The six QEMUs each stay up their 2 s: side by side, not one after
	# another (12 s of waiting), each with files of its own
	n=0 cases=() pids=()
	for w in "$TMP/x,y" "$TMP/x,y,,z" "$TMP/x,out=y"; do
		mkdir -p "$w/build/qemu-plugin" "$w/work"
		cp "$PLUGIN_SO" "$w/build/qemu-plugin/"
		for part in plugin disk; do
			n=$((n + 1))
			cases[n]="$w $part"
			(
				REPO=$w VSB_BUILD_DIR=build
				log() { echo "$*" >&2; }
				# shellcheck source=/dev/null
				. "$VSB_ROOT/ci/vm-exact.bash"
				exact_refusals && exact_setup "$w/work" || exit
				# one part at a time; -machine none has no CPU model
				# to set and no PCI bus for the disk's device
				if [ $part = plugin ]; then set -- "${ACCEL_ARGS[@]}"; else set -- "${EXACT_ARGS[@]}"; fi
				args=() skip=0
				for a in "$@"; do
					((skip)) && { skip=0; continue; }
					case $a in -cpu|-device) skip=1; continue ;; esac
					args+=("$a")
				done
				PWN=$TMP/PWNED.$n timeout 2 qemu-system-x86_64 -machine none -nodefaults \
					-display none -monitor none -S "${args[@]}"
			) >"$TMP/comma.$n.out" 2>"$TMP/comma.$n.err" &
			pids[n]=$!
		done
	done
	for ((i = 1; i <= n; i++)); do
		wait "${pids[i]}"
		rc=$? w=${cases[i]% *} part=${cases[i]##* } err=$TMP/comma.$i.err
		if [ $rc -eq 124 ] && [ ! -e "$TMP/PWNED.$i" ] && ! grep -qi 'could not\|error\|warning\|does not' "$err"; then
			ok "[comma] a checkout at $(basename "$w"): QEMU takes its $part as given, nothing planted is loaded"
		else
			not_ok "[comma] a checkout at $(basename "$w"), its $part" "exit $rc (124: QEMU stayed up)" \
				"planted object loaded: $([ -e "$TMP/PWNED.$i" ] && echo yes || echo no)" "$(head -c 300 "$err")"
		fi
	done
else
	skip "[comma] QEMU's option strings" "no qemu-system-x86_64, gcc or built plugin"
fi

# ---- [ci] vm-run.sh, kmod-run.sh, kernel-build.sh ------------------------
VM=$VSB_ROOT/ci/vm-run.sh KR=$VSB_ROOT/ci/kmod-run.sh
mkdir -p "$TMP/tmpdir"
ci_refused() {	# ci_refused DESC PATTERN CMD...: exit 2, one line, no work folder made
	local d=$1 pat=$2 rc
	shift 2
	TMPDIR=$TMP/tmpdir timeout -k 2 20 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	if [ -n "$(ls -A "$TMP/tmpdir")" ]; then
		rm -rf "${TMP:?}/tmpdir/"*
		rc=97
	fi
	# kmod-run's --out: never made by a refusal
	[ ! -e "$TMP/kout" ] || { rm -rf "$TMP/kout"; rc=96; }
	result "$d" "$pat" $rc
}
for a in --bogus --kernel --kdir --smp --mem --numa --timeout --add --out --append; do
	ci_refused "[ci] vm-run.sh $a alone: one line, exit 2" "$a" bash "$VM" $a
done
ci_refused "[ci] vm-run.sh without a command: one line" 'COMMAND' bash "$VM" --smp 1
for acc in foo KVM; do
	VSB_VM_ACCEL=$acc ci_refused "[ci] vm-run.sh with VSB_VM_ACCEL=$acc: before the work folder" \
		'VSB_VM_ACCEL' bash "$VM" -- true
done
mkdir -p "$TMP/badplug/qemu-plugin"
echo 'not an ELF' >"$TMP/badplug/qemu-plugin/vsb-insn.so"
VSB_BUILD_DIR=../../../../../../../../..$TMP/badplug ci_refused \
	"[ci] vm-run.sh --exact with a plugin QEMU cannot load: refused before QEMU" \
	'no TCG plugin QEMU can load' bash "$VM" --exact -- true
for a in --bogus --out --smp --mem --timeout --kernel --kdir; do
	ci_refused "[ci] kmod-run.sh $a alone: one line, exit 2" "$a" bash "$KR" $a
done
for a in '--smp x' '--mem 0x10' '--timeout -1' '--smp 010'; do
	# shellcheck disable=SC2086
	ci_refused "[ci] kmod-run.sh $a: refused before --out is made or the module built" \
		'not a whole number' bash "$KR" --out "$TMP/kout" $a -- true
done
ci_refused "[ci] kmod-run.sh --kernel that is not there: refused before --out" \
	'--kernel' bash "$KR" --out "$TMP/kout" --kernel "$TMP/nope" --kdir "$TMP" -- true
ci_refused "[ci] kmod-run.sh --kdir with no Makefile: refused before --out" \
	'--kdir' bash "$KR" --out "$TMP/kout" --kernel "$TMP/k/bzImage" --kdir "$TMP/tmpdir" -- true
echo file >"$TMP/afile"
ci_refused "[ci] kmod-run.sh --out a file: refused before the build" \
	'--out' bash "$KR" --out "$TMP/afile" --vm -- true
VSB_VM_ACCEL=foo ci_refused "[ci] kmod-run.sh with VSB_VM_ACCEL=foo: refused before --out" \
	'VSB_VM_ACCEL' bash "$KR" --out "$TMP/kout" --vm -- true
# a patch named like one of grep's options is still checked as a patch
mkdir -p "$TMP/pd" && cd "$TMP/pd" || exit 1
for p in --version --help -V; do
	echo 'no diff here' >"./$p"
	ci_refused "[ci] kernel-build.sh --patch $p (not a patch): refused as not a patch" \
		'not a patch' bash "$VSB_ROOT/ci/kernel-build.sh" --source "$TMP/nosrc" --out "$TMP/ko" \
		--patch "$p"
done
cd "$TMP" || exit 1

# ---- [disk] plot on a full disk --------------------------------------------
if command -v gnuplot >/dev/null; then
	printf 'loops 2000\nrepeat 2\ncpus 0\nvariant this-cpu-add, atomic-global\n' >"$TMP/ps.sweep"
	host_benches "$VSB" sweep "$TMP/ps.sweep" -o "$TMP/ps" >/dev/null 2>&1
	full() {	# full KIB OUT: plot ps into OUT with writes failing past KIB
		(trap '' XFSZ; ulimit -f "$1"; "$VSB" plot "$TMP/ps" -o "$2") >"$TMP/out" 2>"$TMP/err"
	}
	for kib in 4 8 12 16 20; do
		rm -rf "$TMP/pc"; mkdir "$TMP/pc"
		full $kib "$TMP/pc"
		rc=$?
		if [ $rc -ne 0 ] && ! grep -q '^wrote' "$TMP/out" && [ -z "$(ls "$TMP/pc")" ] && one_line "$TMP/err"; then
			ok "[disk] plot with writes failing past $kib KiB: an error, no chart written at all"
		else
			not_ok "[disk] plot with writes failing past $kib KiB" "exit $rc" "$(ls -l "$TMP/pc")" "$(cat "$TMP/out" "$TMP/err")"
		fi
	done
	rm -rf "$TMP/pc"
	"$VSB" plot "$TMP/ps" -o "$TMP/pc" >/dev/null 2>&1
	before=$(sha256sum "$TMP/pc/"*)
	full 12 "$TMP/pc"
	rc=$?
	[ $rc -ne 0 ] && [ "$before" = "$(sha256sum "$TMP/pc/"*)" ] &&
		ok "[disk] a chart drawn before is left whole when its redraw meets a full disk" ||
		not_ok "[disk] the chart drawn before" "exit $rc" "$(ls -l "$TMP/pc")"
else
	skip "[disk] plot on a full disk" "no gnuplot"
fi

done_testing
