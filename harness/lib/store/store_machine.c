// SPDX-License-Identifier: GPL-2.0
/*
 * Which machine a result ran on, for the store: a fingerprint of fields
 * that stay the same across reboots and runs of one machine (CPU vendor,
 * model, family, model number, stepping, microcode, sockets x cores x
 * threads and NUMA nodes, RAM, hypervisor) and never of those that
 * drift (bogomips, MHz, the hostname, online CPUs).  RAM is rounded to
 * GiB because MemTotal moves with the kernel's own reservations.
 *
 * Older results carry only cpu_model, topology and hypervisor.  Their
 * fingerprint is of what they carry, and the missing fields are named;
 * when the result's CPU model is this host's, the rest is read here, in
 * the same format a result that carries them would use, so the same
 * machine gets the same fingerprint either way.
 */
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "cpuinfo.h"
#include "hash.h"
#include "meminfo.h"
#include "store.h"

/* metadata keys; the topology is the part before ';' (the caches follow) */
const char *const vsb_machine_field_names[VSB_MACHINE_FIELDS] = {
	"cpu_vendor", "cpu_model", "cpu_family", "cpu_model_id", "cpu_stepping",
	"cpu_microcode", "topology", "mem_total", "hypervisor",
};

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		s[--n] = '\0';
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	memmove(s, s + i, n - i + 1);
}

/*
 * This host's values of the same fields, in the words the record writes
 * them (meta.c), from lib/machine's one reader of each /proc file; ""
 * where the host does not say.
 */
static void read_host(char host[VSB_MACHINE_FIELDS][256])
{
	const struct vsb_cpuinfo *ci = vsb_cpuinfo_host();
	long kb = vsb_meminfo_kb("MemTotal");

	if (strcmp(ci->vendor, "unknown"))
		snprintf(host[0], 256, "%s", ci->vendor);
	if (strcmp(ci->model, "unknown"))
		snprintf(host[1], 256, "%s", ci->model);
	if (ci->family >= 0)
		snprintf(host[2], 256, "%d", ci->family);
	if (ci->model_id >= 0)
		snprintf(host[3], 256, "%d", ci->model_id);
	if (ci->stepping >= 0)
		snprintf(host[4], 256, "%d", ci->stepping);
	if (strcmp(ci->microcode, "unknown"))
		snprintf(host[5], 256, "%s", ci->microcode);
	if (kb >= 0)
		snprintf(host[7], 256, "%ld GiB", (kb + (1L << 19)) >> 20);
	if (ci->nproc)
		snprintf(host[8], 256, "%s", ci->hypervisor ? "yes" : "no");
}

void vsb_machine_identify(const char *(*meta_get)(const void *ctx, const char *key),
			  const void *ctx, int allow_host, struct vsb_machine_id *m)
{
	char host[VSB_MACHINE_FIELDS][256] = { { 0 } };
	uint64_t h = VSB_FNV_INIT;
	size_t off = 0;
	int k;

	memset(m, 0, sizeof(*m));
	for (k = 0; k < VSB_MACHINE_FIELDS; k++) {
		const char *v = meta_get(ctx, vsb_machine_field_names[k]);

		if (v && *v && strcmp(v, "unavailable"))
			snprintf(m->val[k], sizeof(m->val[k]), "%s", v);
	}
	m->val[6][strcspn(m->val[6], ";")] = '\0';
	trim(m->val[6]);
	if (allow_host) {
		read_host(host);
		if (!*m->val[1] || strcmp(host[1], m->val[1]))
			allow_host = 0;	/* not from this machine, or unknown */
	}
	for (k = 0; k < VSB_MACHINE_FIELDS; k++) {
		if (!*m->val[k] && allow_host && *host[k]) {
			snprintf(m->val[k], sizeof(m->val[k]), "%.255s", host[k]);
			m->from_host[k] = 1;
		}
		if (!*m->val[k]) {
			off += (size_t)snprintf(m->missing + off, sizeof(m->missing) - off,
						"%s%s", off ? " " : "",
						vsb_machine_field_names[k]);
			if (off >= sizeof(m->missing))
				off = sizeof(m->missing) - 1;
			continue;
		}
		h = vsb_fnv1a64(vsb_machine_field_names[k],
				strlen(vsb_machine_field_names[k]), h);
		h = vsb_fnv1a64("=", 1, h);
		h = vsb_fnv1a64(m->val[k], strlen(m->val[k]), h);
		h = vsb_fnv1a64("\n", 1, h);
	}
	snprintf(m->fingerprint, sizeof(m->fingerprint), "m-%016llx",
		 (unsigned long long)h);
}
