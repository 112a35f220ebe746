/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * deadline.h - absolute deadlines for the connections of `lockscope serve`.
 *
 * libmicrohttpd's connection timeout is an idle timeout: it restarts at
 * every byte, so a client sending a byte every few seconds holds its
 * connection for ever.  This table gives each connection a deadline that no
 * traffic moves: its request's headers must be in within @header_ns of the
 * connection opening (or of the previous answer on a kept-alive one), and
 * the answer must be sent within @answer_ns of the headers.  The HTTP side
 * keeps the table (under its own lock) from libmicrohttpd's callbacks, and
 * a timer shuts down the sockets ls_dl_expired() returns.  Pure C: no
 * sockets are touched here.
 */
#ifndef LS_SERVE_DEADLINE_H
#define LS_SERVE_DEADLINE_H

#include <stdint.h>

enum ls_conn_phase {
	LS_CONN_FREE = 0,
	LS_CONN_HEADERS, /* waiting for a request's headers */
	LS_CONN_ANSWER,	 /* headers in: the answer is being sent */
	LS_CONN_CUT,	 /* past its deadline, returned once for shutdown */
};

struct ls_conn_slot {
	enum ls_conn_phase phase;
	int fd;
	int64_t deadline_ns;
};

struct ls_deadlines {
	struct ls_conn_slot *slot; /* @n, preallocated */
	unsigned n;
	int64_t header_ns, answer_ns;
	unsigned long cut[LS_CONN_CUT]; /* connections cut, by phase */
};

/* 0, or -ENOMEM. */
int ls_dl_init(struct ls_deadlines *d, unsigned n, int64_t header_ns,
	       int64_t answer_ns);
void ls_dl_free(struct ls_deadlines *d);
/* A connection on @fd opened at @now: its slot, NULL when all are taken. */
struct ls_conn_slot *ls_dl_open(struct ls_deadlines *d, int fd, int64_t now);
/* Its request's headers are in: the answer's deadline starts. */
void ls_dl_request(struct ls_deadlines *d, struct ls_conn_slot *s, int64_t now);
/* Its answer is sent (the connection stays open for the next request):
 * the next request's header deadline starts. */
void ls_dl_answered(struct ls_deadlines *d, struct ls_conn_slot *s,
		    int64_t now);
/* The connection is closed: its slot is free again. */
void ls_dl_close(struct ls_conn_slot *s);
/* Connections past their deadline at @now: up to @max of their sockets in
 * @fds, each returned once (and counted in d->cut by phase).  Returns how
 * many. */
unsigned ls_dl_expired(struct ls_deadlines *d, int64_t now, int *fds,
		       unsigned max);

#endif
