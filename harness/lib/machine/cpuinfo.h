/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpuinfo.h - /proc/cpuinfo (cpuinfo.c), parsed once into what the
 * suite asks of it.  It takes a path so the unit tests can feed fake
 * files.
 */
#ifndef VSB_CPUINFO_H
#define VSB_CPUINFO_H

struct vsb_cpuinfo {
	char model[256];
	/* the stable identity of the part, for the store's machine fingerprint */
	char vendor[32];		/* vendor_id: GenuineIntel, AuthenticAMD */
	int family, model_id, stepping;	/* -1 when absent */
	char microcode[32];
	int nproc;			/* "processor" lines */
	int hypervisor;			/* CPUID hypervisor bit: running in a VM */
	int constant_tsc, nonstop_tsc, tsc_known_freq;
};

/*
 * @path (a /proc/cpuinfo) into @ci: 0, or -1 when it cannot be read,
 * @ci then "unknown" and -1 throughout, as for the fields it lacks.
 */
int vsb_cpuinfo_read(const char *path, struct vsb_cpuinfo *ci);
/* This machine's /proc/cpuinfo, read on first use. */
const struct vsb_cpuinfo *vsb_cpuinfo_host(void);
/* TSC invariant: constant_tsc and nonstop_tsc both set. */
int vsb_cpuinfo_tsc_invariant(const struct vsb_cpuinfo *ci);
/* "constant_tsc nonstop_tsc", either alone, or "" */
const char *vsb_cpuinfo_tsc_flags(const struct vsb_cpuinfo *ci);

#endif /* VSB_CPUINFO_H */
