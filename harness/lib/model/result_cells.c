// SPDX-License-Identifier: GPL-2.0
/*
 * A result table's cells as numbers (result_cells.h): the writer prints
 * integers with %ld and figures with %g, and lib/base's parsers take
 * exactly those; an empty cell (a column a bench does not use) or text
 * is none.
 */
#include <math.h>

#include "result_cells.h"
#include "vsb.h"

long vsb_cell_long(const char *cell, long none)
{
	long v;

	return cell && *cell && !vsb_parse_long(cell, &v) ? v : none;
}

double vsb_cell_real(const char *cell)
{
	double v;

	return cell && *cell && !vsb_parse_real(cell, &v) ? v : NAN;
}
