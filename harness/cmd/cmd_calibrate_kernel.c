// SPDX-License-Identifier: GPL-2.0
/*
 * `calibrate --costs --kernel`: the cost table's kernel rows (a cli+sti
 * pair, local_irq_save/restore, this_cpu_cmpxchg, a LOCK cmpxchg on a
 * per-CPU slot, this_cpu_add), which only kernel mode can run.  Each is
 * a kstat op of the module (bench/kstat_ops.h: cli-sti .. this-cpu-add),
 * timed by `run --bench kstat --op OP` in a child process of this
 * binary, less the module's own floor (`--op bare`, the same loop with
 * no op), over the user-space rows' clock (tsc_per_cycle).
 *
 * Only where the module runs natively: loaded on the host, or in a KVM
 * guest.  Under QEMU TCG the module runs, but a time there is the
 * emulator's, not this CPU's: refused (exit 4), as is a machine where
 * the module is not loaded; exact mode counts these ops instead.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kmod/uapi/vmstat_bench.h"
#include "bench/kstat_ops.h"
#include "cmd_calibrate.h"
#include "cost_probe.h"
#include "csvread.h"
#include "kmod_abi.h"
#include "stats.h"
#include "vsb.h"

#define KERNEL_REPEAT	"31"
#define KERNEL_LOOPS	"200000"

/* the op of each kernel row; bare first, the floor the others stand on */
static const struct {
	const char *op;
	int kop, prim;
} kops[] = {
	{ "bare", VSB_KSTAT_bare, -1 },
	{ "cli-sti", VSB_KSTAT_cli_sti, VSB_PRIM_CLI_STI },
	{ "irqsave", VSB_KSTAT_irqsave, VSB_PRIM_IRQ_SAVE_RESTORE },
	{ "this-cpu-cmpxchg", VSB_KSTAT_this_cpu_cmpxchg, VSB_PRIM_THIS_CPU_CMPXCHG },
	{ "lock-cmpxchg", VSB_KSTAT_lock_cmpxchg, VSB_PRIM_K_LOCK_CMPXCHG },
	{ "this-cpu-add", VSB_KSTAT_this_cpu_add, VSB_PRIM_THIS_CPU_ADD },
};
#define NKOPS (sizeof(kops) / sizeof(kops[0]))

int vsb_calibrate_kernel_ready(void)
{
	struct vsb_ioc_version v;
	char hv[16];
	unsigned int i;
	int fd, e = vsb_kmod_handshake(&fd, &v);
	struct stat st;

	if (e) {
		vsb_err("calibrate --costs --kernel: %s: the kernel rows need the module "
			"loaded natively (insmod kmod/vmstat_bench.ko on a host that "
			"loads modules, or in a KVM guest)",
			e == -ENOENT ? (stat("/proc/modules", &st) ?
					"this kernel cannot load modules (no /proc/modules)" :
					"no " VSB_KMOD_DEVICE " (the module is not loaded)") :
			e == -EACCES || e == -EPERM ? VSB_KMOD_DEVICE ": not root" :
			VSB_KMOD_DEVICE ": not the module's device");
		return VSB_EXIT_SKIP;
	}
	close(fd);
	vsb_cost_hypervisor(hv, sizeof(hv));
	if (!strcmp(hv, "TCGTCGTCGTCG")) {
		vsb_err("calibrate --costs --kernel: under QEMU TCG a time is the "
			"emulator's, not this CPU's: no cost taken (exact mode counts "
			"these ops: run --bench kstat --op cli-sti --exact)");
		return VSB_EXIT_SKIP;
	}
	for (i = 0; i < NKOPS; i++) {
		if (!(v.kstat_ops & (1ULL << kops[i].kop))) {
			vsb_err("calibrate --costs --kernel: the loaded module has no "
				"--op %s: rebuild and reload kmod/vmstat_bench.ko", kops[i].op);
			return VSB_EXIT_SKIP;
		}
	}
	return 0;
}

