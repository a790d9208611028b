// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_fuzz - throw random and malformed ioctls at /dev/vmstat_bench.
 *
 * Runs inside the test guest (static binary, busybox around it).  Every
 * request must come back as 0 or -1 with an errno from the documented
 * set; the guest kernel, booted with panic_on_warn=1 oops=panic, must
 * survive them all (ci/vm-run.sh fails the run on any splat).  A request
 * that succeeds must report a passing sanity check.
 *
 * Request kinds, chosen at random per request:
 *   - random ioctl numbers, and near misses of the real ones (other
 *     sizes, directions, numbers under our magic);
 *   - VSB_IOC_VERSION with bad sizes, dirty fields, bad pointers;
 *   - VSB_IOC_RUN from a small valid request with one field replaced by
 *     an edge or random value (sizes, versions, reserved words, benches,
 *     variants, flags, orders, loop counts, CPU lists with offline,
 *     duplicate and out-of-range ids, NULL/unmapped/kernel/read-only
 *     buffers);
 *   - the counter bench's fold policies (none/local/remote, safe for the
 *     variant two times in three), fold intervals within 10 us..10 s,
 *     quiet worker counts below the CPU count and the drift reader, and
 *     each of those fields off by an edge value (a quiet count >= ncpus,
 *     an interval out of range or with no fold: -EINVAL);
 *   - ABI 1 requests through VSB_IOC_RUN_V1 (224 bytes, version 1);
 *   - fully random bytes.
 * The valid base is kept short (small loops, 50 ms time limit), so an
 * accidental valid request costs milliseconds; a field that makes it
 * long (loops) is only ever paired with the short time limit.
 *
 * Usage: kmod_fuzz [N [SEED]]     (default 10000 requests, seed 1)
 * Prints one summary line; exit 0 when nothing unexpected happened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../kmod/uapi/vmstat_bench.h"
#include "../../bench/kstat_ops.h"
#include "../../bench/variants.h"

static uint64_t rng_s;

