/* SPDX-License-Identifier: GPL-2.0 */
/* batch.h - batch printers: format a struct report (stats.h computes) */
#ifndef IDLETOP_BATCH_H
#define IDLETOP_BATCH_H

#include <stdio.h>
#include "config.h"
#include "fields.h"
#include "stats.h"

/* Each returns 0, or -1 when writing failed (errno from the stream). */
int batch_text(FILE *f, const struct report *r);
/* Text with these columns (NULL: the FF_TEXT ones; FF_NOTEXT skipped). */
int batch_text_fields(FILE *f, const struct report *r,
		      const struct field_set *set);
int batch_json(FILE *f, const struct report *r);
int batch_openmetrics(FILE *f, const struct report *r);
int batch_prometheus(FILE *f, const struct report *r);	/* text 0.0.4 */
int batch_print(FILE *f, const struct report *r, enum out_format fmt);

#endif
