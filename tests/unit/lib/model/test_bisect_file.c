// SPDX-License-Identifier: GPL-2.0
/*
 * bisect.state as a whole file (bisect_state.c): the question line and
 * the step and spec lines, written as harness/bisect/run.c appends them,
 * come back line by line, in order, whole.  The single lines' own
 * refusals are test_formats.c's.
 */
#include <stdio.h>
#include <string.h>

#include "bisect_state.h"
#include "tap.h"

static void test_question(void)
{
	char *ab[] = { "--repeat", "5", "--cpus", "0,1" };
	char q[512], small[24];

	vsb_bisect_question_write(q, sizeof(q), "/src/linux", "aaaa", "bbbb",
				  "configs/quick.sweep", ab, 4);
	TAP_OK(!strcmp(q, "question: tree=/src/linux good=aaaa bad=bbbb "
		       "sweep=configs/quick.sweep ab=--repeat 5 --cpus 0,1"),
	       "the question names tree, ends, sweep and ab's options: %s", q);
	vsb_bisect_question_write(q, sizeof(q), "/t", "g", "b", "s", ab, 0);
	TAP_OK(!strcmp(q, "question: tree=/t good=g bad=b sweep=s ab="),
	       "no ab options: an empty ab=");
	vsb_bisect_question_write(small, sizeof(small), "/src/linux", "g", "b", "s",
				  ab, 4);
	TAP_OK(strlen(small) == sizeof(small) - 1, "a short buffer is cut, not overrun");
}

static void test_file(void)
{
	const char *sha = "0123456789abcdef0123456789abcdef01234567";
	const char *base = "89abcdef0123456789abcdef0123456789abcdef";
	struct vsb_bisect_step s = { .role = "step", .verdict = "good",
				     .dir = "steps/01-0123456789ab" }, back;
	char text[2048], line[512], bsha[41], spec[256], *cur, *l;
	char *ab[] = { "--repeat", "3" };

	snprintf(s.sha, sizeof(s.sha), "%s", sha);
	snprintf(s.base_sha, sizeof(s.base_sha), "%s", base);
	vsb_bisect_question_write(text, sizeof(text), "/t", base, sha, "s", ab, 2);
	strcat(text, "\n");
	vsb_bisect_spec_write(line, sizeof(line), sha, "/k/bzImage:/k/build");
	strcat(strcat(text, line), "\n");
	vsb_bisect_step_write(line, sizeof(line), &s);
	strcat(strcat(text, line), "\n");

	cur = text;
	l = vsb_bisect_state_line(&cur);
	TAP_OK(l && !strcmp(l, "question: tree=/t good=89abcdef0123456789abcdef0123456789abcdef "
			    "bad=0123456789abcdef0123456789abcdef01234567 sweep=s "
			    "ab=--repeat 3"), "the first line is the question");
	l = vsb_bisect_state_line(&cur);
	TAP_OK(l && !vsb_bisect_spec_read(l, bsha, spec, sizeof(spec)) &&
	       !strcmp(bsha, sha) && !strcmp(spec, "/k/bzImage:/k/build"),
	       "the second, the spec line, reads back whole");
	l = vsb_bisect_state_line(&cur);
	TAP_OK(l && !vsb_bisect_step_read(l, &back) && !strcmp(back.verdict, "good") &&
	       !strcmp(back.dir, s.dir) && !strcmp(back.sha, sha),
	       "the third, the step line, reads back whole");
	TAP_OK(!vsb_bisect_state_line(&cur) && !vsb_bisect_state_line(&cur),
	       "then the end, and it stays the end");

	snprintf(text, sizeof(text), "\n\nquestion: x\n\nlast");
	cur = text;
	l = vsb_bisect_state_line(&cur);
	TAP_OK(l && !strcmp(l, "question: x"), "blank lines are passed over");
	l = vsb_bisect_state_line(&cur);
	TAP_OK(l && !strcmp(l, "last") && !vsb_bisect_state_line(&cur),
	       "a last line without its newline is a line");
	text[0] = '\0';
	cur = text;
	TAP_OK(!vsb_bisect_state_line(&cur), "an empty file has no line, no question");
}

/* --split's round line: written, read back, and what is refused */
static void test_round(void)
{
	const char *sha = "0123456789abcdef0123456789abcdef01234567";
	static const char *const bad[] = {
		"round 0 0123456789abcdef0123456789abcdef01234567",
		"round -1 0123456789abcdef0123456789abcdef01234567",
		"round 01 0123456789abcdef0123456789abcdef01234567",
		"round x 0123456789abcdef0123456789abcdef01234567",
		"round 1 0123456789abcdef0123456789abcdef0123456",
		"round 1 0123456789ABCDEF0123456789abcdef01234567",
		"round 1  0123456789abcdef0123456789abcdef01234567",
		"round  1 0123456789abcdef0123456789abcdef01234567",
		"round 1",
		"round 99999999999999999999 0123456789abcdef0123456789abcdef01234567",
	};
	char line[96], back[41];
	size_t i, refused = 0;
	long k = 0;

	vsb_bisect_round_write(line, sizeof(line), 7, sha);
	TAP_OK(!strcmp(line, "round 7 0123456789abcdef0123456789abcdef01234567"),
	       "a round line is \"round K SHA\"");
	TAP_OK(!vsb_bisect_round_read(line, &k, back) && k == 7 && !strcmp(back, sha),
	       "it reads back whole");
	TAP_OK(vsb_bisect_round_read("spec 0123 x", &k, back) == 1,
	       "another kind of line is no round line (1), not an error");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused += vsb_bisect_round_read(bad[i], &k, back) == -1;
	TAP_OK(refused == sizeof(bad) / sizeof(bad[0]),
	       "a round of 0, a sign, a leading zero, a short or upper-case sha, "
	       "a doubled space, no sha, an overflow: refused (%zu of %zu)",
	       refused, sizeof(bad) / sizeof(bad[0]));
}

int main(void)
{
	test_question();
	test_file();
	test_round();
	return tap_done();
}
