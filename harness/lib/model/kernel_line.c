// SPDX-License-Identifier: GPL-2.0
/*
 * The `# kernel:` line of a result, "Linux RELEASE VERSION... MACHINE"
 * as uname -srvm prints it: the metadata record writes it, the store
 * keys a run's kernel by its release and version.  A format of the
 * suite's files, so its writer and its reader live here together.
 */
#include <stdio.h>
#include <string.h>

#include "kernel_line.h"

void vsb_kernel_line_write(struct vsb_meta_rec *m, const char *sysname,
			   const char *release, const char *version,
			   const char *machine)
{
	vsb_meta_rec_add(m, VSB_KERNEL_KEY, "%s %s %s %s", sysname, release, version,
			 machine);
}

/*
 * The release is the word after the first blank, the version all from
 * the next word to the last blank (uname's version has blanks in it;
 * the machine never has).  Blanks are the writer's spaces only.
 */
void vsb_kernel_line_read(const char *line, char *release, size_t rlen,
			  char *version, size_t vlen)
{
	const char *rel = line ? strchr(line, ' ') : NULL, *last, *v;
	size_t n;

	snprintf(release, rlen, "unknown");
	version[0] = '\0';
	if (!rel)
		return;
	rel += strspn(rel, " ");
	n = strcspn(rel, " ");
	if (!n)
		return;
	snprintf(release, rlen, "%.*s", (int)n, rel);
	v = rel + n + strspn(rel + n, " ");
	last = strrchr(line, ' ');
	if (last > v)
		snprintf(version, vlen, "%.*s", (int)(last - v), v);
}
