// SPDX-License-Identifier: GPL-2.0
/*
 * The three output formats of a result: CSV (raw samples, and the
 * summary), JSON and the text table.
 *
 * CSV and JSON carry the metadata (`# key: value` header lines in CSV)
 * and one row per raw sample; the CSV summary and the text table are
 * computed from those samples.  The column lists below are an API:
 * append, never reorder or rename.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_model.h"
#include "guest_shape.h"
#include "result.h"
#include "json.h"
#include "stats.h"

/*
 * The point's parameters, in front of every row.  Rows are read by column
 * name (our readers and gnuplot's column("name") do), but a positional
 * reader of an older file must still work: from the first published
 * schema on, a new parameter is appended to the END of the row, after the
 * sample and summary columns, never added here.  Which options are
 * columns, and where, is said by the option table (vsb_opt.col).
 */
static const struct vsb_param_col *param_columns(size_t *n)
{
	static struct vsb_param_col cols[VSB_PARAM_COLS_MAX];
	static size_t ncols;

	if (!ncols)
		ncols = vsb_param_columns(cols, VSB_PARAM_COLS_MAX);
	*n = ncols;
	return cols;
}

static void param_value(const struct vsb_result *r, const struct vsb_param_col *col,
			char *buf, size_t len)
{
	if (!col->opt)				/* nthreads */
		snprintf(buf, len, "%d", r->nthreads);
	else if (!strcmp(col->opt->name, "cpus"))	/* as run, not as given */
		vsb_cpulist_format(&r->opts.cpus, buf, len, ',');
	else
		vsb_opt_format(&r->opts, col->opt, buf, len);
}

/*
 * A cell never holds a comma: every reader of these files, the harness's
 * and the ci/ scripts' awk -F, alike, would split it.  A comma in a value
 * is written ';': a CPU list's (0;2), a guest command line's
 * (isolcpus=1;3; the line as booted is in the kernel_cmdline metadata).
 */
static void write_params_csv(const struct vsb_result *r, FILE *f)
{
	const struct vsb_param_col *cols;
	char v[256], *c;
	size_t i, n;

	cols = param_columns(&n);
	for (i = 0; i < n; i++) {
		param_value(r, &cols[i], v, sizeof(v));
		for (c = strchr(v, ','); c; c = strchr(c, ','))
			*c = ';';
		fprintf(f, "%s,", v);
	}
}

static void write_meta_csv(const struct vsb_result *r, FILE *f)
{
	size_t i;

	for (i = 0; i < r->nmeta; i++)
		fprintf(f, "# %s: %s\n", r->meta[i].key, r->meta[i].val);
	fprintf(f, "# sanity: %s\n", r->sanity);
	fprintf(f, "# applied_total: %lld\n# counted_total: %lld\n", r->applied,
		r->counted);
	fprintf(f, "# migrated: %s\n", r->migrated ? "yes" : "no");
}

static void write_header_csv(FILE *f, const char *tail)
{
	const struct vsb_param_col *cols;
	size_t i, n;

	cols = param_columns(&n);
	for (i = 0; i < n; i++)
		fprintf(f, "%s,", cols[i].name);
	fprintf(f, "%s\n", tail);
}

#define SAMPLE_COLUMNS \
	"thread,cpu,rep,ops,elapsed,unit,event,plm,ns,per_op,ns_per_op,folds," \
	"cycles,instructions,ipc,multiplexed,pmu_scale,pmu_events,pmu_values," \
	"nivcsw,migrations,run_delay_ns,steal_ns,cpu_irqs,disturbed"
#define SUMMARY_COLUMNS \
	"thread,cpu,unit,n,median,min,max,mean,stddev,cv,ns_per_op_median," \
	"ops_per_sec_median,folds_per_op,ci_lo,ci_hi,outliers," \
	"ops_per_sec_ci_lo,ops_per_sec_ci_hi," \
	"cycles_per_op,instructions_per_op,ipc,mux_samples,pmu_events,pmu_per_op," \
	"drift_max,drift_p99,drift_mean,stale_max_us,stale_p99_us,stale_mean_us," \
	"disturbed_policy,disturbed,kept_disturbed,dropped,retried,attempts," \
	"time_lost_pct"

/* A number, or an empty field (gnuplot: missing) when not counted. */
static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputc(',', f);
}

/* The PMU event names, ';'-separated so one CSV field holds them all. */
static void csv_pmu_events(const struct vsb_result *r, FILE *f)
{
	int k;

	fputc(',', f);
	for (k = 0; k < r->npmu; k++)
		fprintf(f, "%s%s", k ? ";" : "", r->pmu_event[k]);
}

