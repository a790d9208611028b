// SPDX-License-Identifier: GPL-2.0
/*
 * The one JSON string escape (base/json.c), which the JSON results and
 * the store's JSON columns are written with: quote and backslash
 * escaped, control characters as \u00XX, everything else as it is.
 */
#include <string.h>

#include "json.h"
#include "tap.h"

static int esc_is(unsigned char c, const char *want)
{
	char out[8];
	size_t n = vsb_json_escape(c, out);

	return n == strlen(want) && !strcmp(out, want);
}

int main(void)
{
	TAP_OK(esc_is('"', "\\\""), "a quote: \\\"");
	TAP_OK(esc_is('\\', "\\\\"), "a backslash: \\\\");
	TAP_OK(esc_is('\n', "\\u000a") && esc_is('\t', "\\u0009") && esc_is(1, "\\u0001") &&
	       esc_is(0x1f, "\\u001f"), "control characters: \\u00XX");
	TAP_OK(esc_is('a', "a") && esc_is(' ', " ") && esc_is('/', "/") && esc_is(0x7f, "\x7f"),
	       "printable ASCII and DEL as they are");
	TAP_OK(esc_is(0xc3, "\xc3") && esc_is(0xa9, "\xa9"), "UTF-8 bytes as they are");
	return tap_done();
}
