#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh - run one command in a throwaway QEMU guest and bring back /out.
#
# The host cannot load modules, so everything that needs a kernel of our
# own (insmod of kmod/vmstat_bench.ko, the harness talking to it) runs in a
# guest booted from a busybox initramfs built per run.  Files named with
# --add land under /vsb at their repo-relative paths (dynamic ELF binaries
# bring the shared libraries ldd lists, loader included); the command runs
# with cwd /vsb through /bin/sh -c; whatever it leaves in /out comes back to
# the host's --out folder.
#
# Four 16550 ports keep the streams apart, so kernel messages can never
# corrupt results:
#	ttyS0	kernel console (boot log, oopses, panics) -> a log file
#	ttyS1	control: start/exit markers (and /out as base64 tar.gz when
#		the kernel has no built-in NVMe driver)
#	ttyS2	the command's stdout -> host stdout (live)
#	ttyS3	the command's stderr -> host stderr (live)
# /out itself comes back as a raw tar on a sparse NVMe disk image: the
# UART moves ~250 KB/s under TCG, the disk tens of MB/s.
# The markers carry a per-run nonce, so nothing stale or echoed can pass
# for a result.
#
# Usage:
#   ci/vm-run.sh [--kernel BZIMAGE] [--kdir BUILD_DIR] [--smp N] [--maxcpus M]
#                [--mem MB] [--numa NODES] [--timeout S] [--add HOST[:GUEST]]...
#                [--out HOST_DIR] [--append 'kernel args'] [--exact] -- COMMAND...
# COMMAND words are joined with spaces (as ssh does) and run by busybox sh.
#
# The guest's shape: --smp vCPUs online, --maxcpus possible CPUs (the
# kernel sizes its per-CPU areas for them), --numa nodes sharing --mem,
# --append kernel parameters (isolcpus=1 nohz_full=1 ...).  The possible
# CPUs are QEMU CPUs that the kernel's maxcpus=N leaves offline, not
# QEMU's hot-plug slots (-smp N,maxcpus=M): 6.12 counts those disabled
# MADT entries only under a hypervisor it recognises, and TCG is none
# (acpi_is_processor_usable(), arch/x86/kernel/acpi/boot.c), while 6.1
# counts them always; CPUs that are there but offline are possible to
# both.  A combination the guest could not have is refused
# before anything boots, one line and exit 2: more nodes than vCPUs,
# fewer possible CPUs than vCPUs, an isolated CPU that does not exist,
# every CPU isolated.  The guest gets vsb.shape=smp:N,maxcpus:M,numa:K,
# mem:MB on its command line, which vmstat-bench records (guest_shape).
#
# Exit status: the command's own; 1 if the guest panicked, oopsed, warned,
# timed out or died without reporting after a kernel report; 5 if it
# vanished mid-command without any kernel report (a TCG event on a
# starved host: the caller, which knows whether the command may run
# again, may boot it once more; a command should not exit 5 itself);
# 4 (skip) if QEMU, the kernel or the requested NUMA layout cannot be
# had here; 2 on bad usage.
#
# Environment: VSB_VM_CACHE (cache folder, see kernel-cache.sh),
# VSB_VM_ACCEL=kvm|tcg (skip the KVM probe), VSB_VM_KEEP=1 (keep the work
# folder with the initramfs and logs), VSB_VM_BOOT_STALL=S (a guest not
# at /init after S seconds, default half the --timeout within 20-120, is
# booted once more; 0 makes every boot count as stalled, for the runner's
# own test),
# VSB_VM_POWEROFF_WAIT=S (a guest still up S seconds, default 30, after
# its command exited is stopped and its results taken).
#
# The script is the order of a run; its parts live in files it sources:
# ci/vm-initramfs.bash (the files copied in, the guest's /init),
# ci/vm-qemu.bash (one boot and the QEMU process), ci/vm-verdict.bash
# (how a guest ended, a failure with its console lines) and
# ci/vm-exact.bash (exact mode's QEMU arguments).

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SELF=$REPO/ci/vm-run.sh
. "$REPO/ci/cache.bash"
CACHE=$(vsb_vm_cache "$REPO")

