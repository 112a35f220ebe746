// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmd_serve.c - `lockscope serve`: load and attach as root, give up every
 * privilege, then collect on a fixed schedule in one thread and answer
 * /metrics from another (libmicrohttpd) with the page the last collection
 * rendered.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include "cmd/commands.h"
#include "export/prom.h"
#include "util/log.h"
#include "serve/netaddr.h"
#include "serve/privs.h"
#include "cmd/run.h"
#include "export/prom_cgroup.h"
#include "serve/http.h"
#include "view/text.h"

/* Losses of full tables go to stderr at most once a minute. */
#define LS_SERVE_LOSS_NOTICE_S 60

struct serve {
	const struct ls_opts *o;
	struct ls_collector *c;
	struct ls_http *http;
	struct ls_prom prom;
	struct ls_prom cg;	     /* --by cgroup: cgroup series */
	struct ls_snapshot cg_rows;  /* ... their pseudo-rows (scratch) */
	struct ls_snapshot cg_carry; /* ... what forgotten locks counted */
	struct ls_prom_meta meta;
	/* cur: the last good collection; next: being read (it holds the
	 * one before, refreshed in place); prev: of the one before cur only
	 * the sampler's totals (rows are the memory: two copies, not three) */
	struct ls_snapshot prev, cur, next;
	int have_prev, failing;
	/* the losses and begins last said on stderr, and when */
	uint64_t said_loss[LS_LOSS_MAX], said_begins;
	int64_t said_ns, start_ns;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stop;
};

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void fill_process(struct ls_prom_meta *m)
{
	unsigned long long size = 0, resident = 0;
	long page = sysconf(_SC_PAGESIZE);
	struct rusage ru;
	struct rlimit rl;
	FILE *f;

	if (!getrusage(RUSAGE_SELF, &ru))
		m->cpu_s = (double)((ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
					    1000000LL +
				    ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) /
			   1e6;
	f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%llu %llu", &size, &resident) != 2)
			size = resident = 0;
		fclose(f);
	}
	m->vsz_bytes = size * (unsigned long long)page;
	m->rss_bytes = resident * (unsigned long long)page;
	if (!getrlimit(RLIMIT_NOFILE, &rl))
		m->max_fds = rl.rlim_cur;
	m->have_process = 1;
}

static void swap_snap(struct ls_snapshot *a, struct ls_snapshot *b)
{
	struct ls_snapshot t = *a;

	*a = *b;
	*b = t;
}

/* Render both formats of the current state; NULL on allocation failure. */
static struct ls_page *render(struct serve *s)
{
	const struct ls_snapshot *prev = s->have_prev ? &s->prev : NULL;
	struct ls_page *pg = ls_page_new();

	if (!pg)
		return NULL;
	fill_process(&s->meta);
	s->meta.forgotten = ls_collector_forgotten(s->c);
	if (ls_prom_render(&pg->text, &pg->text_len, &s->prom, &s->cur, prev,
			   &s->meta, LS_PROM_TEXT) ||
	    ls_prom_render(&pg->om, &pg->om_len, &s->prom, &s->cur, prev,
			   &s->meta, LS_PROM_OPENMETRICS)) {
		ls_page_put(pg);
		return NULL;
	}
	return pg;
}

/* Say on stderr what full tables lost since it was last said: at once the
 * first time, then at most once per LS_SERVE_LOSS_NOTICE_S. */
static void notice_losses(struct serve *s)
{
	const struct ls_snapshot *c = &s->cur;
	int64_t now = clock_ns();
	double secs;

	if (s->said_ns &&
	    now - s->said_ns < LS_SERVE_LOSS_NOTICE_S * 1000000000LL)
		return;
	secs = (double)(now - (s->said_ns ? s->said_ns : s->start_ns)) / 1e9;
	if (!ls_print_loss_notice(stderr, c->loss, s->said_loss,
				  c->ctr[LS_CTR_BEGIN] - s->said_begins, secs))
		return;
	memcpy(s->said_loss, c->loss, sizeof(s->said_loss));
	s->said_begins = c->ctr[LS_CTR_BEGIN];
	s->said_ns = now;
}

/* One collection: read the maps, assign series, render, publish.  A failed
 * read keeps the last good snapshot and counts the error. */
