/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * http.h - the HTTP side of `lockscope serve` (libmicrohttpd).
 *
 * The collector thread renders a page (both formats) once per interval and
 * publishes it; requests take a reference to the current page and send it.
 * Nothing a client does can hold the lock longer than a pointer swap, so a
 * slow or stuck client never delays a collection.
 */
#ifndef LS_SERVE_HTTP_H
#define LS_SERVE_HTTP_H

#include <stddef.h>
#include <sys/socket.h>

/*
 * What one client can hold.  A connection must deliver its request's
 * headers within LS_HTTP_HEADER_S of opening (or of its previous answer)
 * and take its answer within LS_HTTP_ANSWER_S, however it trickles
 * (serve/deadline.h); one address holds at most LS_HTTP_PER_IP_LIMIT of
 * the LS_HTTP_CONN_LIMIT connections, so a flood from one address (or from
 * seven) leaves room for every other.
 */
#define LS_HTTP_CONN_LIMIT 256	/* connections at once */
#define LS_HTTP_PER_IP_LIMIT 32 /* ... from one address */
#define LS_HTTP_HEADER_S 5	/* request line and headers in within */
#define LS_HTTP_ANSWER_S 30	/* answer sent within */
#define LS_HTTP_TIMEOUT_S 10	/* no traffic for this long: closed */
#define LS_HTTP_MEM_LIMIT 16384 /* request line and headers, bytes */

/* One rendered exposition, shared by the requests sending it. */
struct ls_page {
	int refs;
	char *text; /* Prometheus text format */
	size_t text_len;
	char *om; /* OpenMetrics */
	size_t om_len;
};

/* A page holding one reference (for the caller). */
struct ls_page *ls_page_new(void);
void ls_page_get(struct ls_page *pg);
void ls_page_put(struct ls_page *pg);

/* Bind and listen on @sa (before privileges go: ports below 1024).
 * Returns the socket, or -errno (message printed).  @bound gets the
 * address actually bound ("127.0.0.1:9464"; port 0 resolved). */
int ls_http_listen(const struct sockaddr *sa, socklen_t len, char *bound,
		   size_t bound_len);

struct ls_http;
/* Serve on @fd (taken over); NULL on failure (message printed). */
struct ls_http *ls_http_start(int fd);
/* Make @pg (its reference is taken over) the page served from now on. */
void ls_http_publish(struct ls_http *h, struct ls_page *pg);
/* What the server did so far. */
struct ls_http_stats {
	unsigned long ok, bad;	  /* requests answered 200 / refused (4xx) */
	unsigned long cut_header; /* connections cut: headers late */
	unsigned long cut_answer; /* ... answer not taken in time */
};
void ls_http_stats(struct ls_http *h, struct ls_http_stats *st);
void ls_http_stop(struct ls_http *h);

#endif
