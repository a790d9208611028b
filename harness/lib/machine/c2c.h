/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How far apart two CPUs are, as a cache line sees it (c2c.c); the rule
 * that reads it back out of the metadata is c2c_rule.h's.
 */
#ifndef VSB_C2C_H
#define VSB_C2C_H

/* A cache line's round trip between two CPUs in ns, NaN if unknown. */
double vsb_c2c_ns(int cpu_a, int cpu_b);

#endif /* VSB_C2C_H */
