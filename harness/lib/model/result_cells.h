/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cells of the CSV tables the harness writes (a point's CSV,
 * sweep.csv) as numbers, for readers that look a column up by name
 * (lib/charts): in the writer's own syntaxes (numbers.c), so a cell the
 * writer never writes is none, not a number guessed at as atol would.
 */
#ifndef VSB_RESULT_CELLS_H
#define VSB_RESULT_CELLS_H

/* @cell as an integer the writer writes; @none when empty or not one */
long vsb_cell_long(const char *cell, long none);

/* @cell as a figure the writer writes; NAN when empty or not one */
double vsb_cell_real(const char *cell);

#endif /* VSB_RESULT_CELLS_H */
