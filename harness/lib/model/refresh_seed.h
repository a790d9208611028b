/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A threshold-refresh result's `# refresh_seed_estimate:` line
 * (refresh_seed.c): how many iterations the kernel's own refresh takes,
 * written by the bench (harness/benches/refresh_bench.c), read back by
 * the refresh chart (lib/charts/charts_live.c).
 */
#ifndef VSB_REFRESH_SEED_H
#define VSB_REFRESH_SEED_H

#include "result.h"

#define VSB_REFRESH_SEED_KEY	"refresh_seed_estimate"

/* "N iterations (nCPU * 2 * nodes * nCPU/2)" into @r's metadata */
void vsb_refresh_seed_write(struct vsb_result *r, unsigned long long n);

/* N of such a value (NULL: none); 0 when it is none the writer makes */
double vsb_refresh_seed_read(const char *val);

#endif /* VSB_REFRESH_SEED_H */
