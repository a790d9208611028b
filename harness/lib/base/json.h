/* SPDX-License-Identifier: GPL-2.0 */
/* The JSON string escape (json.c). */
#ifndef VSB_JSON_H
#define VSB_JSON_H

#include <stddef.h>

/*
 * Byte @c of a JSON string as written: itself, \" or \\, or \u00XX for
 * a control character; into @out, NUL-terminated; returns its length.
 */
size_t vsb_json_escape(unsigned char c, char out[8]);

#endif /* VSB_JSON_H */
