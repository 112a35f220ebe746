// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* http.c - /metrics over libmicrohttpd, answers prepared ahead. */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <microhttpd.h>
#include "export/prom.h"
#include "serve/accept.h"
#include "util/log.h"
#include "serve/netaddr.h"
#include "serve/http.h"

struct ls_http {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	struct ls_page *page; /* current, one reference held here */
	unsigned long ok, bad;
};

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
	if (bind(fd, sa, len) || listen(fd, 64)) {
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
	enum ls_prom_format fmt = ls_accept_format(accept);
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

struct ls_http *ls_http_start(int fd)
{
	struct ls_http *h = calloc(1, sizeof(*h));

	if (!h) {
		close(fd);
		ls_fail("allocate", "HTTP server", strerror(ENOMEM));
		return NULL;
	}
	pthread_mutex_init(&h->lock, NULL);
	h->d = MHD_start_daemon(
		MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, handle, h,
		MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned)LS_HTTP_CONN_LIMIT,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT,
		(unsigned)LS_HTTP_PER_IP_LIMIT, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)LS_HTTP_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
		(size_t)LS_HTTP_MEM_LIMIT, MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
		MHD_OPTION_END);
	if (!h->d) {
		ls_fail("start", "HTTP server",
			"libmicrohttpd refused to start");
		close(fd);
		pthread_mutex_destroy(&h->lock);
		free(h);
		return NULL;
	}
	return h;
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

void ls_http_stop(struct ls_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d); /* closes the listening socket too */
	ls_page_put(h->page);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
