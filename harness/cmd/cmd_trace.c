// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench trace [--duration S] [--cpus LIST] [-- COMMAND]`: what
 * the vmstat machinery did while a command ran (or for S seconds): per
 * CPU, how many vmstat_update work items ran there (each one a kworker
 * interrupting whatever that CPU was doing: the 002 seed's latency
 * complaint), their duration histogram, and page allocations and frees
 * by order, cross-checked against the /proc/vmstat deltas of the same
 * window.  The counting is done by harness/lib/machine/bpf/vmstat_trace.bpf.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benches.h"
#include "clock.h"
#include "cmds.h"
#include "bpf/trace.h"
#include "vmstat.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench trace [--duration S] [--cpus LIST] [-- COMMAND [ARG...]]\n"
"\n"
"Count with BPF, while COMMAND runs (or for S seconds): vmstat_update work\n"
"items per CPU (the periodic fold of per-CPU vmstat diffs; each one\n"
"interrupts that CPU), their duration histogram, and page allocations and\n"
"frees by order, next to the /proc/vmstat deltas of the same window.\n"
"Needs root, a kernel with BTF, and a build with BPF (see `make`).\n"
"\n"
"options:\n"
"  -d, --duration S   trace S seconds; with COMMAND, stop it after S (SIGTERM,\n"
"                     SIGKILL 5 s later), a normal end of the trace\n"
"                     [10 without a command, unlimited with one]\n"
"  -c, --cpus LIST    online CPUs to show in the per-CPU table, e.g. 0-3\n"
"                     [all online]; the duration histogram, the page-order\n"
"                     table and the /proc/vmstat deltas always cover all CPUs\n"
"  -h, --help         this text\n"
"\n"
"examples:\n"
"  vmstat-bench trace --duration 60\n"
"  vmstat-bench trace -- vmstat-bench run --bench page-fault --cpus 0,1\n"
"  vmstat-bench trace --cpus 1 -- stress-ng --vm 1 --timeout 10\n"
"\n"
"exit status: 0 ok (also when --duration stopped COMMAND), 1 error, COMMAND\n"
"failed or interrupted, 2 bad usage, 4 skipped\n"
"(no root, BTF or BPF build; the message says which).\n");
}

static unsigned char is_online[VSB_MAX_CPUS];

/*
 * The online CPUs.  Not vsb_cpulist_check_usable(): that also wants each
 * CPU in our affinity mask, and trace watches CPUs it never runs on.
 */
static int online_cpus(struct vsb_cpulist *cl)
{
	long i, n = sysconf(_SC_NPROCESSORS_CONF);
	int *cpu = vsb_zalloc(VSB_MAX_CPUS * sizeof(*cpu)), k = 0;

	for (i = 0; i < n && i < VSB_MAX_CPUS; i++) {
		if (!vsb_cpu_online((int)i))
			continue;
		is_online[i] = 1;
		cpu[k++] = (int)i;
	}
	vsb_cpulist_set(cl, cpu, k);
	free(cpu);
	if (!cl->n) {
		vsb_err("trace: cannot list the online CPUs (sysfs)");
		return VSB_EXIT_ERROR;
	}
	return 0;
}

enum stop_reason { STOP_NONE, STOP_DURATION, STOP_INTERRUPT };

#define KILL_GRACE_NS	(5 * 1000000000ull)

/*
 * Run @argv until it exits, @limit_ns passes (0: none) or we are
 * interrupted; in the last two cases it gets SIGTERM, and SIGKILL when it
 * ignores that for 5 s, and *@why says which ended it.
 */
static int run_command(char **argv, uint64_t limit_ns, int *status, enum stop_reason *why)
{
	uint64_t start = vsb_now_ns(), term_at = 0;
	pid_t pid;

	*why = STOP_NONE;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		vsb_err("trace: cannot fork: %s", strerror(errno));
		return VSB_EXIT_ERROR;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, VSB_NAME ": trace: cannot run '%s': %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);
		uint64_t now = vsb_now_ns();

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			vsb_err("trace: waitpid: %s", strerror(errno));
			return VSB_EXIT_ERROR;
		}
		if (!term_at && (vsb_interrupted || (limit_ns && now - start >= limit_ns))) {
			*why = vsb_interrupted ? STOP_INTERRUPT : STOP_DURATION;
			kill(pid, SIGTERM);
			term_at = now;
		} else if (term_at && now - term_at >= KILL_GRACE_NS) {
			kill(pid, SIGKILL);
			term_at = UINT64_MAX - KILL_GRACE_NS;	/* once */
		}
		usleep(2000);
	}
	return 0;
}

