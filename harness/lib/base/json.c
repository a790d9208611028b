// SPDX-License-Identifier: GPL-2.0
/*
 * The one JSON string escape of the harness, for the result writer's
 * JSON files and the store's JSON columns alike.  Written by hand: the
 * harness writes JSON and never reads it (the store's backends read
 * their own), and the escape is this function.
 */
#include <stdio.h>

#include "json.h"

size_t vsb_json_escape(unsigned char c, char out[8])
{
	if (c == '"' || c == '\\') {
		out[0] = '\\';
		out[1] = (char)c;
		out[2] = '\0';
		return 2;
	}
	if (c < 0x20)
		return (size_t)snprintf(out, 8, "\\u%04x", c);
	out[0] = (char)c;
	out[1] = '\0';
	return 1;
}
