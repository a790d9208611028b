// SPDX-License-Identifier: GPL-2.0
/*
 * Sweeps: parse a sweep file, expand it into points, check every point,
 * then run them with their repetitions interleaved and write one result
 * pair per point plus sweep.csv, points.txt, meta.txt and failed.txt.
 *
 * Everything a user can get wrong in a file is reported before the
 * first point runs, as one "file:line: what" line, because a typo found
 * an hour into a sweep is an hour lost.  The keys are the rows of
 * vsb_run_opt_table flagged VSB_OPTF_SWEEP, so new run options become
 * sweep keys without touching this file.
 *
 * Repetitions run as rounds: every point gets one repetition (a
 * `--repeat 1` run, with its warm-up) per round, in a fresh seeded
 * shuffle each round, so slow drift of the machine (thermal, frequency,
 * a neighbour VM) spreads over all points instead of biasing the ones
 * that happened to run last.  A point is written when its last round
 * ends; until then each round leaves its repetitions so far in
 * <id>.csv.partial, which --resume continues from (see partial_text()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benches.h"
#include "bpf/trace.h"
#include "csvread.h"
#include "sweep.h"
#include "sysctl.h"

#define SWEEP_MAX_BYTES (1u << 20)

/* ---- stderr capture: turn a library message into part of ours ---- */

struct capture {
	int saved;
	FILE *tmp;
};

static void capture_begin(struct capture *c)
{
	fflush(stderr);
	c->saved = -1;
	c->tmp = tmpfile();
	if (!c->tmp)
		return;		/* messages then go straight to stderr */
	c->saved = dup(STDERR_FILENO);
	dup2(fileno(c->tmp), STDERR_FILENO);
}

/* The captured text, last newline removed, "vmstat-bench: " prefixes cut. */
static void capture_end(struct capture *c, char *buf, size_t len)
{
	size_t n = 0;
	char *p;

	buf[0] = '\0';
	fflush(stderr);
	if (c->saved < 0)
		return;
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	rewind(c->tmp);
	n = fread(buf, 1, len - 1, c->tmp);
	fclose(c->tmp);
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	while ((p = strstr(buf, VSB_NAME ": ")))
		memmove(p, p + strlen(VSB_NAME ": "), strlen(p + strlen(VSB_NAME ": ")) + 1);
	for (p = buf; *p; p++)
		if (*p == '\n')
			*p = ';';
}

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
	const char sep = opt->kind == VSB_OPT_CPUS ? '|' : ',';
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
		if (!strcmp(opt->name, "cpus") && p->opts.cpus.n)
			vsb_cpulist_format(&p->opts.cpus, v, sizeof(v), ',');
		else
			vsb_opt_format(&p->opts, opt, v, sizeof(v));
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
		if (!strcmp(opt->name, "cpus") && p->opts.cpus.n)
			vsb_cpulist_format(&p->opts.cpus, v, sizeof(v), ',');
		else
			vsb_opt_format(&p->opts, opt, v, sizeof(v));
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

/*
 * The option a refusal names: its messages start "--NAME: why" or, for a
 * value that clashes with another option, "--NAME VALUE: why" (--fold
 * remote with cmpxchg-local names fold, so the fold line is the one to
 * fix).  Captured text joins lines with ';' and warnings may come first:
 * the last part that starts with "--" (after "warning: " for a warning) is
 * the refusal, or the warning when there is no refusal.  Returns the text
 * after the dashes, or NULL.
 */
static const char *named_option(const char *msg)
{
	const char *seg = msg, *named = NULL;

	while (seg) {
		while (*seg == ' ')
			seg++;
		if (!strncmp(seg, "warning: ", 9))
			seg += 9;
		if (!strncmp(seg, "--", 2))
			named = seg + 2;
		seg = strchr(seg, ';');
		if (seg)
			seg++;
	}
	return named;
}

/* the last warning the option checks gave while parsing, said once */
static char last_parse_warning[1024];

