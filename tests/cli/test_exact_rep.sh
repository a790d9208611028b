#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How TCG runs a rep-prefixed string instruction, as the plugin counts
# it: a static program clears 4 KiB with `rep stosb` between exact
# mode's markers, under qemu-x86_64 with vsb-insn.so.  QEMU executes the
# instruction once per iteration, and once more to find rcx at 0: 4097
# executions for 4096 iterations, each counted as an instruction
# (insn 4098 with the start marker) and in rep_iters, while rep_bytes
# and stores are the 4096 bytes it set.  That is why the cost model
# takes rep_iters out of the plain instructions and prices rep_bytes
# (docs/exact.md).
. "$(dirname "$0")/../lib.sh"

need_qemu_user
if ! command -v gcc >/dev/null; then
	echo "# SKIP no gcc to build the probe"
	exit 4
fi
PLUGIN=$VSB_ROOT/${VSB_BUILD_DIR:-build}/qemu-plugin/vsb-insn.so
cat >"$TMP/rep.c" <<'C'
static char buf[4096] __attribute__((aligned(4096)));
int main(void)
{
	void *d = buf;
	unsigned long n = sizeof(buf);

	__asm__ volatile(".byte 0x0f,0x1f,0x84,0x00,0x56,0x53,0x42,0x2b\n\t"
			 "rep stosb\n\t"
			 ".byte 0x0f,0x1f,0x84,0x00,0x56,0x53,0x42,0x2d"
			 : "+D"(d), "+c"(n) : "a"(7) : "memory");
	return buf[4095] == 7 ? 0 : 1;
}
C
gcc -O2 -static -o "$TMP/rep" "$TMP/rep.c" || { echo "# SKIP the probe does not build"; exit 4; }
expect_exit 0 "rep stosb of 4 KiB runs under qemu-x86_64 with the plugin" \
	qemu-x86_64 -plugin "$PLUGIN,out=$TMP/win" "$TMP/rep"
# vCPU 0's window 0: magic, vcpu, seq, then the counts in VSB_EXACT_* order
read -ra c <<<"$(od -An -t u8 -j 16 -N 120 -w120 "$TMP/win")"
insn=${c[0]} stores=${c[6]} iters=${c[13]} bytes=${c[14]}
[ "$insn" = 4098 ] && [ "$iters" = 4097 ] &&
	ok "each iteration is an execution, and one more finds rcx 0 (insn $insn, rep_iters $iters)" ||
	not_ok "rep stosb's executions" "insn $insn, rep_iters $iters"
[ "$bytes" = 4096 ] && [ "$stores" = 4096 ] &&
	ok "rep_bytes and stores: the 4096 bytes it set" ||
	not_ok "rep stosb's bytes" "rep_bytes $bytes, stores $stores"
done_testing
