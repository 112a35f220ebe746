/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * btf_names.h - lock offsets to field names with the kernel's BTF
 * (libbpf's btf API): through embedded structs, arrays, unions and
 * anonymous members, down to a lock type of the contention's kind.
 */
#ifndef LS_BTF_NAMES_H
#define LS_BTF_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include <bpf/btf.h>

/*
 * Append to @out (a string) the member path from type @id at byte @off to
 * a lock of @kind (enum ls_kind) that starts exactly there: ".pi_lock",
 * ".vfs_inode.i_rwsem", ".free_area[3].lock".  The first lock type met at
 * the offset whose family fits the kind ends the walk.  0, or -ENOENT when
 * no lock of that kind starts at @off (@out is left as it was).
 */
int ls_btf_field_at(const struct btf *btf, uint32_t id, uint64_t off,
		    unsigned kind, char *out, size_t len);
/* "<name>.<path>" for struct @name; -ENOENT (no such struct or field). */
int ls_btf_struct_field(const struct btf *btf, const char *name, uint64_t off,
			unsigned kind, char *out, size_t len);
/* ls_slab_field_fn (model/slab_alias.h) over BTF, @ctx a struct
 * ls_btf_cache: ls_btf_struct_field() of a struct no larger than the
 * cache's objects. */
struct ls_btf_cache {
	const struct btf *btf;
	uint32_t object_size;
};
int ls_btf_cache_field(void *ctx, const char *type, uint64_t off, unsigned kind,
		       char *out, size_t len);
/* Offset of per-CPU variable @var in the .data..percpu DATASEC and the
 * section's size; -ENOENT. */
int ls_btf_percpu_var(const struct btf *btf, const char *var, uint64_t *off,
		      uint64_t *secsize);
/* The lock at byte @off of the per-CPU section: "<type>.<path>" (the
 * variable's name when its type is not a named struct); -ENOENT. */
int ls_btf_percpu_field(const struct btf *btf, uint64_t off, unsigned kind,
			char *out, size_t len);

#endif
