// SPDX-License-Identifier: GPL-2.0
/*
 * Sweep files: parse the lines, expand the blocks' axes into points and
 * hand each point to the runner's check (see sweepfile.h).
 *
 * Everything a user can get wrong in a file is reported before the
 * first point runs, as one "file:line: what" line, because a typo found
 * an hour into a sweep is an hour lost.  The keys are the rows of
 * vsb_run_opt_table flagged VSB_OPTF_SWEEP, so new run options become
 * sweep keys without touching this file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "result_load.h"
#include "hash.h"
#include "sweepfile.h"
#include "sysctl_spec.h"

#define SWEEP_MAX_BYTES (1u << 20)

/* ---- parsing ---- */

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

static void axis_add(struct vsb_sweep_axis *ax, const char *v)
{
	ax->vals = realloc(ax->vals, (ax->nvals + 1) * sizeof(*ax->vals));
	if (!ax->vals) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	ax->vals[ax->nvals++] = strdup(v);
}

/* An integer range "A-B" (A may be negative); 1 if @tok is one. */
static int parse_range(const char *tok, long *a, long *b)
{
	char buf[64];
	char *dash;

	if (strlen(tok) >= sizeof(buf))
		return 0;
	strcpy(buf, tok);
	dash = strchr(buf + 1, '-');
	if (!dash)
		return 0;
	*dash = '\0';
	return !vsb_parse_long(buf, a) && !vsb_parse_long(dash + 1, b);
}

/* Split, expand ranges, check each value alone; the error names file:line. */
static int parse_values(const struct vsb_opt *opt, char *val, const char *where,
			struct vsb_sweep_axis *ax)
{
	const char sep = opt->kind == VSB_OPT_CPUS || (opt->flags & VSB_OPTF_BAR) ? '|' : ',';
	static struct vsb_run_opts scratch;
	char *tok = val, *next, full[300];
	size_t i, j;
	long a, b, v;
	int ret;

	for (; tok; tok = next) {
		next = strchr(tok, sep);
		if (next)
			*next++ = '\0';
		tok = trim(tok);
		if (!*tok) {
			vsb_err("%s: empty value in the list (values are separated by '%c')",
				where, sep);
			return VSB_EXIT_USAGE;
		}
		/* sysctl.c: "sysctl vm.numa_stat=0,1" lists values of one sysctl */
		if (!strcmp(opt->name, "sysctl"))
			tok = vsb_sysctl_axis_token(val, tok, full, sizeof(full));
		if (opt->kind == VSB_OPT_LONG && vsb_parse_long(tok, &v) &&
		    parse_range(tok, &a, &b)) {
			char num[32];

			if (a > b || b - a >= VSB_SWEEP_MAX_RANGE) {
				vsb_err("%s: range %s must go upwards and hold at most %d values",
					where, tok, VSB_SWEEP_MAX_RANGE);
				return VSB_EXIT_USAGE;
			}
			for (v = a; v <= b; v++) {
				snprintf(num, sizeof(num), "%ld", v);
				ret = vsb_opt_set(&scratch, opt, num, where);
				if (ret)
					return ret;
				axis_add(ax, num);
			}
			continue;
		}
		ret = vsb_opt_set(&scratch, opt, tok, where);
		if (ret)
			return ret;
		axis_add(ax, tok);
	}
	for (i = 0; i < ax->nvals; i++)
		for (j = i + 1; j < ax->nvals; j++)
			if (!strcmp(ax->vals[i], ax->vals[j])) {
				vsb_err("%s: value '%s' is listed twice", where, ax->vals[i]);
				return VSB_EXIT_USAGE;
			}
	return 0;
}

static struct vsb_sweep_block *block_add(struct vsb_sweep *sw, const char *label,
					 int line)
{
	struct vsb_sweep_block *b;

	sw->blocks = realloc(sw->blocks, (sw->nblocks + 1) * sizeof(*sw->blocks));
	if (!sw->blocks) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	b = &sw->blocks[sw->nblocks++];
	memset(b, 0, sizeof(*b));
	snprintf(b->label, sizeof(b->label), "%s", label);
	b->line = line;
	return b;
}

