/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The placement policy names of --placement (place_policy.c): their
 * syntax alone, so options are checked without reading the topology
 * (topo.h places workers by the parsed policy).
 */
#ifndef VSB_PLACEMENT_H
#define VSB_PLACEMENT_H

#define VSB_PLACEMENTS "compact|scatter|cores-first|node:N"

enum vsb_policy { P_COMPACT, P_SCATTER, P_CORES_FIRST, P_NODE };
/* 0 and the policy (and node for node:N), or -1; prints nothing */
int vsb_place_policy_parse(const char *s, enum vsb_policy *p, int *node);

/* Syntax of a placement name; 0 or VSB_EXIT_USAGE with a line naming @where. */
int vsb_placement_check(const char *policy, const char *where);

#endif /* VSB_PLACEMENT_H */