log() { printf 'vm-run: %s\n' "$*" >&2; }
usage() {
	# --help: the usage block of the header comment, without the "# ";
	# a usage error has said its one line already (the contract's rule)
	[[ ${1:-2} != 0 ]] || sed -n '/^# Usage:/,/^# COMMAND/s/^# \{0,1\}//p' "$SELF"
	exit "${1:-2}"
}
skip() { log "SKIP: $*"; exit 4; }

KERNEL='' KDIR='' SMP=2 MAXCPUS=0 MEM=512 NUMA=0 TIMEOUT=120 OUTDIR='' APPEND=''
ADDS=() EXACT=0 EXACT_ARGS=()
while (($#)); do
	case $1 in
	--kernel|--kdir|--smp|--maxcpus|--mem|--numa|--timeout|--add|--out)
		[[ $# -ge 2 && -n $2 ]] || { log "$1 needs a value (see --help)"; usage; } ;;
	--append)
		[[ $# -ge 2 ]] || { log "$1 needs a value (see --help)"; usage; } ;;
	esac
	case $1 in
	--kernel)  KERNEL=${2:?}; shift 2 ;;
	--kdir)    KDIR=${2:?}; shift 2 ;;
	--smp)     SMP=${2:?}; shift 2 ;;
	--maxcpus) MAXCPUS=${2:?}; shift 2 ;;
	--mem)     MEM=${2:?}; shift 2 ;;
	--numa)    NUMA=${2:?}; shift 2 ;;
	--timeout) TIMEOUT=${2:?}; shift 2 ;;
	--add)     ADDS+=("${2:?}"); shift 2 ;;
	--out)     OUTDIR=${2:?}; shift 2 ;;
	--append)  APPEND=${2?}; shift 2 ;;
	--exact)   EXACT=1; shift ;;	# ci/vm-exact.bash
	--)        shift; break ;;
	-h|--help) usage 0 ;;
	*)         log "unknown option: $1 (see --help)"; usage ;;
	esac
done
(($#)) || { log "no COMMAND given (see --help)"; usage; }
case ${VSB_VM_ACCEL:-} in
''|kvm|tcg) ;;
*) log "VSB_VM_ACCEL must be kvm or tcg"; exit 2 ;;
esac
CMD="$*"
for n in "$SMP" "$MAXCPUS" "$MEM" "$NUMA" "$TIMEOUT"; do
	[[ $n =~ ^(0|[1-9][0-9]{0,6})$ ]] || { log "not a number: $n"; usage; }
done
((SMP >= 1 && MEM >= 128)) || { log "--smp >= 1 and --mem >= 128 needed"; exit 2; }
((MAXCPUS)) || MAXCPUS=$SMP
refuse() { log "$*"; exit 2; }
. "$REPO/ci/vm-exact.bash"
. "$REPO/ci/vm-initramfs.bash"
. "$REPO/ci/vm-qemu.bash"
. "$REPO/ci/vm-verdict.bash"
((EXACT)) && exact_refusals
((MAXCPUS >= SMP)) || refuse "--maxcpus $MAXCPUS: fewer possible CPUs than the $SMP vCPUs"
((MAXCPUS <= 255)) || refuse "--maxcpus $MAXCPUS: QEMU's pc machine has 255 CPUs at most"
((NUMA <= SMP)) ||
	refuse "--numa $NUMA: more NUMA nodes than the $SMP vCPUs: every node needs a CPU"
((NUMA == 0 || MEM / NUMA >= 64)) ||
	refuse "--mem $MEM: less than 64 MB for each of the $NUMA NUMA nodes"

