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

void vsb_kernel_line_write(struct vsb_result *r, const char *sysname,
			   const char *release, const char *version,
			   const char *machine)
{
	vsb_result_meta(r, VSB_KERNEL_KEY, "%s %s %s %s", sysname, release, version,
			machine);
}

void vsb_kernel_line_read(const char *line, char *release, size_t rlen,
			  char *version, size_t vlen)
{
	snprintf(release, rlen, "unknown");
	version[0] = '\0';
	if (line) {
		const char *sp = strchr(line, ' '), *last = strrchr(line, ' ');
		char rel[128];

		if (sp && sscanf(sp, " %127s", rel) == 1) {
			const char *v = strstr(sp, rel) + strlen(rel);

			snprintf(release, rlen, "%s", rel);
			while (*v == ' ')
				v++;
			if (last && last > v)
				snprintf(version, vlen, "%.*s", (int)(last - v), v);
		}
	}
}
