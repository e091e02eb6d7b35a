// SPDX-License-Identifier: GPL-2.0
/*
 * idlesrc_warn.c - what else on the machine makes idle tracking's
 * numbers wrong: the multi-gen LRU without the series, a DAMON monitor
 * of physical addresses (REPORT_WARN_*, checked by engine.c for every
 * report); which security module denied the source (idlesrc_lsm).
 * Paths under root, as the rest of idlesrc.
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "idlesrc.h"
#include "util.h"

int idlesrc_mglru_unfixed(const char *root)
{
	char *kpi = path_join(root, IDLESRC_KPAGEIDLE_PATH);
	char *en = path_join(root, IDLESRC_LRU_GEN_PATH);
	char *text = NULL, *end;
	unsigned long long caps = 1;
	int series = 0, mglru = 0;

	if (kpi && !access(kpi, F_OK))
		series = 1;
	if (!series && en)
		text = read_text_file(en, NULL);
	if (text) {
		errno = 0;
		caps = strtoull(text, &end, 0);
		if (errno || end == text || (*end && *end != '\n'))
			caps = 1;	/* unknown: say so rather than not */
		mglru = caps & 1;
	}
	free(kpi);
	free(en);
	free(text);
	return mglru;
}

/* 1 if the first line of the file at path is word */
static int file_says(const char *path, const char *word)
{
	char *text = read_text_file(path, NULL);
	size_t n = strlen(word);
	int yes = text && !strncmp(text, word, n) &&
		  (text[n] == '\n' || text[n] == '\0');

	free(text);
	return yes;
}

int idlesrc_damon_paddr(const char *root)
{
	char *pat = path_join(root, IDLESRC_DAMON_PATH "/*/state");
	glob_t kd, ops;
	size_t i, j;
	int on = 0;

	if (!pat || glob(pat, 0, NULL, &kd)) {
		free(pat);
		return 0;
	}
	for (i = 0; i < kd.gl_pathc && !on; i++) {
		char *d = kd.gl_pathv[i], *p;
		size_t len = strlen(d) - strlen("/state");

		if (!file_says(d, "on"))
			continue;
		p = malloc(len + sizeof("/contexts/*/operations"));
		if (!p)
			break;
		memcpy(p, d, len);
		strcpy(p + len, "/contexts/*/operations");
		if (!glob(p, 0, NULL, &ops)) {
			for (j = 0; j < ops.gl_pathc && !on; j++)
				on = file_says(ops.gl_pathv[j], "paddr");
			globfree(&ops);
		}
		free(p);
	}
	globfree(&kd);
	free(pat);
	return on;
}

/* the first line of the file at root/rel, or NULL when absent or empty */
static char *first_line(const char *root, const char *rel)
{
	char *path = path_join(root, rel);
	char *text = path ? read_text_file(path, NULL) : NULL;

	free(path);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	if (text && !*text) {
		free(text);
		text = NULL;
	}
	return text;
}

void idlesrc_lsm(const char *root, char *buf, size_t len)
{
	char *aa = first_line(root, "proc/self/attr/apparmor/current");
	char *cur = aa ? NULL : first_line(root, "proc/self/attr/current");
	char *list = NULL;

	if (aa && strcmp(aa, "unconfined"))
		snprintf(buf, len, "AppArmor profile \"%s\"", aa);
	else if (cur && strchr(cur, ':'))
		snprintf(buf, len, "SELinux context \"%s\"", cur);
	else if (cur && strcmp(cur, "unconfined"))
		snprintf(buf, len, "AppArmor profile \"%s\"", cur);
	else if ((list = first_line(root, "sys/kernel/security/lsm")))
		snprintf(buf, len, "active LSMs: %s", list);
	else
		snprintf(buf, len, "AppArmor or SELinux");
	free(aa);
	free(cur);
	free(list);
}
