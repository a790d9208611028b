/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpq, loaded on first use (pq_api.c), as likwid is (likwid_api.h).
 *
 * Linked at build time, libpq brought 21 of the binary's 31 shared
 * libraries (OpenSSL, GnuTLS, Kerberos, LDAP, SASL and theirs), and
 * every start paid for mapping and relocating them: an empty program
 * linked like the harness started in 21 ms of CPU here, 10 ms without
 * libpq.  Every exit-2 refusal, every --help and every sweep worker
 * process paid it, and only `db` and `--db postgresql://` use it.
 */
#ifndef VSB_PQ_API_H
#define VSB_PQ_API_H

#ifdef VSB_HAVE_PG
#include <stddef.h>
#include <libpq-fe.h>

/* the libpq functions store_pg.c calls */
#define VSB_PQ_FUNCS(X) \
	X(PQconninfoParse) X(PQconninfoFree) X(PQfreemem) X(PQconnectdb) \
	X(PQstatus) X(PQerrorMessage) X(PQfinish) X(PQsetNoticeProcessor) \
	X(PQexec) X(PQresultStatus) X(PQresultErrorMessage) X(PQclear) \
	X(PQprepare) X(PQexecPrepared) X(PQntuples) X(PQgetisnull) \
	X(PQgetvalue) X(PQputCopyData) X(PQputCopyEnd) X(PQgetResult)

/* each member has its function's own type, from libpq-fe.h */
struct vsb_pq_api {
#define VSB_PQ_MEMBER(f) __typeof__(f) *f;
	VSB_PQ_FUNCS(VSB_PQ_MEMBER)
#undef VSB_PQ_MEMBER
};

/*
 * The API, loaded once per process; NULL when libpq cannot be loaded,
 * with why in @why (dlerror()'s text, or the missing symbol).
 */
const struct vsb_pq_api *vsb_pq_api(char *why, size_t len);
#endif

#endif
