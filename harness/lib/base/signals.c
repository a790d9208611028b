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

/* @fn for SIGINT, SIGTERM and SIGHUP: the signals that stop a run */
void vsb_on_stop_signals(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void vsb_install_signal_handlers(void)
{
	vsb_on_stop_signals(on_signal);
}
