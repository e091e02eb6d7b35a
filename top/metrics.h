/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - the metrics of one report in the Prometheus text format
 * (0.0.4) or OpenMetrics 1.0 (batch_openmetrics.c; every metric is in
 * docs/idletop.1, METRICS).  Names follow Prometheus practice: base units,
 * _bytes and _seconds, counters end in _total, one meaning per name, so a
 * sum over the cgroup label of a self metric is the node's total, under
 * any selection too (select.h folds what it leaves out).  Subtree
 * metrics (no "self") include descendants, like memory.current.  Value
 * series have the cgroup label only; identity is in idletop_cgroup_info.
 */
#ifndef IDLETOP_METRICS_H
#define IDLETOP_METRICS_H

#include "fmt.h"
#include "stats.h"

enum metrics_fmt { MF_PROMETHEUS, MF_OPENMETRICS };

#define METRICS_CT_PROMETHEUS "text/plain; version=0.0.4; charset=utf-8"
#define METRICS_CT_OPENMETRICS \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

/*
 * Append the exposition of r, or with r == NULL (no cycle completed yet)
 * the global metrics only, idletop_report_available 0, from p.
 */
void metrics_render(struct sbuf *b, const struct report_params *p,
		    const struct report *r, enum metrics_fmt f);

#endif
