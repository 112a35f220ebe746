// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * genl_hammer THREADS SECONDS - THREADS threads, each on its own generic
 * netlink socket, loop TASKSTATS_CMD_GET requests for their own tid: the
 * taskstats family is not parallel_ops, so genl_rcv_msg takes the static
 * genl_mutex for every request and the threads contend on it (what
 * stress-ng --netlink-task does, for guests without stress-ng: arm64).
 * Needs root (GENL_ADMIN_PERM) and CONFIG_TASKSTATS.  Prints "ops: N", the
 * answered requests, on stderr at the end (stdout stays clean).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#define ATTR_AT(nlh) ((struct nlattr *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN))

struct req {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char buf[64];
};

static volatile int stop;
static unsigned long long ops;

/* One request with one attribute; returns the socket's answer length. */
static int ask(int fd, __u16 family, __u8 cmd, __u16 type, const void *val,
	       __u16 len, char *ans, size_t anslen)
{
	struct req r;
	struct nlattr *a = (struct nlattr *)r.buf;

	memset(&r, 0, sizeof(r));
	r.n.nlmsg_type = family;
	r.n.nlmsg_flags = NLM_F_REQUEST;
	r.g.cmd = cmd;
	r.g.version = 1;
	a->nla_type = type;
	a->nla_len = (__u16)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, val, len);
	r.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) + NLA_ALIGN(a->nla_len);
	if (send(fd, &r, r.n.nlmsg_len, 0) < 0)
		return -1;
	return (int)recv(fd, ans, anslen, 0);
}

/* The taskstats family id, from the controller; 0 if absent. */
static __u16 taskstats_family(int fd)
{
	char ans[4096];
	struct nlmsghdr *nlh = (struct nlmsghdr *)ans;
	int n = ask(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
		    TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME), ans,
		    sizeof(ans));
	struct nlattr *a;
	int left;

	if (n < 0 || !NLMSG_OK(nlh, (unsigned)n) ||
	    nlh->nlmsg_type == NLMSG_ERROR)
		return 0;
	a = ATTR_AT(nlh);
	left = (int)nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= left) {
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(__u16 *)((char *)a + NLA_HDRLEN);
		left -= NLA_ALIGN(a->nla_len);
		a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
	}
	return 0;
}

static int open_genl(void)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void *hammer(void *arg)
{
	__u16 family = *(__u16 *)arg;
	__u32 tid = (__u32)syscall(SYS_gettid);
	unsigned long long n = 0;
	char ans[4096];
	int fd = open_genl();

	if (fd < 0)
		return NULL;
	while (!stop) {
		int got = ask(fd, family, TASKSTATS_CMD_GET,
			      TASKSTATS_CMD_ATTR_PID, &tid, sizeof(tid), ans,
			      sizeof(ans));
		struct nlmsghdr *nlh = (struct nlmsghdr *)ans;

		if (got < 0 || !NLMSG_OK(nlh, (unsigned)got) ||
		    nlh->nlmsg_type == NLMSG_ERROR)
			break;
		n++;
	}
	close(fd);
	__atomic_add_fetch(&ops, n, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	int secs = argc > 2 ? atoi(argv[2]) : 3;
	pthread_t *t;
	__u16 family;
	int fd;

	if (n < 1 || n > 256 || secs < 1) {
		fprintf(stderr, "usage: genl_hammer THREADS(1-256) SECONDS\n");
		return 2;
	}
	fd = open_genl();
	if (fd < 0) {
		fprintf(stderr, "genl_hammer: failed to open netlink: %s\n",
			strerror(errno));
		return 1;
	}
	family = taskstats_family(fd);
	close(fd);
	if (!family) {
		fprintf(stderr,
			"genl_hammer: failed to find the %s family: "
			"kernel without CONFIG_TASKSTATS?\n",
			TASKSTATS_GENL_NAME);
		return 1;
	}
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		return 1;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, hammer, &family);
	sleep((unsigned)secs);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	fprintf(stderr, "ops: %llu\n", ops);
	return ops ? 0 : 1;
}
