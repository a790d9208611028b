// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench ab`, once the command line is checked (cmd_ab.c): the
 * output folder and its state file, the two kernels made ready, the boots
 * in ABBA order with one progress line, compare's verdict and summary.md.
 *
 * Each step that touches QEMU is ci/ab-run.sh, run as a child with its
 * output in a log next to the results (prepare.log, boot-K.log), so the
 * terminal shows the progress line only.  A boot's folder appears whole
 * (the script renames it into place), and DIR/ab.txt is rewritten
 * atomically after every step: an interrupted ab leaves the finished
 * boots and a state that says how far it got, and the same command
 * continues it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"
#include "keyval.h"
#include "reaper.h"
#include "vsb.h"

int vsb_ab_state_get(const char *dir, const char *key, char *val, size_t len)
{
	char path[4096 + 16];

	snprintf(path, sizeof(path), "%s/ab.txt", dir);
	return vsb_keyval_get(path, key, val, len);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void boot_dir(const struct vsb_ab *ab, long i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s/boot-%ld", ab->dir, vsb_ab_side_name[vsb_ab_side(i)],
		 vsb_ab_side_boot(i));
}

/* "key: value" of a boot's ab-boot.txt at @path (written by ci/ab-run.sh). */
static void boot_info(const char *path, const char *key, char *val, size_t len)
{
	if (vsb_keyval_get(path, key, val, len))
		snprintf(val, len, "?");
}

static void boot_load(struct vsb_ab_run *r, long i)
{
	struct vsb_ab_boot *b = &r->b[i];
	char dir[4096], path[4096 + 16];
	struct stat s;
	long st;

	boot_dir(r->ab, i, dir, sizeof(dir));
	if (stat(dir, &s) || !S_ISDIR(s.st_mode))
		return;
	b->done = 1;
	r->ndone++;
	snprintf(path, sizeof(path), "%s/ab-boot.txt", dir);
	boot_info(path, "accel", b->accel, sizeof(b->accel));
	boot_info(path, "pinning", b->pinning, sizeof(b->pinning));
	boot_info(path, "guest_seconds", b->guest_secs, sizeof(b->guest_secs));
	/* ab-run.sh's exit status of the sweep; -1: not one it writes */
	b->status = vsb_keyval_long(path, "sweep_status", &st) || st < 0 || st > 255 ?
		    -1 : (int)st;
}

