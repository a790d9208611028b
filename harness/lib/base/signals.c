// SPDX-License-Identifier: GPL-2.0
/*
 * The stop signals (SIGINT, SIGTERM, SIGHUP): a flag the runners poll
 * between samples; nothing is written from the handler.
 */
#include <signal.h>
#include <string.h>

#include "vsb.h"


volatile sig_atomic_t vsb_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	vsb_interrupted = 1;
}

static void stop_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/*
 * @fn for SIGINT, SIGTERM and SIGHUP: the signals that stop a run.
 * Then they are unblocked: a process `sweep` started has them blocked
 * from before its exec (vsb_block_stop_signals), so one sent to it in
 * its first milliseconds waited, and reaches @fn now instead of
 * killing it before it could save what it was handed.
 */
void vsb_on_stop_signals(void (*fn)(int))
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	stop_set(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

void vsb_block_stop_signals(sigset_t *old)
{
	sigset_t set;

	stop_set(&set);
	sigprocmask(SIG_BLOCK, &set, old);
}

void vsb_install_signal_handlers(void)
{
	vsb_on_stop_signals(on_signal);
}
