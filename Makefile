# SPDX-License-Identifier: GPL-2.0
#
# vmstat-bench: one entry point.
#
#   make deps     install what is missing (Debian packages, idempotent)
#   make          build the harness (build/vmstat-bench)
#   make test     deps + build + every test; ends with "N passed, N failed"
#   make run      deps + build + the default sweep, table on stdout, CSV in results/
#   make check    cppcheck + an ASan/UBSan build of the harness running the tests,
#                 and the module's W=1 + sparse build (kmod-check, kmod/kmod.mk)
#   make kmod     kmod/vmstat_bench.ko against KDIR (default: the running kernel's
#                 build folder, else the VM cache's Debian headers)
#   make vm-run CMD='$VSB run --bench page-alloc -o $OUT/pa.csv'
#                 run CMD with the module loaded: on the host when it can load
#                 modules, else in a QEMU guest (ci/kmod-run.sh; VM_OPTS='--smp 2
#                 --kernel BZIMAGE --kdir BUILD --vm')
#   make clean
#
# V=1 shows the commands; O=DIR puts build output in DIR (default build/).

O ?= build
V ?= 0
CC ?= gcc
ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-8s %s\n' $(1) $(2);
endif

# the build's parallelism where a target asks for it (test, run)
NPROC := $(shell nproc 2>/dev/null || echo 1)
# the revision every result names; a tree with edits adds a hash of them
# (ci/git-rev.sh), so the same edits are the same build to `history`
GIT_REV := $(shell ci/git-rev.sh 2>/dev/null || echo unknown)
BUILD_TYPE ?= release
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -pthread -fno-strict-aliasing \
	  -DVSB_GIT_REV='"$(GIT_REV)"' -DVSB_BUILD='"$(BUILD_TYPE)"'
# zlib reads /proc/config.gz for the environment record (lib/machine/env.c)
LDLIBS += -pthread -lm -lz

