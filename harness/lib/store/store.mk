# SPDX-License-Identifier: GPL-2.0
#
# The result store (harness/lib/store/): included by the top Makefile
# after the BPF fragment.  SQLite (the default store) is linked and libpq
# (PostgreSQL stores) loaded on first use, each when its header is installed;
# without one the rest builds anyway, one line says what is missing,
# and `db` commands that need it skip (exit 4) saying the same.

PG_INCDIR := $(or $(shell pg_config --includedir 2>/dev/null),/usr/include/postgresql)

STORE_MISSING :=
ifneq ($(wildcard /usr/include/sqlite3.h),)
VSB_CPPFLAGS += -DVSB_HAVE_SQLITE
VSB_LIBS += -lsqlite3
else
STORE_MISSING += libsqlite3-dev
endif
ifneq ($(wildcard $(PG_INCDIR)/libpq-fe.h),)
# libpq is loaded with dlopen() on first use, not linked (pq_api.h:
# linked, its 21 libraries cost every start 11 ms); the soname is the one
# of the library beside this header
PQ_SONAME := $(shell readelf -d $$($(CC) -print-file-name=libpq.so) 2>/dev/null | \
	sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
VSB_CPPFLAGS += -DVSB_HAVE_PG -I$(PG_INCDIR) -DVSB_PQ_SONAME='"$(or $(PQ_SONAME),libpq.so.5)"'
else
STORE_MISSING += libpq-dev
endif

ifneq ($(strip $(STORE_MISSING)),)
$(info result store: built without $(strip $(STORE_MISSING)) (`make deps` installs it; `db` commands needing it will skip))
endif
