// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* http.c - /metrics over libmicrohttpd, answers prepared ahead. */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <microhttpd.h>
#include "export/prom.h"
#include "util/log.h"
#include "serve/netaddr.h"
#include "serve/deadline.h"
#include "serve/http.h"

#define LS_HTTP_REAP_MS 200 /* deadlines are checked this often */

struct ls_http {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	struct ls_page *page; /* current, one reference held here */
	unsigned long ok, bad;
	/* Connection deadlines: libmicrohttpd's thread keeps the table, the
	 * reaper cuts the late.  A socket is shut down only under dl_lock,
	 * and libmicrohttpd frees a slot (under it) before it closes the
	 * socket, so the reaper never touches a descriptor reused since. */
	pthread_mutex_t dl_lock;
	pthread_cond_t dl_cond;
	struct ls_deadlines dl;
	pthread_t reaper;
	int stop;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct ls_page *ls_page_new(void)
{
	struct ls_page *pg = calloc(1, sizeof(*pg));

	if (pg)
		pg->refs = 1;
	return pg;
}

void ls_page_get(struct ls_page *pg)
{
	__atomic_add_fetch(&pg->refs, 1, __ATOMIC_RELAXED);
}

void ls_page_put(struct ls_page *pg)
{
	if (!pg || __atomic_sub_fetch(&pg->refs, 1, __ATOMIC_ACQ_REL))
		return;
	free(pg->text);
	free(pg->om);
	free(pg);
}

int ls_http_listen(const struct sockaddr *sa, socklen_t len, char *bound,
		   size_t bound_len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd, one = 1, zero = 0, err;
	char want[64];

	ls_addr_str(sa, want, sizeof(want));
	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		ls_fail_errno("open", "listening socket", err);
		return err;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa->sa_family == AF_INET6) /* ":PORT" is every address */
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, sa, len) || listen(fd, LS_HTTP_CONN_LIMIT)) {
		char obj[96];

		err = -errno;
		snprintf(obj, sizeof(obj), "on %s", want);
		ls_fail_errno("listen", obj, err);
		if (err == -EADDRINUSE)
			ls_hint("another process uses the port: pick another "
				"with --listen");
		close(fd);
		return err;
	}
	if (!getsockname(fd, (struct sockaddr *)&ss, &sl))
		ls_addr_str((struct sockaddr *)&ss, bound, bound_len);
	else
		snprintf(bound, bound_len, "%s", want);
	return fd;
}

static const char landing[] =
	"<!DOCTYPE html>\n<html><head><title>lockscope</title></head>\n"
	"<body><h1>lockscope</h1>\n"
	"<p>Live kernel lock contention for Prometheus: "
	"<a href=\"/metrics\">/metrics</a></p>\n</body></html>\n";

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned code,
			     const char *type, const char *body)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

static void page_done(void *cls)
{
	ls_page_put(cls);
}