static uint64_t rnd(void)
{
	uint64_t z = (rng_s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* An edge or random value for a field of @bits. */
static uint64_t edge(unsigned int bits)
{
	static const uint64_t e[] = { 0, 1, 2, 3, 7, 8, 10, 11, 16, 31, 32, 33,
				      63, 64, 65, 100, 101, 125, 126, 1000, 1001,
				      8192, 8193, 32765, 32766, 65536,
				      1000000000ULL, 1000000001ULL,
				      0x7fffffffULL, 0x80000000ULL, 0xffffffffULL,
				      0x100000000ULL, ~0ULL };
	uint64_t v = below(3) ? e[below(sizeof(e) / sizeof(e[0]))] : rnd();

	return bits == 64 ? v : v & ((1ULL << bits) - 1);
}

static int nr_cpu, online[4096], nonline;
static void *unmapped, *rdonly;
static struct vsb_ioc_sample *samples;
#define SAMPLES_CAP 4096

static uint64_t bad_ptr(void)
{
	switch (below(6)) {
	case 0:
		return 0;
	case 1:
		return (uint64_t)(uintptr_t)unmapped;
	case 2:
		return 0xffff888000000000ULL;	/* kernel direct map */
	case 3:
		return (uint64_t)(uintptr_t)rdonly;
	case 4:
		return ~0ULL - 7;
	default:
		return rnd();
	}
}

static uint32_t cpubuf[8];

/*
 * A fold policy, usually one the variant survives, with an interval that
 * keeps even a 10 us timer inside the 50 ms run; quiet workers; reader.
 */
static void fold_req(struct vsb_ioc_run *r)
{
	unsigned int vf = vsb_variants[r->variant].flags;

	r->fold = (uint32_t)below(VSB_FOLD_POLICY_NR);
	if (below(3) && (vf & (VSB_VF_NOFOLD | VSB_VF_PCC | VSB_VF_NOTHRESH)))
		r->fold = VSB_FOLD_POLICY_NONE;
	else if (below(3) && r->fold == VSB_FOLD_POLICY_LOCAL &&
		 !(vf & VSB_VF_LOCAL_FOLD_OK))
		r->fold = VSB_FOLD_POLICY_NONE;
	else if (below(3) && r->fold == VSB_FOLD_POLICY_REMOTE &&
		 !(vf & VSB_VF_REMOTE_FOLD_OK))
		r->fold = VSB_FOLD_POLICY_NONE;
	if (r->fold != VSB_FOLD_POLICY_NONE)
		r->fold_interval_us = below(8) ?
			VSB_ABI_FOLD_INTERVAL_MIN_US + (uint32_t)below(2000) :
			VSB_ABI_FOLD_INTERVAL_MAX_US - (uint32_t)below(2);
	r->quiet_workers = (uint32_t)below(r->ncpus);
	if (below(2))
		r->flags |= VSB_RUN_DRIFT;
}

/* A kstat op with runs that fold now and then; a set threshold sometimes. */
static void kstat_req(struct vsb_ioc_run *r)
{
	unsigned int f;

	r->kstat_op = (uint32_t)below(VSB_KSTAT_NR);
	f = vsb_kstat_ops[r->kstat_op].flags;
	r->delta = f & VSB_KF_UNIT ? 1 : 1 + (int32_t)below(3);
	r->run_length = 1 + (uint32_t)below(300);
	r->busy_workers = (uint32_t)below(r->ncpus);
	if (f & VSB_KF_PCC)
		r->batch = 1 + (uint32_t)below(64);
	if ((f & (VSB_KF_ZONE | VSB_KF_NODE)) && !below(4))
		r->threshold = 1 + (uint32_t)below(VSB_ABI_KSTAT_THRESHOLD_MAX);
}

static void base_req(struct vsb_ioc_run *r)
{
	unsigned int i, n;

	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->version = VSB_ABI_VERSION;
	r->bench = (uint32_t)below(VSB_BENCH_NR);
	n = r->bench == VSB_BENCH_PAGE_ALLOC ? 1 : 1 + (unsigned int)below(nonline);
	for (i = 0; i < n; i++)
		cpubuf[i] = (uint32_t)online[i];
	r->ncpus = n;
	r->cpus_ptr = (uint64_t)(uintptr_t)cpubuf;
	r->loops = 1 + below(2000);
	r->repeat = 1 + (uint32_t)below(2);
	r->warmup = (uint32_t)below(2);
	r->samples_ptr = (uint64_t)(uintptr_t)samples;
	r->samples_cap = SAMPLES_CAP;
	r->time_limit_ms = 50;
	if (r->bench == VSB_BENCH_COUNTER) {
		r->variant = (uint32_t)below(7);
		r->diff_bits = 8 << below(3);
		r->threshold = (uint32_t)below(126);
		r->items = 1 + (uint32_t)below(8);
		r->delta = below(2) ? 1 : -1;
		r->batch = 32;
		if (below(4) == 0)
			r->flags = below(2) ? VSB_RUN_IRQS_OFF : VSB_RUN_PREEMPT_OFF;
		fold_req(r);
	} else if (r->bench == VSB_BENCH_KSTAT) {
		kstat_req(r);
	} else {
		r->order = (uint32_t)below(4);
		r->outstanding = below(2) ? 0 : (uint32_t)below(64);
		if (below(4) == 0) {
			r->flags = VSB_RUN_PREEMPT_OFF;
			r->gfp = VSB_GFP_ATOMIC;
		}
	}
	r->flags |= VSB_RUN_NO_PMU * (uint32_t)below(2);
}

/* Replace one field of a valid request. */
static void mutate(struct vsb_ioc_run *r)
{
	unsigned int k = (unsigned int)below(41);

	switch (k) {
	case 0: r->size = (uint32_t)edge(32); break;
	case 1: r->version = (uint32_t)edge(32); break;
	case 2: r->bench = (uint32_t)edge(32); break;
	case 3: r->variant = (uint32_t)edge(32); break;
	case 4: r->flags = (uint32_t)edge(32); break;
	case 5: r->gfp = (uint32_t)edge(32); break;
	case 6: r->order = (uint32_t)edge(32); break;
	case 7: r->outstanding = (uint32_t)edge(32); break;
	case 8: r->threshold = (uint32_t)edge(32); break;
	case 9: r->diff_bits = (uint32_t)edge(32); break;
	case 10: r->items = (uint32_t)edge(32); break;
	case 11: r->delta = (int32_t)edge(32); break;
	case 12: r->batch = (uint32_t)edge(32); break;
	case 13: r->repeat = (uint32_t)edge(32); break;
	case 14: r->warmup = (uint32_t)edge(32); break;
	case 15: r->ncpus = (uint32_t)edge(32); break;
	case 16: r->loops = edge(64); break;	/* time limit stays 50 ms */
	case 17: r->cpus_ptr = bad_ptr(); break;
	case 18: r->samples_ptr = bad_ptr(); break;
	case 19: r->samples_cap = (uint32_t)edge(32); break;
	case 20: r->time_limit_ms = (uint32_t)edge(32);
		 r->loops = 1 + below(1000);	/* keep a valid one short */
		 break;
	case 21: r->reserved_in32 = 1U << below(32); break;
	case 22: /* a kstat out field that must come in zero */
		if (below(2))
			r->kstat_threshold = 1U << below(32);
		else
			(&r->kstat_before)[below(3)] = (int64_t)(1ULL << below(64));
		break;
	case 37: r->kstat_op = (uint32_t)edge(32); break;
	case 38: r->run_length = (uint32_t)edge(32); break;
	case 39: r->busy_workers = below(2) ? r->ncpus + (uint32_t)below(3) :
					      (uint32_t)edge(32);
		 break;
	case 40: r->threshold = VSB_ABI_KSTAT_THRESHOLD_MAX + 1 + (uint32_t)below(1000); break;
	case 30: r->fold = (uint32_t)edge(32); break;
	case 31: r->fold_interval_us = (uint32_t)edge(32); break;
	case 32: r->quiet_workers = below(2) ? r->ncpus + (uint32_t)below(3) :
					       (uint32_t)edge(32);
		 break;
	case 33: r->sample_size = (uint32_t)(1ULL << below(32)); break;
	case 34: /* an out field of ABI 2 that must come in zero */
		(&r->drift_samples)[below(8)] = 1ULL << below(64);
		break;
	case 35: r->flags |= VSB_RUN_UNSAFE_FOLD; break;
	case 36: r->flags |= VSB_RUN_DRIFT; break;
	case 23: r->nsamples = (uint32_t)edge(32); break;
	case 24: r->applied = (int64_t)edge(64); break;
	case 25: r->pmu_error = (int32_t)edge(32); break;
	case 26: /* an offline, out-of-range or duplicate CPU */
		if (below(2) && r->ncpus > 1)
			cpubuf[1] = cpubuf[0];
		else
			cpubuf[below(r->ncpus < 8 ? r->ncpus : 8)] =
				below(2) ? (uint32_t)(nr_cpu + below(8)) :
					   (uint32_t)edge(32);
		break;
	case 27: /* every possible CPU id, offline ones included */
		r->ncpus = (uint32_t)(nr_cpu < 8 ? nr_cpu : 8);
		for (unsigned int i = 0; i < r->ncpus; i++)
			cpubuf[i] = i;
		break;
	case 28: r->cpus_ptr += 1 + below(7); break;	/* unaligned */
	default: r->samples_cap = r->ncpus * r->repeat - 1; break;
	}
}

static const int allowed[] = { EINVAL, EFAULT, ENOTTY, EBUSY, EINTR, ETIME,
			       ENOMEM, EOPNOTSUPP, EPERM };
static unsigned long count_ok, count_err[sizeof(allowed) / sizeof(allowed[0])];
static unsigned long unexpected, insane;

static void account(int ret, int err, const struct vsb_ioc_run *r,
		    const char *what)
{
	size_t i;

	if (ret == 0) {
		count_ok++;
		if (r && !(r->result_flags & VSB_RES_SANITY_OK) &&
		    !(r->flags & VSB_RUN_UNSAFE_FOLD)) {
			insane++;
			fprintf(stderr, "fuzz: %s succeeded with a failed sanity check "
				"(bench %u variant %u)\n", what, r->bench, r->variant);
		}
		return;
	}
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		if (err == allowed[i]) {
			count_err[i]++;
			return;
		}
	}
	unexpected++;
	fprintf(stderr, "fuzz: %s: unexpected ret %d errno %d (%s)\n", what,
		ret, err, strerror(err));
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000, i;
	struct vsb_ioc_version v;
	struct vsb_ioc_run r;
	unsigned char raw[512];
	int fd, c, ret;

	rng_s = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	fd = open("/dev/vmstat_bench", O_RDWR);
	if (fd < 0) {
		perror("fuzz: /dev/vmstat_bench");
		return 1;
	}
	nr_cpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	for (c = 0; c < nr_cpu && c < 4096; c++) {
		char p[64];

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", c);
		FILE *f = fopen(p, "r");
		int on = 1;

		if (f) {
			if (fscanf(f, "%d", &on) != 1)
				on = 1;
			fclose(f);
		}
		if (on)
			online[nonline++] = c;
	}
	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	rdonly = mmap(NULL, 1 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	samples = calloc(SAMPLES_CAP, sizeof(*samples));
	if (unmapped == MAP_FAILED || rdonly == MAP_FAILED || !samples)
		return 1;

	for (i = 0; i < n; i++) {
		unsigned int kind = (unsigned int)below(100);
		unsigned long cmd;

		errno = 0;
		if (kind < 10) {		/* random command numbers */
			cmd = below(2) ? (unsigned long)(uint32_t)rnd() :
			      _IOC((unsigned int)below(4), VSB_IOC_MAGIC,
				   (unsigned int)below(256), (unsigned int)below(1024));
			if (cmd == VSB_IOC_RUN || cmd == VSB_IOC_RUN_V1 ||
			    cmd == VSB_IOC_VERSION)
				continue;
			memset(raw, 0, sizeof(raw));
			ret = ioctl(fd, cmd, below(4) ? (unsigned long)raw :
						       (unsigned long)bad_ptr());
			account(ret, errno, NULL, "random cmd");
		} else if (kind < 20) {		/* version handshake abuse */
			memset(&v, 0, sizeof(v));
			v.size = below(2) ? sizeof(v) : (uint32_t)edge(32);
			if (below(3) == 0)
				((uint32_t *)&v)[1 + below(11)] = (uint32_t)rnd();
			ret = ioctl(fd, VSB_IOC_VERSION, below(5) ? (unsigned long)&v :
						 (unsigned long)bad_ptr());
			account(ret, errno, NULL, "version");
			if (!ret && v.version != VSB_ABI_VERSION) {
				unexpected++;
				fprintf(stderr, "fuzz: version %u\n", v.version);
			}
		} else if (kind < 80) {		/* one field off a valid run */
			base_req(&r);
			mutate(&r);
			ret = ioctl(fd, VSB_IOC_RUN, &r);
			account(ret, errno, &r, "run");
		} else if (kind < 90) {		/* the same in ABI 1's format */
			base_req(&r);
			r.fold = r.fold_interval_us = r.quiet_workers = 0;
			r.flags &= VSB_RUN_FLAGS_V1;
			if (below(2))
				mutate(&r);
			r.size = below(10) ? VSB_IOC_RUN_V1_SIZE : r.size;
			r.version = below(10) ? 1 : r.version;
			ret = ioctl(fd, VSB_IOC_RUN_V1, &r);
			account(ret, errno, &r, "run v1");
		} else if (kind < 95) {		/* the argument pointer itself */
			base_req(&r);
			ret = ioctl(fd, VSB_IOC_RUN, below(2) ? (unsigned long)bad_ptr() :
				    (unsigned long)((char *)rdonly + 4096));
			account(ret, errno, NULL, "run pointer");
		} else {			/* random bytes */
			for (size_t k = 0; k < sizeof(raw); k++)
				raw[k] = (unsigned char)rnd();
			if (below(2)) {
				((uint32_t *)raw)[0] = sizeof(r);
				((uint32_t *)raw)[1] = VSB_ABI_VERSION;
			}
			ret = ioctl(fd, VSB_IOC_RUN, raw);
			account(ret, errno, NULL, "random run");
		}
	}
	printf("fuzz: %ld requests: ok %lu, EINVAL %lu, EFAULT %lu, ENOTTY %lu, "
	       "EBUSY %lu, EINTR %lu, ETIME %lu, ENOMEM %lu, EOPNOTSUPP %lu, "
	       "EPERM %lu; unexpected %lu, bad sanity %lu\n", n, count_ok,
	       count_err[0], count_err[1], count_err[2], count_err[3],
	       count_err[4], count_err[5], count_err[6], count_err[7],
	       count_err[8], unexpected, insane);
	close(fd);
	return unexpected || insane ? 1 : 0;
}
