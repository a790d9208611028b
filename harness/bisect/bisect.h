/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `vmstat-bench bisect` and `bisect-step`: what cmd_bisect.c (the
 * command line) hands to bisect/: check.c (the refusals before anything
 * is built), proc.c (child processes and git), step.c (one commit built,
 * booted against the good one by `ab`, its compare.csv read and the step
 * decided), state.c (OUT's bisect.state: opened, checked, resumed,
 * appended to), run.c (git bisect driven in a bare clone in OUT, the
 * culprit's check), commit.c (a commit built once, booted, judged,
 * said, marked), split.c (--split: rounds of commits at once), ahead.c
 * (the commits git may ask for next, built while a step boots), hold.c
 * (a build's lock held while a step boots it) and out.c (bisect.txt, bisect.csv and its chart).
 * Builds are ci/bisect-build.sh's; verdicts are ab's, read from
 * DIR/compare/compare.csv.  Only cmd_bisect.c and bisect/
 * include this.
 */
#ifndef VSB_BISECT_H
#define VSB_BISECT_H

#include <stddef.h>

#include "bisect_state.h"
#include "compare_csv.h"

#define VSB_BISECT_POINTS_MAX	256
#define VSB_BISECT_STEPS_MAX	256
#define VSB_BISECT_AB_ARGS_MAX	64
#define VSB_BISECT_BUILT_MAX	64
/*
 * builds ahead: --ahead's bound (three steps' candidates), and the most
 * kept, under way or done and not yet taken
 */
#define VSB_BISECT_AHEAD_MAX	14
#define VSB_BISECT_PRE_MAX	64

/* How a verdict word of compare.csv counts for a step. */
/*
 * CHANGED: exact mode's count moved and no cost model vouches for a
 * direction (compare's `changed`): still a change to bisect to.
 */
enum vsb_bisect_class { VSB_BC_UNDECIDED, VSB_BC_SAME, VSB_BC_SLOWER, VSB_BC_FASTER,
			VSB_BC_CHANGED };

/* What a step decided: git bisect's words. */
enum vsb_bisect_verdict { VSB_BV_NONE, VSB_BV_GOOD, VSB_BV_BAD, VSB_BV_SKIP };

/*
 * A commit built ahead by its own supervisor process (ahead.c), the
 * leader of a process group that holds the build: cancelling it is one
 * kill of the group.
 */
struct vsb_bisect_pre {
	char sha[41];
	pid_t pid;	/* the supervisor; 0 once reaped */
	int status;	/* its exit status once reaped (-1: killed, cancelled;
			 * -2: under way) */
};

/* One row of a compare.csv, as its codec read it (compare_csv.h). */
struct vsb_bisect_row {
	char label[256];
	char unit[16];
	char verdict[32];	/* the word as written, for bisect.txt */
	enum vsb_compare_word word;
	double base, new, ratio;
};

struct vsb_bisect_cmp {
	struct vsb_bisect_row rows[VSB_BISECT_POINTS_MAX];
	size_t n;
};

struct vsb_bisect {
	char tree[4096];	/* the user's tree, its top level */
	char good[41], bad[41];	/* resolved */
	const char *good_rev, *bad_rev;	/* as given */
	const char *sweep;
	char out[2048];
	const char *db;		/* --db URL or NULL */
	char *ab_args[VSB_BISECT_AB_ARGS_MAX];	/* passed to ab unchanged */
	int nab;
	long boots;		/* ab's --boots as passed (0: ab's default) */
	char self[4096];	/* this binary */
	char repo[4096];	/* its checkout: ci/bisect-build.sh */
	/* tests: VSB_BISECT_FAKE stands in for the build and for ab (and db
	 * import), VSB_BISECT_FAKE_AB for ab alone, the build real */
	const char *fake, *fake_ab;
	char good_spec[4096];
	/* the points the endpoints differ on, and which way */
	char changed[VSB_BISECT_POINTS_MAX][256];
	enum vsb_bisect_class dir[VSB_BISECT_POINTS_MAX];
	size_t nchanged;
	struct vsb_bisect_step steps[VSB_BISECT_STEPS_MAX];
	size_t nsteps;
	/* commits built, their specs: no second checkout of one */
	struct {
		char sha[41];
		char spec[4096];
	} built[VSB_BISECT_BUILT_MAX];
	size_t nbuilt;
	int lockfd;
	/* --ahead N: commits git may ask for next, built while a step
	 * boots (0: none); -1 until the default is taken */
	long ahead;
	struct vsb_bisect_pre pre[VSB_BISECT_PRE_MAX];
	size_t npre;
	int baton;	/* the last pre-build's baton (read end), or -1 */
	/* the next commits git may ask for, nearest first (ahead.c) */
	char plan[VSB_BISECT_AHEAD_MAX][41];
	size_t nplan;
	/* --split K: commits tested at once a round (1: a step at a time) */
	long split;
	/* the round each step was tested in (0: alone), the last round's */
	unsigned int round[VSB_BISECT_STEPS_MAX];
	unsigned int nround;
};

/* proc.c: stop signals passed on to the child */
void vsb_bisect_signals(void);
/*
 * fork a worker of a round (split.c): 0 in it (it dies with bisect, a
 * stop signal reaches it), its pid here, -1 on error
 */
pid_t vsb_bisect_fork_worker(void);
/* a worker reaped: no signal passed on to its pid any more */
void vsb_bisect_unwatch(pid_t pid);
/* "interrupted; the same command resumes", once */
void vsb_bisect_say_stop(void);
/* run @argv; its stdout's last line into @last (may be NULL) */
int vsb_bisect_spawn(char *const argv[], char *last, size_t len);
/* git -C @dir ARGS...: its first stdout line into @out; the exit status */
int vsb_bisect_git(const char *dir, char *out, size_t len, ...)
	__attribute__((sentinel));
/* git's whole stdout into a malloc'ed *@out */
int vsb_bisect_git_all(const char *dir, char **out, ...) __attribute__((sentinel));

/* check.c: the refusals (VSB_EXIT_USAGE after one line), before any build */
int vsb_bisect_check(struct vsb_bisect *b);
/* bisect-step's: the sweep, the checkout, the cache, ab's options */
int vsb_bisect_check_step(struct vsb_bisect *b);
int vsb_bisect_check_sweep(const char *sweep);
int vsb_bisect_find_self(struct vsb_bisect *b);

/* step.c */
enum vsb_bisect_class vsb_bisect_classify(enum vsb_compare_word w);
int vsb_bisect_read_cmp(const char *csv, struct vsb_bisect_cmp *c);
/* a build's command line, and the buffers its words are in */
struct vsb_bisect_cmdline {
	char *argv[8];
	char kdir[2048 + 64], script[4096 + 32];
};
void vsb_bisect_build_argv(const struct vsb_bisect *b, const char *sha,
			   struct vsb_bisect_cmdline *c);
int vsb_bisect_build_rc(int rc, const char *spec, const char *sha);
/* build @sha; its spec into @spec: 0, or 125 (did not build), or VSB_EXIT_* */
int vsb_bisect_build(const struct vsb_bisect *b, const char *sha, char *spec, size_t len);
/* ab of @base against @new into OUT/@dir, with more boots if undecided */
int vsb_bisect_ab(const struct vsb_bisect *b, const char *base, const char *new,
		  const char *dir, struct vsb_bisect_cmp *c, int more);
/* the rule: the step's verdict from its compare against the good end */
enum vsb_bisect_verdict vsb_bisect_decide(const struct vsb_bisect *b,
					  const struct vsb_bisect_cmp *c);

/* bisect-step: git bisect run's exit codes */
int vsb_bisect_step(struct vsb_bisect *b);

/* ahead.c: --ahead's default (what the machine can take) */
long vsb_bisect_ahead_default(void);
/* are the steps' boots exact (--exact, or ab's choice at the endpoints)? */
int vsb_bisect_exact(const struct vsb_bisect *b);
/*
 * git's picks after @head, if it is bad and if it is good (the ranges
 * each verdict leaves), into @out: at most @max, distinct, neither @head
 * nor a commit skipped or measured already; how many
 */
size_t vsb_bisect_next_picks(const struct vsb_bisect *b, const char *head,
			     char (*out)[41], size_t max);
/*
 * The commits git may ask for after @head (NULL: the first step, from
 * the endpoints) into b->plan, nearest first, @head not among them; the
 * pre-builds of others than these and @head are cancelled.
 */
void vsb_bisect_ahead_plan(struct vsb_bisect *b, const char *head);
/* start the plan's builds that are neither built nor under way */
void vsb_bisect_ahead_launch(struct vsb_bisect *b);
/*
 * @sha's pre-build, waited for: 0 (its spec in @spec), 125 (it did not
 * build), -1 (none, or it cannot be used: build it now), or
 * VSB_EXIT_ERROR (interrupted)
 */
int vsb_bisect_ahead_take(struct vsb_bisect *b, const char *sha, char *spec, size_t len);
/*
 * cancel every pre-build under way, their processes gone when it
 * returns; those done stay, to be taken
 */
void vsb_bisect_ahead_stop(struct vsb_bisect *b);

/* hold.c: @spec's build folder's lock, shared: an fd, or -1 (none to hold) */
int vsb_bisect_hold(const char *spec, int wait);
/* is @spec's build complete (.vsb-complete)?  1 for kernels not ours */
int vsb_bisect_spec_complete(const char *spec);
void vsb_bisect_release(int fd);

/* state.c: OUT opened (new, or resumed), bisect.state appended to */
/* @s recorded, and the round it was tested in (a line of its own) */
int vsb_bisect_record_round(struct vsb_bisect *b, const struct vsb_bisect_step *s,
			    unsigned int round);
int vsb_bisect_open_out(struct vsb_bisect *b);
int vsb_bisect_state_add(const struct vsb_bisect *b, const char *line);
/* @s into b->steps and bisect.state */
int vsb_bisect_record(struct vsb_bisect *b, const struct vsb_bisect_step *s);

/* run.c */
int vsb_bisect_run(struct vsb_bisect *b);

/* commit.c: @sha built once a bisect: 0 (@spec), 125 (no build), VSB_EXIT_* */
int vsb_bisect_build_once(struct vsb_bisect *b, const char *sha, char *spec, size_t len);
/* ab of @base against @new with @new's build held too (good's is) */
int vsb_bisect_ab_held(const struct vsb_bisect *b, const char *base, const char *new,
		       const char *dir, struct vsb_bisect_cmp *c);
/* good's build marked used, so that the lineage's prune keeps it */
void vsb_bisect_touch_good(const struct vsb_bisect *b);
/* a step of @sha, the @n-th, in steps/NN-<sha12>, not yet measured */
void vsb_bisect_step_init(const struct vsb_bisect *b, const char *sha, size_t n,
			  struct vsb_bisect_step *s);
/* @spec booted against good (ab), @s's verdict by the rule: 0, VSB_EXIT_* */
int vsb_bisect_judge(const struct vsb_bisect *b, const char *spec,
		     struct vsb_bisect_step *s);
void vsb_bisect_say_step(const struct vsb_bisect *b, const struct vsb_bisect_step *s);
/* steps @from to @to given to git as marks; its last answer in *@out */
int vsb_bisect_mark(struct vsb_bisect *b, size_t from, size_t to, char **out);

/*
 * split.c: --split 3: a round at @head (git's pick), its candidates
 * measured at once, recorded, marked; git's answer in *@out
 */
int vsb_bisect_round(struct vsb_bisect *b, const char *head, char **out);
/* after the endpoints: --split 3 only beside exact boots (VSB_EXIT_USAGE) */
int vsb_bisect_split_check(const struct vsb_bisect *b);

/* out.c */
void vsb_bisect_subject(const struct vsb_bisect *b, const char *sha, char *buf, size_t len);
void vsb_bisect_effect(const struct vsb_bisect *b, const struct vsb_bisect_step *s);
int vsb_bisect_write(const struct vsb_bisect *b, const char *culprit, const char *tail);

#endif /* VSB_BISECT_H */
