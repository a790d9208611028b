# SPDX-License-Identifier: GPL-2.0
#
# vmstat-bench: one entry point.
#
#   make deps     install what is missing (Debian packages, idempotent)
#   make          build the harness (build/vmstat-bench)
#   make test     deps + build + every test; ends with "N passed, N failed"
#   make run      deps + build + the default sweep, table on stdout, CSV in results/
#   make check    cppcheck + an ASan/UBSan build of the harness running the tests
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

GIT_REV := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
BUILD_TYPE ?= release
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -pthread -fno-strict-aliasing \
	  -DVSB_GIT_REV='"$(GIT_REV)"' -DVSB_BUILD='"$(BUILD_TYPE)"'
LDLIBS += -pthread -lm

HARNESS_SRCS := $(filter-out harness/main.c,$(wildcard harness/*.c))
HARNESS_OBJS := $(patsubst harness/%.c,$(O)/obj/%.o,$(HARNESS_SRCS))
HEADERS := $(wildcard harness/*.h bench/*.h kmod/uapi/*.h)
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRCS))

.DELETE_ON_ERROR:
.PHONY: all deps test run check clean

all: $(O)/vmstat-bench $(UNIT_BINS)

$(O)/obj/%.o: harness/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(O)/libvsb.a: $(HARNESS_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(O)/vmstat-bench: $(O)/obj/main.o $(O)/libvsb.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(O)/tests/%: tests/unit/%.c tests/unit/tap.h $(O)/libvsb.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -Iharness -o $@ $< $(O)/libvsb.a $(LDLIBS)

deps:
	$(Q)ci/deps.sh

test: deps all
	$(Q)VSB_BUILD_DIR=$(O) tests/run.sh

run: deps all
	$(Q)VSB_BUILD_DIR=$(O) ci/run-default.sh

check: deps
	$(call msg,CPPCHECK,harness bench)
	$(Q)cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability \
		--inline-suppr --suppress=missingIncludeSystem -Iharness -Ibench \
		harness bench tests/unit
	$(Q)$(MAKE) --no-print-directory O=build-san BUILD_TYPE=sanitize \
		CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
		LDLIBS='-pthread -lm -fsanitize=address,undefined' all
	$(Q)VSB_BUILD_DIR=build-san VSB_QUICK=1 tests/run.sh

clean:
	$(call msg,CLEAN,$(O))
	$(Q)rm -rf $(O) build-san
