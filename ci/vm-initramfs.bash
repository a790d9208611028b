# SPDX-License-Identifier: GPL-2.0
#
# The initramfs for ci/vm-run.sh (sourced by it): files copied in with
# the libraries they load, the modules' vermagic checked, and the
# guest's /init.

# Copy a file into the initramfs; for a dynamic ELF also the libraries and
# the loader ldd resolves, at the same absolute paths, so the guest's ld.so
# finds them without an ld.so.cache.
copy_libs() {
	local f=$1 lib
	[[ $(head -c4 "$f" 2>/dev/null | od -An -c | tr -d ' ') == 177ELF ]] || return 0
	while read -r lib; do
		[[ -e $IR$lib ]] && continue
		mkdir -p "$IR$(dirname "$lib")"
		cp -L "$lib" "$IR$lib"
	done < <(ldd "$f" 2>/dev/null | tr -s ' \t' '\n' | grep '^/' || true)
	copy_dlopened "$f"
}

# The libraries an ELF loads with dlopen() on first use, which ldd
# cannot list (copy_libs asks for each ELF it copies): libpfm4 (the
# harness encodes its PMU events with it, harness/lib/machine/pfm_api.h),
# copied when the ELF names its soname, to the path this host's
# ld.so.cache gives it.  Not likwid: its topology_init() wants bash,
# which and its access daemon besides, and the harness in a guest takes
# the topology from sysfs (`info` says so).
DLOPENED=(libpfm.so.4)
copy_dlopened() {
	local f=$1 so lib
	for so in "${DLOPENED[@]}"; do
		grep -qaF "$so" "$f" || continue
		# awk reads to the end: an early exit would leave ldconfig a
		# SIGPIPE, which pipefail and set -e make this script's exit 141
		lib=$(ldconfig -p | awk -v so="$so" '$1 == so && /x86-64/ && !n++ { print $NF }')
		[[ -n $lib && ! -e $IR$lib ]] || continue
		mkdir -p "$IR$(dirname "$lib")"
		cp -L "$lib" "$IR$lib"
		copy_libs "$lib"
	done
}

# Module vermagic vs the kernel we boot: warn early, on the host.
check_ko() {
	local v
	[[ -n $KREL ]] || return 0
	v=$(grep -ao -m1 'vermagic=[^[:cntrl:]]*' "$1" | head -n1 | cut -d' ' -f1)
	v=${v#vermagic=}
	[[ -z $v || $v == "$KREL" ]] ||
		log "warning: ${1##*/} is built for $v, the guest runs $KREL"
}

# The guest's /init: runs the command, ships /out back, powers off.
write_init() {
cat >"$IR/init" <<'EOF'
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest init written by ci/vm-run.sh: mount, run the command, ship /out
# on ttyS1, power off.  The initramfs has no /dev/console node (cpio runs
# unprivileged-safe, without mknod), so fds 0-2 come after devtmpfs.
/bin/busybox mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root VSB_IN_VM=1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
. /.vsb/env

# Raw mode: no \n -> \r\n, no echo, 8-bit clean.  The fds stay open for
# the whole run so the settings hold; closing them at the end waits until
# the UART has sent everything.
exec 3>/dev/ttyS1 4>/dev/ttyS2 5>/dev/ttyS3
stty -F /dev/ttyS1 raw -echo
stty -F /dev/ttyS2 raw -echo
stty -F /dev/ttyS3 raw -echo
echo "VSB_START $VSB_NONCE" >&3

nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
echo "VSB_NODES=$nodes $VSB_NONCE" >&3
if [ "$VSB_NUMA" -gt 0 ] && [ "$nodes" -ne "$VSB_NUMA" ]; then
	rc=254
else
	# Pipes, not the ttys: the command must see what it sees under CI
	# (isatty false: no progress lines, no colours, full buffering).
	mkfifo /.vsb/o /.vsb/e
	cat /.vsb/o >&4 &
	co=$!
	cat /.vsb/e >&5 &
	ce=$!
	cd /vsb
	/bin/sh -c "$(cat /.vsb/cmd)" </dev/null >/.vsb/o 2>/.vsb/e
	rc=$?
	cd /
	# A daemon the command left behind may hold the pipes open: do not
	# wait for it forever.
	i=0
	while kill -0 $co $ce 2>/dev/null && [ $i -lt 10 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill $co $ce 2>/dev/null
fi

# /out travels as a raw tar on the NVMe disk with serial "vsbout" (the
# NVMe driver is built in; 60x faster than the UART under TCG), or, for a
# kernel without it, as base64 on ttyS1.
mkdir -p /out	# the command may have removed it: send an empty tar
disk=
i=0
while [ $i -lt 100 ]; do
	for c in /sys/class/nvme/nvme*; do
		# NVMe pads the serial number with blanks; read trims them.
		read -r sn <$c/serial 2>/dev/null || continue
		[ "$sn" = vsbout ] || continue
		for b in $c/nvme*n1; do
			[ -b /dev/${b##*/} ] && disk=/dev/${b##*/}
		done
	done
	[ -n "$disk" ] && break
	# No controller bound at all: no NVMe driver, use the UART.  A bound
	# one may still be scanning its namespace (async probe): wait.
	[ -e /sys/class/nvme/nvme0 ] || break
	sleep 0.05
	i=$((i + 1))
done
if [ -n "$disk" ] && tar -C /out -cf "$disk" . && sync; then
	echo "VSB_OUT_DISK $VSB_NONCE" >&3
else
	echo "VSB_OUT_BEGIN $VSB_NONCE" >&3
	tar -C /out -czf - . | base64 >&3
	echo "VSB_OUT_END $VSB_NONCE" >&3
fi
echo "VSB_EXIT=$rc $VSB_NONCE" >&3
exec 3>&- 4>&- 5>&-
sync
[ "$VSB_NO_POWEROFF" = 1 ] && sleep 3600
poweroff -f
EOF
chmod +x "$IR/init"
}
