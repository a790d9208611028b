// SPDX-License-Identifier: GPL-2.0
/*
 * What `vmstat-bench history` works on: the store's points that --where
 * selects, each one's series on the --machine asked for (or every
 * machine), built into histories (history.c) and labelled by what tells
 * the selected points apart; then every (point, machine) series in one
 * flat list, each with its folder under -o DIR.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "history.h"
#include "plot.h"
#include "store.h"

/* Every --where key must be some stored point's parameter. */
static int check_where(const struct vsb_hist_opts *o, const struct vsb_hist_set *h)
{
	size_t i, j;

	for (i = 0; i < o->nwhere; i++) {
		for (j = 0; j < h->npts; j++)
			if (vsb_store_point_param(&h->pts[j], o->wkey[i]))
				break;
		if (j == h->npts) {
			vsb_err("history: --where: no stored point has a parameter '%s' "
				"(see db list --points)", o->wkey[i]);
			return VSB_EXIT_USAGE;
		}
	}
	return 0;
}

/* Each key given must match one of its values. */
static int where_match(const struct vsb_hist_opts *o, const struct vsb_store_point *p)
{
	size_t i, j;

	for (i = 0; i < o->nwhere; i++) {
		int any = 0, hit = 0;

		for (j = 0; j < o->nwhere; j++) {
			const char *val;

			if (strcmp(o->wkey[j], o->wkey[i]))
				continue;
			any = 1;
			val = vsb_store_point_param(p, o->wkey[j]);
			if (val && !strcmp(val, o->wval[j]))
				hit = 1;
		}
		if (any && !hit)
			return 0;
	}
	return 1;
}

/* --machine: an exact fingerprint or a unique prefix. */
static int resolve_machine(struct vsb_store *s, const char *want, char *fp, size_t len)
{
	struct vsb_store_machine *ms;
	size_t n, i, hits = 0;
	int ret = vsb_store_machines(s, &ms, &n);

	for (i = 0; !ret && i < n; i++) {
		if (!strcmp(ms[i].fingerprint, want)) {
			hits = 1;
			snprintf(fp, len, "%s", ms[i].fingerprint);
			break;
		}
		if (!strncmp(ms[i].fingerprint, want, strlen(want)) && !hits++)
			snprintf(fp, len, "%s", ms[i].fingerprint);
	}
	free(ms);
	if (!ret && hits != 1) {
		vsb_err("history: --machine '%s': %s (see db list)", want,
			hits ? "ambiguous prefix" : "no such machine");
		ret = VSB_EXIT_USAGE;
	}
	return ret;
}


/* Does @name's value differ between the selected points? */
static int varies(const struct vsb_hist_set *h, const char *name, const char *val)
{
	size_t i;

	for (i = 0; i < h->nsel; i++) {
		const char *other = vsb_store_point_param(h->sel[i].point, name);

		if (!other || strcmp(other, val))
			return 1;
	}
	return 0;
}

/*
 * A short name for each selected point: bench and variant, the CPUs,
 * and every parameter whose value differs between the selected points
 * (the full key is long: every option of the option table).
 */
static void make_labels(struct vsb_hist_set *h)
{
	size_t i, k;

	for (i = 0; i < h->nsel; i++) {
		const struct vsb_store_point *p = h->sel[i].point;
		char lab[1024] = "";
		size_t len = 0;

		for (k = 0; k < p->n && len < sizeof(lab) - 1; k++) {
			const char *key = p->name[k], *val = p->val[k];
			int plain = !strcmp(key, "bench") || !strcmp(key, "variant");

			if (!plain && strcmp(key, "cpus") && !varies(h, key, val))
				continue;
			len += (size_t)snprintf(lab + len, sizeof(lab) - len, "%s%s%s%s",
						len ? " " : "", plain ? "" : key,
						plain ? "" : "=", val);
		}
		h->sel[i].label = strdup(len ? lab : h->sel[i].se->point_key);
	}
}

/*
 * Point @p's series, if one unit a machine, into a new selected point
 * of @h with its histories; 0 or VSB_EXIT_*.
 */
static int select_point(struct vsb_store *s, const struct vsb_hist_opts *o,
			struct vsb_hist_set *h, const struct vsb_store_point *p)
{
	struct vsb_hist_point *sp;
	const char *u1, *u2;
	struct vsb_series se;
	int ret;

