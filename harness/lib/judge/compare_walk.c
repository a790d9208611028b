// SPDX-License-Identifier: GPL-2.0
/*
 * What a BASE or NEW path of `compare` stands for: a raw-sample CSV; a
 * sweep folder, the points its points.txt lists as done; or any other
 * folder, every raw CSV in it and every sweep folder below it.  Each
 * file found is loaded into its side by compare.c.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "csvread.h"
#include "point_list.h"
#include "result_load.h"
#include "vsb.h"

/* a raw result by its name: the store's rule (result_load.c) */
static int is_raw_csv(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".csv") && !vsb_rl_is_derived_name(name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* points.txt of the largest sweep (10000 points) is well below this */
#define CMP_POINTS_MAX_BYTES	(16u << 20)

/*
 * A sweep folder: the points points.txt lists as done (so stale files of
 * an older sweep in the same place do not count).  1: no points.txt.
 * points.txt is read like every input (a regular file, size-capped): a
 * FIFO there would block the read, a link to /dev/zero never end it.
 */
static int load_sweep_dir(struct vsb_compare *c, struct vsb_cmp_side *s,
			  const char *path)
{
	char list[4096 + 16], file[8192], *buf = NULL, *line, *next;
	size_t len, lineno = 0;
	struct stat st;
	int ret;

	snprintf(list, sizeof(list), "%s/points.txt", path);
	if (lstat(list, &st))
		return 1;
	ret = vsb_csv_slurp(list, CMP_POINTS_MAX_BYTES, &buf, &len);
	for (line = buf; !ret && line && *line; line = next) {
		const char *id;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		id = vsb_point_list_done(list, ++lineno, line, &ret);
		if (!id)
			continue;
		snprintf(file, sizeof(file), "%s/%s.csv", path, id);
		ret = vsb_cmp_load_file(c, s, file);
	}
	free(buf);
	return ret;
}

/*
 * @name in the folder @dfd, as a folder walk sees it: a folder (a sweep's, when it
 * holds points.txt) or a raw result; neither when it is a link.  Links
 * are skipped, not followed, as the store's walk skips them: a link to
 * a folder above (`self -> .`) would load the same files again as more
 * runs, and a folder then compares as the store imports it.
 */
static int walk_entry(int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;	/* gone meanwhile */
	if (S_ISDIR(st.st_mode))
		return name[0] != '.';
	return S_ISREG(st.st_mode) && is_raw_csv(name);
}

/* The raw CSVs and sub-folders of @path, sorted by name; -1: unreadable. */
static ssize_t list_dir(const char *path, char ***names)
{
	DIR *d = opendir(path);
	struct dirent *de;
	size_t n = 0;

	*names = NULL;
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (walk_entry(dirfd(d), de->d_name)) {
			char **more = realloc(*names, (n + 1) * sizeof(*more));

			if (!more || !(more[n] = strdup(de->d_name))) {
				vsb_err("out of memory");
				exit(VSB_EXIT_ERROR);
			}
			*names = more;
			n++;
		}
	closedir(d);
	if (n)		/* qsort of no array: NULL is not allowed, even for 0 */
		qsort(*names, n, sizeof(**names), cmp_str);
	return (ssize_t)n;
}

#define CMP_DIR_DEPTH 3	/* side/boot/run-K: folders of folders of sweeps */

/*
 * Any other folder: every raw CSV in it, and every sweep folder inside
 * it, in name order, down to CMP_DIR_DEPTH levels (`sweep --runs N`
 * writes run-1/ .. run-N/; a side's boots, each such a folder, side by
 * side in one folder make one more level).
 */
static int load_plain_dir(struct vsb_compare *c, struct vsb_cmp_side *s,
			  const char *path, int depth)
{
	char file[8192], **names;
	ssize_t n = list_dir(path, &names), i;
	int ret = 0;

	if (n < 0) {
		vsb_err("%s: cannot read the directory", path);
		return VSB_EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/%s", path, names[i]);
		if (!ret && is_raw_csv(names[i])) {
			ret = vsb_cmp_load_file(c, s, file);
		} else if (!ret) {
			ret = load_sweep_dir(c, s, file);
			if (ret == 1)	/* a folder, but not a sweep's */
				ret = depth < CMP_DIR_DEPTH ?
				      load_plain_dir(c, s, file, depth + 1) : 0;
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int vsb_cmp_load(struct vsb_compare *c, struct vsb_cmp_side *s,
		 const char *path)
{
	struct stat st;
	int ret;

	if (stat(path, &st)) {
		vsb_err("%s: no such file or directory", path);
		return VSB_EXIT_USAGE;
	}
	s->path = path;
	if (!S_ISDIR(st.st_mode))
		return vsb_cmp_load_file(c, s, path);
	ret = load_sweep_dir(c, s, path);
	if (ret == 1)
		ret = load_plain_dir(c, s, path, 1);
	if (!ret && !s->n) {
		vsb_err("%s: no finished points with raw samples", path);
		ret = VSB_EXIT_USAGE;
	}
	return ret;
}