static int add_point(struct vsb_sweep *sw, const struct vsb_sweep_block *blk,
		     const struct vsb_sweep_axis **axes, size_t naxes,
		     const size_t *idx, const char *path)
{
	struct vsb_sweep_point *p;
	struct capture cap;
	char msg[1024], where[64];
	const char *named;
	int ret, line = blk->line ? blk->line : (naxes ? axes[0]->line : 1);
	size_t i;

	if (sw->npoints >= VSB_SWEEP_MAX_POINTS) {
		vsb_err("%s:%d: more than %d points", path, line, VSB_SWEEP_MAX_POINTS);
		return VSB_EXIT_USAGE;
	}
	sw->points = realloc(sw->points, (sw->npoints + 1) * sizeof(*sw->points));
	if (!sw->points) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
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
	capture_begin(&cap);
	ret = vsb_run_opts_finish(&p->opts);
	capture_end(&cap, msg, sizeof(msg));
	if (ret == VSB_EXIT_SKIP || (ret && !strcmp(p->opts.backend, "kmod"))) {
		/*
		 * The module side is optional by nature (no module support,
		 * a bench not ported yet), and so is what the checks skip
		 * (exit 4: a sysctl without root, --trace without BPF, THP
		 * off): such a point is listed as skipped with the reason,
		 * and the rest of the sweep runs.
		 */
		p->line = line;
		p->reps = p->opts.repeat;
		point_id(p, blk, axes, naxes);
		p->state = VSB_PT_SKIPPED;
		p->status = VSB_EXIT_SKIP;
		snprintf(p->err, sizeof(p->err), "%.500s", msg);
		sw->npoints++;
		return 0;
	}
	/* point at the line of the option the message names, if any */
	named = msg[0] ? named_option(msg) : NULL;
	for (i = 0; named && i < naxes; i++) {
		const char *name = vsb_run_opt_table[axes[i]->opt].name;
		size_t n = strlen(name);

		if (!strncmp(named, name, n) && (named[n] == ':' || named[n] == ' '))
			line = axes[i]->line;
	}
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
	point_id(p, blk, axes, naxes);
	/* rules such as "atomic-global has no threshold" can merge points */
	for (i = 0; i < sw->npoints; i++)
		if (!strcmp(sw->points[i].id, p->id))
			return 0;
	sw->npoints++;
	return 0;
}

