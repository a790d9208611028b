/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal TAP producer for the C unit tests: tests/run.sh counts the
 * "ok" / "not ok" lines.
 */
#ifndef VSB_TAP_H
#define VSB_TAP_H

#include <math.h>
#include <stdio.h>

static int tap_n, tap_failed;

#define TAP_OK(cond, ...) do {						\
	int _c = !!(cond);						\
	printf("%sok %d - ", _c ? "" : "not ", ++tap_n);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!_c) {							\
		tap_failed++;						\
		printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	}								\
} while (0)

#define TAP_NEAR(a, b, eps, ...) do {					\
	double _a = (a), _b = (b);					\
	TAP_OK(fabs(_a - _b) <= (eps), __VA_ARGS__);			\
	if (fabs(_a - _b) > (eps))					\
		printf("#   got %.9g, want %.9g\n", _a, _b);		\
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