/* Appended sample columns: cycles ... pmu_values. */
static void write_pmu_sample_csv(const struct vsb_result *r,
				 const struct vsb_sample *s, FILE *f)
{
	double cyc = r->pmu_cycles >= 0 ? (double)s->pmu[r->pmu_cycles] : NAN;
	double ins = r->pmu_instr >= 0 ? (double)s->pmu[r->pmu_instr] : NAN;
	int k;

	csv_num(f, cyc);
	csv_num(f, ins);
	csv_num(f, cyc > 0 ? ins / cyc : NAN);
	fprintf(f, ",%d", s->multiplexed);
	csv_num(f, r->npmu ? s->pmu_scale : NAN);
	csv_pmu_events(r, f);
	fputc(',', f);
	for (k = 0; k < r->npmu; k++)
		fprintf(f, "%s%llu", k ? ";" : "", (unsigned long long)s->pmu[k]);
}

/* One disturbance field: empty where the sample did not measure it. */
static void csv_dist(FILE *f, unsigned int valid, unsigned int bit, uint64_t v)
{
	if (valid & bit)
		fprintf(f, ",%llu", (unsigned long long)v);
	else
		fputc(',', f);
}

/*
 * Appended sample columns: nivcsw ... irqs, and `disturbed`, the reasons
 * ';'-joined ("switch;run-delay"), "no", or empty with --disturbed off.
 */
static void write_dist_sample_csv(const struct vsb_result *r,
				  const struct vsb_sample *s, FILE *f)
{
	unsigned int v = r->dist.on ? s->dist_valid : 0;
	int i, first = 1;

	csv_dist(f, v, VSB_DIST_SWITCH, s->nivcsw);
	csv_dist(f, v, VSB_DIST_MIGRATED, s->migrations);
	csv_dist(f, v, VSB_DIST_RUNDELAY, s->run_delay_ns);
	csv_dist(f, v, VSB_DIST_STEAL, s->steal_ns);
	csv_dist(f, v, VSB_DIST_IRQS, s->irqs);
	fputc(',', f);
	if (!r->dist.on)
		return;
	for (i = 0; i < VSB_DIST_NREASONS; i++)
		if (s->disturbed & (1u << i)) {
			fprintf(f, "%s%s", first ? "" : ";", vsb_disturb_reason_name(i));
			first = 0;
		}
	if (first)
		fputs("no", f);
}

int vsb_result_write_csv(const struct vsb_result *r, FILE *f)
{
	size_t i;

	write_meta_csv(r, f);
	write_header_csv(f, SAMPLE_COLUMNS);
	for (i = 0; i < r->nsamples; i++) {
		const struct vsb_sample *s = &r->samples[i];

		write_params_csv(r, f);
		fprintf(f, "%u,%d,%u,%llu,%llu,%s,%s,%s,%.0f,%.6g,%.6g,%llu",
			s->thread, s->cpu, s->rep, (unsigned long long)s->ops,
			(unsigned long long)s->elapsed, r->unit, r->event, r->plm,
			s->ns, (double)s->elapsed / (double)s->ops,
			s->ns / (double)s->ops, (unsigned long long)s->folds);
		write_pmu_sample_csv(r, s, f);
		write_dist_sample_csv(r, s, f);
		fputc('\n', f);
	}
	return ferror(f) ? VSB_EXIT_ERROR : 0;
}

/* Appended summary columns: the run's disturbance counts (empty when off). */
static void write_dist_summary_csv(const struct vsb_disturb_counts *c, FILE *f)
{
	const char *policy = vsb_disturb_policy_name(c->policy);
	double lost = vsb_disturb_lost_share(c);

	if (!c->on) {
		fprintf(f, ",off,,,,,,");
		return;
	}
	fprintf(f, ",%s,%lu,%lu,%lu,%lu,%lu", policy, c->disturbed, c->kept_disturbed,
		c->dropped, c->retried, c->attempts);
	csv_num(f, 100 * lost);
}

