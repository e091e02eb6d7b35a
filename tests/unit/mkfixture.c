// SPDX-License-Identifier: GPL-2.0
/*
 * mkfixture.c - build a fixture root for running the real idletop binary
 * on the host: `mkfixture DIR`, then `idletop --root DIR -b ...`.
 * Cgroup names are hostile on purpose: spaces, quotes, backslashes, a
 * newline, an ESC sequence, C1 and invalid UTF-8 bytes, valid UTF-8; and
 * names that an escaping which is not injective would merge ("dup*",
 * "inv*") or that spoof the rest of a row (bidi, zero-width: "rtl*").
 */
#include <stdio.h>
#include <stdlib.h>
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

int main(int argc, char **argv)
{
	uint64_t lru = F(KPF_LRU), anon = F(KPF_ANON) | F(KPF_SWAPBACKED);
	struct fixture fx;
	size_t i, n = sizeof(names) / sizeof(*names);

	if (argc != 2) {
		fprintf(stderr, "usage: mkfixture DIR\n");
		return 2;
	}
	if (fx_create_at(&fx, argv[1], (n + 2) * 1024)) {
		perror("mkfixture");
		return 1;
	}
	for (i = 0; i < n; i++) {
		uint64_t ino = fx_mkcg(&fx, names[i]);

		if (!ino) {
			perror(names[i]);
			return 1;
		}
		fx_set(&fx, 512 + i * 1024, 256, lru | anon, ino, 1);
		fx_set(&fx, 768 + i * 1024, 256, lru, ino, 0);
		fx_thp(&fx, 1024 * (i + 1), anon, ino, 1, 0, 0);
	}
	if (fx_write_pages(&fx, 1, 1)) {
		perror("mkfixture: write");
		return 1;
	}
	free(fx.root);	/* keep the tree: not fx_destroy */
	fx.root = NULL;
	fx_destroy(&fx);
	return 0;
}
