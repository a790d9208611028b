# SPDX-License-Identifier: GPL-2.0
#
# vanish.sh - end the guest mid-run the way tests/kmod/vanish.sh asks in
# VSB_VANISH (a kernel argument, so in init's environment): "triple"
# resets it with a triple fault (sysrq b under reboot=t: no oops, no
# panic, the command never reports), "panic" crashes the kernel.

echo "ok - the guest ran vanish.sh"
# the line is in the tty's buffer, not yet out of the serial port: an
# instant reset lost it once; a second lets it drain
sleep 1
case ${VSB_VANISH:-} in
triple) echo b >/proc/sysrq-trigger ;;
panic)  echo c >/proc/sysrq-trigger ;;
esac
sleep 30
echo "not ok - the guest outlived VSB_VANISH=${VSB_VANISH:-}"