# The CPUs --append isolates (isolcpus=, nohz_full=, rcu_nocbs=; flags such
# as isolcpus=domain, dropped) must be CPUs the guest has, and leave one.
isolated_cpus() {
	local w list tok a b
	for w in $APPEND; do
		case $w in
		isolcpus=*|nohz_full=*|rcu_nocbs=*) list=${w#*=} ;;
		*) continue ;;
		esac
		for tok in ${list//,/ }; do
			case $tok in nohz|domain|managed_irq) continue ;; esac
			[[ $tok =~ ^([0-9]+)(-([0-9]+))?$ ]] ||
				refuse "--append: $w: a CPU list of plain numbers and ranges is what is checked here"
			a=${BASH_REMATCH[1]} b=${BASH_REMATCH[3]:-${BASH_REMATCH[1]}}
			((b >= a)) || refuse "--append: $w: range $tok goes downwards"
			for ((; a <= b; a++)); do echo "$a"; done
		done
	done | sort -nu
}
case " $APPEND " in
*" maxcpus="*) refuse "--append: maxcpus= is --smp's (with --maxcpus for the possible CPUs)" ;;
esac
ISOLATED=$(isolated_cpus) || exit 2
if [[ -n $ISOLATED ]]; then
	for c in $ISOLATED; do
		((c < SMP)) || refuse "--append '$APPEND': CPU $c does not exist in a guest of $SMP vCPUs (0-$((SMP - 1)))"
	done
	(($(wc -l <<<"$ISOLATED") < SMP)) ||
		refuse "--append '$APPEND': isolates every one of the $SMP vCPUs; the kernel needs a housekeeping CPU"
fi