static int label_ok(const char *s)
{
	if (!*s || strlen(s) > 63)
		return 0;
	for (; *s; s++)
		if (!(*s == '-' || *s == '_' || *s == '.' || (*s >= '0' && *s <= '9') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return 0;
	return 1;
}

static void sweep_keys(char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < vsb_run_opt_count && off < len; i++)
		if (vsb_run_opt_table[i].flags & VSB_OPTF_SWEEP)
			off += snprintf(buf + off, len - off, "%s%s", off ? " " : "",
					vsb_run_opt_table[i].name);
}

/* One non-empty, comment-free line into the current block. */
static int parse_line(struct vsb_sweep *sw, struct vsb_sweep_block *blk,
		      const char *path, int lineno, char *s)
{
	char where[4096 + 96], keys[512];
	const struct vsb_opt *opt;
	struct vsb_sweep_axis *ax;
	char *key = s, *val;
	size_t i;

	val = key + strcspn(key, " \t");
	if (*val)
		*val++ = '\0';
	val = trim(val);
	if (key[0] == '-') {
		vsb_err("%s:%d: write '%s' without the leading dashes", path, lineno,
			key + strspn(key, "-"));
		return VSB_EXIT_USAGE;
	}
	if (!*val) {
		vsb_err("%s:%d: '%s' has no value", path, lineno, key);
		return VSB_EXIT_USAGE;
	}
	if (!strcmp(key, "name")) {
		if (blk->label[0] || sw->nblocks > 1 || sw->name[0] || !label_ok(val)) {
			vsb_err("%s:%d: 'name' comes once, before any [block], and is "
				"letters, digits, '-', '_', '.' (at most 63)", path, lineno);
			return VSB_EXIT_USAGE;
		}
		strcpy(sw->name, val);
		return 0;
	}
	opt = vsb_opt_find(key);
	if (!opt || !(opt->flags & VSB_OPTF_SWEEP)) {
		sweep_keys(keys, sizeof(keys));
		if (opt)
			vsb_err("%s:%d: '%s' cannot be set in a sweep file (sweep keys: name %s)",
				path, lineno, key, keys);
		else
			vsb_err("%s:%d: unknown key '%s' (sweep keys: name %s)", path,
				lineno, key, keys);
		return VSB_EXIT_USAGE;
	}
	for (i = 0; i < blk->naxes; i++)
		if (blk->axes[i].opt == opt - vsb_run_opt_table) {
			vsb_err("%s:%d: '%s' is set twice (first on line %d); list all "
				"its values on one line", path, lineno, key,
				blk->axes[i].line);
			return VSB_EXIT_USAGE;
		}
	blk->axes = realloc(blk->axes, (blk->naxes + 1) * sizeof(*blk->axes));
	if (!blk->axes) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	ax = &blk->axes[blk->naxes++];
	memset(ax, 0, sizeof(*ax));
	ax->opt = (int)(opt - vsb_run_opt_table);
	ax->line = lineno;
	snprintf(where, sizeof(where), "%s:%d: %s", path, lineno, key);
	return parse_values(opt, val, where, ax);
}

static int check_bytes(const char *path, const char *buf, size_t len)
{
	size_t i;
	int line = 1, col = 0;

	if (!len) {
		vsb_err("%s:1: empty sweep file (no options)", path);
		return VSB_EXIT_USAGE;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\n') {
			line++;
			col = 0;
			continue;
		}
		if (++col > VSB_SWEEP_LINE_MAX) {
			vsb_err("%s:%d: line longer than %d characters", path, line,
				VSB_SWEEP_LINE_MAX);
			return VSB_EXIT_USAGE;
		}
		if (c == 0 || (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
			vsb_err("%s:%d: binary data (byte 0x%02x): not a sweep file",
				path, line, c);
			return VSB_EXIT_USAGE;
		}
	}
	return 0;
}

/* ---- expansion ---- */

static uint32_t fnv1a(uint32_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

/* Keep letters, digits and '.' '-'; everything else becomes '_'. */
static void sanitize(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++) {
		char c = src[i];

		dst[i] = ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			  (c >= 'A' && c <= 'Z') || c == '.' || c == '-') ? c :
			 c == ',' ? '+' : '_';
	}
	dst[i] = '\0';
}

/*
 * A point's id: its axis values, readable, then a hash of every sweep
 * option's value so that editing a constant (loops, warmup) in the file
 * gives new ids and --resume never reuses a result made differently.
 * repeat is left out of the hash: more repetitions are the same point.
 */
void vsb_sweep_opt_value(const struct vsb_run_opts *o, const struct vsb_opt *opt,
			 char *v, size_t len)
{
	if (!strcmp(opt->name, "cpus") && o->cpus.n)
		vsb_cpulist_format(&o->cpus, v, len, ',');
	else
		vsb_opt_format(o, opt, v, len);
}