/* DIR/ab.txt, whole: the question (checked on continuing) and the state. */
static int write_state(struct vsb_ab_run *r, const char *state)
{
	const struct vsb_ab *ab = r->ab;
	struct vsb_outfile of;
	char path[4096 + 16], buf[2048], key[64];
	int bad = 0;
	long i;

	if (r->worker)
		return 0;	/* jobs.c: the process that reaps the boots writes it */
	r->state = state;
	snprintf(path, sizeof(path), "%s/ab.txt", ab->dir);
	if (vsb_outfile_open(&of, path, "-o"))
		return VSB_EXIT_ERROR;
	fprintf(of.f, "# vmstat-bench ab: this folder's question and how far it got;\n"
		"# the same `vmstat-bench ab` command continues an unfinished one\n");
	for (i = VSB_AB_BASE; i <= VSB_AB_NEW; i++) {
		snprintf(key, sizeof(key), "%s_release", vsb_ab_side_name[i]);
		bad |= vsb_keyval_put(of.f, vsb_ab_side_name[i], "%s", ab->k[i].spec);
		bad |= vsb_keyval_put(of.f, key, "%s", ab->k[i].release);
	}
	bad |= vsb_keyval_put(of.f, "sweep", "%s", ab->sweep);
	bad |= vsb_keyval_put(of.f, "sweep_copy", "%s", ab->sweep_base);
	bad |= vsb_keyval_put(of.f, "sweep_hash", "%016llx",
			      (unsigned long long)ab->sweep_hash);
	vsb_ab_order_str(ab, buf, sizeof(buf));
	bad |= vsb_keyval_put(of.f, "boots", "%ld", ab->boots);
	bad |= vsb_keyval_put(of.f, "smp", "%ld", ab->smp);
	bad |= vsb_keyval_put(of.f, "mem", "%ld", ab->mem);
	bad |= vsb_keyval_put(of.f, "monitor", "%s",
			      ab->monitor[0] ? ab->monitor : "none");
	bad |= vsb_keyval_put(of.f, "order", "%s", buf);
	bad |= vsb_keyval_put(of.f, "mode", "%s", ab->exact ? "exact" : "timed");
	bad |= vsb_keyval_put(of.f, "possible", "%ld", ab->possible);
	bad |= vsb_keyval_put(of.f, "nodes", "%ld", ab->nodes);
	bad |= vsb_keyval_put(of.f, "cmdline", "%s",
			      ab->cmdline[0] ? ab->cmdline : "none");
	bad |= vsb_keyval_put(of.f, "shapes", "%zu", ab->nshapes);
	for (i = 0; i < (long)ab->nshapes; i++) {
		vsb_ab_shape_str(&ab->shapes[i], buf, sizeof(buf));
		snprintf(key, sizeof(key), "shape %ld", i + 1);
		bad |= vsb_keyval_put(of.f, key, "%s", buf);
	}
	vsb_ab_pin_str(ab, buf, sizeof(buf));
	bad |= vsb_keyval_put(of.f, "pinning", "%s", buf);
	bad |= vsb_keyval_put(of.f, "state", "%s", state);
	bad |= vsb_keyval_put(of.f, "done", "%ld of %ld", r->ndone, 2 * ab->now);
	/* the boots a side reached, and the most it may add (report.c) */
	bad |= vsb_keyval_put(of.f, "max_boots", "%ld", ab->max_boots);
	bad |= vsb_keyval_put(of.f, "boots_now", "%ld", ab->now);
	bad |= vsb_keyval_put(of.f, "stopped", "%s", r->stop ? r->stop : "not yet");
	for (i = 0; i < 2 * ab->now; i++) {
		if (!r->b[i].done)
			continue;
		snprintf(key, sizeof(key), "boot %ld", i + 1);
		bad |= vsb_keyval_put(of.f, key, "%s %ld, %s, guest %s s, sweep exit %d",
				      vsb_ab_side_name[vsb_ab_side(i)],
				      vsb_ab_side_boot(i), r->b[i].accel,
				      r->b[i].guest_secs, r->b[i].status);
	}
	if (bad) {
		vsb_outfile_abort(&of);
		return VSB_EXIT_ERROR;
	}
	return vsb_outfile_commit(&of) ? VSB_EXIT_ERROR : 0;
}

