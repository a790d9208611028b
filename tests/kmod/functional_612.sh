#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# functional_612.sh - tests/kmod/functional.sh, every check of it, on
# Debian's 6.12 cloud kernel: the module is built against its headers (no
# warnings) and booted in the same 2-vCPU guest.  The ABI is the one
# ci/kernels pins for 6.12; VSB_KERNEL_6_12=6.12.<N>+deb12 overrides it.
# Exits 4 (skip, with the reason) when that kernel cannot be fetched.
# About as long as functional.sh under TCG.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
abi=${VSB_KERNEL_6_12:-$(awk '$1 == "6.12" { print $2 }' "$here/../../ci/kernels")}
[[ -n $abi ]] || { echo "# no 6.12 line in ci/kernels"; exit 1; }
echo "# kernel: VSB_KERNEL_ABI=$abi"
VSB_KERNEL_ABI=$abi exec bash "$here/functional.sh"