static void point_id(struct vsb_sweep_point *p, const struct vsb_sweep_block *blk,
		     const struct vsb_sweep_axis **axes, size_t naxes)
{
	char readable[160] = "", v[256], kv[300];
	size_t i, off = 0, poff = 0;
	uint32_t h = 2166136261u;

	if (blk->label[0]) {
		off += snprintf(readable + off, sizeof(readable) - off, "%s", blk->label);
		poff += snprintf(p->params + poff, sizeof(p->params) - poff,
				 "block=%s", blk->label);
	}
	for (i = 0; i < naxes; i++) {
		const struct vsb_opt *opt = &vsb_run_opt_table[axes[i]->opt];

		if (axes[i]->nvals < 2)
			continue;	/* constants go in the hash only */
		vsb_sweep_opt_value(&p->opts, opt, v, sizeof(v));
		if (off < sizeof(readable))
			off += snprintf(readable + off, sizeof(readable) - off, "%s%s-%s",
					off ? "_" : "", opt->name, v);
		if (poff < sizeof(p->params))
			poff += snprintf(p->params + poff, sizeof(p->params) - poff,
					 "%s%s=%s", poff ? " " : "", opt->name, v);
	}
	for (i = 0; i < vsb_run_opt_count; i++) {
		const struct vsb_opt *opt = &vsb_run_opt_table[i];

		if (!(opt->flags & VSB_OPTF_SWEEP) || !strcmp(opt->name, "repeat"))
			continue;
		vsb_sweep_opt_value(&p->opts, opt, v, sizeof(v));
		if (!vsb_opt_hashed(opt, v))
			continue;
		snprintf(kv, sizeof(kv), "%s=%s;", opt->name, v);
		h = fnv1a(h, kv);
	}
	sanitize(readable, sizeof(readable), readable);
	snprintf(p->id, sizeof(p->id), "%s%s%08x", readable, readable[0] ? "-" : "p",
		 h);
}

/*
 * ncpus N asks for N CPUs; a file meant for big machines should still
 * run on a laptop, so points asking for more than are online are left
 * out (and counted in the summary), never failed.
 */
static int wants_too_many_cpus(const struct vsb_run_opts *o)
{
	const struct vsb_opt *opt = vsb_opt_find("ncpus");
	long online = sysconf(_SC_NPROCESSORS_ONLN), n;
	char v[64];

	if (!opt || !vsb_opt_given(o, opt->name))
		return 0;
	vsb_opt_format(o, opt, v, sizeof(v));
	return !vsb_parse_long(v, &n) && online > 0 && n > online;
}

/* the last warning the option checks gave while parsing, said once */
static char last_parse_warning[1024];

static int add_point(struct vsb_sweep *sw, const struct vsb_sweep_block *blk,
		     const struct vsb_sweep_axis **axes, size_t naxes,
		     const size_t *idx, const char *path)
{
	struct vsb_sweep_point *p;
	struct vsb_errlog log;
	char where[64];
	const char *msg = log.text;
	int ret, line = blk->line ? blk->line : (naxes ? axes[0]->line : 1);
	size_t i;

	/* sized by count_points() before the first point: never more */
	p = &sw->points[sw->npoints];
	memset(p, 0, sizeof(*p));
	vsb_run_opts_defaults(&p->opts);
	for (i = 0; i < naxes; i++) {
		const struct vsb_opt *opt = &vsb_run_opt_table[axes[i]->opt];

		snprintf(where, sizeof(where), "line %d", axes[i]->line);
		vsb_opt_set(&p->opts, opt, axes[i]->vals[idx[i]], where); /* checked */
	}
	if (wants_too_many_cpus(&p->opts)) {
		sw->ndropped++;
		return 0;
	}
	vsb_errlog_begin(&log);
	ret = sw->check ? sw->check(&p->opts) : 0;
	vsb_errlog_end(&log);
	if (ret == VSB_EXIT_SKIP) {
		/*
		 * What the checks skip (exit 4: a sysctl without root,
		 * --trace without BPF, THP off, a guest of another shape) is
		 * listed as skipped with the reason, and the rest of the
		 * sweep runs.  A refusal (exit 2: an unknown --op, a
		 * threshold on an op that has none) is the sweep's, module
		 * points too: skipping it let a typo run every other point
		 * and an ab boot every guest to judge nothing.  A missing
		 * module is found when the point runs, and skips it there.
		 */
		p->line = line;
		p->reps = p->opts.repeat;
		p->file_hash = sw->file_hash;
		point_id(p, blk, axes, naxes);
		p->state = VSB_PT_SKIPPED;
		p->status = VSB_EXIT_SKIP;
		snprintf(p->err, sizeof(p->err), "%.500s", msg);
		sw->npoints++;
		return 0;
	}
	/* point at the line of the option the refusal (or warning) is about */
	for (i = 0; log.opt[0] && i < naxes; i++)
		if (!strcmp(vsb_run_opt_table[axes[i]->opt].name, log.opt))
			line = axes[i]->line;
	if (ret) {
		point_id(p, blk, axes, naxes);
		vsb_err("%s:%d: point %s: %s", path, line,
			p->params[0] ? p->params : "(the only one)", msg);
		return ret;
	}
	if (msg[0] && strcmp(msg, last_parse_warning)) {
		/* a warning of the checks (not an error): once, not per point */
		snprintf(last_parse_warning, sizeof(last_parse_warning), "%s", msg);
		vsb_warn("%s:%d: %s", path, line,
			 !strncmp(msg, "warning: ", 9) ? msg + 9 : msg);
	}
	p->line = line;
	p->reps = p->opts.repeat;
	p->file_hash = sw->file_hash;
	point_id(p, blk, axes, naxes);
	/* rules such as "atomic-global has no threshold" can merge points */
	for (i = 0; i < sw->npoints; i++)
		if (!strcmp(sw->points[i].id, p->id))
			return 0;
	sw->npoints++;
	return 0;
}

