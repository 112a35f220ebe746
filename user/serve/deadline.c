// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* deadline.c - which connections of serve are past their deadline. */
#include <errno.h>
#include <stdlib.h>
#include "serve/deadline.h"

int ls_dl_init(struct ls_deadlines *d, unsigned n, int64_t header_ns,
	       int64_t answer_ns)
{
	*d = (struct ls_deadlines){
		.n = n, .header_ns = header_ns, .answer_ns = answer_ns};
	d->slot = calloc(n ? n : 1, sizeof(*d->slot));
	return d->slot ? 0 : -ENOMEM;
}

void ls_dl_free(struct ls_deadlines *d)
{
	free(d->slot);
	d->slot = NULL;
	d->n = 0;
}

struct ls_conn_slot *ls_dl_open(struct ls_deadlines *d, int fd, int64_t now)
{
	for (unsigned i = 0; i < d->n; i++) {
		struct ls_conn_slot *s = &d->slot[i];

		if (s->phase != LS_CONN_FREE)
			continue;
		s->phase = LS_CONN_HEADERS;
		s->fd = fd;
		s->deadline_ns = now + d->header_ns;
		return s;
	}
	return NULL;
}

void ls_dl_request(struct ls_deadlines *d, struct ls_conn_slot *s, int64_t now)
{
	if (s->phase != LS_CONN_HEADERS)
		return; /* cut already, or a later call of the same request */
	s->phase = LS_CONN_ANSWER;
	s->deadline_ns = now + d->answer_ns;
}

void ls_dl_answered(struct ls_deadlines *d, struct ls_conn_slot *s, int64_t now)
{
	if (s->phase == LS_CONN_FREE || s->phase == LS_CONN_CUT)
		return;
	s->phase = LS_CONN_HEADERS;
	s->deadline_ns = now + d->header_ns;
}

void ls_dl_close(struct ls_conn_slot *s)
{
	s->phase = LS_CONN_FREE;
	s->fd = -1;
}

unsigned ls_dl_expired(struct ls_deadlines *d, int64_t now, int *fds,
		       unsigned max)
{
	unsigned k = 0;

	for (unsigned i = 0; i < d->n && k < max; i++) {
		struct ls_conn_slot *s = &d->slot[i];

		if (s->phase != LS_CONN_HEADERS && s->phase != LS_CONN_ANSWER)
			continue;
		if (now < s->deadline_ns)
			continue;
		d->cut[s->phase]++;
		s->phase = LS_CONN_CUT;
		fds[k++] = s->fd;
	}
	return k;
}