# --- host tools -----------------------------------------------------------
# Installed on demand so a fresh Debian 12 needs nothing by hand; without
# root or network the run is a skip, not a failure.
need_pkgs=()
command -v qemu-system-x86_64 >/dev/null || need_pkgs+=(qemu-system-x86)
command -v busybox >/dev/null || need_pkgs+=(busybox-static)
command -v cpio >/dev/null || need_pkgs+=(cpio)
if ((${#need_pkgs[@]})); then
	if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
		skip "missing ${need_pkgs[*]}; apt-get install needs root"
	fi
	log "installing ${need_pkgs[*]}"
	inst() {
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${need_pkgs[@]}" >&2
	}
	inst || { apt-get update -q >&2 && inst; } ||
		skip "cannot install ${need_pkgs[*]}"
fi
BUSYBOX=$(command -v busybox)

# --- kernel ---------------------------------------------------------------
if [[ -z $KERNEL ]]; then
	kc_rc=0
	kc=$(VSB_VM_CACHE=$CACHE "$REPO/ci/kernel-cache.sh") || kc_rc=$?
	((kc_rc == 0)) || { ((kc_rc == 4)) && skip "no kernel (kernel-cache.sh)"; exit 1; }
	ukdir=$KDIR
	eval "$kc"
	[[ -z $ukdir ]] || KDIR=$ukdir
fi
[[ -f $KERNEL ]] || skip "kernel image $KERNEL not found"

# The release string sits in the bzImage header (setup header field
# kernel_version at 0x20e, an offset from 0x200); modules whose vermagic
# differs would only fail later inside the guest with a terse -EINVAL.
kernel_release() {
	local off
	off=$(od -An -tu2 -j $((0x20e)) -N2 "$1" 2>/dev/null | tr -d ' ')
	[[ -n $off && $off != 0 ]] || return 0
	dd if="$1" bs=1 skip=$((off + 0x200)) count=128 2>/dev/null |
		tr '\0' '\n' | head -n1 | cut -d' ' -f1
}
KREL=$(kernel_release "$KERNEL")
if [[ -n $KDIR && -n $KREL ]]; then
	krel_kdir=$(sed -n 's/^override KERNELRELEASE = //p' \
		"$KDIR/.kernelvariables" 2>/dev/null || true)
	[[ -n $krel_kdir ]] ||
		krel_kdir=$(cat "$KDIR/include/config/kernel.release" 2>/dev/null || true)
	[[ -z $krel_kdir || $krel_kdir == "$KREL" ]] ||
		log "warning: --kdir is for $krel_kdir but the kernel is $KREL"
fi
((EXACT)) && exact_smp_refusal "$KREL" "$SMP"

# --- work folder, cleanup -------------------------------------------------
W=$(mktemp -d "${TMPDIR:-/tmp}/vsb-vm.XXXXXX")
QPID='' TAILS=()
MAIN_PID=$BASHPID
# shellcheck disable=SC2317  # invoked by the EXIT trap
cleanup() {
	local p
	# Only this shell cleans up. A child forked for QEMU that a stop
	# reaches before it has exec'd and dropped our traps runs them too
	# (seen in CI: a boot stopped at once removed $W under the parent).
	[[ $BASHPID == "$MAIN_PID" ]] || return 0
	if [[ -n $QPID ]]; then kill "$QPID" 2>/dev/null || true; fi
	qemu_gone
	for p in "${TAILS[@]}"; do kill "$p" 2>/dev/null || true; done
	if [[ ${VSB_VM_KEEP:-0} == 1 || ${KEEP_W:-0} == 1 ]]; then
		log "work folder kept: $W"
	else
		rm -rf "$W"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ -z $OUTDIR ]]; then
	OUTDIR=$(mktemp -d "${TMPDIR:-/tmp}/vsb-out.XXXXXX")
	log "guest /out -> $OUTDIR"
fi
mkdir -p "$OUTDIR"

# --- accelerator ----------------------------------------------------------
# /dev/kvm can exist and still hang every guest (nested virtualisation
# gone wrong), so KVM is used only after a real boot of this kernel
# finished under it; the verdict is cached per host kernel, QEMU and guest
# kernel.  The probe is this script itself with VSB_VM_ACCEL=kvm.
ACCEL=${VSB_VM_ACCEL:-}
((EXACT)) && exact_setup "$W"
if [[ -z $ACCEL ]]; then
	ACCEL=tcg
	if [[ -r /dev/kvm && -w /dev/kvm ]]; then
		key="$(uname -r) $(qemu-system-x86_64 --version | head -n1) $KREL"
		vfile=$CACHE/kvm.verdict
		verdict=$(awk -v k="$key => " 'index($0, k) == 1 {
			v = substr($0, length(k) + 1) } END { print v }' \
			"$vfile" 2>/dev/null || true)
		if [[ -z $verdict ]]; then
			log "probing KVM (one boot, at most 10 s; the verdict is cached)"
			verdict=tcg
			VSB_VM_ACCEL=kvm VSB_VM_KEEP=0 "$SELF" --kernel "$KERNEL" \
				--smp 1 --mem 256 --timeout 10 --out "$W/probe" \
				-- true >/dev/null 2>&1 && verdict=kvm
			mkdir -p "$CACHE"
			{ printf '%s => %s\n' "$key" "$verdict" >>"$vfile"; } \
				2>/dev/null || log "cannot cache the verdict in $vfile"
			log "KVM probe: using $verdict"
		fi
		ACCEL=$verdict
	fi
fi
case $ACCEL$EXACT in
tcg1) ;;	# exact_setup's
kvm0) ACCEL_ARGS=(-accel kvm -cpu host) ;;
tcg0) ACCEL_ARGS=(-accel tcg -cpu max) ;;
*)   log "VSB_VM_ACCEL must be kvm or tcg"; exit 2 ;;
esac

# --- initramfs ------------------------------------------------------------
IR=$W/root
# /run as any Linux system has it: the harness keeps its sysctl lock and
# scratch mounts below /run/vmstat-bench
mkdir -p "$IR"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,out,vsb,.vsb,etc,root,run}

