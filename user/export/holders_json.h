/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* holders_json.h - the holder side of a lock row as JSON (json-c). */
#ifndef LS_EXPORT_HOLDERS_JSON_H
#define LS_EXPORT_HOLDERS_JSON_H

#include <json-c/json.h>
#include "model/model.h"

/* The "holder" object of a lock row (docs/record-schema.md). */
struct json_object *ls_holders_to_json(const struct ls_row *r);

#endif