	ret = vsb_store_series(s, p->key, h->machine[0] ? h->machine : NULL, &se);
	if (ret)
		return ret;
	if (vsb_hist_mixed_units(&se, &u1, &u2)) {
		vsb_err("history: point %s: mixed units on one machine (%s and %s): refusing to "
			"chart or judge them as one series", se.point_key, u1, u2);
		vsb_series_free(&se);
		return VSB_EXIT_USAGE;
	}
	h->sel = vsb_grow(h->sel, h->nsel, &h->cap, sizeof(*h->sel));
	sp = &h->sel[h->nsel++];
	memset(sp, 0, sizeof(*sp));
	sp->point = p;
	/* an allocation of its own: the histories point into it, h->sel moves */
	sp->se = vsb_zalloc(sizeof(se));
	*sp->se = se;
	ret = vsb_hist_build(sp->se, o->by, &sp->hs, &sp->nhs);
	if (ret) {
		vsb_err("history: point %s: %s", se.point_key, strerror(-ret));
		return VSB_EXIT_ERROR;
	}
	return 0;
}

/* Read the selected points' series and build their histories. */
static int load_series(struct vsb_store *s, const struct vsb_hist_opts *o,
		       struct vsb_hist_set *h)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < h->npts && !ret; i++)
		if (where_match(o, &h->pts[i]))
			ret = select_point(s, o, h, &h->pts[i]);
	return ret;
}

int vsb_hist_load(const struct vsb_hist_opts *o, struct vsb_hist_set *h)
{
	struct vsb_store *s;
	size_t i, n = 0;
	int ret = vsb_store_open(o->url, VSB_STORE_READ, &s);

	if (ret)
		return ret;
	ret = vsb_store_points(s, &h->pts, &h->npts);
	if (!ret && !h->npts) {
		vsb_err("history: %s holds no runs (vmstat-bench db import first)",
			vsb_store_url(o->url));
		ret = VSB_EXIT_USAGE;
	}
	ret = ret ?: check_where(o, h);
	if (!ret && o->machine)
		ret = resolve_machine(s, o->machine, h->machine, sizeof(h->machine));
	ret = ret ?: load_series(s, o, h);
	vsb_store_close(s);
	for (i = 0; i < h->nsel; i++)
		n += h->sel[i].nhs;
	if (!ret && !n) {
		vsb_err("history: no stored run matches the --where and --machine given");
		ret = VSB_EXIT_USAGE;
	}
	if (!ret)
		make_labels(h);
	return ret;
}

void vsb_hist_set_free(struct vsb_hist_set *h)
{
	size_t i;

	for (i = 0; i < h->nsel; i++) {
		vsb_hist_free(h->sel[i].hs, h->sel[i].nhs);
		vsb_series_free(h->sel[i].se);
		free(h->sel[i].se);
		free(h->sel[i].label);
	}
	free(h->sel);
	vsb_store_points_free(h->pts, h->npts);
}

/* "NN-label[_machine]" with file-name-safe characters only */
static void series_dir(struct vsb_hist_out *os, size_t i, int machines)
{
	size_t k = (size_t)snprintf(os->dir, sizeof(os->dir), "%02zu-", i + 1);
	const char *s;

	for (s = os->label; *s && k < 96; s++) {
		char c = *s;

		os->dir[k++] = isalnum((unsigned char)c) || c == '-' || c == '.' ? c :
			       c == '=' ? '-' : '_';
	}
	if (machines)
		k += (size_t)snprintf(os->dir + k, sizeof(os->dir) - k, "_%.10s",
				      os->hs->machine);
	os->dir[k] = '\0';
}

struct vsb_hist_out *vsb_hist_flatten(const struct vsb_hist_set *h, size_t *n)
{
	struct vsb_hist_out *os = NULL;
	int machines = 0, charts = vsb_have_gnuplot();
	size_t i, j, m = 0, cap = 0;

	for (i = 0; i < h->nsel; i++)
		for (j = 0; j < h->sel[i].nhs; j++) {
			os = vsb_grow(os, m, &cap, sizeof(*os));
			memset(&os[m], 0, sizeof(*os));
			os[m].hs = &h->sel[i].hs[j];
			os[m].label = h->sel[i].label;
			os[m].has_chart = charts;
			machines |= strcmp(os[m].hs->machine, os[0].hs->machine) != 0;
			m++;
		}
	for (i = 0; i < m; i++)
		series_dir(&os[i], i, machines);
	*n = m;
	return os;
}
