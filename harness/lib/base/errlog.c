// SPDX-License-Identifier: GPL-2.0
/*
 * Diagnostics: vsb_err, vsb_warn and vsb_note print one line each on
 * stderr, control characters escaped.  And a caller that words a
 * library's refusal itself (the sweep: "FILE:LINE:
 * point P: why", at the line of the option the refusal names) records
 * the messages instead of printing them: between vsb_errlog_begin() and
 * vsb_errlog_end(), vsb_err() and vsb_warn() append their text to the
 * log, and vsb_err_opt()/vsb_warn_opt() also note which option they are
 * about.  The option is said by the code that refuses, never read back
 * out of the text.  Logs nest; they belong to the main thread (the
 * checks and the runners' messages all come from it).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"

static struct vsb_errlog *active;

/* Logs nest: a caller's log is put back when the inner one ends. */
void vsb_errlog_begin(struct vsb_errlog *log)
{
	memset(log, 0, sizeof(*log));
	log->prev = active;
	active = log;
}

void vsb_errlog_end(struct vsb_errlog *log)
{
	if (active == log)
		active = log->prev;
}

/* the printer below asks here first: 1 when the message was recorded */
int vsb_errlog_note(const char *kind, const char *fmt, va_list ap)
{
	size_t n;

	if (!active)
		return 0;
	n = strlen(active->text);
	if (n && n < sizeof(active->text) - 1)
		active->text[n++] = ';';	/* one line, as it would have been */
	if (n < sizeof(active->text) - 1) {
		n += (size_t)snprintf(active->text + n, sizeof(active->text) - n,
				      "%s", kind);
		if (n < sizeof(active->text) - 1)
			vsnprintf(active->text + n, sizeof(active->text) - n, fmt, ap);
	}
	return 1;
}

static void note_opt(const char *opt, int is_err)
{
	if (!active)
		return;
	/* a refusal outranks a warning as the line to point at */
	if (is_err || !active->opt_is_err) {
		snprintf(active->opt, sizeof(active->opt), "%s", opt);
		active->opt_is_err = is_err;
	}
}

/* the refusal just recorded was about --@opt (it was worded by a check
 * that was handed "--@opt" as its where) */
void vsb_errlog_blame(const char *opt)
{
	note_opt(opt, 1);
}

static void opt_msg(const char *opt, int is_err, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	note_opt(opt, is_err);
	if (is_err)
		vsb_err("%s", buf);
	else
		vsb_warn("%s", buf);
}

void vsb_err_opt(const char *opt, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	opt_msg(opt, 1, fmt, ap);
	va_end(ap);
}

void vsb_warn_opt(const char *opt, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	opt_msg(opt, 0, fmt, ap);
	va_end(ap);
}

/* the message's text with its control characters escaped */
static void put_escaped(FILE *f, const char *text)
{
	const unsigned char *c;

	for (c = (const unsigned char *)text; *c; c++) {
		if (*c == '\n')
			fputs("\\n", f);
		else if (*c == '\t')
			fputs("\\t", f);
		else if (*c == '\r')
			fputs("\\r", f);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(f, "\\x%02x", *c);
		else
			fputc(*c, f);
	}
}

/*
 * One line, always: a value the user gave (an option value with a
 * newline, a file name with an escape sequence) is echoed with its
 * control characters escaped here, so that no caller has to remember.
 * The line is made in memory and written at once: stderr is unbuffered,
 * and written a character at a time it took a write(2) per character
 * and could be cut into by another process's line on the same stderr
 * (a sweep's worker processes share one).
 */
void vsb_fputs_line(FILE *f, const char *prefix, const char *kind,
		    const char *fmt, va_list ap)
{
	char *msg = NULL, *line = NULL;
	size_t len = 0;
	FILE *m;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	m = open_memstream(&line, &len);
	if (m) {
		fprintf(m, "%s%s", prefix, kind);
		put_escaped(m, msg ? msg : fmt);
		fputc('\n', m);
	}
	if (m && fclose(m) == 0) {
		fwrite(line, 1, len, f);
	} else {	/* no memory for the line: in pieces, still said */
		fprintf(f, "%s%s", prefix, kind);
		put_escaped(f, msg ? msg : fmt);
		fputc('\n', f);
	}
	free(line);
	free(msg);
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	if (vsb_errlog_note(kind, fmt, ap))
		return;		/* the caller words it (errlog.c) */
	vsb_fputs_line(stderr, VSB_NAME ": ", kind, fmt, ap);
}

void vsb_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void vsb_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void vsb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}
