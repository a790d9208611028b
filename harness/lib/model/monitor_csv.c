// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of FILE.monitor.csv: "time,source,key,cpu,value", time in
 * seconds to the microsecond, the value to 15 significant digits.  The
 * writer and the reader of the one format, side by side, so the chart
 * reads exactly what the sampler writes: a row it cannot read whole (a
 * name too long for its field, a CPU past the limit, text after the
 * value) is no row, never a truncated or half-read one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "monitor_csv.h"
#include "vsb.h"

void vsb_monitor_row_write(FILE *f, double t, const char *source,
			   const char *key, int cpu, double value)
{
	fprintf(f, "%.6f,%s,%s,%d,%.15g\n", t, source, key, cpu, value);
}

/* The text up to the next comma into @buf; the comma's end, or NULL. */
static const char *field(const char *s, char *buf, size_t len)
{
	size_t n = strcspn(s, ",\n");

	if (!n || n >= len || s[n] != ',')
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return s + n + 1;
}

/* A number strtod reads whole up to @stop (or the line's end): its end. */
static const char *number(const char *s, double *v, const char *stop)
{
	char *end;

	if (!*s || *s == ',' || *s == ' ')
		return NULL;
	errno = 0;
	*v = strtod(s, &end);
	if (errno == ERANGE || !strchr(stop, *end))
		return NULL;
	return end;
}

int vsb_monitor_row_read(const char *line, struct vsb_monitor_row *r)
{
	const char *s;
	long cpu;

	s = number(line, &r->t, ",");
	s = s && *s == ',' ? field(s + 1, r->source, sizeof(r->source)) : NULL;
	s = s ? field(s, r->key, sizeof(r->key)) : NULL;
	s = s ? vsb_scan_decimal(s, &cpu) : NULL;
	if (!s || *s != ',' || cpu < -1 || cpu >= VSB_MAX_CPUS || !isfinite(r->t))
		return -1;
	r->cpu = (int)cpu;
	s = number(s + 1, &r->value, "\r\n");
	return s ? 0 : -1;
}

/*
 * The series whole: comment lines, of which the first title is kept;
 * the header, which must be the first other line; then the rows, a row
 * that is none of the writer's skipped (a series cut by a kill ends in
 * half a line).
 */
int vsb_monitor_csv_read(FILE *f, char *title, size_t tlen,
			 void (*row)(const struct vsb_monitor_row *r, void *arg),
			 void *arg)
{
	const size_t tl = strlen(VSB_MONITOR_CSV_TITLE);
	struct vsb_monitor_row r;
	char line[1024];
	int header = 0;

	if (tlen)
		title[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			if (tlen && !title[0] && !strncmp(line, VSB_MONITOR_CSV_TITLE, tl))
				snprintf(title, tlen, "%.*s",
					 (int)strcspn(line + tl, "\n"), line + tl);
			continue;
		}
		if (!header++) {
			if (strncmp(line, VSB_MONITOR_CSV_HEADER,
				    strlen(VSB_MONITOR_CSV_HEADER)))
				return -1;
			continue;
		}
		if (!vsb_monitor_row_read(line, &r))
			row(&r, arg);
	}
	return header ? 0 : -1;
}
