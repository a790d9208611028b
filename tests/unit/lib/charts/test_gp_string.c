// SPDX-License-Identifier: GPL-2.0
/*
 * vsb_gp_string() against gnuplot itself: every string quoted for a
 * gnuplot command must come back from `print` byte for byte.  The
 * labels of a bisect chart ("kstat mod-zone cpus=0-1") once came back
 * as "cpus\350-1": gnuplot reads an escape that starts with 0 as four
 * octal digits when a digit follows it.  Exits 4 (skip) without gnuplot.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "plot.h"
#include "tap.h"

/* what gnuplot prints for the literal @q; NULL when it could not run */
static char *gnuplot_print(const char *q)
{
	char *cmd = NULL, *got = NULL;
	size_t len = 0;
	ssize_t n;
	FILE *p;

	/* the literal goes through the shell in single quotes: it has none */
	if (strchr(q, '\'') || asprintf(&cmd, "gnuplot -e 'print %s' 2>&1", q) < 0)
		return NULL;
	p = popen(cmd, "r");
	free(cmd);
	if (!p)
		return NULL;
	n = getline(&got, &len, p);
	if (pclose(p) != 0 || n <= 0) {
		free(got);
		return NULL;
	}
	if (got[n - 1] == '\n')
		got[n - 1] = '\0';
	return got;
}

int main(void)
{
	static const char *const cases[] = {
		"kstat mod-zone cpus=0", "kstat mod-zone cpus=0-1",
		"a=0b=7c=8", "$HOME `id` \"q\" \\n 'x'", "/tmp/x y/sweep.csv",
		"100% (x1.5) [0,1]", "\t#7",
	};
	char q[1024];
	size_t i;

	if (system("gnuplot --version >/dev/null 2>&1") != 0) {
		printf("# skip: no gnuplot here\n");
		return 4;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got;

		TAP_OK(vsb_gp_string(q, sizeof(q), cases[i]) == 0, "quoted: %s", q);
		got = gnuplot_print(q);
		TAP_OK(got && !strcmp(got, cases[i]), "gnuplot reads back [%s] (got [%s])",
		       cases[i], got ? got : "(no output)");
		free(got);
	}
	TAP_OK(vsb_gp_string(q, sizeof(q), "a\nb") == -1, "a line break is refused");
	TAP_OK(vsb_gp_string(q, 8, "abcdefgh") == -1, "no room is refused");
	return tap_done();
}