int vsb_result_write_summary_csv(const struct vsb_result *r, FILE *f)
{
	struct vsb_agg_row *rows;
	size_t n = vsb_result_aggregate(r, &rows), i;
	int k;

	write_meta_csv(r, f);
	write_header_csv(f, SUMMARY_COLUMNS);
	for (i = 0; i < n; i++) {
		const struct vsb_agg_row *a = &rows[i];
		char th[16], cpu[16];

		snprintf(th, sizeof(th), a->thread < 0 ? "all" : "%d", a->thread);
		snprintf(cpu, sizeof(cpu), a->cpu < 0 ? "all" : "%d", a->cpu);
		write_params_csv(r, f);
		fprintf(f, "%s,%s,%s,%zu,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g",
			th, cpu, r->unit, a->cost.n, a->cost.median, a->cost.min,
			a->cost.max, a->cost.mean, a->cost.stddev, a->cost.cv,
			a->ns_per_op.median, a->ops_per_sec.median, a->folds_per_op);
		/* appended: CI of the median cost, MAD outliers, CI of ops/s */
		fprintf(f, ",%.6g,%.6g,%zu,%.6g,%.6g", a->cost.ci_lo,
			a->cost.ci_hi, a->cost.outliers, a->ops_per_sec.ci_lo,
			a->ops_per_sec.ci_hi);
		/* appended: PMU medians per op */
		csv_num(f, a->cycles_per_op);
		csv_num(f, a->instr_per_op);
		csv_num(f, a->ipc);
		fprintf(f, ",%d", a->mux_samples);
		csv_pmu_events(r, f);
		fputc(',', f);
		for (k = 0; k < r->npmu; k++)
			fprintf(f, "%s%.6g", k ? ";" : "", a->pmu_per_op[k]);
		/* appended: the drift reader's figures, per run */
		csv_num(f, r->have_drift ? r->drift_max : NAN);
		csv_num(f, r->have_drift ? r->drift_p99 : NAN);
		csv_num(f, r->have_drift ? r->drift_mean : NAN);
		csv_num(f, r->have_drift ? r->stale_max_us : NAN);
		csv_num(f, r->have_drift ? r->stale_p99_us : NAN);
		csv_num(f, r->have_drift ? r->stale_mean_us : NAN);
		write_dist_summary_csv(&r->dist, f);
		fputc('\n', f);
	}
	free(rows);
	return ferror(f) ? VSB_EXIT_ERROR : 0;
}

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s)
{
	char esc[8];
	size_t n;

	fputc('"', f);
	for (; *s; s++) {
		n = vsb_json_escape((unsigned char)*s, esc);
		fwrite(esc, 1, n, f);
	}
	fputc('"', f);
}

/* NaN and inf are not JSON: write null. */
static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

static void json_stats(FILE *f, const char *name, const struct vsb_stats *st)
{
	fprintf(f, "\"%s\":{\"n\":%zu,\"median\":", name, st->n);
	json_num(f, st->median);
	fputs(",\"min\":", f);
	json_num(f, st->min);
	fputs(",\"max\":", f);
	json_num(f, st->max);
	fputs(",\"mean\":", f);
	json_num(f, st->mean);
	fputs(",\"stddev\":", f);
	json_num(f, st->stddev);
	fputs(",\"cv\":", f);
	json_num(f, st->cv);
	fputc('}', f);
}

