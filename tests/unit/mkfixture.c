// SPDX-License-Identifier: GPL-2.0
/*
 * mkfixture.c - build a fixture root for running the real idletop binary
 * on the host: `mkfixture DIR`, then `idletop --root DIR -b ...`.
 * Kernel files: --stock leaves out /proc/kpageidle (a kernel without the
 * series: the bitmap only), --lru-gen VALUE writes VALUE (e.g. 0x0007)
 * to sys/kernel/mm/lru_gen/enabled (MGLRU built in).
 * Cgroup names are hostile on purpose: spaces, quotes, backslashes, a
 * newline, an ESC sequence, C1 and invalid UTF-8 bytes, valid UTF-8; and
 * names that an escaping which is not injective would merge ("dup*",
 * "inv*") or that spoof the rest of a row (bidi, zero-width: "rtl*").
 * Each cgroup has 1,024 pages: 256 anon, 256 file and a 512-page anon
 * THP.  A real kernel's accessed pages cannot be had from plain files
 * (every page idletop marks reads idle), so the pages that must never
 * read idle are unevictable ones (idletop counts them resident, never
 * idle), in a share that differs between neighbours: none, the file
 * pages, the file and anon pages, the file pages and the THP (1 in 4,
 * 1 in 2, 3 in 4 of the 4 MiB: resident, idle and the working set differ
 * in every row of a screen).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fixture.h"
#include "kpf.h"

static const char *const names[] = {
	"/plain.slice",
	"/plain.slice/with space",
	"/quote\"back\\slash",
	"/new\nline",
	"/esc\033[31mred",
	"/bad\xff\xfe utf8 \xc2\x85 c1",
	"/caf\xc3\xa9 \xe2\x9c\x93",
	"/dup\x01",
	"/dup\\x01",
	"/inv\xff",
	"/inv\xfe",
	"/inv\xef\xbf\xbd" "ff",
	"/rtl\xe2\x80\xae" "abc",
	"/rtl\xe2\x81\xa6" "iso",
	"/zw\xe2\x80\x8b" "sp",
};

/* sys/kernel/mm/lru_gen/enabled with `value` and a newline. */
static int lru_gen(const char *root, const char *value)
{
	char dir[4096], text[64];

	snprintf(dir, sizeof(dir), "%s/sys/kernel/mm/lru_gen", root);
	snprintf(text, sizeof(text), "%s\n", value);
	return mkdir(dir, 0755) || fx_write(dir, "enabled", text) ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t lru = F(KPF_LRU), anon = F(KPF_ANON) | F(KPF_SWAPBACKED);
	uint64_t unev = F(KPF_UNEVICTABLE);
	struct fixture fx;
	size_t i, n = sizeof(names) / sizeof(*names);
	const char *lru_gen_value = NULL;
	int a = 1, stock = 0;

	for (; a < argc - 1 && !strncmp(argv[a], "--", 2); a++)
		if (!strcmp(argv[a], "--stock"))
			stock = 1;
		else if (!strcmp(argv[a], "--lru-gen") && a + 2 < argc)
			lru_gen_value = argv[++a];
		else
			break;
	if (a != argc - 1) {
		fprintf(stderr, "usage: mkfixture [--stock] "
			"[--lru-gen VALUE] DIR\n");
		return 2;
	}
	if (fx_create_at(&fx, argv[a], (n + 2) * 1024)) {
		perror("mkfixture");
		return 1;
	}
	for (i = 0; i < n; i++) {
		uint64_t ino = fx_mkcg(&fx, names[i]);

		if (!ino) {
			perror(names[i]);
			return 1;
		}
		fx_set(&fx, 512 + i * 1024, 256,
		       lru | anon | (i % 4 == 2 ? unev : 0), ino, 1);
		fx_set(&fx, 768 + i * 1024, 256, lru | (i % 4 ? unev : 0),
		       ino, 0);
		fx_thp(&fx, 1024 * (i + 1), anon | (i % 4 == 3 ? unev : 0),
		       ino, 1, 0, 0);
	}
	if (fx_write_pages(&fx, !stock, 1) ||
	    (lru_gen_value && lru_gen(argv[a], lru_gen_value))) {
		perror("mkfixture: write");
		return 1;
	}
	free(fx.root);	/* keep the tree: not fx_destroy */
	fx.root = NULL;
	fx_destroy(&fx);
	return 0;
}
