// SPDX-License-Identifier: GPL-2.0
/*
 * The two number syntaxes of every option (numbers.c): integers decimal
 * only, without leading zeros; fractions the same with a point and an
 * exponent, never hex, inf, nan, a sign or a blank.
 */
#include <math.h>
#include <string.h>

#include "vsb.h"
#include "tap.h"

static int real_is(const char *s, double want)
{
	double v = NAN;

	return !vsb_parse_real(s, &v) && fabs(v - want) <= 1e-12 * fabs(want);
}

static int real_refused(const char *s)
{
	double v;

	return vsb_parse_real(s, &v) == -1;
}

int main(void)
{
	static const char *const bad[] = {
		"", ".", "-1", "+1", " 5", "5 ", "0x10", "0x1p-3", "010", "00.5",
		"inf", "nan", "1e", "1e+", "e5", "1,5", "1.5.2", "1e999", "5s",
	};
	const char *end;
	size_t i;
	double v;
	long l;

	TAP_OK(real_is("0.01", 0.01), "0.01");
	TAP_OK(real_is("5", 5), "5");
	TAP_OK(real_is("0", 0), "0");
	TAP_OK(real_is(".5", 0.5), ".5");
	TAP_OK(real_is("5.", 5), "5.");
	TAP_OK(real_is("1e-3", 1e-3), "1e-3");
	TAP_OK(real_is("2.5E+2", 250), "2.5E+2");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		TAP_OK(real_refused(bad[i]), "'%s' refused", bad[i]);
	end = vsb_scan_real("250ms", &v);
	TAP_OK(end && !strcmp(end, "ms") && v == 250, "a unit may follow: 250ms");
	end = vsb_scan_real("0x10", &v);
	TAP_OK(!end, "0x10 is no number to scan at all (not 0 followed by x10)");
	TAP_OK(!vsb_parse_long("125", &l) && l == 125, "integer 125");
	TAP_OK(vsb_parse_long("010", &l) == -1 && vsb_parse_long("0x1", &l) == -1 &&
	       vsb_parse_long("1.5", &l) == -1, "integers: 010, 0x1 and 1.5 refused");
	return tap_done();
}