static int collect(struct serve *s)
{
	int64_t t0 = clock_ns();
	struct ls_page *pg;
	int err = ls_collector_read(s->c, &s->next);

	if (!err) {
		ls_collector_next_epoch(s->c);
		ls_snap_filter(&s->next, &s->o->filter);
		err = ls_prom_update(&s->prom, &s->next,
				     s->meta.collections ? &s->cur : NULL);
		if (!err && s->meta.cg)
			err = ls_prom_cg_update(&s->cg, &s->next,
						s->meta.collections ? &s->cur
								    : NULL,
						&s->cg_rows, &s->cg_carry);
	}
	if (err) {
		s->meta.collection_errors++;
		if (!s->failing)
			ls_fail_errno(
				"read",
				"BPF maps (serving the last good collection)",
				err);
		s->failing = 1;
	} else {
		if (s->failing)
			fprintf(stderr, "lockscope: collecting again\n");
		s->failing = 0;
		memcpy(s->prev.func_samples, s->cur.func_samples,
		       sizeof(s->prev.func_samples));
		swap_snap(&s->cur, &s->next);
		s->have_prev = s->meta.collections > 0;
		s->meta.collections++;
		s->meta.last_collection_unix = clock_s(CLOCK_REALTIME);
		s->meta.collection_s = (double)(clock_ns() - t0) / 1e9;
		notice_losses(s);
	}
	if (!s->meta.collections)
		return err;
	pg = render(s);
	if (!pg)
		return -ENOMEM;
	if (s->http)
		ls_http_publish(s->http, pg);
	else
		ls_page_put(pg);
	return err;
}

static void *collector_thread(void *arg)
{
	struct serve *s = arg;
	long step = (long)(s->o->interval * 1e9);
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		struct timespec now;
		int rc;

		next.tv_sec += step / 1000000000L;
		next.tv_nsec += step % 1000000000L;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		/* Behind schedule (a very slow read): skip, do not burst. */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > next.tv_sec + 1)
			next = now;
		do
			rc = pthread_cond_timedwait(&s->cond, &s->lock, &next);
		while (!s->stop && rc != ETIMEDOUT);
		if (s->stop)
			break;
		pthread_mutex_unlock(&s->lock);
		collect(s);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/*
 * Do the maps stay readable once every privilege is gone?  Recent kernels
 * check privileges when maps and programs are created, not when an open fd
 * is used; older ones with kernel.unprivileged_bpf_disabled set refuse
 * every bpf() command without CAP_BPF.  A child process tries.
 */