static int write_json(const struct vsb_result *r, FILE *f)
{
	const struct vsb_param_col *cols;
	struct vsb_agg_row *rows;
	size_t n, i, ncols;
	char v[256];

	fputs("{\"schema_version\":1,\"meta\":{", f);
	for (i = 0; i < r->nmeta; i++) {
		json_str(f, r->meta[i].key);
		fputc(':', f);
		json_str(f, r->meta[i].val);
		fputc(',', f);
	}
	fputs("\"sanity\":", f);
	json_str(f, r->sanity);
	fprintf(f, ",\"sanity_ok\":%s,\"migrated\":%s,\"applied_total\":%lld,"
		"\"counted_total\":%lld",
		r->sanity_ok ? "true" : "false", r->migrated ? "true" : "false",
		r->applied, r->counted);
	if (r->have_drift)
		fprintf(f, ",\"drift_stats\":{\"samples\":%zu,\"drift_max\":%.6g,"
			"\"drift_p99\":%.6g,\"drift_mean\":%.6g,\"stale_max_us\":%.6g,"
			"\"stale_p99_us\":%.6g,\"stale_mean_us\":%.6g}",
			r->drift_samples, r->drift_max, r->drift_p99, r->drift_mean,
			r->stale_max_us, r->stale_p99_us, r->stale_mean_us);
	if (r->dist.on)
		fprintf(f, ",\"disturbed_stats\":{\"policy\":\"%s\",\"attempts\":%lu,"
			"\"disturbed\":%lu,\"kept\":%lu,\"kept_disturbed\":%lu,"
			"\"dropped\":%lu,\"retried\":%lu,\"time_lost_pct\":%.6g}",
			vsb_disturb_policy_name(r->dist.policy), r->dist.attempts,
			r->dist.disturbed, r->dist.kept, r->dist.kept_disturbed,
			r->dist.dropped, r->dist.retried,
			100 * vsb_disturb_lost_share(&r->dist));
	fputs("},\n\"params\":{", f);
	cols = param_columns(&ncols);
	for (i = 0; i < ncols; i++) {
		param_value(r, &cols[i], v, sizeof(v));
		fprintf(f, "%s\"%s\":", i ? "," : "", cols[i].name);
		json_str(f, v);
	}
	fputs("},\n\"unit\":", f);
	json_str(f, r->unit);
	fputs(",\"event\":", f);
	json_str(f, r->event);
	fputs(",\"plm\":", f);
	json_str(f, r->plm);
	fputs(",\"pmu_events\":[", f);
	for (i = 0; i < (size_t)r->npmu; i++) {
		fputs(i ? "," : "", f);
		json_str(f, r->pmu_event[i]);
	}
	fprintf(f, "],\"mux_samples\":%d,\"multiplexed_untrusted\":%s",
		r->mux_samples, r->multiplexed ? "true" : "false");
	fputs(",\n\"samples\":[", f);
	for (i = 0; i < r->nsamples; i++) {
		const struct vsb_sample *s = &r->samples[i];

		fprintf(f, "%s\n{\"thread\":%u,\"cpu\":%d,\"rep\":%u,\"ops\":%llu,"
			"\"elapsed\":%llu,\"ns\":%.0f,\"folds\":%llu",
			i ? "," : "", s->thread, s->cpu, s->rep,
			(unsigned long long)s->ops, (unsigned long long)s->elapsed,
			s->ns, (unsigned long long)s->folds);
		if (r->npmu) {
			int k;

			fputs(",\"pmu\":[", f);
			for (k = 0; k < r->npmu; k++)
				fprintf(f, "%s%llu", k ? "," : "",
					(unsigned long long)s->pmu[k]);
			fprintf(f, "],\"pmu_scale\":%.6g,\"multiplexed\":%d", s->pmu_scale,
				s->multiplexed);
		}
		if (r->dist.on)
			fprintf(f, ",\"nivcsw\":%llu,\"migrations\":%llu,\"run_delay_ns\":%llu,"
				"\"steal_ns\":%llu,\"irqs\":%llu,\"dist_valid\":%u,"
				"\"disturbed\":%u", (unsigned long long)s->nivcsw,
				(unsigned long long)s->migrations,
				(unsigned long long)s->run_delay_ns,
				(unsigned long long)s->steal_ns,
				(unsigned long long)s->irqs, s->dist_valid, s->disturbed);
		fputc('}', f);
	}
	fputs("],\n\"summary\":[", f);
	n = vsb_result_aggregate(r, &rows);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s\n{\"thread\":", i ? "," : "");
		if (rows[i].thread < 0)
			fputs("\"all\",\"cpu\":\"all\",", f);
		else
			fprintf(f, "%d,\"cpu\":%d,", rows[i].thread, rows[i].cpu);
		json_stats(f, "per_op", &rows[i].cost);
		fputc(',', f);
		json_stats(f, "ns_per_op", &rows[i].ns_per_op);
		fputc(',', f);
		json_stats(f, "ops_per_sec", &rows[i].ops_per_sec);
		fputs(",\"folds_per_op\":", f);
		json_num(f, rows[i].folds_per_op);
		if (r->npmu) {
			int k;

			fputs(",\"cycles_per_op\":", f);
			json_num(f, rows[i].cycles_per_op);
			fputs(",\"instructions_per_op\":", f);
			json_num(f, rows[i].instr_per_op);
			fputs(",\"ipc\":", f);
			json_num(f, rows[i].ipc);
			fputs(",\"pmu_per_op\":[", f);
			for (k = 0; k < r->npmu; k++) {
				fputs(k ? "," : "", f);
				json_num(f, rows[i].pmu_per_op[k]);
			}
			fprintf(f, "],\"mux_samples\":%d", rows[i].mux_samples);
		}
		fputc('}', f);
	}
	fputs("]}\n", f);
	free(rows);
	return ferror(f) ? VSB_EXIT_ERROR : 0;
}

/* ---- text ---- */

/*
 * The parameters that matter for the point's bench, in its own words
 * (its model's describe, in its file), then what any point may set.
 */