static void print_report(const struct vsb_trace_snap *d, const struct vsb_cpulist *cl,
			 const char *cpus, const struct vsb_vmstat_snap *va,
			 const struct vsb_vmstat_snap *vb)
{
	double secs = (double)d->t_ns / 1e9;
	unsigned long long pages = 0, fpages = 0, items = 0;
	int i;

	printf("\nvmstat_update work items per CPU, CPUs %s (each one interrupts that CPU):\n",
	       cpus);
	printf("%5s %10s %10s %12s %12s %10s\n", "cpu", "items", "per s", "per minute",
	       "total us", "mean us");
	for (i = 0; i < cl->n; i++) {
		int c = cl->cpu[i];

		if (c >= d->ncpus)
			continue;
		items += d->work[c];
		printf("%5d %10llu %10.3f %12.2f %12.1f %10.2f\n", c,
		       (unsigned long long)d->work[c], secs > 0 ? d->work[c] / secs : 0,
		       secs > 0 ? d->work[c] / secs * 60 : 0, d->work_ns[c] / 1e3,
		       d->work[c] ? d->work_ns[c] / 1e3 / d->work[c] : 0);
	}
	printf("\nvmstat_update duration, all CPUs (longest since load: %.1f us):\n",
	       d->work_max_ns / 1e3);
	vsb_print_log2_hist(stdout, d->hist, VSB_TRACE_NSLOTS, "nsecs");

	printf("\npage allocations and frees by order, all CPUs (kmem tracepoints):\n");
	printf("%6s %12s %12s %16s\n", "order", "allocs", "frees", "pages allocated");
	for (i = 0; i < VSB_TRACE_NORDERS; i++) {
		if (!d->alloc[i] && !d->freed[i])
			continue;
		printf("%6d %12llu %12llu %16llu\n", i, (unsigned long long)d->alloc[i],
		       (unsigned long long)d->freed[i],
		       (unsigned long long)d->alloc[i] << i);
		pages += d->alloc[i] << i;
		fpages += d->freed[i] << i;
	}
	/* key: value lines, for scripts and the tests */
	printf("\n# trace_seconds: %.3f\n", secs);
	printf("# vmstat_update_items: %llu\n", items);
	printf("# vmstat_update_per_cpu_per_minute: %.2f\n",
	       secs > 0 && cl->n ? items / secs * 60 / cl->n : 0);
	printf("# bpf_pages_allocated: %llu\n", pages);
	printf("# vmstat_pgalloc_delta: %llu\n", vb->pgalloc - va->pgalloc);
	printf("# bpf_pages_freed: %llu\n", fpages);
	printf("# vmstat_pgfree_delta: %llu\n", vb->pgfree - va->pgfree);
}

int vsb_cmd_trace(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct vsb_trace_snap a, b, d;
	struct vsb_cpulist cl = { 0 }, online = { 0 };
	struct vsb_getopt g = VSB_GETOPT("trace", "+d:c:", lopts, usage, argc, argv);
	struct vsb_vmstat_snap va, vb;
	const char *cpus = NULL, *arg;
	double duration = -1;
	long long dur_ns = -1;
	uint64_t limit_ns, start;
	int c, ret, status = 0;
	enum stop_reason why = STOP_NONE;
	char buf[1024];

	while ((c = vsb_getopt_next(&g, &arg)) > 0) {
		switch (c) {
		case 'd':
			/* whole nanoseconds, checked unrounded: 1e-10 was 0, no limit */
			if (vsb_parse_real(arg, &duration) ||
			    vsb_real_units(duration, 1e9, 1, 86400LL * 1000000000, &dur_ns)) {
				vsb_err("--duration: '%s' is not a number of seconds in (0, 86400] "
					"(whole nanoseconds)", arg);
				return VSB_EXIT_USAGE;
			}
			break;
		case 'c':
			cpus = arg;
			break;
		}
	}
	if (c < 0)
		return vsb_getopt_status(c);
	ret = online_cpus(&online);
	if (ret)
		return ret;
	if (cpus) {
		int i;

		ret = vsb_cpulist_parse(cpus, &cl, "--cpus");
		if (ret)
			return ret;
		/* as run --cpus does; an offline CPU would only show zeros */
		for (i = 0; i < cl.n; i++)
			if (!is_online[cl.cpu[i]]) {
				vsb_err("--cpus: CPU %d is not online", cl.cpu[i]);
				return VSB_EXIT_USAGE;
			}
	} else {
		cl = online;
	}
	if (duration < 0 && optind >= argc)
		duration = 10;
	limit_ns = dur_ns > 0 ? (uint64_t)dur_ns : duration > 0 ? (uint64_t)(duration * 1e9) : 0;

	ret = vsb_trace_open();
	if (ret)
		return ret;
	vsb_install_signal_handlers();
	vsb_vmstat_read(&va);
	ret = vsb_trace_snapshot(&a);
	if (ret)
		return ret;
	start = vsb_now_ns();
	if (optind < argc) {
		ret = run_command(argv + optind, limit_ns, &status, &why);
		if (ret)
			return ret;
	} else {
		while (!vsb_interrupted && vsb_now_ns() - start < limit_ns)
			usleep(10000);
	}
	ret = vsb_trace_snapshot(&b);
	vsb_vmstat_read(&vb);
	if (ret)
		return ret;
	vsb_trace_diff(&a, &b, &d);

	vsb_cpulist_format(&cl, buf, sizeof(buf), ',');
	printf("vmstat-bench trace: %.3f s", d.t_ns / 1e9);
	if (optind < argc) {
		int i;

		printf(", command:");
		for (i = optind; i < argc; i++)
			printf(" %s", argv[i]);
		if (WIFEXITED(status))
			printf(" (exit %d)", WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			printf(" (killed by signal %d%s)", WTERMSIG(status),
			       why == STOP_DURATION ? ", stopped at the end of --duration" :
			       why == STOP_INTERRUPT ? ", stopped on interrupt" : "");
	}
	printf("; per-CPU table: CPUs %s, other tables: all CPUs\n", buf);
	print_report(&d, &cl, buf, &va, &vb);
	fflush(stdout);
	/* a command --duration stopped did what was asked: trace that long */
	if (optind < argc && why != STOP_DURATION &&
	    !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		vsb_err("trace: the command did not succeed (%s %d)",
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return VSB_EXIT_ERROR;
	}
	return VSB_EXIT_OK;
}
