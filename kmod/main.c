// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - vmstat_bench.ko: the misc device and its two ioctls.
 *
 * /dev/vmstat_bench (mode 0600, and CAP_SYS_ADMIN at open) takes
 * VSB_IOC_VERSION, the handshake, and VSB_IOC_RUN, one benchmark point
 * run synchronously in the caller's context (run.c).  Everything a
 * request says is checked here before any memory is allocated or any
 * thread created: size, version, reserved words, ranges, CPU ids (below
 * nr_cpu_ids, distinct; online is checked under the hotplug lock in
 * run.c), and that the sample buffer is writable.  Only one run at a
 * time: a second caller gets -EBUSY at once rather than queueing behind
 * a run that may take a minute.
 *
 * ABI 1 callers keep working: their VSB_IOC_RUN (224 bytes, version 1)
 * is read into a zeroed ABI 2 request, where the zero fold words mean
 * what ABI 1 meant, and only its 224 bytes are written back.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vsb_kmod.h"

static DEFINE_MUTEX(vsb_run_lock);

static bool vsb_zero(const __u64 *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i])
			return false;
	return true;
}

static long vsb_ioc_version(void __user *up)
{
	struct vsb_ioc_version v;

	if (copy_from_user(&v, up, sizeof(v)))
		return -EFAULT;
	if (v.size != sizeof(v) || v.version || v.nr_cpu_ids || v.caps ||
	    v.loops_max || v.kstat_ops ||
	    !vsb_zero(v.reserved, ARRAY_SIZE(v.reserved)))
		return -EINVAL;
	v.version = VSB_ABI_VERSION;
	v.nr_cpu_ids = nr_cpu_ids;
	v.caps = VSB_CAP_IRQ_DISABLE | VSB_CAP_PERCPU_COUNTER | VSB_CAP_DISTURB |
		 VSB_CAP_KSTAT | VSB_CAP_EXACT;
	v.loops_max = VSB_ABI_LOOPS_MAX;
	v.kstat_ops = vsb_kstat_ops_mask();
	if (copy_to_user(up, &v, sizeof(v)))
		return -EFAULT;
	return 0;
}

/* Everything but the CPU list and the user buffers; @usize: bytes read. */
static int vsb_check_req(const struct vsb_ioc_run *r, size_t usize)
{
	u32 flags_ok = VSB_RUN_FLAGS_ALL;
	int ret;

	if (r->size != usize)
		return -EINVAL;
	if (usize == VSB_IOC_RUN_V1_SIZE) {
		/* what ABI 2 named were reserved words then: still must be 0 */
		if (r->version != 1 || r->fold || r->fold_interval_us ||
		    r->quiet_workers)
			return -EINVAL;
		flags_ok = VSB_RUN_FLAGS_V1;
	} else if (r->version != VSB_ABI_VERSION) {
		return -EINVAL;
	}
	/* the sample stride: ABI 2's 80 bytes (0 says the same) or all */
	if ((r->sample_size && r->sample_size != VSB_IOC_SAMPLE_V2_SIZE &&
	     r->sample_size != sizeof(struct vsb_ioc_sample)) ||
	    (usize == VSB_IOC_RUN_V1_SIZE && r->sample_size) || r->reserved_in32)
		return -EINVAL;
	/* kstat's words were reserved before it: zero for the others */
	if (r->bench != VSB_BENCH_KSTAT &&
	    (r->kstat_op || r->run_length || r->busy_workers))
		return -EINVAL;
	/* its results live past ABI 1's 224 bytes */
	if (r->bench == VSB_BENCH_KSTAT && usize == VSB_IOC_RUN_V1_SIZE)
		return -EINVAL;
	/* out fields must come in zeroed: catches a stale or foreign struct */
	if (r->nsamples || r->result_flags || r->pmu_error || r->sanity_item ||
	    r->applied || r->counted || r->pages || r->vm_pgalloc ||
	    r->vm_pgfree || r->elapsed_ns || r->drift_samples ||
	    r->fold_count || r->drift_max || r->drift_p99 ||
	    r->drift_mean_milli || r->stale_max_ns || r->stale_p99_ns ||
	    r->stale_mean_ns || r->kstat_threshold || r->kstat_threshold_run ||
	    r->kstat_before || r->kstat_moved || r->kstat_folds)
		return -EINVAL;
	if (r->flags & ~flags_ok)
		return -EINVAL;
	if (!r->loops || r->loops > VSB_ABI_LOOPS_MAX)
		return -EINVAL;
	if (!r->repeat || r->repeat > VSB_ABI_REPEAT_MAX ||
	    r->warmup > VSB_ABI_WARMUP_MAX)
		return -EINVAL;
	if (!r->ncpus || r->ncpus > nr_cpu_ids)
		return -EINVAL;
	if ((u64)r->samples_cap < (u64)r->ncpus * r->repeat)
		return -EINVAL;
	if (r->time_limit_ms > VSB_ABI_TIME_LIMIT_MAX_MS)
		return -EINVAL;
	ret = vsb_fold_validate(r);
	if (ret)
		return ret;
	if (r->bench >= VSB_BENCH_NR)
		return -EINVAL;
	return vsb_bench_table[array_index_nospec(r->bench,
						  VSB_BENCH_NR)]->validate(r);
}