static int expand_block(struct vsb_sweep *sw, const struct vsb_sweep_block *common,
			const struct vsb_sweep_block *blk, const char *path)
{
	const struct vsb_sweep_axis *axes[128];
	size_t idx[128] = { 0 }, naxes = 0, i, j;
	int ret;

	/* common lines first, in file order, unless the block overrides them */
	for (i = 0; common && i < common->naxes; i++) {
		for (j = 0; j < blk->naxes; j++)
			if (blk->axes[j].opt == common->axes[i].opt)
				break;
		if (j == blk->naxes)
			axes[naxes++] = &common->axes[i];
	}
	for (i = 0; i < blk->naxes && naxes < 128; i++)
		axes[naxes++] = &blk->axes[i];
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

int vsb_sweep_parse_buf(struct vsb_sweep *sw, const char *path, const char *buf,
			size_t len)
{
	struct vsb_sweep_block *blk;
	char *copy, *line, *next;
	int lineno = 0, ret;
	size_t i, nkeys = 0;

	memset(sw, 0, sizeof(*sw));
	snprintf(sw->path, sizeof(sw->path), "%s", path);
	ret = check_bytes(path, buf, len);
	if (ret)
		return ret;
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
out:
	free(copy);
	return ret;
}

int vsb_sweep_parse_file(struct vsb_sweep *sw, const char *path)
{
	char *buf;
	size_t len;
	int ret, e = vsb_read_whole(path, SWEEP_MAX_BYTES, &buf, &len);

	if (e) {
		memset(sw, 0, sizeof(*sw));
		if (e == EISDIR)
			vsb_err("%s: is a directory, not a sweep file", path);
		else if (e == EFBIG)
			vsb_err("%s:1: larger than %u KiB: not a sweep file", path,
				SWEEP_MAX_BYTES >> 10);
		else
			vsb_err("%s: %s", path, strerror(e));
		return VSB_EXIT_USAGE;
	}
	ret = vsb_sweep_parse_buf(sw, path, buf, len);
	free(buf);
	if (!ret && !sw->name[0]) {
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

		snprintf(sw->name, sizeof(sw->name), "%.*s",
			 (int)strcspn(base, "."), base);
	}
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

/* ---- running ---- */

static int path_join(char *buf, size_t len, const char *dir, const char *name,
		     const char *suffix)
{
	if ((size_t)snprintf(buf, len, "%s/%s%s", dir, name, suffix) >= len) {
		vsb_err("%s: path too long", dir);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static int mkdir_p(const char *dir)
{
	char buf[4096];
	char *p;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			goto err;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		goto err;
	return 0;
err:
	vsb_err("-o: cannot create %s: %s", buf, strerror(errno));
	return VSB_EXIT_USAGE;
}

static char last_warning[512], last_failure[512];
static int progress_shown;

/*
 * A progress line on a terminal ends without a newline and is redrawn
 * with "\r"; a message printed under it would continue its line ("ETA
 * 0m00svmstat-bench: warning: ...").  Every message of the runner
 * clears it first; the next point draws it again.
 */
static void progress_clear(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = 0;
}

/* One repetition of @p, merged into p->res with a rep number of its own. */
static int run_chunk(struct vsb_sweep_point *p)
{
	static struct vsb_run_opts o;
	static struct vsb_result tmp;
	struct capture cap;
	char msg[512];
	int ret;

	o = p->opts;
	o.repeat = 1;
	capture_begin(&cap);
	ret = vsb_bench_run(&o, &tmp);
	capture_end(&cap, msg, sizeof(msg));
	if (vsb_interrupted) {
		vsb_result_free(&tmp);
		return VSB_EXIT_ERROR;
	}
	if (ret) {
		p->status = ret;
		p->state = ret == VSB_EXIT_SKIP ? VSB_PT_SKIPPED : VSB_PT_FAILED;
		snprintf(p->err, sizeof(p->err), "%s", msg[0] ? msg :
			 "the bench failed without saying why");
		vsb_result_free(&tmp);
		return ret;
	}
	if (msg[0] && !p->done && strcmp(msg, last_warning)) {
		/* once per point, and not again when every point says the same */
		snprintf(last_warning, sizeof(last_warning), "%s", msg);
		progress_clear();
		vsb_warn("%s: %s", p->id, !strncmp(msg, "warning: ", 9) ? msg + 9 : msg);
	}
	if (!p->done) {
		p->res = tmp;		/* takes over the sample and meta arrays */
		memset(&tmp, 0, sizeof(tmp));
		p->res.opts.repeat = p->reps;
	} else {
		vsb_result_merge_round(&p->res, &tmp, (unsigned int)p->done);
		vsb_trace_merge(&p->res, &tmp);
		vsb_result_free(&tmp);
	}
	p->done++;
	return 0;
}

static int write_point(const struct vsb_sweep *sw, struct vsb_sweep_point *p,
		       const struct vsb_sweep_run_opts *ro)
{
	struct vsb_outfile raw, sum;
	char path[4096], spath[4096];
	int ret;

	vsb_meta_collect(&p->res);
	vsb_result_meta(&p->res, "sweep", "%s", sw->path);
	vsb_result_meta(&p->res, "sweep_name", "%s", sw->name);
	vsb_result_meta(&p->res, "sweep_point", "%s", p->id);
	vsb_result_meta(&p->res, "sweep_params", "%s", p->params);
	vsb_result_meta(&p->res, "sweep_order",
			"%ld interleaved rounds of 1 repetition (own warm-up each), shuffle seed %llu",
			p->reps, (unsigned long long)ro->shuffle_seed);
	if (p->resumed)
		vsb_result_meta(&p->res, "sweep_resumed",
				"repetitions 0..%ld from an interrupted run (read back from %s%s), "
				"%ld..%ld run by --resume", p->resumed - 1, p->id,
				VSB_SWEEP_PARTIAL_SUFFIX, p->resumed, p->reps - 1);
	ret = path_join(path, sizeof(path), ro->dir, p->id, ".csv");
	ret = ret ?: path_join(spath, sizeof(spath), ro->dir, p->id, ".summary.csv");
	ret = ret ?: vsb_outfile_open(&raw, path, "-o");
	if (ret)
		return ret;
	ret = vsb_outfile_open(&sum, spath, "-o");
	if (ret) {
		vsb_outfile_abort(&raw);
		return ret;
	}
	ret = vsb_result_write(&p->res, raw.f, "csv");
	ret = ret ?: vsb_result_write_summary_csv(&p->res, sum.f);
	if (ret) {
		vsb_outfile_abort(&raw);
		vsb_outfile_abort(&sum);
		return ret;
	}
	/* the summary last: --resume trusts a point whose summary exists */
	ret = vsb_outfile_commit(&raw);
	if (ret) {
		vsb_outfile_abort(&sum);
		return ret;
	}
	return vsb_outfile_commit(&sum);
}

/* ---- partial points: the repetitions so far, for --resume ---- */

/*
 * Every round ends with each unfinished point's merged result so far in
 * DIR/<id>.csv.partial (also written when the sweep is interrupted), so
 * that --resume continues a point instead of starting it again.  The
 * file is the point's raw CSV, written by the same writer as <id>.csv,
 * plus sweep_partial_* metadata with what that CSV holds only rounded or
 * not at all (the sanity verdict, the exact totals and drift figures,
 * which PMU event is cycles).  Reading it back must rebuild a result
 * that writes the very same bytes, or the point starts over: a partial
 * is trusted only when nothing was lost.  The name does not end in
 * ".csv", so compare and plot never take it for a result.
 *
 * --trace points keep no partial: their window counts (per-CPU arrays)
 * are not in the CSV, and a point continued without them would
 * under-count.
 */

static int partial_text(const struct vsb_result *res, const char *id, long done,
			long reps, char **text, size_t *len)
{
	static struct vsb_result r;
	FILE *f;
	int ret;

	r = *res;
	r.metacap = res->nmeta + 4;
	r.meta = vsb_zalloc(r.metacap * sizeof(*r.meta));
	if (res->nmeta)
		memcpy(r.meta, res->meta, res->nmeta * sizeof(*r.meta));
	vsb_result_meta(&r, "sweep_partial_point", "%s", id);
	vsb_result_meta(&r, "sweep_partial_rounds", "%ld of %ld", done, reps);
	vsb_result_meta(&r, "sweep_partial_state",
			"sanity_ok=%d migrated=%d applied=%lld counted=%lld nthreads=%d "
			"npmu=%d pmu_cycles=%d pmu_instr=%d mux_samples=%d multiplexed=%d",
			r.sanity_ok, r.migrated, r.applied, r.counted, r.nthreads,
			r.npmu, r.pmu_cycles, r.pmu_instr, r.mux_samples, r.multiplexed);
	vsb_result_meta(&r, "sweep_partial_drift",
			"have=%d samples=%zu max=%.17g p99=%.17g mean=%.17g "
			"stale_max=%.17g stale_p99=%.17g stale_mean=%.17g",
			r.have_drift, r.drift_samples, r.drift_max, r.drift_p99,
			r.drift_mean, r.stale_max_us, r.stale_p99_us, r.stale_mean_us);
	*text = NULL;
	*len = 0;
	f = open_memstream(text, len);
	if (!f) {
		free(r.meta);
		vsb_err("out of memory");
		return VSB_EXIT_ERROR;
	}
	ret = vsb_result_write(&r, f, "csv");
	if (fclose(f))
		ret = VSB_EXIT_ERROR;
	free(r.meta);
	if (ret) {
		free(*text);
		*text = NULL;
	}
	return ret;
}

static void partial_remove(const struct vsb_sweep_run_opts *ro,
			   const struct vsb_sweep_point *p)
{
	char path[4096];

	if (!path_join(path, sizeof(path), ro->dir, p->id, VSB_SWEEP_PARTIAL_SUFFIX))
		unlink(path);
}

/* A write that fails costs only resumability: a warning, and on we go. */
static void partial_save(const struct vsb_sweep_run_opts *ro,
			 const struct vsb_sweep_point *p)
{
	struct vsb_outfile o;
	struct capture cap;
	char path[4096], msg[512];
	char *text = NULL;
	size_t len = 0;
	int ret;

	if (p->opts.trace)
		return;
	capture_begin(&cap);
	ret = path_join(path, sizeof(path), ro->dir, p->id, VSB_SWEEP_PARTIAL_SUFFIX);
	ret = ret ?: partial_text(&p->res, p->id, p->done, p->reps, &text, &len);
	ret = ret ?: vsb_outfile_open(&o, path, "-o");
	if (!ret) {
		if (fwrite(text, 1, len, o.f) != len) {
			vsb_err("%s: write failed: %s", path, strerror(errno));
			vsb_outfile_abort(&o);
			ret = VSB_EXIT_ERROR;
		} else {
			ret = vsb_outfile_commit(&o);
		}
	}
	capture_end(&cap, msg, sizeof(msg));
	free(text);
	if (ret) {
		progress_clear();
		vsb_warn("%s: its repetitions so far are not saved (--resume would run "
			 "them again): %s", p->id, msg[0] ? msg : "write failed");
	}
}

static int cell_ull(const struct vsb_csv *c, size_t row, int col,
		    unsigned long long *v)
{
	const char *s = vsb_csv_cell(c, row, col);
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

/* Up to @max ';'-separated fields of @s into @out (modified); the count. */
static int split_semi(char *s, char **out, int max)
{
	int n = 0;

	if (!*s)
		return 0;
	for (;;) {
		char *semi = strchr(s, ';');

		if (n < max)
			out[n] = s;
		n++;
		if (!semi)
			return n;
		*semi = '\0';
		s = semi + 1;
	}
}

/* Samples of a partial CSV into @r; NULL, or what is wrong. */
static const char *partial_samples(const struct vsb_csv *c, struct vsb_result *r,
				   long rounds)
{
	enum { THREAD, CPU, REP, OPS, ELAPSED, UNIT, EVENT, PLM, NS, FOLDS, MUX,
	       SCALE, EVENTS, VALUES, NCOLS };
	static const char *const names[NCOLS] = { "thread", "cpu", "rep", "ops",
		"elapsed", "unit", "event", "plm", "ns", "folds", "multiplexed",
		"pmu_scale", "pmu_events", "pmu_values" };
	char buf[VSB_PMU_MAX * (VSB_PMU_FSTR_LEN + 1) + 64], *f[VSB_PMU_MAX + 1];
	int col[NCOLS], k, n;
	size_t i;

	for (k = 0; k < NCOLS; k++) {
		col[k] = vsb_csv_col(c, names[k]);
		if (col[k] < 0)
			return "a column is missing";
	}
	if (!c->nrows)
		return "it holds no samples";
	snprintf(r->unit, sizeof(r->unit), "%s", vsb_csv_cell(c, 0, col[UNIT]));
	snprintf(r->event, sizeof(r->event), "%s", vsb_csv_cell(c, 0, col[EVENT]));
	snprintf(r->plm, sizeof(r->plm), "%s", vsb_csv_cell(c, 0, col[PLM]));
	snprintf(buf, sizeof(buf), "%s", vsb_csv_cell(c, 0, col[EVENTS]));
	n = split_semi(buf, f, VSB_PMU_MAX + 1);
	if (n != r->npmu)
		return "its PMU events do not match its state line";
	for (k = 0; k < n; k++) {
		if (strlen(f[k]) >= sizeof(r->pmu_event[k]))
			return "a PMU event name is too long";
		strcpy(r->pmu_event[k], f[k]);
	}
	for (i = 0; i < c->nrows; i++) {
		struct vsb_sample s;
		unsigned long long v;
		long l;
		double d;

		memset(&s, 0, sizeof(s));
		if (cell_ull(c, i, col[THREAD], &v) || v > VSB_MAX_CPUS)
			return "a bad thread cell";
		s.thread = (unsigned int)v;
		if (vsb_parse_long(vsb_csv_cell(c, i, col[CPU]), &l) || l < -1 ||
		    l >= VSB_MAX_CPUS)
			return "a bad cpu cell";
		s.cpu = (int)l;
		if (cell_ull(c, i, col[REP], &v) || v >= (unsigned long long)rounds)
			return "a repetition number beyond its rounds";
		s.rep = (unsigned int)v;
		if (cell_ull(c, i, col[OPS], &v) || !v)
			return "a bad ops cell";
		s.ops = v;
		if (cell_ull(c, i, col[ELAPSED], &v))
			return "a bad elapsed cell";
		s.elapsed = v;
		d = vsb_csv_num(c, i, col[NS]);
		if (!isfinite(d) || d < 0)
			return "a bad ns cell";
		s.ns = d;
		if (cell_ull(c, i, col[FOLDS], &v))
			return "a bad folds cell";
		s.folds = v;
		if (cell_ull(c, i, col[MUX], &v) || v > 1)
			return "a bad multiplexed cell";
		s.multiplexed = (int)v;
		d = vsb_csv_num(c, i, col[SCALE]);
		s.pmu_scale = isfinite(d) ? d : 1.0;
		snprintf(buf, sizeof(buf), "%s", vsb_csv_cell(c, i, col[VALUES]));
		if (split_semi(buf, f, VSB_PMU_MAX + 1) != r->npmu)
			return "a row's PMU values do not match its events";
		for (k = 0; k < r->npmu; k++) {
			char *end;

			errno = 0;
			s.pmu[k] = strtoull(f[k], &end, 10);
			if (*end || errno || !*f[k])
				return "a bad PMU value";
		}
		vsb_result_add(r, &s);
	}
	return NULL;
}

/*
 * Continue @p from @path: 1 when there is no such file, 0 when p->res
 * and p->done now hold its repetitions, -1 (and @why) when it cannot be
 * trusted.
 */
static int partial_load(struct vsb_sweep_point *p, const char *path, char *why,
			size_t wlen)
{
	static struct vsb_result r;
	struct vsb_csv c;
	struct capture cap;
	char msg[512], *orig = NULL, *text = NULL;
	const char *v, *bad = NULL;
	size_t olen = 0, tlen = 0, i;
	long k = 0, reps = 0;
	int ret;

	if (!exists(path))
		return 1;
	if (p->opts.trace) {
		snprintf(why, wlen, "a --trace point keeps no partial");
		return -1;
	}
	ret = vsb_read_whole(path, SIZE_MAX, &orig, &olen);
	if (ret) {
		snprintf(why, wlen, "cannot read it: %s", strerror(ret));
		return -1;
	}
	capture_begin(&cap);
	ret = vsb_csv_read(path, &c);
	capture_end(&cap, msg, sizeof(msg));
	if (ret) {
		snprintf(why, wlen, "%s", msg[0] ? msg : "not a CSV file");
		free(orig);
		return -1;
	}
	vsb_result_init(&r, &p->opts);
	r.opts.repeat = p->reps;
	v = vsb_csv_meta(&c, "sweep_partial_point");
	if (!v || strcmp(v, p->id))
		bad = "it belongs to another point";
	v = vsb_csv_meta(&c, "sweep_partial_rounds");
	if (!bad && (!v || sscanf(v, "%ld of %ld", &k, &reps) != 2 || k < 1))
		bad = "no valid sweep_partial_rounds line";
	if (!bad && k > p->reps) {
		snprintf(msg, sizeof(msg), "it holds %ld repetitions, more than the "
			 "%ld this run wants", k, p->reps);
		bad = msg;
	}
	v = vsb_csv_meta(&c, "sweep_partial_state");
	if (!bad && (!v || sscanf(v, "sanity_ok=%d migrated=%d applied=%lld counted=%lld "
				  "nthreads=%d npmu=%d pmu_cycles=%d pmu_instr=%d "
				  "mux_samples=%d multiplexed=%d",
				  &r.sanity_ok, &r.migrated, &r.applied, &r.counted,
				  &r.nthreads, &r.npmu, &r.pmu_cycles, &r.pmu_instr,
				  &r.mux_samples, &r.multiplexed) != 10 ||
		     r.npmu < 0 || r.npmu > VSB_PMU_MAX ||
		     r.pmu_cycles < -1 || r.pmu_cycles >= r.npmu ||
		     r.pmu_instr < -1 || r.pmu_instr >= r.npmu))
		bad = "no valid sweep_partial_state line";
	v = vsb_csv_meta(&c, "sweep_partial_drift");
	if (!bad && (!v || sscanf(v, "have=%d samples=%zu max=%lg p99=%lg mean=%lg "
				  "stale_max=%lg stale_p99=%lg stale_mean=%lg",
				  &r.have_drift, &r.drift_samples, &r.drift_max,
				  &r.drift_p99, &r.drift_mean, &r.stale_max_us,
				  &r.stale_p99_us, &r.stale_mean_us) != 8))
		bad = "no valid sweep_partial_drift line";
	v = vsb_csv_meta(&c, "sanity");
	if (!bad && !v)
		bad = "no sanity line";
	if (!bad) {
		snprintf(r.sanity, sizeof(r.sanity), "%s", v);
		bad = partial_samples(&c, &r, k);
	}
	/* the metadata in file order, less what the writer adds from fields */
	for (i = 0; !bad && i < c.nmeta; i++) {
		const char *key = c.meta[i].key;

		if (strcmp(key, "sanity") && strcmp(key, "applied_total") &&
		    strcmp(key, "counted_total") && strcmp(key, "migrated") &&
		    strncmp(key, "sweep_partial", 13))
			vsb_result_meta(&r, key, "%s", c.meta[i].val);
	}
	vsb_csv_free(&c);
	if (!bad && (partial_text(&r, p->id, k, reps, &text, &tlen) ||
		     tlen != olen || memcmp(text, orig, olen)))
		bad = "it does not read back to the same file";
	free(text);
	free(orig);
	if (bad) {
		snprintf(why, wlen, "%s", bad);
		vsb_result_free(&r);
		return -1;
	}
	p->res = r;
	memset(&r, 0, sizeof(r));
	p->res.opts.repeat = p->reps;
	p->done = k;
	p->saved = k;
	p->resumed = k;
	return 0;
}

/*
 * After each round and on an interrupt: points that finished get their
 * result files (and lose their partial), unfinished ones that ran since
 * the last call get their partial rewritten.
 */
static void persist(const struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro)
{
	size_t i;
	int ret;

	for (i = 0; i < sw->npoints; i++) {
		struct vsb_sweep_point *p = &sw->points[i];

		if (p->state != VSB_PT_PENDING || !p->done ||
		    (p->done == p->saved && p->done < p->reps))
			continue;
		if (p->done >= p->reps) {
			progress_clear();
			ret = write_point(sw, p, ro);
			if (ret) {
				p->state = VSB_PT_FAILED;
				p->status = ret;
				snprintf(p->err, sizeof(p->err), "writing its result failed");
			} else {
				p->state = VSB_PT_DONE;
				p->untrusted = !p->res.sanity_ok || p->res.migrated;
				partial_remove(ro, p);
			}
		} else {
			partial_save(ro, p);
		}
		p->saved = p->done;
	}
}

/* "partial": pending with repetitions so far (in its .csv.partial) */
static const char *state_name(const struct vsb_sweep_point *p)
{
	switch (p->state) {
	case VSB_PT_DONE:
		return "done";
	case VSB_PT_FAILED:
		return "failed";
	case VSB_PT_SKIPPED:
		return "skipped";
	default:
		return p->done && !p->opts.trace ? "partial" : "not-run";
	}
}

/*
 * sweep.csv: one row per finished point, read back from its summary
 * file (so points kept by --resume count too): the "all" row, or the
 * only row of a one-worker point, with the point id in front.
 */
static int write_sweep_csv(const struct vsb_sweep *sw,
			   const struct vsb_sweep_run_opts *ro, FILE *f)
{
	char path[4096];
	size_t i, r, k, nrows = 0;
	int header = 0;

	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];
		struct vsb_csv c;
		int th;

		if (p->state != VSB_PT_DONE)
			continue;
		if (path_join(path, sizeof(path), ro->dir, p->id, ".summary.csv") ||
		    vsb_csv_read(path, &c))
			return VSB_EXIT_ERROR;
		th = vsb_csv_col(&c, "thread");
		if (!header) {
			for (k = 0; k < c.nmeta; k++)
				if (strncmp(c.meta[k].key, "sweep_", 6) &&
				    strcmp(c.meta[k].key, "sanity") &&
				    strcmp(c.meta[k].key, "migrated"))
					fprintf(f, "# %s: %s\n", c.meta[k].key, c.meta[k].val);
			fprintf(f, "# sweep_name: %s\n", sw->name);
			fputs("point", f);
			for (k = 0; k < c.ncols; k++)
				fprintf(f, ",%s", c.cols[k]);
			fputc('\n', f);
			header = 1;
		}
		for (r = 0; r < c.nrows; r++) {
			if (c.nrows > 1 && strcmp(vsb_csv_cell(&c, r, th), "all"))
				continue;
			fputs(p->id, f);
			for (k = 0; k < c.ncols; k++)
				fprintf(f, ",%s", c.rows[r][k]);
			fputc('\n', f);
			nrows++;
		}
		vsb_csv_free(&c);
	}
	return ferror(f) ? VSB_EXIT_ERROR : 0;
}

static int write_text_file(const char *dir, const char *name,
			   const struct vsb_sweep *sw,
			   const struct vsb_sweep_run_opts *ro, double secs)
{
	struct vsb_outfile o;
	char path[4096];
	size_t i;
	int ret;

	ret = path_join(path, sizeof(path), dir, name, "");
	ret = ret ?: vsb_outfile_open(&o, path, "-o");
	if (ret)
		return ret;
	if (!strcmp(name, "points.txt")) {
		fprintf(o.f, "# point id\tstate\tparameters (axes of %s)\n", sw->path);
		for (i = 0; i < sw->npoints; i++)
			fprintf(o.f, "%s\t%s\t%s\n", sw->points[i].id,
				state_name(&sw->points[i]), sw->points[i].params);
	} else if (!strcmp(name, "failed.txt")) {
		fprintf(o.f, "# points that did not finish: id, state, exit status, why\n");
		for (i = 0; i < sw->npoints; i++) {
			const struct vsb_sweep_point *p = &sw->points[i];

			if (p->state == VSB_PT_FAILED || p->state == VSB_PT_SKIPPED)
				fprintf(o.f, "%s\t%s\t%d\t%s\n", p->id,
					state_name(p), p->status, p->err);
		}
	} else if (!strcmp(name, "meta.txt")) {
		const struct vsb_sweep_point *first = NULL;

		for (i = 0; i < sw->npoints && !first; i++)
			if (sw->points[i].state == VSB_PT_DONE && sw->points[i].res.nmeta)
				first = &sw->points[i];
		fprintf(o.f, "sweep: %s\nname: %s\npoints: %zu\n", sw->path, sw->name,
			sw->npoints);
		fprintf(o.f, "dropped_points: %zu (more CPUs than online)\n", sw->ndropped);
		fprintf(o.f, "repeat_override: %ld\nshuffle_seed: %llu\nresume: %s\n",
			ro->repeat, (unsigned long long)ro->shuffle_seed,
			ro->resume ? "yes" : "no");
		fprintf(o.f, "seconds: %.1f\n", secs);
		for (i = 0; first && i < first->res.nmeta; i++)
			if (strncmp(first->res.meta[i].key, "sweep", 5))
				fprintf(o.f, "%s: %s\n", first->res.meta[i].key,
					first->res.meta[i].val);
	} else {
		ret = write_sweep_csv(sw, ro, o.f);
	}
	if (ret) {
		vsb_outfile_abort(&o);
		return ret;
	}
	return vsb_outfile_commit(&o);
}

static void progress(size_t done, size_t total, long round, long rounds,
		     const char *id, uint64_t start)
{
	double el = (double)(vsb_now_ns() - start) / 1e9;
	double eta = done ? el / (double)done * (double)(total - done) : 0;

	fprintf(stderr, "\r\033[K[%zu/%zu] round %ld/%ld %.40s  elapsed %.0fs  ETA %dm%02ds",
		done, total, round + 1, rounds, id, el, (int)eta / 60, (int)eta % 60);
	fflush(stderr);
	progress_shown = 1;
}

/* --resume: a point's summary keeps it; its partial continues it. */
static int prepare_point(struct vsb_sweep_point *p,
			 const struct vsb_sweep_run_opts *ro, size_t *nkept,
			 size_t *ncont)
{
	char path[4096], why[600];

	if (ro->resume) {
		if (path_join(path, sizeof(path), ro->dir, p->id, ".summary.csv"))
			return VSB_EXIT_USAGE;
		if (exists(path)) {
			p->state = VSB_PT_DONE;
			(*nkept)++;
			return 0;
		}
	}
	if (p->state != VSB_PT_PENDING)
		return 0;
	if (path_join(path, sizeof(path), ro->dir, p->id, VSB_SWEEP_PARTIAL_SUFFIX))
		return VSB_EXIT_USAGE;
	if (!ro->resume) {
		/* an earlier sweep's (--force): not this run's repetitions */
		unlink(path);
		return 0;
	}
	switch (partial_load(p, path, why, sizeof(why))) {
	case 0:
		(*ncont)++;
		break;
	case -1:
		/* csvread's reasons name the file already */
		vsb_warn("%s: not continued from its partial file (%s%s%s): it "
			 "starts over", p->id,
			 strncmp(why, path, strlen(path)) ? path : "",
			 strncmp(why, path, strlen(path)) ? ": " : "", why);
		unlink(path);
		break;
	}
	return 0;
}

int vsb_sweep_run(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro)
{
	size_t i, total = 0, ndone = 0, nfail = 0, nskip = 0, nuntr = 0, nkept = 0;
	size_t ncont = 0, nnew = 0, npart = 0, chunks = 0, *perm;
	long round, rounds = 0;
	struct vsb_rng g;
	uint64_t start = vsb_now_ns();
	int ret;

	ret = mkdir_p(ro->dir);
	if (ret)
		return ret;
	if (access(ro->dir, W_OK)) {
		vsb_err("-o: %s is not writable: %s", ro->dir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	for (i = 0; i < sw->npoints; i++) {
		struct vsb_sweep_point *p = &sw->points[i];

		if (ro->repeat > 0)
			p->reps = ro->repeat;
		ret = prepare_point(p, ro, &nkept, &ncont);
		if (ret)
			return ret;
		if (p->state != VSB_PT_PENDING)
			continue;
		total += (size_t)(p->reps - p->done);
		if (p->reps > rounds)
			rounds = p->reps;
	}

	/*
	 * Round r runs repetition r of every point that lacks it: a point
	 * continued from its partial sits out the rounds it has, and the
	 * shuffles are the uninterrupted run's.
	 */
	perm = vsb_zalloc(sw->npoints * sizeof(*perm));
	vsb_rng_seed(&g, ro->shuffle_seed);
	vsb_install_signal_handlers();
	for (round = 0; round < rounds && !vsb_interrupted; round++) {
		for (i = 0; i < sw->npoints; i++)
			perm[i] = i;
		for (i = sw->npoints; ro->shuffle_seed && i > 1; i--) {
			size_t j = vsb_rng_below(&g, i), t = perm[i - 1];

			perm[i - 1] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < sw->npoints && !vsb_interrupted; i++) {
			struct vsb_sweep_point *p = &sw->points[perm[i]];

			if (p->state != VSB_PT_PENDING || round < p->done ||
			    round >= p->reps)
				continue;
			if (ro->progress)
				progress(chunks, total, round, rounds, p->id, start);
			ret = run_chunk(p);
			chunks++;
			if (ret && !vsb_interrupted) {
				progress_clear();
				/* sixteen module points, one "no module" line */
				if (strcmp(p->err, last_failure))
					vsb_err("%s: %s: %s", p->id, state_name(p),
						p->err);
				snprintf(last_failure, sizeof(last_failure), "%s", p->err);
				total -= (size_t)(p->reps - p->done - 1);
				partial_remove(ro, p);
			}
		}
		/* also after an interrupt: the repetitions that did finish */
		persist(sw, ro);
	}
	persist(sw, ro);	/* points continued with every repetition */
	progress_clear();
	free(perm);
	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];

		nnew += p->state == VSB_PT_DONE && p->done;
		npart += p->state == VSB_PT_PENDING && p->done && !p->opts.trace;
	}
	if (vsb_interrupted && !nnew && !npart) {
		vsb_err("interrupted in round %ld of %ld: no point finished or kept a "
			"partial, nothing written%s", round, rounds,
			nkept || ncont ? " (earlier points kept)" : "");
		return VSB_EXIT_ERROR;
	}
	if (vsb_interrupted) {
		/* points.txt says which are done: compare reads only those */
		write_text_file(ro->dir, "points.txt", sw, ro, 0);
		vsb_err("interrupted in round %ld of %ld: %zu point(s) finished and "
			"written, %zu partial (their repetitions so far in <id>%s); "
			"--resume continues", round, rounds, nnew, npart,
			VSB_SWEEP_PARTIAL_SUFFIX);
		return VSB_EXIT_ERROR;
	}

	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];

		ndone += p->state == VSB_PT_DONE;
		nfail += p->state == VSB_PT_FAILED;
		nskip += p->state == VSB_PT_SKIPPED;
		nuntr += p->untrusted;
	}
	ret = write_text_file(ro->dir, "points.txt", sw, ro, 0);
	ret = ret ?: write_text_file(ro->dir, "failed.txt", sw, ro, 0);
	ret = ret ?: write_text_file(ro->dir, "sweep.csv", sw, ro, 0);
	ret = ret ?: write_text_file(ro->dir, "meta.txt", sw, ro,
				     (double)(vsb_now_ns() - start) / 1e9);
	if (ret)
		return ret;

	printf("sweep %s: %zu points: %zu done (%zu kept from before), %zu failed, "
	       "%zu skipped; %zu left out (more CPUs than online); %.1f s; results in %s\n",
	       sw->name, sw->npoints, ndone, nkept, nfail, nskip, sw->ndropped,
	       (double)(vsb_now_ns() - start) / 1e9, ro->dir);
	if (ncont)
		printf("%zu point(s) continued from the repetitions an interrupted run "
		       "kept (<id>%s)\n", ncont, VSB_SWEEP_PARTIAL_SUFFIX);
	if (nfail || nskip)
		printf("see %s/failed.txt for what did not run and why\n", ro->dir);
	fflush(stdout);
	if (nfail)
		return VSB_EXIT_ERROR;
	if (nuntr) {
		vsb_err("%zu point(s) failed a sanity check or migrated: see their "
			"'# sanity:' lines", nuntr);
		return VSB_EXIT_UNTRUSTED;
	}
	if (!ndone && nskip)
		return VSB_EXIT_SKIP;
	return VSB_EXIT_OK;
}
