// SPDX-License-Identifier: GPL-2.0
/*
 * The cross-check's answer for the rest of the boot: see topo_cache.h.
 * One file a (sysfs topology, library) pair, VSB_SCRATCH_DIR/topo-KEY,
 * holding a header and the struct as the cross-check left it.  It is
 * written whole under a temporary name and linked into place, so a
 * reader sees all of it or none, and a name already taken (by another
 * process's answer, or by a file nobody should trust) is never replaced.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "scratch.h"
#include "topo_cache.h"
#include "vsb.h"

#define TOPO_MAGIC	"vsb-topo-1"

struct topo_file {
	char magic[16];
	uint64_t key;
	struct vsb_topo topo;
};

static uint64_t hash_int(uint64_t h, long v)
{
	return vsb_fnv1a64(&v, sizeof(v), h);
}

/* the sysfs topology field by field (no padding bytes), the boot, the library */
static uint64_t cache_key(const struct vsb_topo *sys, const char *lib)
{
	uint64_t h = hash_int(VSB_FNV_INIT, sys->n);
	char boot[64];
	int i;

	for (i = 0; i < sys->n && i < VSB_MAX_CPUS; i++) {
		const struct vsb_topo_cpu *c = &sys->cpu[i];

		h = hash_int(hash_int(hash_int(hash_int(hash_int(h, c->cpu), c->pkg),
						 c->core), c->node), c->smt);
	}
	h = hash_int(hash_int(hash_int(hash_int(h, sys->nsockets), sys->ncores),
			      sys->nnodes), sys->threads_per_core);
	for (i = 0; i < sys->ncaches && i < 8; i++) {
		h = hash_int(hash_int(hash_int(h, sys->cache[i].level), sys->cache[i].size_kb),
			     sys->cache[i].shared_by);
		h = vsb_fnv1a64(sys->cache[i].type, strlen(sys->cache[i].type), h);
	}
	/* /run need not be a tmpfs: the boot's own id keeps the answer to it */
	if (vsb_read_file_str("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)))
		boot[0] = '\0';
	h = vsb_fnv1a64(boot, strlen(boot), h);
	return vsb_fnv1a64(lib, strlen(lib), h);
}

static void cache_path(char *buf, size_t len, uint64_t key)
{
	snprintf(buf, len, VSB_SCRATCH_DIR "/topo-%016llx", (unsigned long long)key);
}

int vsb_topo_cache_load(const struct vsb_topo *sys, const char *lib, struct vsb_topo *t)
{
	uint64_t key = cache_key(sys, lib);
	struct topo_file f;
	char path[128];
	struct stat st;
	int fd, ok;

	cache_path(path, sizeof(path), key);
	fd = vsb_open_regular(path, O_NOFOLLOW, &st);
	if (fd < 0)
		return -1;
	ok = st.st_uid == geteuid() && !(st.st_mode & 022) && st.st_size == (off_t)sizeof(f) &&
	     read(fd, &f, sizeof(f)) == (ssize_t)sizeof(f) &&
	     !strcmp(f.magic, TOPO_MAGIC) && f.key == key;
	close(fd);
	if (!ok)
		return -1;
	*t = f.topo;
	t->source[sizeof(t->source) - 1] = '\0';
	return 0;
}

void vsb_topo_cache_store(const struct vsb_topo *sys, const char *lib, const struct vsb_topo *t)
{
	struct topo_file f;
	char path[128], tmp[160];
	int fd, ok;

	memset(&f, 0, sizeof(f));
	snprintf(f.magic, sizeof(f.magic), "%s", TOPO_MAGIC);
	f.key = cache_key(sys, lib);
	f.topo = *t;
	cache_path(path, sizeof(path), f.key);
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	if (vsb_mkdir_p(VSB_SCRATCH_DIR, 0700))
		return;		/* not root: every process checks for itself */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	ok = write(fd, &f, sizeof(f)) == (ssize_t)sizeof(f);
	ok = !close(fd) && ok;
	if (ok && link(tmp, path) && errno != EEXIST)
		ok = 0;
	unlink(tmp);
}