# PMU counting: libpfm4, always.  Topology: likwid's API when its header
# is installed (else sysfs; `info` says which).  LIKWID=1 also compiles
# the marker regions around the timed loops (for likwid-perfctr -m).
# Kept out of CFLAGS/LDLIBS so `make check`'s overrides keep them.
# libpfm4 is loaded with dlopen() on first use, not linked
# (harness/lib/machine/pfm_api.h: linked, its relocations cost every
# start 5 ms); the soname is the one of the library beside its header.
# Only the unit tests that call it themselves link it (UNIT_PFM).
PFM_SONAME := $(shell readelf -d $$($(CC) -print-file-name=libpfm.so) 2>/dev/null | \
	sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
VSB_LIBS :=
UNIT_PFM := -lpfm
VSB_CPPFLAGS := -DVSB_PFM_SONAME='"$(or $(PFM_SONAME),libpfm.so.4)"'
ifneq ($(wildcard /usr/include/likwid.h),)
# likwid's topology API is loaded with dlopen() on first use, not linked
# (harness/lib/machine/likwid_api.h: linked, it cost every start 50 ms);
# the soname is the one of the library beside this header
LIKWID_SONAME := $(shell readelf -d $$($(CC) -print-file-name=liblikwid.so) 2>/dev/null | \
	sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
VSB_CPPFLAGS += -DVSB_HAVE_LIKWID -DVSB_LIKWID_SONAME='"$(or $(LIKWID_SONAME),liblikwid.so)"'
endif
ifeq ($(LIKWID),1)
# the marker calls are linked: likwid-perfctr -m finds them by symbol
VSB_CPPFLAGS += -DLIKWID_PERFMON
VSB_LIBS += -llikwid
endif

# The harness in layers that call downwards only (docs/architecture.md):
# lib/ (what knows no bench) < benches/ < sweep/ (the runner) < ab/ (two
# kernels, boots alternated) < bisect/ (commits of a tree, ab per step) <
# the commands, and inside lib/ the
# sub-layers of LIB_LAYERS, lowest first.
# Each layer compiles with the include paths of itself and the layers
# below, and is its own archive, linked highest first: an upward
# #include fails to compile and an upward call fails to link or fails
# `make layers` (the nm and tsort checks of tests/cli/test_layers.sh,
# also part of `make test`).
LIB_LAYERS := base stats model machine store charts judge
INC_base := -I. -Iharness/lib/base
INC_stats := $(INC_base) -Iharness/lib/stats
INC_model := $(INC_stats) -Iharness/lib/model
INC_machine := $(INC_model) -Iharness/lib/machine
INC_store := $(INC_machine) -Iharness/lib/store
INC_charts := $(INC_store) -Iharness/lib/charts
INC_judge := $(INC_charts) -Iharness/lib/judge
INC_LIB := $(INC_judge)
INC_BENCHES := $(INC_LIB) -Iharness/benches
INC_SWEEP := $(INC_BENCHES) -Iharness/sweep
INC_AB := $(INC_SWEEP) -Iharness/ab
INC_BISECT := $(INC_AB) -Iharness/bisect
INC_CMDS := $(INC_BISECT) -Iharness/cmd
BENCH_SRCS := $(wildcard harness/benches/*.c)
SWEEP_SRCS := $(wildcard harness/sweep/*.c)
AB_SRCS := $(wildcard harness/ab/*.c)
BISECT_SRCS := $(wildcard harness/bisect/*.c)
CMD_SRCS := $(wildcard harness/cmd/*.c)
BENCH_OBJS := $(patsubst harness/%.c,$(O)/obj/%.o,$(BENCH_SRCS))
SWEEP_OBJS := $(patsubst harness/%.c,$(O)/obj/%.o,$(SWEEP_SRCS))
AB_OBJS := $(patsubst harness/%.c,$(O)/obj/%.o,$(AB_SRCS))
BISECT_OBJS := $(patsubst harness/%.c,$(O)/obj/%.o,$(BISECT_SRCS))
CMD_OBJS := $(patsubst harness/%.c,$(O)/obj/%.o,$(CMD_SRCS))
# highest first, as the linker wants them
LIB_ARCHIVES := $(foreach l,judge charts store machine model stats base,$(O)/libvsb-$(l).a)

.DELETE_ON_ERROR:
.PHONY: all deps test run check clean plots readme-charts seeds layers unit-tests
.PHONY: kmod kmod-clean vm-run FORCE

# ---- kernel module and its VM tests (kmod/, tests/kmod/) ----
KDIR ?= $(wildcard /lib/modules/$(shell uname -r)/build)
KMOD_DEPS := $(wildcard kmod/*.c kmod/*.h kmod/uapi/*.h bench/*.h) kmod/Kbuild
KMOD_TEST_SRCS := $(wildcard tests/kmod/*.c)
KMOD_TEST_BINS := $(patsubst tests/kmod/%.c,$(O)/tests-kmod/%,$(KMOD_TEST_SRCS))

all: $(O)/vmstat-bench unit-tests $(KMOD_TEST_BINS) $(O)/qemu-plugin/vsb-insn.so

# Exact mode's QEMU TCG plugin (qemu-plugin/, docs/exact.md).  Its own
# flags, not CFLAGS: `make check`'s sanitizers have no runtime inside
# QEMU, which loads it.
PLUGIN_SRCS := qemu-plugin/vsb_insn.c qemu-plugin/classify.c qemu-plugin/profile.c
PLUGIN_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -Werror -fPIC -fvisibility=hidden -I.
$(O)/qemu-plugin/vsb-insn.so: $(PLUGIN_SRCS) $(wildcard qemu-plugin/*.h) kmod/uapi/vsb_exact.h
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PLUGIN_CFLAGS) -shared -o $@ $(PLUGIN_SRCS)

# -MMD -MP: each object depends on the headers it includes, no more
DEPFLAGS = -MMD -MP
compile = $(CC) $(CFLAGS) $(DEPFLAGS) $(VSB_CPPFLAGS) $(1) -c -o $@ $<

# one sub-layer of lib/: its objects, their rule, its archive
define lib_layer
$$(O)/obj/lib/$(1)/%.o: harness/lib/$(1)/%.c $$(O)/build-flags
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$$(call compile,$$(INC_$(1)))
$$(O)/libvsb-$(1).a: $$(patsubst harness/%.c,$$(O)/obj/%.o,$$(wildcard harness/lib/$(1)/*.c))
endef
$(foreach l,$(LIB_LAYERS),$(eval $(call lib_layer,$(l))))
# meta.c writes GIT_REV into every result: rebuild it when the revision
# changes, not only when a source does (a stamp rewritten only then), or
# an incremental build goes on saying the revision it was first made at
# stamp FILE,TEXT: FILE holds TEXT, rewritten only when TEXT changed, so
# what depends on it is rebuilt then and only then (make's own $(file):
# the flags hold quotes a shell echo would need escaped; it is expanded
# before the recipe runs, so it makes the folder too)
stamp = $(if $(filter-out $(file <$(1)),$(2))$(filter-out $(2),$(file <$(1))),\
	$(shell mkdir -p $(dir $(1)))$(file >$(1),$(2)))
$(O)/git-rev: FORCE
	$(call stamp,$@,$(GIT_REV))
$(O)/obj/lib/machine/meta.o: $(O)/git-rev
FORCE:
# The configuration an object was compiled in (the compiler, its flags,
# the -DVSB_HAVE_* of what was installed when the Makefile was read; the
# revision aside, git-rev has it): every object and unit test depends on
# this stamp, so a `make` before `make deps` installed likwid or libbpf
# is rebuilt with them, not linked half old and half new (an undefined
# vsb_likwid_api).
BUILD_FLAGS = $(CC) $(filter-out -DVSB_GIT_REV=%,$(CFLAGS)) $(VSB_CPPFLAGS)
$(O)/build-flags: FORCE
	$(call stamp,$@,$(BUILD_FLAGS))
# BPF tracing (lib/machine/bpf/): built where clang/bpftool/libbpf/BTF
# exist, else skipped
include harness/lib/machine/bpf/bpf.mk
# the result store (SQLite, libpq) and the module's check target
-include harness/lib/store/store.mk
include kmod/kmod.mk

$(O)/obj/benches/%.o: harness/benches/%.c $(O)/build-flags
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(call compile,$(INC_BENCHES))

$(O)/obj/sweep/%.o: harness/sweep/%.c $(O)/build-flags
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(call compile,$(INC_SWEEP))

$(O)/obj/ab/%.o: harness/ab/%.c $(O)/build-flags
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(call compile,$(INC_AB))

$(O)/obj/bisect/%.o: harness/bisect/%.c $(O)/build-flags
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(call compile,$(INC_BISECT))

$(O)/obj/%.o: harness/%.c $(O)/build-flags
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(call compile,$(INC_CMDS))

$(O)/libvsb-benches.a: $(BENCH_OBJS)
$(O)/libvsb-sweep.a: $(SWEEP_OBJS)
$(O)/libvsb-ab.a: $(AB_OBJS)
$(O)/libvsb-bisect.a: $(BISECT_OBJS)
$(O)/libvsb-%.a:
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

HARNESS_LIBS := $(O)/libvsb-bisect.a $(O)/libvsb-ab.a $(O)/libvsb-sweep.a $(O)/libvsb-benches.a $(LIB_ARCHIVES)
LINK_HARNESS := $(HARNESS_LIBS)

$(O)/vmstat-bench: $(O)/obj/main.o $(CMD_OBJS) $(HARNESS_LIBS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $(O)/obj/main.o $(CMD_OBJS) $(LINK_HARNESS) $(LDLIBS) $(VSB_LIBS)

# tests/unit/ mirrors the layers, and a test's folder decides what it
# compiles and links with: tests/unit/lib/LAYER/ the headers and archives
# of LAYER and those below only (so a test of the model that pulled in the
# machine, libpfm or a bench would fail to build, which is the point:
# results, statistics, sweep files and compare are data, testable
# anywhere), tests/unit/sweep/ every layer of the harness,
# tests/unit/abi/ and tests/unit/bench/ no harness at all (the module's
# ABI header, bench/'s algorithm on its user-space primitives).  The
# binaries all go to $(O)/tests/, where tests/run.sh finds them.
UNIT_DIRS := abi bench plugin $(addprefix lib/,$(LIB_LAYERS)) sweep
ifneq ($(wildcard tests/unit/*.c),)
$(error $(wildcard tests/unit/*.c): a unit test lives in its layer's folder: tests/unit/lib/LAYER/, sweep/, abi/ or bench/)
endif
# what each folder compiles and links with
UNIT_INC_abi := -I.
UNIT_INC_bench := -I.
UNIT_LINK_abi := $(LDLIBS)
UNIT_LINK_bench := $(LDLIBS)
# tests/unit/plugin/: the TCG plugin's sources, compiled into each test
# with a stand-in for QEMU's side of the API
UNIT_INC_plugin := -I. -Iqemu-plugin
UNIT_LINK_plugin := $(LDLIBS)
UNIT_INC_sweep := $(INC_SWEEP)
UNIT_LINK_sweep := $(LINK_HARNESS) $(LDLIBS) $(VSB_LIBS) $(UNIT_PFM)
# lib/LAYER: the archives of the layers up to LAYER, highest first; the
# libraries of the machine (libpfm, libbpf, likwid) and of the store only
# from the machine up
upto = $(if $(filter $(1),$(firstword $(2))),$(1),$(firstword $(2)) \
	$(call upto,$(1),$(wordlist 2,$(words $(2)),$(2))))
rev = $(if $(1),$(call rev,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
define unit_layer
UNIT_INC_lib/$(1) := $$(INC_$(1))
UNIT_LINK_lib/$(1) := $$(foreach l,$$(call rev,$$(call upto,$(1),$$(LIB_LAYERS))),$$(O)/libvsb-$$(l).a) \
	$$(LDLIBS) $$(if $$(filter base stats model,$(1)),,$$(VSB_LIBS) $$(UNIT_PFM))
endef
$(foreach l,$(LIB_LAYERS),$(eval $(call unit_layer,$(l))))

define unit_dir
UNIT_BINS += $$(patsubst tests/unit/$(1)/%.c,$$(O)/tests/%,$$(wildcard tests/unit/$(1)/test_*.c))
$$(O)/tests/%: tests/unit/$(1)/%.c tests/unit/tap.h $$(HARNESS_LIBS) $$(O)/build-flags
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$$(CC) $$(CFLAGS) $$(DEPFLAGS) $$(VSB_CPPFLAGS) -Itests/unit $$(UNIT_INC_$(1)) \
		-o $$@ $$< $$(UNIT_LINK_$(1))
endef
$(foreach d,$(UNIT_DIRS),$(eval $(call unit_dir,$(d))))
unit-tests: $(UNIT_BINS)

# Helpers the in-guest kmod tests run (fuzzer, concurrency, signals); not
# in $(O)/tests/, whose binaries tests/run.sh runs on the host.  Static,
# so the guest needs no libraries for them.
# Built without the sanitizers of `make check`: they run in the guest.
KMOD_TEST_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -Werror -pthread
# Every header they could include: kmod_stress once stayed built against
# an older bench/kstat_ops.h (not named here then) and failed 4 checks
$(O)/tests-kmod/%: tests/kmod/%.c $(wildcard kmod/uapi/*.h bench/*.h)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(KMOD_TEST_CFLAGS) -static -o $@ $< -pthread

kmod: kmod/vmstat_bench.ko

kmod/vmstat_bench.ko: $(KMOD_DEPS)
	$(call msg,KMOD,$@)
	$(Q)KDIR=$(KDIR) ci/kmod-build.sh $(if $(filter 1,$(V)),V=1,-s) modules

kmod-clean:
	$(Q)rm -f kmod/*.o kmod/*.ko kmod/*.mod kmod/*.mod.c kmod/.*.cmd \
		kmod/Module.symvers kmod/modules.order

vm-run: all
	$(Q)VSB_BUILD_DIR=$(O) ci/kmod-run.sh $(VM_OPTS) -- '$(subst ','\'',$(value CMD))'

deps:
	$(Q)ci/deps.sh

# deps first, then a fresh make: the BPF and likwid checks above are read
# when the Makefile is parsed, before `deps` could install their packages.
# The build uses every CPU (a clean one: 35 s alone, 24 s on 2 vCPUs);
# the tests after it share them out themselves (tests/run.sh).
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	$(Q)VSB_BUILD_DIR=$(O) tests/run.sh

layers: all
	$(Q)VSB_BUILD_DIR=$(O) VSB_TESTS=test_layers tests/run.sh

run: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	$(Q)VSB_BUILD_DIR=$(O) ci/run-default.sh

check: deps kmod-check
	$(call msg,CPPCHECK,harness bench)
	$(Q)cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability \
		--inline-suppr --suppress=missingIncludeSystem -Ibench \
		$(INC_LIB) -Iharness/benches -Iharness/sweep -Iharness/ab -Iharness/bisect \
		harness bench tests/unit -Itests/unit
	$(Q)$(MAKE) --no-print-directory O=build-san BUILD_TYPE=sanitize \
		CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
		LDLIBS='-pthread -lm -fsanitize=address,undefined' all
ifneq ($(wildcard /usr/include/likwid.h),)
	$(call msg,LIKWID,$(O)/likwid-marker)
	$(Q)$(CHECK_LIKWID)
endif
	$(Q)VSB_BUILD_DIR=build-san VSB_SKIP_VM=1 tests/run.sh

# `make check`'s marker build: the binary only, into its own folder (so
# the regular objects are not rebuilt), then proof the marker calls are
# linked in and that a short run with them exits 0.
CHECK_LIKWID = $(MAKE) --no-print-directory O=$(O)/likwid-marker LIKWID=1 \
		$(O)/likwid-marker/vmstat-bench && \
	{ nm -D $(O)/likwid-marker/vmstat-bench | grep -q likwid_markerStartRegion || \
	  { echo "LIKWID=1: no likwid marker calls in the binary" >&2; false; }; } && \
	{ $(O)/likwid-marker/vmstat-bench run --bench counter --loops 1000 --repeat 1 \
		--warmup 0 --events none >/dev/null 2>$(O)/likwid-marker/run.err || \
	  { cat $(O)/likwid-marker/run.err >&2; false; }; }

# Regenerate the charts of the README and docs (docs/charts/*.png) from
# real runs here
readme-charts: all
	$(Q)VSB=$(abspath $(O))/vmstat-bench ci/readme-charts.sh

# Remake docs/seeds.md: every headline figure of the seeds' threads beside
# this suite's (ci/seeds: resumable, under 30 min; SEEDS_ARGS=--quick for
# small sizes on the host only)
seeds: all
	$(Q)VSB_BUILD_DIR=$(O) ci/seeds $(SEEDS_ARGS)

# Charts of a results folder (a sweep, a comparison): make plots RESULTS=DIR
plots: all
	$(Q)test -n "$(RESULTS)" || { echo "usage: make plots RESULTS=DIR [PLOTS_OUT=DIR]" >&2; exit 2; }
	$(Q)$(O)/vmstat-bench plot $(RESULTS) $(if $(PLOTS_OUT),-o $(PLOTS_OUT))

clean: kmod-clean
	$(call msg,CLEAN,$(O))
	$(Q)rm -rf $(O) build-san

-include $(wildcard $(O)/obj/*.d $(O)/obj/*/*.d $(O)/obj/*/*/*.d $(O)/obj/*/*/*/*.d \
	$(O)/tests/*.d)
