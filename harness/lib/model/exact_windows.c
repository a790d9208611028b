// SPDX-License-Identifier: GPL-2.0
/*
 * exact_windows.c - the exact_windows metadata's writer and reader (see
 * exact_windows.h), one syntax for the bench that notes the windows and
 * the profile code that reads them back.  A run is read only as the
 * writer writes it: digits, no sign or blank, so a hand-edited list is
 * refused, not read as something near it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact_windows.h"

/*
 * Decimal digits at *@s into @v, ended by @stop (by a blank or the end
 * when @stop is ' '): 0 with *@s at the end, or -1.
 */
static int number(const char **s, char stop, unsigned long long *v)
{
	char *end;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	*v = strtoull(*s, &end, 10);
	if (errno || (*end != stop && !(stop == ' ' && !*end)))
		return -1;
	*s = end;
	return 0;
}

/* "v:a-b" at @s, ended by a blank or the end: 0 with *@end after it, or -1 */
static int run_at(const char *s, unsigned int *vcpu, unsigned long long *lo,
		  unsigned long long *hi, const char **end)
{
	unsigned long long v;
	const char *p = s;

	if (number(&p, ':', &v) || v > 0xffffffffULL)
		return -1;
	p++;
	if (number(&p, '-', lo))
		return -1;
	p++;
	if (number(&p, ' ', hi) || *hi < *lo)
		return -1;
	*vcpu = (unsigned int)v;
	*end = p;
	return 0;
}

int vsb_exact_windows_next(const char **p, unsigned int *vcpu,
			   unsigned long long *lo, unsigned long long *hi)
{
	const char *w = strchr(*p, ' '), *end;

	if (!w)
		return 0;
	if (run_at(w + 1, vcpu, lo, hi, &end))
		return -1;
	*p = end;
	return 1;
}

int vsb_exact_windows_add(char *list, size_t len, const char *boot,
			  unsigned int vcpu, unsigned long long seq)
{
	const char *run, *end = NULL;
	unsigned long long lo = 0, hi;
	unsigned int v;
	char out[4096];
	int n;

	for (run = strchr(list, ' '); run; run = strchr(run + 1, ' '))
		if (!run_at(run + 1, &v, &lo, &hi, &end) && v == vcpu && hi + 1 == seq)
			break;
	if (run)	/* the run goes on to @seq */
		n = snprintf(out, sizeof(out), "%.*s%u:%llu-%llu%s",
			     (int)(run + 1 - list), list, vcpu, lo, seq, end);
	else if (*list)
		n = snprintf(out, sizeof(out), "%s %u:%llu-%llu", list, vcpu,
			     seq, seq);
	else
		n = snprintf(out, sizeof(out), "boot=%s %u:%llu-%llu", boot, vcpu,
			     seq, seq);
	if (n < 0 || (size_t)n >= len || (size_t)n >= sizeof(out))
		return -1;
	memcpy(list, out, (size_t)n + 1);
	return 0;
}