/* run --bench kstat --op @op on @cpu into @csv; its stderr into @err */
static int run_op(const char *op, long cpu, const char *csv, const char *err)
{
	char self[4096], cpus[24];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int status, fd;
	pid_t pid;

	if (n <= 0)
		return -1;
	self[n] = '\0';
	snprintf(cpus, sizeof(cpus), "%ld", cpu);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd >= 0)
			dup2(fd, 2);
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (fd >= 0)
			dup2(fd, 1);
		execl(self, self, "run", "--bench", "kstat", "--op", op, "--cpus", cpus,
		      "--repeat", KERNEL_REPEAT, "--loops", KERNEL_LOOPS, "--events",
		      "none", "-o", csv, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* the per_op column of @csv (TSC ticks an op) into a malloc'd *@v */
static int read_per_op(const char *csv, double **v, size_t *n)
{
	struct vsb_csv c;
	int col, unit, ret = vsb_csv_read(csv, &c);
	size_t r;

	if (ret)
		return ret;
	col = vsb_csv_col(&c, "per_op");
	unit = vsb_csv_col(&c, "unit");
	*n = 0;
	*v = vsb_zalloc((c.nrows + 1) * sizeof(**v));
	for (r = 0; col >= 0 && unit >= 0 && r < c.nrows; r++)
		if (!strcmp(vsb_csv_cell(&c, r, unit), "tsc") &&
		    !isnan(vsb_csv_num(&c, r, col)))
			(*v)[(*n)++] = vsb_csv_num(&c, r, col);
	vsb_csv_free(&c);
	if (!*n) {
		vsb_err("%s: no per_op in TSC ticks: not a timed kstat result", csv);
		free(*v);
		return VSB_EXIT_ERROR;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* @v (ticks an op) less @floor, over the clock: a kernel row */
static void kernel_row(double *v, size_t n, double floor, double k,
		       struct vsb_prim_cost *c)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (v[i] - floor) / k;
	qsort(v, n, sizeof(*v), cmp_double);
	c->median = vsb_median_sorted(v, n);
	c->lo = vsb_quantile_sorted(v, n, 0.10);
	c->hi = vsb_quantile_sorted(v, n, 0.90);
	c->n = n;
}

/* one op timed, its per_op values into *@v; 0 or an exit code after one line */
static int time_op(const char *dir, unsigned int i, long cpu, double **v, size_t *n)
{
	char csv[4200], err[4200], line[512] = "";
	FILE *f;
	int rc;

	snprintf(csv, sizeof(csv), "%s/%s.csv", dir, kops[i].op);
	snprintf(err, sizeof(err), "%s/%s.err", dir, kops[i].op);
	rc = run_op(kops[i].op, cpu, csv, err);
	if (rc) {
		f = fopen(err, "r");
		if (f && fgets(line, sizeof(line), f))
			line[strcspn(line, "\n")] = '\0';
		if (f)
			fclose(f);
		vsb_err("calibrate --costs --kernel: run --bench kstat --op %s exited "
			"%d: %s", kops[i].op, rc, line[0] ? line : "(it said nothing)");
		return rc == VSB_EXIT_SKIP ? rc : VSB_EXIT_ERROR;
	}
	return read_per_op(csv, v, n);
}

/* what the runs left in @dir (results, summaries, their stderr), and @dir */
static void clean(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	if (d)
		closedir(d);
	if (rmdir(dir))
		vsb_warn("could not remove %s: %s", dir, strerror(errno));
}

int vsb_calibrate_kernel_rows(struct vsb_cost_table *t, long cpu)
{
	char dir[] = "/tmp/vsb-kcosts-XXXXXX";
	double *v, floor = NAN;
	unsigned int i;
	size_t n;
	int ret = 0;

	if (!mkdtemp(dir)) {
		vsb_err("calibrate --costs --kernel: cannot make a folder in /tmp: %s",
			strerror(errno));
		return VSB_EXIT_ERROR;
	}
	for (i = 0; i < NKOPS && !ret; i++) {
		ret = time_op(dir, i, cpu, &v, &n);
		if (ret)
			break;
		if (kops[i].prim < 0)
			floor = vsb_median(v, n);
		else
			kernel_row(v, n, floor, t->tsc_per_cycle, &t->p[kops[i].prim]);
		free(v);
	}
	clean(dir);
	return ret;
}
