/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs-moved rule (c2c_rule.c): when two sets of runs of one point
 * are not comparable; and the c2c_ns line it reads, with its writer.
 */
#ifndef VSB_C2C_RULE_H
#define VSB_C2C_RULE_H

/*
 * Two sets of runs of a multi-CPU point are not comparable when their
 * CPUs were this much nearer or farther apart (medians of their c2c_ns):
 * on a VM the host's placement moves contended costs by up to 2x, which
 * no statistic over the samples can tell from a patch.
 */
#define VSB_C2C_MOVED_RATIO	1.25
/* 1 when distances @a and @b differ by more than the ratio; 0 if unknown */
int vsb_c2c_moved(double a, double b);
/* A c2c_ns metadata value ("80.1 (CPUs 0 and 1: ...)") in ns; NAN unknown */
double vsb_c2c_parse(const char *meta);

#define VSB_C2C_KEY	"c2c_ns"
struct vsb_meta_rec;
/* @m's c2c_ns line: @ns between CPUs @a and @b (NAN: no round trip) */
void vsb_c2c_line_write(struct vsb_meta_rec *m, double ns, int a, int b);

#endif /* VSB_C2C_RULE_H */
