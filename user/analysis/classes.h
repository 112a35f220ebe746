/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* classes.h - records folded to lock classes (compare matches by class). */
#ifndef LS_CLASSES_H
#define LS_CLASSES_H

#include <string.h>
#include "export/record.h"

/* Rename every lock of @r to its class and sum the rows of one class and
 * kind (instances add up; max and peak keep the highest). */
void ls_rec_fold_classes(struct ls_rec *r);

#endif
