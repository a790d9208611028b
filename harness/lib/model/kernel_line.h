/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result's `# kernel:` line (kernel_line.c): uname -srvm, written by
 * the metadata record (lib/machine/meta.c), its release and version
 * read back by the store's import (lib/store/store_import.c).
 */
#ifndef VSB_KERNEL_LINE_H
#define VSB_KERNEL_LINE_H

#include <stddef.h>

#include "result.h"

#define VSB_KERNEL_KEY	"kernel"

/* "SYSNAME RELEASE VERSION... MACHINE" into the metadata record @m */
void vsb_kernel_line_write(struct vsb_meta_rec *m, const char *sysname,
			   const char *release, const char *version,
			   const char *machine);

/*
 * The release and version of a `# kernel:` value @line (NULL: none)
 * into @release ("unknown" when there is none) and @version ("").
 */
void vsb_kernel_line_read(const char *line, char *release, size_t rlen,
			  char *version, size_t vlen);

#endif /* VSB_KERNEL_LINE_H */
