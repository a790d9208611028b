/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands of the CLI: each takes its own argv (argv[0] is the
 * command name) and returns the process exit status.
 */
#ifndef VSB_CMDS_H
#define VSB_CMDS_H

struct vsb_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int vsb_cmd_run(int argc, char **argv);
int vsb_cmd_list(int argc, char **argv);
int vsb_cmd_calibrate(int argc, char **argv);
int vsb_cmd_estimate(int argc, char **argv);
int vsb_cmd_profile(int argc, char **argv);
int vsb_cmd_sweep(int argc, char **argv);
int vsb_cmd_compare(int argc, char **argv);
int vsb_cmd_plot(int argc, char **argv);
int vsb_cmd_info(int argc, char **argv);
int vsb_cmd_thresholds(int argc, char **argv);
int vsb_cmd_refresh_model(int argc, char **argv);
int vsb_cmd_trace(int argc, char **argv);
int vsb_cmd_restore(int argc, char **argv);
int vsb_cmd_db(int argc, char **argv);
int vsb_cmd_history(int argc, char **argv);
int vsb_cmd_ab(int argc, char **argv);
int vsb_cmd_bisect(int argc, char **argv);
int vsb_cmd_bisect_step(int argc, char **argv);

#endif /* VSB_CMDS_H */