/* @blk's axes: the common lines first, in file order, unless it overrides them */
static size_t block_axes(const struct vsb_sweep_block *common,
			 const struct vsb_sweep_block *blk,
			 const struct vsb_sweep_axis **axes, size_t max)
{
	size_t naxes = 0, i, j;

	for (i = 0; common && i < common->naxes && naxes < max; i++) {
		for (j = 0; j < blk->naxes; j++)
			if (blk->axes[j].opt == common->axes[i].opt)
				break;
		if (j == blk->naxes)
			axes[naxes++] = &common->axes[i];
	}
	for (i = 0; i < blk->naxes && naxes < max; i++)
		axes[naxes++] = &blk->axes[i];
	return naxes;
}

static int expand_block(struct vsb_sweep *sw, const struct vsb_sweep_block *common,
			const struct vsb_sweep_block *blk, const char *path)
{
	const struct vsb_sweep_axis *axes[128];
	size_t idx[128] = { 0 }, naxes, i;
	int ret;

	naxes = block_axes(common, blk, axes, 128);
	for (;;) {
		ret = add_point(sw, blk, axes, naxes, idx, path);
		if (ret)
			return ret;
		/* odometer: the last axis turns fastest */
		for (i = naxes; i > 0; i--) {
			if (++idx[i - 1] < axes[i - 1]->nvals)
				break;
			idx[i - 1] = 0;
		}
		if (i == 0)
			return 0;
	}
}

/*
 * Over the limit: one block's own product, or only the blocks together;
 * then the limit is the whole sweep's, and the line says so with both
 * counts, not as if the block where the sum passed it were too big.
 */
static int too_many_points(const char *path, const struct vsb_sweep_block *blk,
			   int line, size_t n, size_t before)
{
	if (n > VSB_SWEEP_MAX_POINTS || !blk->label[0])
		vsb_err("%s:%d: %s%s%s expands to more than %d points (the product "
			"of its lists): split the sweep", path, line,
			blk->label[0] ? "block [" : "the sweep", blk->label,
			blk->label[0] ? "]" : "", VSB_SWEEP_MAX_POINTS);
	else
		vsb_err("%s:%d: block [%s] expands to more than %d points in all "
			"with the blocks above it (%zu above, %zu its own): the limit "
			"is on the whole sweep, split it", path, line, blk->label,
			VSB_SWEEP_MAX_POINTS, before, n);
	return VSB_EXIT_USAGE;
}

/*
 * The points the blocks would expand to, from the axes' lengths alone,
 * before a single one is built: a file of 10^6 points is refused at
 * once, not after minutes and gigabytes.  The product saturates instead
 * of overflowing.  Sizes sw->points for that many.
 */
static int count_points(struct vsb_sweep *sw, const char *path)
{
	const struct vsb_sweep_block *common = sw->nblocks > 1 ? &sw->blocks[0] : NULL;
	const struct vsb_sweep_axis *axes[128];
	size_t b, i, naxes, total = 0;

	for (b = sw->nblocks > 1; b < sw->nblocks; b++) {
		size_t n = 1;

		naxes = block_axes(common, &sw->blocks[b], axes, 128);
		for (i = 0; i < naxes; i++)
			n = n > VSB_SWEEP_MAX_POINTS ? n : n * axes[i]->nvals;
		total += n;
		if (total > VSB_SWEEP_MAX_POINTS)
			return too_many_points(path, &sw->blocks[b],
					       sw->blocks[b].line ? sw->blocks[b].line :
					       naxes ? axes[0]->line : 1, n, total - n);
	}
	sw->points = vsb_zalloc((total ? total : 1) * sizeof(*sw->points));
	return 0;
}

