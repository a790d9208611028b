/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The worker-process list of a sweep point's files (worker_list.c):
 * `# sweep_procs: W (repetitions by worker process: 0-4,5-9,...)`, which
 * repetitions each of `sweep --procs`' worker processes ran.  Written
 * by the sweep (harness/sweep/write.c), read by `compare`, which takes
 * each process for a run of its own (lib/judge/compare.c).
 */
#ifndef VSB_WORKER_LIST_H
#define VSB_WORKER_LIST_H

#include <stddef.h>

#define VSB_WORKER_LIST_KEY	"sweep_procs"

/*
 * The line's value into @buf for @nprocs processes, process k having
 * run repetitions end[k - 1] to end[k] - 1 (end[-1] being 0); a process
 * that ran none is left out.  Returns how many are listed: a list of
 * fewer than two says nothing (one process ran them all).
 */
size_t vsb_worker_list_write(char *buf, size_t len, const long *end, size_t nprocs);

/*
 * A `# sweep_procs:` value into @lo/@hi (at most @max ranges), each
 * range one process: how many, 0 when @line is NULL or not a list the
 * writer above makes (ranges out of order, a number that is not one
 * in numbers.c's syntax, a repetition past --repeat's maximum, anything
 * after the closing parenthesis).
 */
size_t vsb_worker_list_read(const char *line, unsigned int *lo, unsigned int *hi,
			    size_t max);

#endif /* VSB_WORKER_LIST_H */