static enum MHD_Result send_page(struct ls_http *h, struct MHD_Connection *conn)
{
	const char *accept = MHD_lookup_connection_value(
		conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	enum ls_prom_format fmt = ls_prom_negotiate(accept);
	struct MHD_Response *r;
	struct ls_page *pg;
	enum MHD_Result ret;

	pthread_mutex_lock(&h->lock);
	pg = h->page;
	if (pg)
		ls_page_get(pg);
	pthread_mutex_unlock(&h->lock);
	if (!pg)
		return reply(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain",
			     "no collection yet\n");
	if (fmt == LS_PROM_OPENMETRICS)
		r = MHD_create_response_from_buffer_with_free_callback_cls(
			pg->om_len, pg->om, page_done, pg);
	else
		r = MHD_create_response_from_buffer_with_free_callback_cls(
			pg->text_len, pg->text, page_done, pg);
	if (!r) {
		ls_page_put(pg);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				fmt == LS_PROM_OPENMETRICS
					? LS_PROM_CT_OPENMETRICS
					: LS_PROM_CT_TEXT);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* The deadline slot of @conn (NULL: none). */
static struct ls_conn_slot *conn_slot(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(
		conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* A connection opens (its header deadline starts) or closes. */
static void on_connection(void *cls, struct MHD_Connection *conn,
			  void **sock_ctx,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct ls_http *h = cls;
	const union MHD_ConnectionInfo *ci;

	if (toe != MHD_CONNECTION_NOTIFY_STARTED) {
		pthread_mutex_lock(&h->dl_lock);
		if (*sock_ctx)
			ls_dl_close(*sock_ctx);
		pthread_mutex_unlock(&h->dl_lock);
		*sock_ctx = NULL;
		return;
	}
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci)
		return;
	pthread_mutex_lock(&h->dl_lock);
	*sock_ctx = ls_dl_open(&h->dl, ci->connect_fd, now_ns());
	/* More connections than slots cannot happen (libmicrohttpd's limit
	 * is the table's size); should it, none is served without a deadline */
	if (!*sock_ctx)
		shutdown(ci->connect_fd, SHUT_RDWR);
	pthread_mutex_unlock(&h->dl_lock);
}

/* An answer went out (or the request ended): the connection may carry
 * the next request, whose header deadline starts now. */
static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct ls_http *h = cls;
	struct ls_conn_slot *s = conn_slot(conn);

	(void)req_cls;
	(void)toe;
	if (!s)
		return;
	pthread_mutex_lock(&h->dl_lock);
	ls_dl_answered(&h->dl, s, now_ns());
	pthread_mutex_unlock(&h->dl_lock);
}

/* Shut down the sockets of the connections past their deadline;
 * libmicrohttpd then sees them end and closes them. */
static void *reaper(void *arg)
{
	struct ls_http *h = arg;
	int fds[LS_HTTP_CONN_LIMIT];

	pthread_mutex_lock(&h->dl_lock);
	while (!h->stop) {
		unsigned k = ls_dl_expired(&h->dl, now_ns(), fds,
					   LS_HTTP_CONN_LIMIT);
		struct timespec next;

		for (unsigned i = 0; i < k; i++)
			shutdown(fds[i], SHUT_RDWR);
		clock_gettime(CLOCK_MONOTONIC, &next);
		next.tv_nsec += LS_HTTP_REAP_MS * 1000000L;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&h->dl_cond, &h->dl_lock, &next);
	}
	pthread_mutex_unlock(&h->dl_lock);
	return NULL;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_cls)
{
	struct ls_http *h = cls;
	int get = !strcmp(method, MHD_HTTP_METHOD_GET);
	int head = !strcmp(method, MHD_HTTP_METHOD_HEAD);
	const char *cl, *te;
	int metrics = !strcmp(url, "/metrics"), root = !strcmp(url, "/");

	static int seen;

	(void)version;
	(void)upload_data;
	/* The first call comes once the headers are in: in time, or the
	 * reaper would have cut the connection. */
	if (!*req_cls) {
		struct ls_conn_slot *s = conn_slot(conn);

		if (s) {
			pthread_mutex_lock(&h->dl_lock);
			ls_dl_request(&h->dl, s, now_ns());
			pthread_mutex_unlock(&h->dl_lock);
		}
	}
	/* Refusals go out at the first call, before any body is read (MHD
	 * then closes the connection); good requests are answered at the
	 * second, which keeps the connection alive for the next scrape. */
	if (*req_cls == &seen) {
		if (*upload_data_size) /* refused below: never reached */
			return MHD_NO;
		__atomic_add_fetch(&h->ok, 1, __ATOMIC_RELAXED);
		if (root)
			return reply(conn, MHD_HTTP_OK,
				     "text/html; charset=utf-8", landing);
		return send_page(h, conn);
	}
	if (!metrics && !root) {
		__atomic_add_fetch(&h->bad, 1, __ATOMIC_RELAXED);
		return reply(conn, MHD_HTTP_NOT_FOUND, "text/plain",
			     "not found: lockscope serves /metrics\n");
	}
	if (!get && !head) {
		__atomic_add_fetch(&h->bad, 1, __ATOMIC_RELAXED);
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			     "method not allowed: use GET\n");
	}
	cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_CONTENT_LENGTH);
	te = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (te || (cl && strspn(cl, "0") != strlen(cl))) {
		__atomic_add_fetch(&h->bad, 1, __ATOMIC_RELAXED);
		return reply(conn, MHD_HTTP_CONTENT_TOO_LARGE, "text/plain",
			     "request body not accepted\n");
	}
	*req_cls = &seen;
	return MHD_YES;
}

