/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* accept.h - HTTP content negotiation for /metrics. */
#ifndef LS_SERVE_ACCEPT_H
#define LS_SERVE_ACCEPT_H

#include "export/prom.h"

/* The format an HTTP Accept header prefers: OpenMetrics when its q value
 * is at least text's, else text (also for NULL: no header). */
enum ls_prom_format ls_accept_format(const char *accept);

#endif