static void fmt_dur(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* One line, redrawn in place: what runs, for how long, the ETA of all. */
static void progress(const struct vsb_ab_run *r, const char *what, double t0)
{
	double el = now_s() - t0, left = 2 * r->ab->now - r->ndone;
	char e[32], eta[48];

	if (!r->ab->progress)
		return;
	fmt_dur(el, e, sizeof(e));
	if (r->nthis) {
		double avg = r->secs_this / r->nthis;

		/* the boot under way counts what it is likely to have left */
		if (what[0] == 'b')
			left -= 1 - (el < avg ? (avg - el) / avg : 0);
		fmt_dur(avg * left, eta, sizeof(eta));
		memmove(eta + 4, eta, strlen(eta) + 1);
		memcpy(eta, "ETA ", 4);
	} else {
		snprintf(eta, sizeof(eta), "ETA after the first boot");
	}
	fprintf(stderr, "\rab: %s %s, %s\033[K", what, e, eta);
}

static void progress_clear(const struct vsb_ab_run *r)
{
	if (r->ab->progress)
		fprintf(stderr, "\r\033[K");
}

static void child_env(const struct vsb_ab *ab)
{
	char v[64], shapes[VSB_AB_SHAPES_MAX * (VSB_GUEST_CMDLINE_MAX + 64)];

	setenv("VSB_AB_BIN", ab->self, 1);
	snprintf(v, sizeof(v), "%ld", ab->smp);
	setenv("VSB_AB_SMP", v, 1);
	snprintf(v, sizeof(v), "%ld", ab->mem);
	setenv("VSB_AB_MEM", v, 1);
	snprintf(v, sizeof(v), "%ld", ab->timeout);
	setenv("VSB_AB_TIMEOUT", v, 1);
	setenv("VSB_AB_PIN", ab->pin, 1);
	setenv("VSB_AB_PIN_WHY", ab->pin_why, 1);
	setenv("VSB_AB_MONITOR", ab->monitor, 1);
	setenv("VSB_AB_EXACT", ab->exact ? "1" : "", 1);
	vsb_ab_shapes_env(ab, shapes, sizeof(shapes));
	setenv("VSB_AB_SHAPES", shapes, 1);
}

/*
 * ci/ab-run.sh with @args, stdout and stderr into @log; the progress
 * line meanwhile.  SIGINT/SIGTERM to us is passed on as SIGTERM to its
 * reaper (lib/base/reaper.c), which passes it to the script and every
 * process below it, QEMU included (the script removes its unfinished
 * folder).  Should ab die, SIGKILL included, the reaper stops them
 * itself: QEMU and the scripts hold OUT's lock.  Its exit status,
 * 128 + the signal that ended it, or -1.
 */
static int run_script(struct vsb_ab_run *r, char *const args[], const char *log,
		      const char *what)
{
	char *argv[8] = { "bash", r->ab->script };
	double t0 = now_s(), drawn = 0;
	int st, i, sent = 0;
	pid_t pid, w;

	for (i = 0; i < 5 && args[i]; i++)
		argv[2 + i] = args[i];
	if (vsb_outfile_check(log, "-o"))
		return VSB_EXIT_USAGE;
	/*
	 * A group of its own, signalled as one: a terminal's ^C reaches
	 * ab, which decides (it stops the boot and keeps its state).
	 */
	pid = vsb_fork_reaped(VSB_REAPED_OWN_GROUP);
	if (pid < 0)
		return -1;
	if (!pid) {
		/* never through a link planted at the log's name, nor into a FIFO */
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW |
			      O_NONBLOCK, 0666);
		int null = open("/dev/null", O_RDONLY);
		struct stat st;

		if (fd < 0 || null < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode))
			_exit(1);
		dup2(null, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		child_env(r->ab);
		execvp("bash", argv);
		_exit(127);
	}
	setpgid(pid, pid);	/* both sides: no kill(-pid) before the group exists */
	for (;;) {
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (vsb_interrupted && !sent) {
			kill(-pid, SIGTERM);
			sent = 1;
		}
		if (now_s() - drawn >= 1) {
			progress(r, what, t0);
			drawn = now_s();
		}
		usleep(100000);
	}
	progress_clear(r);
	if (w != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The last line of @log that is not a bare progress or blank line. */
static void last_line(const char *log, char *buf, size_t len)
{
	char line[1024];
	int e;
	FILE *f = vsb_fopen_regular(log, VSB_READ_MAX, &e);

	snprintf(buf, len, "(no output)");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] && line[0] != ' ' && strncmp(line, "  |", 3))
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

/* A failed step: one line naming it and its log; the state says so too. */
static int step_failed(struct vsb_ab_run *r, const char *what, const char *log, int rc)
{
	char line[1024];

	if (vsb_interrupted || rc == 130 || rc == 143) {
		vsb_err("ab: interrupted during %s; %ld of %ld boots kept in %s "
			"(the same command continues)", what, r->ndone,
			2 * r->ab->now, r->ab->dir);
		write_state(r, "interrupted");
		return VSB_EXIT_ERROR;
	}
	last_line(log, line, sizeof(line));
	vsb_err("ab: %s failed (exit %d): %s [log: %s]", what, rc, line, log);
	write_state(r, rc == VSB_EXIT_SKIP ? "skipped" : "failed");
	return rc == VSB_EXIT_SKIP ? VSB_EXIT_SKIP : VSB_EXIT_ERROR;
}

/* Side @s still has a boot to run. */
static int side_missing(const struct vsb_ab_run *r, int s)
{
	long i;

	for (i = 0; i < 2 * r->ab->now; i++)
		if (!r->b[i].done && vsb_ab_side(i) == s)
			return 1;
	return 0;
}

/*
 * Fetch each kernel (if need be) and build the module for it: for a side
 * with a boot left to run only, so a finished folder gives its verdict
 * again without a module build (kbuild's checks alone take seconds).
 */
static int prepare(struct vsb_ab_run *r)
{
	char sdir[4096 + 8], log[4096 + 32], what[512];
	int s, rc;

	for (s = VSB_AB_BASE; s <= VSB_AB_NEW; s++) {
		char *args[] = { "prepare", r->ab->k[s].spec, sdir, NULL };

		if (!side_missing(r, s) || r->prepared[s])
			continue;

		snprintf(sdir, sizeof(sdir), "%s/%s", r->ab->dir, vsb_ab_side_name[s]);
		snprintf(log, sizeof(log), "%s/prepare.log", sdir);
		snprintf(what, sizeof(what), "preparing the %s kernel %s",
			 vsb_ab_side_name[s], r->ab->k[s].release);
		if (vsb_mkdir_p(sdir, 0755)) {
			vsb_err("-o %s: cannot create %s: %s", r->ab->dir, sdir,
				strerror(errno));
			return VSB_EXIT_ERROR;
		}
		rc = run_script(r, args, log, what);
		if (rc)
			return step_failed(r, what, log, rc);
		r->prepared[s] = 1;
	}
	return 0;
}

static void say_tcg(struct vsb_ab_run *r, const struct vsb_ab_boot *b)
{
	if (r->tcg_said || strcmp(b->accel, "tcg"))
		return;
	r->tcg_said = 1;
	if (r->ab->exact)
		vsb_note("ab: exact mode: instructions per op and their mix, counted "
			 "under QEMU TCG (docs/exact.md); nothing is timed");
	else
		vsb_note("ab: the guests run under TCG (no usable KVM here): the "
			 "timings are emulated; compare shapes, not values (exact "
			 "mode, the default under TCG, counts instructions)");
}

static int one_boot(struct vsb_ab_run *r, long i)
{
	const struct vsb_ab *ab = r->ab;
	char sdir[2048 + 8], log[2048 + 64], what[512], pos[64], sweep[2048 + 300];
	char k[24];
	char *args[] = { "boot", sdir, k, pos, sweep, NULL };
	double t0 = now_s();
	int rc;

	snprintf(sdir, sizeof(sdir), "%s/%s", ab->dir, vsb_ab_side_name[vsb_ab_side(i)]);
	snprintf(k, sizeof(k), "%ld", vsb_ab_side_boot(i));
	snprintf(pos, sizeof(pos), "%ld of %ld", i + 1, 2 * ab->now);
	snprintf(sweep, sizeof(sweep), "%s/%s", ab->dir, ab->sweep_base);
	snprintf(log, sizeof(log), "%s/boot-%s.log", sdir, k);
	snprintf(what, sizeof(what), "boot %ld/%ld (%s %s, %s)", i + 1, 2 * ab->now,
		 vsb_ab_side_name[vsb_ab_side(i)], k, ab->k[vsb_ab_side(i)].release);
	rc = run_script(r, args, log, what);
	if (rc == VSB_EXIT_ERROR && !vsb_interrupted) {
		/* a guest that died (TCG on a loaded host) gets one more try */
		char old[sizeof(log) + 8], line[1024];

		last_line(log, line, sizeof(line));
		snprintf(old, sizeof(old), "%s.1", log);
		rename(log, old);
		vsb_warn("ab: %s failed (%s [log: %s]); trying it once more", what,
			 line, old);
		rc = run_script(r, args, log, what);
	}
	if (rc && rc != VSB_EXIT_UNTRUSTED) {
		/*
		 * A signal after the script renamed the boot's folder into
		 * place: that boot is whole, and kept is what the state and
		 * the message must say (a continuation would count it too).
		 */
		if (vsb_interrupted || rc == 130 || rc == 143)
			boot_load(r, i);
		return step_failed(r, what, log, rc);
	}
	r->secs_this += now_s() - t0;
	r->nthis++;
	boot_load(r, i);
	r->b[i].secs = now_s() - t0;
	if (!r->ab->progress)
		fprintf(stderr, r->worker ? "ab: %s done in %.0f s\n" :
			"ab: %s done in %.0f s (%ld of %ld)\n", what,
			r->b[i].secs, r->ndone, 2 * ab->now);
	if (rc)
		vsb_warn("ab: %s: a point failed its sanity check (kept, marked; "
			 "see %s)", what, log);
	say_tcg(r, &r->b[i]);
	return write_state(r, "running");
}

static int boots(struct vsb_ab_run *r)
{
	long i;
	int ret;

	if (r->ab->jobs > 1)
		return vsb_ab_boots_parallel(r, r->ab->jobs, &(struct vsb_ab_boot_ops){
			.one = one_boot, .load = boot_load, .state = write_state });
	for (i = 0; i < 2 * r->ab->now; i++) {
		if (r->b[i].done)
			continue;
		if (vsb_interrupted)
			return step_failed(r, "the boots", "", 130);
		ret = one_boot(r, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* DIR exists, is ours alone (a second ab there would mix boots), has the sweep. */
static int setup_dir(struct vsb_ab_run *r)
{
	struct vsb_ab *ab = r->ab;
	char path[4096 + 300];
	struct vsb_outfile of;

	int ret;

	if (vsb_mkdir_p(ab->dir, 0755)) {
		vsb_err("-o %s: cannot create: %s", ab->dir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	/* the folder itself, as a sweep's: no lock file to be renamed over */
	ret = vsb_dir_lock(ab->dir, "-o");
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/%s", ab->dir, ab->sweep_base);
	if (vsb_outfile_open(&of, path, "-o"))
		return VSB_EXIT_ERROR;
	if (fwrite(ab->sweep_text, 1, ab->sweep_len, of.f) != ab->sweep_len) {
		vsb_outfile_abort(&of);
		return VSB_EXIT_ERROR;
	}
	return vsb_outfile_commit(&of) ? VSB_EXIT_ERROR : 0;
}

/*
 * The boots a side a previous run of this folder had reached (ab.txt's
 * boots_now: it adds ABBA pairs past --boots while points are
 * undecided), at least --boots, at most --max-boots; and the boots of
 * those found done.  Folders past it are not counted: they are read as
 * a look reaches them.
 */
static void boots_reached(struct vsb_ab_run *r)
{
	struct vsb_ab *ab = r->ab;
	char path[4096 + 16];
	long i, bn = 0;

	snprintf(path, sizeof(path), "%s/ab.txt", ab->dir);
	if (vsb_keyval_long(path, "boots_now", &bn))
		bn = 0;
	ab->now = bn > ab->max_boots ? ab->max_boots : bn > ab->boots ? bn : ab->boots;
	for (i = 0; i < 2 * ab->now; i++)
		boot_load(r, i);
}

/*
 * The boots, then compare's verdict; while a point is undecided
 * (inconclusive, or too few boots to judge) and --max-boots allows, one
 * more ABBA pair and another look.  Each look's alpha is its share of
 * 0.01 (vsb_cmp_look_alpha), so all the looks together keep an A/A's
 * false alarms at 0.01 a point.  0, or the verdict's compare status.
 */
static int boots_and_looks(struct vsb_ab_run *r)
{
	struct vsb_ab *ab = r->ab;
	int ret;

	for (;;) {
		ret = prepare(r);
		ret = ret ?: write_state(r, "running");
		ret = ret ?: boots(r);
		if (ret)
			return -ret;
		ret = vsb_ab_compare(r);
		if (ret > 1 && ret != VSB_EXIT_INCONCLUSIVE)
			return ret;
		/* a regression ends it: a later look could only lose it */
		if (!r->undecided || ret == VSB_EXIT_ERROR) {
			r->stop = "decided";
			return ret;
		}
		if (ab->now >= ab->max_boots) {
			r->stop = "max boots";
			return ret;
		}
		ab->now++;
		boot_load(r, 2 * ab->now - 2);	/* a pair an earlier run left */
		boot_load(r, 2 * ab->now - 1);
		vsb_note("ab: %zu point%s undecided after %ld boots a side: one more "
			 "ABBA pair (up to %ld)", r->undecided, r->undecided == 1 ? "" : "s",
			 ab->now - 1, ab->max_boots);
	}
}

int vsb_ab_run(struct vsb_ab *ab)
{
	static struct vsb_ab_run r;
	int ret, untrusted = 0, summary;
	char verdict[1024];
	long i;

	memset(&r, 0, sizeof(r));
	r.ab = ab;
	vsb_install_signal_handlers();
	ret = setup_dir(&r);
	if (ret)
		return ret;
	boots_reached(&r);
	if (r.ndone)
		vsb_note("ab: %s: continuing, %ld of %ld boots done already", ab->dir,
			 r.ndone, 2 * ab->now);
	ret = write_state(&r, "preparing");
	ret = ret ? -ret : boots_and_looks(&r);
	if (ret < 0)
		return -ret;	/* a boot or a write failed, said already */
	for (i = 0; i < 2 * ab->now; i++) {
		untrusted |= r.b[i].status == VSB_EXIT_UNTRUSTED;
		say_tcg(&r, &r.b[i]);
	}
	if (ab->exact && vsb_ab_mix(&r))
		return VSB_EXIT_ERROR;
	summary = vsb_ab_summary(&r, ret);
	free(r.mix_md);
	r.mix_md = NULL;
	if (summary || write_state(&r, ret <= 1 || ret == VSB_EXIT_INCONCLUSIVE ? "done" :
				   "compare failed"))
		return VSB_EXIT_ERROR;
	vsb_ab_verdict_text(&r, ret, verdict, sizeof(verdict));
	fprintf(stderr, "ab: %s; %s/summary.md\n", verdict, ab->dir);
	if (ret > 1 && ret != VSB_EXIT_INCONCLUSIVE)
		return VSB_EXIT_ERROR;
	return ret ? ret : untrusted ? VSB_EXIT_UNTRUSTED : 0;
}