static void write_text_params(const struct vsb_run_opts *o, FILE *f)
{
	const struct vsb_bench_model *m = vsb_bench_model(o->bench);
	struct vsb_guest_shape g;
	char buf[512];

	if (m->describe)
		m->describe(o, f);
	/* any bench's point may need a guest of a shape (guest_shape.h) */
	vsb_guest_shape_of(o, &g);
	if (vsb_guest_shape_asked(&g)) {
		vsb_guest_shape_format(&g, buf, sizeof(buf));
		fprintf(f, "%sguest %s", m->describe ? ", " : "", buf);
	}
	if (o->sysctl[0])
		fprintf(f, "%s%s", m->describe || vsb_guest_shape_asked(&g) ? ", " : "",
			o->sysctl);
}

static int write_text(const struct vsb_result *r, FILE *f)
{
	const struct vsb_run_opts *o = &r->opts;
	struct vsb_agg_row *rows;
	size_t n, i;
	char cpus[256];

	vsb_cpulist_format(&o->cpus, cpus, sizeof(cpus), ',');
	fprintf(f, "%s/%s", o->bench, o->backend);
	if (o->variant_id >= 0)
		fprintf(f, " %s", o->variant);
	fprintf(f, " on CPU%s %s: ", o->cpus.n > 1 ? "s" : "", cpus);
	write_text_params(o, f);
	if (vsb_bench_model(o->bench)->reps_are)
		fprintf(f, "; %ld %s (+%ld warm-up)\n", o->repeat,
			vsb_bench_model(o->bench)->reps_are, o->warmup);
	else
		fprintf(f, "; %ld x %ld ops per worker (+%ld warm-up)\n", o->repeat,
			o->loops, o->warmup);
	fprintf(f, "%6s %4s %10s %10s %10s %6s %9s %10s %9s\n", "worker", "cpu",
		"median", "min", "max", "cv%", "ns/op", "Mops/s", "folds/op");
	n = vsb_result_aggregate(r, &rows);
	for (i = 0; i < n; i++) {
		const struct vsb_agg_row *a = &rows[i];
		char th[16], cpu[16];

		snprintf(th, sizeof(th), a->thread < 0 ? "all" : "%d", a->thread);
		snprintf(cpu, sizeof(cpu), a->cpu < 0 ? "-" : "%d", a->cpu);
		fprintf(f, "%6s %4s %10.2f %10.2f %10.2f %6.2f %9.2f %10.1f %9.4f\n",
			th, cpu, a->cost.median, a->cost.min, a->cost.max,
			100 * a->cost.cv, a->ns_per_op.median,
			a->ops_per_sec.median / 1e6, a->folds_per_op);
	}
	fprintf(f, "(median/min/max in %s per op over %zu repetitions; \"all\": mean cost, summed Mops/s)\n",
		r->unit, n ? rows[0].cost.n : 0);
	fprintf(f, "sanity: %s%s\n", r->sanity,
		r->migrated ? "; a worker MIGRATED off its CPU" : "");
	if (r->have_drift)
		fprintf(f, "drift (fold %s): unfolded diffs max %.0f, p99 %.0f, mean %.1f; "
			"staleness max %.0f us, p99 %.0f us (%zu reader samples)\n",
			r->opts.fold, r->drift_max, r->drift_p99, r->drift_mean,
			r->stale_max_us, r->stale_p99_us, r->drift_samples);
	if (r->dist.on) {
		char line[512];

		vsb_disturb_format(&r->dist, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	if (r->npmu && n) {
		const struct vsb_agg_row *a = &rows[n - 1];	/* "all", or the only worker */
		int k;

		fprintf(f, "counters (median per op, plm %s):", r->plm);
		for (k = 0; k < r->npmu; k++)
			fprintf(f, " %s=%.4g", r->pmu_event[k], a->pmu_per_op[k]);
		if (isfinite(a->ipc))
			fprintf(f, " IPC=%.3f", a->ipc);
		if (r->mux_samples)
			fprintf(f, " [MULTIPLEXED in %d samples, scaled]", r->mux_samples);
		fputc('\n', f);
	}
	free(rows);
	return ferror(f) ? VSB_EXIT_ERROR : 0;
}

int vsb_result_write(const struct vsb_result *r, FILE *f, const char *format)
{
	if (!strcmp(format, "csv"))
		return vsb_result_write_csv(r, f);
	if (!strcmp(format, "json"))
		return write_json(r, f);
	return write_text(r, f);
}