int vsb_sweepfile_parse_buf(struct vsb_sweep *sw, const char *path,
			    const char *buf, size_t len, vsb_point_check_fn check)
{
	struct vsb_sweep_block *blk;
	char *copy, *line, *next;
	int lineno = 0, ret;
	size_t i, nkeys = 0;

	memset(sw, 0, sizeof(*sw));
	sw->check = check;
	snprintf(sw->path, sizeof(sw->path), "%s", path);
	ret = check_bytes(path, buf, len);
	if (ret)
		return ret;
	sw->file_hash = vsb_fnv1a64(buf, len, VSB_FNV_INIT);
	copy = vsb_zalloc(len + 1);
	memcpy(copy, buf, len);
	blk = block_add(sw, "", 0);	/* the common lines */
	for (line = copy; line; line = next) {
		char *s, *hash;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else if (!*line)
			break;		/* after the last newline: not a line */
		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		line[strcspn(line, "\r")] = '\0';
		s = trim(line);
		if (!*s)
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end || end[1] || (*end = '\0', !label_ok(s + 1))) {
				vsb_err("%s:%d: a block starts with [label]: letters, digits, "
					"'-', '_', '.', at most 63", path, lineno);
				ret = VSB_EXIT_USAGE;
				goto out;
			}
			for (i = 1; i < sw->nblocks; i++)
				if (!strcmp(sw->blocks[i].label, s + 1)) {
					vsb_err("%s:%d: block [%s] already exists (line %d)",
						path, lineno, s + 1, sw->blocks[i].line);
					ret = VSB_EXIT_USAGE;
					goto out;
				}
			blk = block_add(sw, s + 1, lineno);
			continue;
		}
		ret = parse_line(sw, blk, path, lineno, s);
		if (ret)
			goto out;
		nkeys++;
	}
	if (!nkeys) {
		vsb_err("%s:%d: no options in the sweep file", path, lineno ? lineno : 1);
		ret = VSB_EXIT_USAGE;
		goto out;
	}
	ret = count_points(sw, path);
	if (ret)
		goto out;
	if (sw->nblocks == 1) {
		ret = expand_block(sw, NULL, &sw->blocks[0], path);
	} else {
		for (i = 1; i < sw->nblocks && !ret; i++)
			ret = expand_block(sw, &sw->blocks[0], &sw->blocks[i], path);
	}
	if (!ret && !sw->npoints) {
		vsb_err("%s:1: every point asks for more CPUs than the %ld online",
			path, sysconf(_SC_NPROCESSORS_ONLN));
		ret = VSB_EXIT_SKIP;
	}
	if (!ret && !sw->name[0]) {	/* no `name` line: the file's, to its first '.' */
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

		snprintf(sw->name, sizeof(sw->name), "%.*s",
			 (int)strcspn(base, "."), base);
	}
out:
	free(copy);
	return ret;
}

int vsb_sweepfile_read(const char *path, char **buf, size_t *len)
{
	int e = vsb_read_whole(path, SWEEP_MAX_BYTES, buf, len);

	if (!e)
		return 0;
	if (e == EISDIR)
		vsb_err("%s: is a directory, not a sweep file", path);
	else if (e == EFBIG)
		vsb_err("%s:1: larger than %u KiB: not a sweep file", path,
			SWEEP_MAX_BYTES >> 10);
	else
		vsb_err("%s: %s", path, vsb_read_strerror(e));
	return VSB_EXIT_USAGE;
}

int vsb_sweepfile_parse(struct vsb_sweep *sw, const char *path,
			vsb_point_check_fn check)
{
	char *buf;
	size_t len;
	int ret = vsb_sweepfile_read(path, &buf, &len);

	if (ret) {
		memset(sw, 0, sizeof(*sw));
		return ret;
	}
	ret = vsb_sweepfile_parse_buf(sw, path, buf, len, check);
	free(buf);
	return ret;
}

void vsb_sweep_free(struct vsb_sweep *sw)
{
	size_t i, j, k;

	for (i = 0; i < sw->nblocks; i++) {
		for (j = 0; j < sw->blocks[i].naxes; j++) {
			for (k = 0; k < sw->blocks[i].axes[j].nvals; k++)
				free(sw->blocks[i].axes[j].vals[k]);
			free(sw->blocks[i].axes[j].vals);
		}
		free(sw->blocks[i].axes);
	}
	for (i = 0; i < sw->npoints; i++)
		vsb_result_free(&sw->points[i].res);
	free(sw->blocks);
	free(sw->points);
	memset(sw, 0, sizeof(*sw));
}

