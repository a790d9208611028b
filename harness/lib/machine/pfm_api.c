// SPDX-License-Identifier: GPL-2.0
/*
 * libpfm4 through dlopen() (base/dl.c): see pfm_api.h for why.
 */
#include "dl.h"
#include "pfm_api.h"

#define VSB_PFM_SYM(f) VSB_DL_SYM(vsb_pfm_api, f)
VSB_DL_API(vsb_pfm_api, VSB_PFM_SONAME, VSB_PFM_FUNCS(VSB_PFM_SYM))