static int unprivileged_read_works(struct serve *s, const struct ls_privs *pv)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;
	if (!pid) {
		struct ls_snapshot snap;

		ls_log_stream = fopen("/dev/null", "w");
		ls_snap_init(&snap);
		if (ls_privs_drop(pv, -1))
			_exit(2);
		_exit(ls_collector_read(s->c, &snap) ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int drop_privileges(struct serve *s, const struct ls_privs *pv)
{
	struct ls_snapshot snap;
	int keep = -1, err;
	char who[160];

	if (!unprivileged_read_works(s, pv)) {
		keep = ls_privs_bpf_cap();
		fprintf(stderr,
			"lockscope: this kernel refuses bpf() on open maps "
			"without privileges "
			"(kernel.unprivileged_bpf_disabled): keeping %s only\n",
			keep == CAP_SYS_ADMIN ? "CAP_SYS_ADMIN" : "CAP_BPF");
	}
	if (ls_privs_drop(pv, keep))
		return -EPERM;
	ls_snap_init(&snap);
	err = ls_collector_read(s->c, &snap);
	ls_snap_free(&snap);
	if (err) {
		ls_fail_errno("read", "BPF maps after dropping privileges",
			      err);
		return err;
	}
	fprintf(stderr, "lockscope: running as %s\n",
		ls_privs_describe(who, sizeof(who)));
	return 0;
}

static int start_threads(struct serve *s, int fd, pthread_t *thr)
{
	sigset_t block, old;
	pthread_condattr_t ca;
	int err;

	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	/* Signals go to the main thread only. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	s->http = ls_http_start(fd);
	err = s->http ? 0 : -EIO;
	if (!err) {
		struct ls_page *pg = render(s);

		if (pg)
			ls_http_publish(s->http, pg);
		err = pthread_create(thr, NULL, collector_thread, s);
		if (err) {
			ls_fail_errno("start", "collector thread", err);
			ls_http_stop(s->http);
			s->http = NULL;
		}
		err = -err;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

int ls_cmd_serve(const struct ls_opts *o)
{
	struct sockaddr_storage ss;
	struct ls_collector_opts col = o->col;
	struct serve s = {.o = o};
	struct ls_privs pv;
	char bound[80], srcs[256];
	enum ls_start_err why_start;
	const char *why;
	socklen_t len;
	pthread_t thr;
	int fd = -1, rc = 1, started = 0, err;

	if (ls_parse_listen(o->listen, &ss, &len, &why)) {
		ls_fail("parse", "--listen", why);
		return 2;
	}
	err = ls_privs_plan(&pv, o->user, o->allow_root);
	if (err) /* a user that is not one, or root: bad input */
		return err == -ENOENT || err == -EINVAL || err == -EPERM ? 2
									 : 1;
	ls_snap_init(&s.prev);
	ls_snap_init(&s.cur);
	ls_snap_init(&s.next);
	ls_prom_init(&s.prom, o->max_series, o->col.with_addr, o->interval);
	ls_prom_init(&s.cg, o->max_cgroups, 0, o->interval);
	ls_snap_init(&s.cg_rows);
	ls_snap_init(&s.cg_carry);
	s.meta.cg = o->col.by_cgroup ? &s.cg : NULL;
	s.meta.version = "0.1";
	s.meta.interval_s = o->interval;
	s.meta.lock_table_size = o->col.max_locks;
	s.meta.forget = o->col.forget;
	s.meta.run_stats = !o->no_cost;
	s.meta.start_unix = clock_s(CLOCK_REALTIME);
	s.start_ns = clock_ns();
	col.with_addr = 0; /* names stay clean: the addr label carries it */
	col.run_stats = !o->no_cost;
	ls_install_signals();
	signal(SIGPIPE, SIG_IGN);

	s.c = ls_collector_start(&col, &why_start);
	if (!s.c) {
		rc = why_start == LS_START_BAD_INPUT ? 2 : 1;
		goto out;
	}
	s.meta.src = ls_collector_sources(s.c);
	s.meta.nsrc = LS_SRC_MAX;
	for (unsigned i = LS_SRC_PROBE; i < LS_SRC_PROBE_END; i++)
		s.meta.probes |= s.meta.src[i].active;
	fd = ls_http_listen((struct sockaddr *)&ss, len, bound, sizeof(bound));
	if (fd < 0)
		goto out;
	if (drop_privileges(&s, &pv))
		goto out;
	if (collect(&s)) {
		ls_fail("collect", "the first snapshot", "map read failed");
		goto out;
	}
	if (start_threads(&s, fd, &thr)) {
		fd = -1; /* owned by the HTTP server now, or closed */
		goto out;
	}
	fd = -1;
	started = 1;
	ls_sources_active(s.meta.src, LS_SRC_MAX, srcs, sizeof(srcs));
	fprintf(stderr,
		"lockscope: serving http://%s/metrics (collection every %gs, "
		"up to %u lock series, sources: %s)\n",
		bound, o->interval, o->max_series, srcs);
	while (!ls_stop)
		ls_wait(3600, NULL);
	rc = 0;
out:
	if (started) {
		struct ls_http_stats hs;

		ls_http_stats(s.http, &hs);
		ls_http_stop(s.http);
		s.http = NULL;
		pthread_mutex_lock(&s.lock);
		s.stop = 1;
		pthread_cond_signal(&s.cond);
		pthread_mutex_unlock(&s.lock);
		pthread_join(thr, NULL);
		fprintf(stderr,
			"lockscope: stopped after %llu collections; requests: "
			"%lu answered, %lu refused; connections cut at the "
			"deadline: %lu for late headers, %lu for a late "
			"answer\n",
			(unsigned long long)s.meta.collections, hs.ok, hs.bad,
			hs.cut_header, hs.cut_answer);
	}
	if (fd >= 0)
		close(fd);
	ls_collector_stop(s.c);
	ls_prom_free(&s.prom);
	ls_prom_free(&s.cg);
	ls_snap_free(&s.cg_rows);
	ls_snap_free(&s.cg_carry);
	ls_snap_free(&s.prev);
	ls_snap_free(&s.cur);
	ls_snap_free(&s.next);
	return rc;
}
