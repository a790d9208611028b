// SPDX-License-Identifier: GPL-2.0
/*
 * exact_disk.c - finding and reading exact mode's window disk.
 *
 * The plugin writes each window's counts into the disk's backing file
 * on the host while the guest runs.  The guest reads with O_DIRECT, so
 * every read goes to QEMU and from there to the file as it is now; a
 * read through the page cache could return a block cached before the
 * window was written.
 */
#define _GNU_SOURCE	/* O_DIRECT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vsb.h"
#include "exact_disk.h"
#include "exact_record.h"

#define EXACT_BLOCK	4096	/* O_DIRECT: aligned offset, length, buffer */

int vsb_exact_guest(void)
{
	char buf[4096], *p;
	size_t n = strlen(VSB_EXACT_CMDLINE);

	if (vsb_read_file_str("/proc/cmdline", buf, sizeof(buf)))
		return 0;
	for (p = strstr(buf, VSB_EXACT_CMDLINE); p; p = strstr(p + 1, VSB_EXACT_CMDLINE))
		if ((p == buf || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/* the block device of NVMe controller @ctl's first namespace, if any */
static int namespace_dev(const char *ctl, char *dev, size_t len)
{
	char path[300];
	struct dirent *e;
	DIR *d;
	int found = 0;

	snprintf(path, sizeof(path), "/sys/class/nvme/%s", ctl);
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (e = readdir(d)))
		if (!strncmp(e->d_name, "nvme", 4) && strstr(e->d_name, "n1") &&
		    e->d_name[strlen(e->d_name) - 1] == '1') {
			snprintf(dev, len, "/dev/%s", e->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

static int find_disk(char *dev, size_t len)
{
	char path[300], serial[64];
	struct dirent *e;
	DIR *d = opendir("/sys/class/nvme");
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/serial", e->d_name);
		if (vsb_read_file_str(path, serial, sizeof(serial)))
			continue;
		/* NVMe pads the serial number with blanks */
		serial[strcspn(serial, " \n")] = '\0';
		if (!strcmp(serial, VSB_EXACT_SERIAL))
			found = namespace_dev(e->d_name, dev, len);
	}
	closedir(d);
	return found;
}

int vsb_exact_open(int *fd)
{
	char dev[300];

	if (!find_disk(dev, sizeof(dev))) {
		vsb_err("--exact: no NVMe disk with serial %s in this guest: "
			"ci/vm-run.sh --exact attaches it", VSB_EXACT_SERIAL);
		return VSB_EXIT_ERROR;
	}
	*fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (*fd < 0) {
		vsb_err("--exact: %s: %s", dev, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	return 0;
}

int vsb_exact_read(int fd, unsigned int cpu, uint64_t seq,
		   struct vsb_exact_window *w)
{
	uint64_t at = vsb_exact_offset(cpu, seq);
	uint64_t block = at - at % EXACT_BLOCK;
	void *buf;
	ssize_t got;
	int ret;

	if (cpu >= VSB_EXACT_VCPUS) {
		vsb_err("--exact: CPU %u: the plugin counts %d vCPUs at most",
			cpu, VSB_EXACT_VCPUS);
		return VSB_EXIT_ERROR;
	}
	buf = vsb_zalloc_page(EXACT_BLOCK);
	got = pread(fd, buf, EXACT_BLOCK, (off_t)block);
	if (got != EXACT_BLOCK) {
		vsb_err("--exact: reading the window disk at %llu: %s",
			(unsigned long long)block, got < 0 ? strerror(errno) : "short read");
		free(buf);
		return VSB_EXIT_ERROR;
	}
	ret = vsb_exact_record_take((char *)buf + (at - block), cpu, seq, w);
	free(buf);
	return ret;
}