cp "$BUSYBOX" "$IR/bin/busybox"
copy_libs "$BUSYBOX"
ln -s busybox "$IR/bin/sh"

# The guest kernel's config where the harness's record looks for it,
# /boot/config-RELEASE: Debian's kernels ship it beside the image and
# have no /proc/config.gz, a kernel built here has it in its build
# folder (when that folder is this kernel's: krel_kdir above); without
# it every guest result says "kernel_config: unknown".
kconfigs=("$(dirname "$KERNEL")/config-$KREL")
[[ -z $KDIR || ${krel_kdir:-$KREL} != "$KREL" ]] || kconfigs+=("$KDIR/.config")
for kconfig in "${kconfigs[@]}"; do
	[[ -n $KREL && -f $kconfig ]] || continue
	mkdir -p "$IR/boot"
	cp "$kconfig" "$IR/boot/config-$KREL"
	break
done

for a in ${ADDS[@]+"${ADDS[@]}"}; do
	hp=${a%%:*}
	gp=
	[[ $a == *:* ]] && gp=${a#*:}
	[[ -e $hp ]] || { log "--add: $hp does not exist"; exit 2; }
	habs=$(realpath "$hp")
	if [[ -z $gp ]]; then
		# Same relative path as in the repo, so commands written for
		# the checkout (./harness/vmstat-bench, kmod/*.ko) work as is.
		case $habs in
		"$REPO"/*) gp=/vsb/${habs#"$REPO"/} ;;
		*)         gp=/vsb/${habs##*/} ;;
		esac
	fi
	[[ $gp == /* ]] || gp=/vsb/$gp
	mkdir -p "$IR$(dirname "$gp")"
	cp -a "$habs" "$IR$gp"
	while IFS= read -r -d '' f; do
		copy_libs "$f"
		[[ $f == *.ko ]] && check_ko "$f"
	done < <(find "$habs" -type f -print0)
done

NONCE=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf '%s\n' "$CMD" >"$IR/.vsb/cmd"
# VSB_VM_TEST_NO_POWEROFF=1: the guest stays up after its command, for
# the runner's own test of a guest that does not power off
printf 'VSB_NONCE=%s\nVSB_NUMA=%s\nVSB_NO_POWEROFF=%s\n' "$NONCE" "$NUMA" \
	"${VSB_VM_TEST_NO_POWEROFF:-0}" >"$IR/.vsb/env"

write_init

# Uncompressed: the kernel unpacks it faster than gunzip under TCG.
(cd "$IR" && find . -print0 | cpio --null -o -H newc --quiet -R 0:0) >"$W/initrd"

# --- QEMU -----------------------------------------------------------------
NUMA_ARGS=()
SMP_ARG=$SMP
# the possible CPUs are there; the kernel brings --smp of them online
((MAXCPUS == SMP)) || SMP_ARG=$MAXCPUS
numa_mem() {	# node i's memory backend and its share of --mem
	local i=$1 per=$((MEM / NUMA)) sz
	sz=$per
	((i == NUMA - 1)) && sz=$((MEM - per * (NUMA - 1)))
	NUMA_ARGS+=(-object "memory-backend-ram,id=vsbmem$i,size=${sz}M")
}
if ((NUMA > 0 && MAXCPUS > SMP)); then
	# One socket per CPU, dealt to the nodes in turn: the CPUs brought
	# online (the first --smp) reach every node, and no socket spans two
	# nodes (a shared LLC across a node boundary WARNs, see below).
	SMP_ARG="$MAXCPUS,sockets=$MAXCPUS,cores=1,threads=1"
	for ((i = 0; i < NUMA; i++)); do
		numa_mem "$i"
		NUMA_ARGS+=(-numa "node,nodeid=$i,memdev=vsbmem$i")
	done
	for ((i = 0; i < MAXCPUS; i++)); do
		NUMA_ARGS+=(-numa "cpu,node-id=$((i % NUMA)),socket-id=$i,core-id=0,thread-id=0")
	done
elif ((NUMA > 0)); then
	# One socket per node when the CPUs divide evenly, else one socket
	# per CPU: a node boundary through a socket's shared LLC makes the
	# scheduler WARN (topology_sane), which panic_on_warn turns fatal.
	if ((SMP % NUMA == 0)); then
		SMP_ARG="$SMP,sockets=$NUMA,cores=$((SMP / NUMA)),threads=1"
	else
		SMP_ARG="$SMP,sockets=$SMP,cores=1,threads=1"
	fi
	# Real NUMA via ACPI SRAT (the kernel needs CONFIG_ACPI_NUMA, not
	# NUMA_EMU): node i gets a contiguous CPU range and an equal memory
	# share (--numa > --smp is refused above: no CPU-less nodes).
	for ((i = 0; i < NUMA; i++)); do
		numa_mem "$i"
		lo=$((i * SMP / NUMA)) hi=$(((i + 1) * SMP / NUMA - 1))
		spec="node,nodeid=$i,memdev=vsbmem$i"
		((hi >= lo)) && spec+=",cpus=$lo-$hi"
		NUMA_ARGS+=(-numa "$spec")
	done
fi

# Sparse: costs nothing unless written, and /out (in guest RAM) can never
# outgrow the guest's memory.
truncate -s "${MEM}M" "$W/out.img"

CMDLINE="console=ttyS0 panic=-1 oops=panic panic_on_warn=1 rdinit=/init"
# No self-tests of the crypto algorithms at boot: nothing here uses
# them, they were 0.4 of a guest's 4.6 CPU seconds to /init and back
# (10% of every boot), and a 6.1 guest of 3 vCPUs once froze in them
# under TCG (soft lockup; see BOOT_STALL below)
CMDLINE+=" cryptomgr.notests"
[[ -n $APPEND ]] && CMDLINE+=" $APPEND"
((MAXCPUS == SMP)) || CMDLINE+=" maxcpus=$SMP"
# what vmstat-bench in the guest records as guest_shape (lib/machine/guest.c)
CMDLINE+=" vsb.shape=smp:$SMP,maxcpus:$MAXCPUS,numa:$NUMA,mem:$MEM"
((EXACT)) && CMDLINE+=" vsb.exact=1 nokaslr"

# boot (ci/vm-qemu.bash): one boot, until QEMU exits; qrc: its status.
# A guest that has not reached /init (VSB_START on the control port)
# after BOOT_STALL seconds is stopped and STALLED set: under TCG a boot
# now and then freezes early (the console stops mid-boot, minutes before
# the timeout), with nothing of the command run yet, so booting again is
# safe.  The limit is half the --timeout (20 s at least, 120 at most), so
# that a stall is caught with a boot's time left: a 6.1 guest of 3 vCPUs
# froze in its crypto self-tests (soft lockup, console silent from 1.7 s)
# under a --timeout of 60, which then failed the test with the retry
# still 60 s away.  Boots reach /init in 3-20 s here, exact mode's too.
BOOT_STALL=$((TIMEOUT / 2))
((BOOT_STALL >= 20)) || BOOT_STALL=20
((BOOT_STALL <= 120)) || BOOT_STALL=120
BOOT_STALL=${VSB_VM_BOOT_STALL:-$BOOT_STALL}
STALLED=0
# A guest whose command has exited (VSB_EXIT on the control port, after
# its /out went to the disk and was synced) and that has not powered off
# POWEROFF_WAIT seconds later is stopped, and its run counts as done:
# seen in a clean-clone make test (2026-12-03), a 6.1 guest with
# nohz_full=1 under TCG that reported exit 0 and then sat in `poweroff -f`
# until the 300 s timeout, failing a test whose results were all there.
POWEROFF_WAIT=${VSB_VM_POWEROFF_WAIT:-30}
POWEROFF_HUNG=0

T0=$(date +%s.%N)	# both boots count when a stalled one is retried
boot
((EXACT)) && exact_check_loaded "$W/qemu.log"
if ((STALLED)); then
	last=$(tail -n 1 "$W/console" | tr -d '\r' | cut -c1-80)
	log "the guest did not reach /init in $BOOT_STALL s (a stalled boot; console:" \
	    "${last:-nothing yet}): booting it again"
	STALLED=0
	boot
fi
ELAPSED=$(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
((!POWEROFF_HUNG)) ||
	log "the guest's command exited but the guest had not powered off" \
	    "$POWEROFF_WAIT s later: stopped it (its results were complete)"

# --- verdict --------------------------------------------------------------
ctl=$(tr -d '\r' <"$W/ctl")
if ((STALLED)); then
	fail "guest did not reach /init in $BOOT_STALL s, twice (stalled boots)"
fi
if ((qrc == 124 || qrc == 137)); then
	fail "guest timed out after $TIMEOUT s"
fi
# The first splat names the culprit (WARNING: ... at file:line); the panic
# line itself often only says "panic_on_warn set".
SPLAT_RE='\] (BUG:|WARNING:|Oops|general protection fault|kernel BUG|UBSAN:|INFO: task .* blocked)'
splat=$(grep -a -m1 -E "$SPLAT_RE" "$W/console" | tr -d '\r' || true)
panic=$(grep -a -m1 'Kernel panic' "$W/console" | tr -d '\r' || true)
if [[ -n $panic ]]; then
	fail "guest panicked: ${panic#*] }${splat:+ (first report: ${splat#*] })}"
fi
rc=$(sed -n "s/^VSB_EXIT=\([0-9]*\) $NONCE\$/\1/p" <<<"$ctl")
if [[ -z $rc ]]; then
	grep -q "^VSB_START $NONCE\$" <<<"$ctl" ||
		fail "guest did not reach /init (qemu rc $qrc)"
	[[ -z $splat ]] ||
		fail "guest died without reporting an exit status after the kernel reported: ${splat#*] }"
	fail --rc 5 "guest died without reporting an exit status and without a kernel report" \
	     "(qemu rc $qrc; $(how_qemu_ended))"
fi
# A splat that did not panic (BUG: sleeping in atomic, lockdep, ...) still
# means the kernel side is broken: fail loudly rather than pass quietly.
[[ -z $splat ]] || fail "guest kernel reported: ${splat#*] }"

if grep -q "^VSB_OUT_DISK $NONCE\$" <<<"$ctl"; then
	tar -xf "$W/out.img" -C "$OUTDIR" ||
		fail "could not unpack the guest's /out from its disk"
elif ! sed -n "/^VSB_OUT_BEGIN $NONCE\$/,/^VSB_OUT_END $NONCE\$/p" <<<"$ctl" |
	sed '1d;$d' | base64 -d | tar -xzf - -C "$OUTDIR"; then
	fail "could not unpack the guest's /out"
fi

nodes=$(sed -n "s/^VSB_NODES=\([0-9]*\) $NONCE\$/\1/p" <<<"$ctl")
if ((NUMA > 0 && rc == 254)) && [[ $nodes != "$NUMA" ]]; then
	skip "guest sees ${nodes:-?} NUMA node(s), $NUMA requested (kernel lacks ACPI NUMA?)"
fi

numa_note=
((NUMA > 0)) && numa_note=", $NUMA NUMA nodes"
((MAXCPUS > SMP)) && numa_note+=", $MAXCPUS possible"
((EXACT)) && exact_report "$W/qemu-debug.log" && exact_profile_out "$W" "$OUTDIR"
log "exit $rc after $ELAPSED s ($ACCEL$( ((EXACT)) && echo ', exact'), $SMP cpu, $MEM MB$numa_note)"
exit "$rc"
