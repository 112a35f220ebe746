/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* chain_graph.h - the report's wait-for graph of a record, inline SVG. */
#ifndef LS_VIEW_CHAIN_GRAPH_H
#define LS_VIEW_CHAIN_GRAPH_H

#include <stdio.h>
#include "export/record.h"

#define LS_GRAPH_EDGES 16 /* edges drawn, most wait time first */

/* The graph of @s's chain edges into @f as <svg class="ls-chains">: the
 * locks as nodes, an arrow X -> Y where X's holders waited on Y, its width
 * by the wait time behind it, cycles in red.  Returns the edges drawn (0:
 * nothing written), -ENOMEM. */
int ls_svg_chain_graph(FILE *f, const struct ls_rec_snap *s);

#endif
