#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the build and the tests need, only those
# missing; quiet when everything is there.  `apt-get update` runs once,
# and only when something has to be installed.  Without root, it lists
# what is missing and carries on: the tests that need it will skip.
set -euo pipefail

PKGS=(gcc make libc6-dev flex bison jq cppcheck gnuplot-nox libpfm4-dev likwid clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev
      qemu-system-x86 qemu-user busybox-static cpio
      strace dwarves sparse libsqlite3-dev sqlite3 libpq-dev postgresql ansible chromium)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages (run as root to install): ${missing[*]}" >&2
	exit 0
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