/* Undo ls_http_start's setup; the daemon is stopped already. */
static void http_free(struct ls_http *h)
{
	ls_page_put(h->page);
	ls_dl_free(&h->dl);
	pthread_cond_destroy(&h->dl_cond);
	pthread_mutex_destroy(&h->dl_lock);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

struct ls_http *ls_http_start(int fd)
{
	struct ls_http *h = calloc(1, sizeof(*h));
	pthread_condattr_t ca;
	int err;

	if (!h || ls_dl_init(&h->dl, LS_HTTP_CONN_LIMIT,
			     LS_HTTP_HEADER_S * 1000000000LL,
			     LS_HTTP_ANSWER_S * 1000000000LL)) {
		close(fd);
		free(h);
		ls_fail("allocate", "HTTP server", strerror(ENOMEM));
		return NULL;
	}
	pthread_mutex_init(&h->lock, NULL);
	pthread_mutex_init(&h->dl_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->dl_cond, &ca);
	pthread_condattr_destroy(&ca);
	/* One internal thread polling every socket (epoll on Linux): a
	 * trickling client costs a slot, never a thread. */
	h->d = MHD_start_daemon(
		MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, handle, h,
		MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned)LS_HTTP_CONN_LIMIT,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT,
		(unsigned)LS_HTTP_PER_IP_LIMIT, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)LS_HTTP_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
		(size_t)LS_HTTP_MEM_LIMIT, MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, h, MHD_OPTION_END);
	if (!h->d) {
		ls_fail("start", "HTTP server",
			"libmicrohttpd refused to start");
		close(fd);
		goto cleanup;
	}
	err = pthread_create(&h->reaper, NULL, reaper, h);
	if (err) {
		ls_fail_errno("start", "HTTP deadline thread", err);
		MHD_stop_daemon(h->d);
		goto cleanup;
	}
	return h;
cleanup:
	http_free(h);
	return NULL;
}

void ls_http_publish(struct ls_http *h, struct ls_page *pg)
{
	struct ls_page *old;

	pthread_mutex_lock(&h->lock);
	old = h->page;
	h->page = pg;
	pthread_mutex_unlock(&h->lock);
	ls_page_put(old);
}

void ls_http_stats(struct ls_http *h, struct ls_http_stats *st)
{
	st->ok = __atomic_load_n(&h->ok, __ATOMIC_RELAXED);
	st->bad = __atomic_load_n(&h->bad, __ATOMIC_RELAXED);
	pthread_mutex_lock(&h->dl_lock);
	st->cut_header = h->dl.cut[LS_CONN_HEADERS];
	st->cut_answer = h->dl.cut[LS_CONN_ANSWER];
	pthread_mutex_unlock(&h->dl_lock);
}

void ls_http_stop(struct ls_http *h)
{
	if (!h)
		return;
	pthread_mutex_lock(&h->dl_lock);
	h->stop = 1;
	pthread_cond_signal(&h->dl_cond);
	pthread_mutex_unlock(&h->dl_lock);
	pthread_join(h->reaper, NULL);
	MHD_stop_daemon(h->d); /* closes the listening socket too */
	http_free(h);
}
