// SPDX-License-Identifier: GPL-2.0
/*
 * The two number syntaxes of every option, sweep key and sysctl value:
 * integers and numbers with a fraction, each with one parser that the
 * check and the use share (a value checked one way and used another ran
 * --ncpus 0x1 as 2 workers).  Hand-written on top of strtol/strtod
 * because those accept what must be refused here: hex, octal-looking
 * zeros, blanks, signs, inf and nan.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "vsb.h"

/*
 * The one integer syntax of every option, sweep key and sysctl value:
 * decimal, an optional '-', no '+', no spaces, no leading zeros ("0"
 * itself is fine).  0x1 and 010 are refused rather than guessed at:
 * strtol's base 0 read 010 as 8, and the kernel's sysctl handlers do the
 * same, so a number that is decimal here could be octal there.  Returns
 * the end of the digits, or NULL when @s does not start with a number
 * in range; the caller decides what may follow (nothing, '-', ',').
 */
const char *vsb_scan_decimal(const char *s, long *out)
{
	const char *d = s && *s == '-' ? s + 1 : s;
	char *end;
	long v;

	if (!d || *d < '0' || *d > '9' || (d[0] == '0' && d[1] >= '0' && d[1] <= '9'))
		return NULL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s)
		return NULL;
	*out = v;
	return end;
}

/* A whole string in vsb_scan_decimal's syntax; -1 on anything else. */
int vsb_parse_long(const char *s, long *out)
{
	const char *end = vsb_scan_decimal(s, out);

	return end && !*end ? 0 : -1;
}

/*
 * The one syntax of a number with a fraction (--alpha, --noise,
 * --max-regression, --duration, a --monitor interval): vsb_scan_decimal's
 * integer part ("0" or no leading zero; it may be left out before a
 * point), an optional fraction, an optional exponent.  No sign, no
 * spaces, no hex, no inf or nan: strtod alone took "0x1p-3" and " 5",
 * and "--monitor vmstat:0x10" sampled every 16 s.  Returns the end of
 * the number, or NULL when @s does not start with one.
 */
static const char *digits(const char *p)
{
	while (isdigit((unsigned char)*p))
		p++;
	return p;
}

const char *vsb_scan_real(const char *s, double *out)
{
	const char *p = s;
	char *end;

	if (*p == '0')
		p++;			/* one zero: "010" stops at the 1 */
	else
		p = digits(p);
	if (*p == '.') {
		p = digits(p + 1);
		if (p == s + 1)
			return NULL;	/* "." alone */
	} else if (p == s || isdigit((unsigned char)*p)) {
		return NULL;
	}
	if ((*p == 'e' || *p == 'E') &&
	    (isdigit((unsigned char)p[1]) ||
	     ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2]))))
		p = digits(p + 2);
	*out = strtod(s, &end);
	return end == p && isfinite(*out) ? p : NULL;
}

/* A whole string in vsb_scan_real's syntax; -1 on anything else. */
int vsb_parse_real(const char *s, double *out)
{
	const char *end = vsb_scan_real(s, out);

	return end && !*end ? 0 : -1;
}

/*
 * @v (a number vsb_scan_real read) times @scale as a whole count of a
 * unit in [@min, @max]: the value itself is checked, never a rounding
 * of it.  `--monitor vmstat:99.5ms` was rounded to 100 and taken where
 * under 100 ms is refused, and `trace --duration 1e-10` became 0 ns, no
 * limit at all.  A fraction of the unit is refused too (it could not be
 * honoured), but what is left within 1e-12 of a whole count is the
 * binary fraction's error (a few units in the last place of @v), not a
 * fraction the user wrote.  The range is the product's own: the bounds
 * (100 ms, 1 ns, 86400 s) are exact in binary.  0 with *@out,
 * VSB_UNITS_RANGE or VSB_UNITS_FRACTION.
 */
int vsb_real_units(double v, double scale, long long min, long long max,
		   long long *out)
{
	double x = v * scale, r = nearbyint(x);

	if (!(x >= (double)min && x <= (double)max))
		return VSB_UNITS_RANGE;
	if (fabs(x - r) > 1e-12 * (x > 1 ? x : 1))
		return VSB_UNITS_FRACTION;
	*out = (long long)r;
	return 0;
}

/* Why @s is not an integer, for the one error line. */
static const char *not_int_why(const char *s)
{
	const char *d = *s == '-' ? s + 1 : s;

	if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
		return "is not a decimal integer (no hex)";
	if (d[0] == '0' && d[1] >= '0' && d[1] <= '9')
		return "is not a decimal integer (no leading zeros: 010 would be "
		       "octal to strtol and to the kernel)";
	return "is not an integer";
}

/* @s as an integer in [@min, @max] into *@out; one line naming @opt if not. */
int vsb_parse_long_range(const char *opt, const char *s, long min, long max, long *out)
{
	long v;

	if (vsb_parse_long(s, &v)) {
		vsb_err("%s: '%s' %s", opt, s, not_int_why(s));
		return VSB_EXIT_USAGE;
	}
	if (v < min || v > max) {
		vsb_err("%s: %ld is out of range (%ld..%ld)", opt, v, min, max);
		return VSB_EXIT_USAGE;
	}
	*out = v;
	return 0;
}

/*
 * A byte count: vsb_scan_decimal's digits (no sign, no 0x, no leading
 * zeros), then an optional K/M/G (binary) and an optional "B" or "iB".
 */
int vsb_parse_size(const char *s, unsigned long long *out)
{
	unsigned long long mul = 1;
	const char *end;
	long v;

	if (!s || *s == '-')
		return -1;
	end = vsb_scan_decimal(s, &v);
	if (!end)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		mul = 1ull << 10;
		end++;
		break;
	case 'm': case 'M':
		mul = 1ull << 20;
		end++;
		break;
	case 'g': case 'G':
		mul = 1ull << 30;
		end++;
		break;
	}
	if (mul > 1 && end[0] == 'i' && end[1] == 'B')	/* 64KiB */
		end += 2;
	else if (*end == 'B')				/* 64KB, 4096B */
		end++;
	if (*end || v <= 0 || (unsigned long long)v > (1ull << 40) / mul)
		return -1;
	*out = (unsigned long long)v * mul;
	return 0;
}

int vsb_check_size(const char *v, const char *where)
{
	unsigned long long s;

	if (vsb_parse_size(v, &s)) {
		vsb_err("%s: '%s' is not a size (decimal bytes, or with K/M/G; 1 byte "
			"to 1024G)", where, v);
		return VSB_EXIT_USAGE;
	}
	return 0;
}
