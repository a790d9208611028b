# SPDX-License-Identifier: GPL-2.0
#
# The result store (harness/lib/store/): included by the top Makefile
# after the BPF fragment.  SQLite (the default store) and libpq
# (PostgreSQL stores) are each linked when their header is installed;
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
VSB_CPPFLAGS += -DVSB_HAVE_PG -I$(PG_INCDIR)
VSB_LIBS += -lpq
else
STORE_MISSING += libpq-dev
endif

ifneq ($(strip $(STORE_MISSING)),)
$(info result store: built without $(strip $(STORE_MISSING)) (`make deps` installs it; `db` commands needing it will skip))
endif