/* @usize: sizeof(struct vsb_ioc_run), or VSB_IOC_RUN_V1_SIZE (ABI 1) */
static long vsb_ioc_run(void __user *up, size_t usize)
{
	struct vsb_ioc_run req = {};
	cpumask_var_t seen;
	u32 *cpus;
	unsigned int i;
	int ret;

	if (copy_from_user(&req, up, usize))
		return -EFAULT;
	ret = vsb_check_req(&req, usize);
	if (ret)
		return ret;

	cpus = memdup_user(u64_to_user_ptr(req.cpus_ptr),
			   (size_t)req.ncpus * sizeof(*cpus));
	if (IS_ERR(cpus))
		return PTR_ERR(cpus);
	ret = -ENOMEM;
	if (!zalloc_cpumask_var(&seen, GFP_KERNEL))
		goto err_free_cpus;
	ret = -EINVAL;
	for (i = 0; i < req.ncpus; i++) {
		if (cpus[i] >= nr_cpu_ids ||
		    cpumask_test_and_set_cpu(cpus[i], seen))
			goto err_free_mask;
	}
	/* fail before running, not after, when the results cannot be stored */
	ret = -EFAULT;
	if (clear_user(u64_to_user_ptr(req.samples_ptr),
		       (size_t)req.ncpus * req.repeat * vsb_sample_stride(&req)))
		goto err_free_mask;

	ret = -EBUSY;
	if (!mutex_trylock(&vsb_run_lock))
		goto err_free_mask;
	ret = vsb_run(&req, cpus);
	mutex_unlock(&vsb_run_lock);
	if (!ret && copy_to_user(up, &req, usize))
		ret = -EFAULT;

err_free_mask:
	free_cpumask_var(seen);
err_free_cpus:
	kfree(cpus);
	return ret;
}

static long vsb_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *up = (void __user *)arg;

	switch (cmd) {
	case VSB_IOC_VERSION:
		return vsb_ioc_version(up);
	case VSB_IOC_RUN:
		return vsb_ioc_run(up, sizeof(struct vsb_ioc_run));
	case VSB_IOC_RUN_V1:
		return vsb_ioc_run(up, VSB_IOC_RUN_V1_SIZE);
	}
	return -ENOTTY;
}

static int vsb_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return 0;
}

static const struct file_operations vsb_fops = {
	.owner = THIS_MODULE,
	.open = vsb_open,
	.unlocked_ioctl = vsb_ioctl,
	.compat_ioctl = compat_ptr_ioctl,	/* same layout for 32-bit callers */
	.llseek = noop_llseek,
};

static struct miscdevice vsb_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = VSB_DEVICE_NAME,
	.fops = &vsb_fops,
	.mode = 0600,
};

static int __init vsb_init(void)
{
	int ret;

	/* ABI 1's request is exactly the part before the appended fields */
	BUILD_BUG_ON(offsetof(struct vsb_ioc_run, drift_mean_milli) !=
		     VSB_IOC_RUN_V1_SIZE);
	ret = misc_register(&vsb_misc);

	if (ret) {
		pr_err("cannot register /dev/%s: %d\n", VSB_DEVICE_NAME, ret);
		return ret;
	}
	pr_info("ABI %d, /dev/%s\n", VSB_ABI_VERSION, VSB_DEVICE_NAME);
	return 0;
}

static void __exit vsb_exit(void)
{
	misc_deregister(&vsb_misc);
}

module_init(vsb_init);
module_exit(vsb_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vmstat-bench: page allocator statistics microbenchmarks");
