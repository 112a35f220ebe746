/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* kconfig.h - the kernel's build options (/proc/config.gz, else
 * /boot/config-RELEASE), readable without privileges: what doctor shows
 * when it cannot try the sources. */
#ifndef LS_KCONFIG_H
#define LS_KCONFIG_H

#include <stddef.h>

/* The options lockscope depends on, and what each one means for it. */
struct ls_kconfig_opt {
	const char *name; /* "CONFIG_KPROBES" */
	const char *why;  /* "kprobe function probes" */
	char value[16];	  /* "y", "m", "not set"; "" when not in the file */
};

/* The options of ls_kconfig_read(), @n of them. */
const struct ls_kconfig_opt *ls_kconfig_opts(size_t *n);

/* Fill @out (a copy of ls_kconfig_opts(), @n entries) from the first
 * config file found; its path into @path.  0, or -errno (-ENOENT: none). */
int ls_kconfig_read(struct ls_kconfig_opt *out, size_t n, char *path,
		    size_t len);

#endif
