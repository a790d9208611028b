// SPDX-License-Identifier: GPL-2.0
/*
 * What `history` needs from the store beyond a point's series
 * (vsb_store_series): the stored points with their parameters, for
 * --where, and the machines, for --machine.  Written with the store's
 * backend operations (store_be.h), so it runs on SQLite and PostgreSQL
 * alike, and kept out of the store's own files, which another part owns.
 */
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "store_be.h"
#include "history.h"

static char *dup_or_die(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	return d;
}

int vsb_hist_points(struct vsb_store *s, struct vsb_hist_point **pts, size_t *n)
{
	const struct vsb_store_ops *o = s->ops;
	struct vsb_hist_point *p = NULL;
	struct vsb_stmt *st;
	size_t cap = 0;
	int rc;

	*pts = NULL;
	*n = 0;
	if (vsb_store_prepare(s, "reading the points",
			      "SELECT key, params FROM point ORDER BY id", &st))
		return VSB_EXIT_ERROR;
	while ((rc = o->step(st)) == 1) {
		if (*n == cap) {
			cap = 2 * cap + 16;
			p = realloc(p, cap * sizeof(*p));
			if (!p) {
				vsb_err("out of memory");
				exit(VSB_EXIT_ERROR);
			}
		}
		p[*n].key = dup_or_die(o->col_text(st, 0));
		p[*n].params = dup_or_die(o->col_text(st, 1));
		(*n)++;
	}
	if (rc < 0)
		vsb_store_fail(s, "reading the points");
	o->finalize(st);
	*pts = p;
	return rc < 0 ? VSB_EXIT_ERROR : 0;
}

void vsb_hist_points_free(struct vsb_hist_point *pts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(pts[i].key);
		free(pts[i].params);
	}
	free(pts);
}

int vsb_hist_machines(struct vsb_store *s, struct vsb_hist_machine **ms, size_t *n)
{
	const struct vsb_store_ops *o = s->ops;
	struct vsb_hist_machine *m = NULL;
	struct vsb_stmt *st;
	int rc;

	*ms = NULL;
	*n = 0;
	if (vsb_store_prepare(s, "reading the machines",
			      "SELECT fingerprint, cpu_model FROM machine ORDER BY id", &st))
		return VSB_EXIT_ERROR;
	while ((rc = o->step(st)) == 1) {
		m = realloc(m, (*n + 1) * sizeof(*m));
		if (!m) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
		snprintf(m[*n].fingerprint, sizeof(m->fingerprint), "%s", o->col_text(st, 0));
		snprintf(m[*n].cpu_model, sizeof(m->cpu_model), "%s", o->col_text(st, 1));
		(*n)++;
	}
	if (rc < 0)
		vsb_store_fail(s, "reading the machines");
	o->finalize(st);
	*ms = m;
	return rc < 0 ? VSB_EXIT_ERROR : 0;
}

/*
 * One JSON string at *p (its opening quote) into @out (truncated to
 * @len), *p moved past it.  Only what the store writes (vsb_json_str):
 * \" \\ and \u00XX escapes of control characters; -1 otherwise.
 */
static int json_string(const char **p, char *out, size_t len)
{
	const char *s = *p;
	size_t k = 0;

	if (*s++ != '"')
		return -1;
	for (; *s && *s != '"'; s++) {
		char c = *s;
		unsigned int u;

		if (c == '\\') {
			c = *++s;
			if (c == 'u') {
				if (sscanf(s + 1, "%4x", &u) != 1)
					return -1;
				c = (char)u;
				s += 4;
			} else if (c != '"' && c != '\\' && c != '/') {
				return -1;
			}
		}
		if (k + 1 < len)
			out[k++] = c;
	}
	if (len)
		out[k] = '\0';
	if (*s != '"')
		return -1;
	*p = s + 1;
	return 0;
}

int vsb_hist_param_next(const char **pos, char *key, size_t klen, char *val,
			size_t vlen)
{
	const char *p = *pos;

	if (!p)
		return -1;
	if (*p == '{')
		p++;
	p += strspn(p, " \t\n,");
	if (*p == '}')
		return 0;
	if (json_string(&p, key, klen))
		return -1;
	p += strspn(p, " \t\n");
	if (*p++ != ':')
		return -1;
	p += strspn(p, " \t\n");
	if (json_string(&p, val, vlen))
		return -1;
	*pos = p;
	return 1;
}

int vsb_hist_param(const char *params, const char *name, char *val, size_t len)
{
	const char *p = strchr(params, '{');
	char key[256];
	int rc;

	while ((rc = vsb_hist_param_next(&p, key, sizeof(key), val, len)) == 1)
		if (!strcmp(key, name))
			return 1;
	return rc;
}
