// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench run`: one benchmark point.
 *
 * Order matters here: every option is checked and the output file is
 * created (as a temporary) before anything runs, so bad input costs no
 * time and leaves nothing behind; the result is renamed into place only
 * once completely written, so an interrupted run leaves no file at all.
 *
 * --monitor (monitor.c, docs/monitors.md) needs -o FILE: its series goes
 * beside the result as FILE.monitor.csv (results.csv -> results.monitor.csv),
 * created with it and committed with it; the table's footer and the
 * result's metadata get the monitor's summary.
 */
#include <string.h>
#include <unistd.h>

#include "benches.h"
#include "cmds.h"
#include "monitor.h"
#include "store.h"
#include "meta.h"

/* results.csv -> results.summary.csv */
static void summary_path(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);

	if (n > 4 && !strcmp(path + n - 4, ".csv"))
		snprintf(buf, len, "%.*s.summary.csv", (int)(n - 4), path);
	else
		snprintf(buf, len, "%s.summary.csv", path);
}

/* --db: the written result into the store; its VSB_EXIT_* */
static int import_result(const struct vsb_run_opts *o)
{
	char *paths[1] = { (char *)o->output };

	return vsb_store_import_paths(vsb_store_arg(o->db), paths, 1, 0);
}

int vsb_cmd_run(int argc, char **argv)
{
	static struct vsb_run_opts o;
	static struct vsb_result r;
	struct vsb_outfile out, sum;
	struct vsb_monitor *mon = NULL;
	int ret, want_summary, mon_done = 0;
	char spath[4096 + 16], mpath[4096 + 16];

	vsb_run_opts_defaults(&o);
	ret = vsb_run_opts_parse(&o, argc, argv);
	if (ret)
		return ret < 0 ? VSB_EXIT_OK : ret;
	ret = vsb_run_opts_finish(&o);
	if (ret)
		return ret;

	if (o.db[0] && (!o.output[0] || strcmp(o.format, "csv"))) {
		vsb_err("--db: imports a CSV result: needs -o FILE.csv");
		return VSB_EXIT_USAGE;
	}
	/* the store is opened after the run: a bad one must stop it now */
	if (vsb_opt_given(&o, "db")) {
		ret = vsb_store_check_arg(o.db);
		if (ret)
			return ret;
	}
	if (o.monitor[0] && !o.output[0]) {
		vsb_err("--monitor: needs -o FILE (the series is written beside it, "
			"as FILE.monitor.csv)");
		return VSB_EXIT_USAGE;
	}
	want_summary = o.output[0] && !strcmp(o.format, "csv");
	if (o.output[0]) {
		ret = vsb_outfile_open(&out, o.output, "--output");
		if (ret)
			return ret;
		if (want_summary) {
			summary_path(o.output, spath, sizeof(spath));
			ret = vsb_outfile_open(&sum, spath, "--output");
			if (ret) {
				vsb_outfile_abort(&out);
				return ret;
			}
		}
	}

	vsb_install_signal_handlers();
	if (o.monitor[0]) {
		vsb_monitor_path(o.output, mpath, sizeof(mpath));
		ret = vsb_monitor_start(&mon, o.monitor, &o.cpus, mpath);
		if (ret)
			goto err_abort;
	}
	ret = vsb_bench_run(&o, &r);
	if (!ret && vsb_interrupted) {
		vsb_err("interrupted: no result written");
		ret = VSB_EXIT_ERROR;
	}
	/* the series is committed before the result that names it */
	if (mon) {
		int mret = vsb_monitor_stop(mon, ret ? NULL : &r);

		ret = ret ? ret : mret;
		mon_done = !ret;
	}
	if (ret)
		goto err_abort;
	vsb_bench_note_tsc(&r, "the run's process, which timed the samples");
	vsb_meta_collect(&r);

	if (o.output[0]) {
		ret = vsb_result_write(&r, out.f, o.format);
		if (!ret && want_summary)
			ret = vsb_result_write_summary_csv(&r, sum.f);
		if (ret)
			goto err_abort;
		ret = vsb_outfile_commit(&out);
		if (!ret && want_summary)
			ret = vsb_outfile_commit(&sum);
		if (ret)
			goto err_abort;
		vsb_result_write(&r, stdout, "text");
		vsb_monitor_print_summary(&r, stdout);
		/* after the file is whole, far from any timed window */
		if (o.db[0])
			ret = import_result(&o);
	} else {
		ret = vsb_result_write(&r, stdout, o.format);
	}
	fflush(stdout);
	if (!r.sanity_ok || r.migrated || r.multiplexed) {
		vsb_err("results untrustworthy: %s%s%s",
			r.sanity_ok ? "" : r.sanity,
			r.migrated ? (r.sanity_ok ? "a worker migrated off its CPU" :
				      "; a worker migrated off its CPU") : "",
			r.multiplexed ? (r.sanity_ok && !r.migrated ?
					 "PMU counters were multiplexed (--allow-multiplex accepts them)" :
					 "; PMU counters were multiplexed") : "");
		ret = VSB_EXIT_UNTRUSTED;
	}
	vsb_result_free(&r);
	return ret;

err_abort:
	if (mon_done)	/* no series without the result it belongs to */
		unlink(mpath);
	if (o.output[0]) {
		vsb_outfile_abort(&out);
		if (want_summary)
			vsb_outfile_abort(&sum);
	}
	vsb_result_free(&r);
	return ret;
}
