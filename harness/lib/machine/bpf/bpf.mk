# SPDX-License-Identifier: GPL-2.0
#
# BPF tracing (harness/lib/machine/bpf/): included by the top Makefile
# after the lib/ layers' rules.  vmlinux.h is generated from the running kernel's BTF
# into $(O)/bpf (never committed: it describes this kernel only), the
# object is built with clang, its skeleton with `bpftool gen skeleton`,
# and the loader links libbpf.  Where clang, bpftool, libbpf-dev or the
# BTF is missing, the rest builds anyway: one line says what is missing,
# and `trace` / `run --trace` skip (exit 4) saying the same.

BPF_CLANG ?= clang
BPFTOOL ?= $(firstword $(shell command -v bpftool 2>/dev/null) $(wildcard /usr/sbin/bpftool /sbin/bpftool))
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
BPF_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' -e 's/s390x/s390/')

BPF_MISSING := $(strip \
	$(if $(shell command -v $(BPF_CLANG) 2>/dev/null),,clang) \
	$(if $(BPFTOOL),,bpftool) \
	$(if $(wildcard /usr/include/bpf/libbpf.h),,libbpf-dev) \
	$(if $(wildcard /usr/include/gelf.h),,libelf-dev) \
	$(if $(wildcard $(VMLINUX_BTF)),,BTF($(VMLINUX_BTF))))

$(O)/libvsb-machine.a: $(O)/obj/lib/machine/bpf/trace.o

# included before `all:`; the rules below must not become the default goal
.DEFAULT_GOAL := all

ifeq ($(BPF_MISSING),)
BPF_SKEL := $(O)/bpf/vmstat_trace.skel.h
VSB_CPPFLAGS += -DVSB_HAVE_BPF -I$(O)/bpf
VSB_LIBS += -lbpf -lelf -lz

$(O)/bpf/vmlinux.h: $(VMLINUX_BTF)
	@mkdir -p $(dir $@)
	$(call msg,BTF,$@)
	$(Q)$(BPFTOOL) btf dump file $< format c > $@

$(O)/bpf/vmstat_trace.bpf.o: harness/lib/machine/bpf/vmstat_trace.bpf.c harness/lib/machine/bpf/vmstat_trace.h $(O)/bpf/vmlinux.h
	$(call msg,BPF,$@)
	$(Q)$(BPF_CLANG) -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_$(BPF_ARCH) \
		-I$(O)/bpf -Iharness/lib/machine/bpf -c $< -o $@

$(BPF_SKEL): $(O)/bpf/vmstat_trace.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name vmstat_trace > $@

$(O)/obj/lib/machine/bpf/trace.o: $(BPF_SKEL)
else
$(info BPF tracing not built: missing $(BPF_MISSING) (`make deps` installs them; `trace` and --trace will skip))
endif
