// SPDX-License-Identifier: GPL-2.0
/* fields_fmt.c - cells and sort order of the registry's fields (fields.h) */
#include <string.h>
#include "fields.h"

void field_fmt_size(struct sbuf *b, uint64_t v, int unit, uint64_t page)
{
	double d = (double)v;

	switch (unit) {
	case U_KIB: sb_printf(b, "%lluK", (unsigned long long)(v >> 10)); break;
	case U_MIB: sb_printf(b, "%.1fM", d / 1048576); break;
	case U_GIB: sb_printf(b, "%.2fG", d / 1073741824); break;
	case U_PAGES:
		sb_printf(b, "%llu",
			  (unsigned long long)(v / (page ? page : 4096)));
		break;
	default: fmt_bytes(b, v);
	}
}

void field_fmt_limit(struct sbuf *b, int has, uint64_t v, int unit,
		     uint64_t page)
{
	if (!has || v == CG_NOLIMIT)
		sb_puts(b, has ? "max" : "-");
	else
		field_fmt_size(b, v, unit, page);
}

void field_format(struct sbuf *b, const struct report *r,
		  const struct cg_stat *s, enum field_id f, int unit,
		  int utf8)
{
	const struct field *fd = &fields[f];
	struct field_val v;

	if ((fd->flags & FF_MEASURED) && !r->cycle) {
		sb_puts(b, utf8 ? "\u2026" : "...");
		return;
	}
	if (fd->kind == FK_HIGHMAX) {
		if (!s->mem.has_high && !s->mem.has_max) {
			sb_puts(b, "-");
			return;
		}
		field_fmt_limit(b, 1, s->mem.has_high ? s->mem.high :
				CG_NOLIMIT, unit, r->p.page_size);
		sb_putc(b, '/');
		field_fmt_limit(b, 1, s->mem.has_max ? s->mem.max :
				CG_NOLIMIT, unit, r->p.page_size);
		return;
	}
	field_get(r, s, f, &v);
	if (!v.has && fd->kind != FK_NAME && fd->kind != FK_TREND) {
		sb_puts(b, "-");
		return;
	}
	switch (fd->kind) {
	case FK_BYTES: field_fmt_size(b, v.u, unit, r->p.page_size); break;
	case FK_LIMIT: field_fmt_limit(b, 1, v.u, unit, r->p.page_size); break;
	case FK_PCT: sb_printf(b, "%.1f", v.d); break;
	case FK_RATE: sb_printf(b, v.d < 10 ? "%.1f" : "%.0f", v.d); break;
	default: break;
	}
}

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

int fields_natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (digit(*a) && digit(*b)) {
			const char *x = a, *y = b;
			size_t nx, ny;

			while (*x == '0' && digit(x[1]))
				x++;
			while (*y == '0' && digit(y[1]))
				y++;
			for (nx = 0; digit(x[nx]); nx++)
				;
			for (ny = 0; digit(y[ny]); ny++)
				;
			if (nx != ny)
				return nx < ny ? -1 : 1;
			if (memcmp(x, y, nx))
				return memcmp(x, y, nx);
			a = x + nx;
			b = y + ny;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* Largest first; a value beats no value; ties by name (natural). */
int field_cmp(const struct report *r, enum field_id f,
	      const struct cg_stat *a, const struct cg_stat *b)
{
	struct field_val x, y;
	double dx, dy;
	int k;

	if (f == F_NAME || f >= FIELDS_NR || !fields[f].get)
		return fields_natcmp(a->name, b->name);
	field_get(r, a, f, &x);
	field_get(r, b, f, &y);
	k = fields[f].kind;
	if (x.has != y.has)
		return x.has ? -1 : 1;
	if (k == FK_PCT || k == FK_RATE) {
		dx = x.d;
		dy = y.d;
		if (dx != dy)
			return dx > dy ? -1 : 1;
	} else if (x.u != y.u) {
		return x.u > y.u ? -1 : 1;
	}
	return fields_natcmp(a->name, b->name);
}

