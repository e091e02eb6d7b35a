// SPDX-License-Identifier: GPL-2.0
/*
 * idlesrc_warn.c - what else on the machine makes idle tracking's
 * numbers wrong: the multi-gen LRU without the series, a DAMON monitor
 * of physical addresses (REPORT_WARN_*, checked by engine.c for every
 * report); who holds the right to mark when the kernel refuses it
 * (idlesrc_busy_error); which security module denied the source
 * (idlesrc_lsm).
 * Paths under root, as the rest of idlesrc.
 */
#include <dirent.h>
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

/*
 * 1 when the kdamond whose state file is at state has a context with
 * the operations ops ("paddr"), or with ops NULL any context.
 */
static int kdamond_has(const char *state, const char *ops)
{
	size_t len = strlen(state) - strlen("/state"), j;
	char *p = malloc(len + sizeof("/contexts/*/operations"));
	glob_t g;
	int yes = 0;

	if (!p)
		return 0;
	memcpy(p, state, len);
	strcpy(p + len, "/contexts/*/operations");
	if (!glob(p, 0, NULL, &g)) {
		for (j = 0; j < g.gl_pathc && !yes; j++)
			yes = !ops || file_says(g.gl_pathv[j], ops);
		globfree(&g);
	}
	free(p);
	return yes;
}

/*
 * The state file of the first kdamond that is on with a context of the
 * operations ops (NULL: any), malloc'ed; NULL when none.
 */
static char *kdamond_on(const char *root, const char *ops)
{
	char *pat = path_join(root, IDLESRC_DAMON_PATH "/*/state"), *on = NULL;
	glob_t kd;
	size_t i;

	if (!pat || glob(pat, 0, NULL, &kd)) {
		free(pat);
		return NULL;
	}
	for (i = 0; i < kd.gl_pathc && !on; i++)
		if (file_says(kd.gl_pathv[i], "on") &&
		    kdamond_has(kd.gl_pathv[i], ops))
			on = strdup(kd.gl_pathv[i]);
	globfree(&kd);
	free(pat);
	return on;
}

int idlesrc_damon_paddr(const char *root)
{
	char *on = kdamond_on(root, "paddr");

	free(on);
	return on != NULL;
}

/*
 * The busy message for a kdamond that is on (its state file): its
 * number, pid and the operations of its first context.
 */
static void busy_damon(const char *state, char *err, size_t errlen)
{
	size_t len = strlen(state) - strlen("/state");
	const char *num = state + len;
	char pidf[4096], opsf[4096], *pid, *ops;

	while (num > state && num[-1] != '/')
		num--;
	snprintf(pidf, sizeof(pidf), "%.*s/pid", (int)len, state);
	snprintf(opsf, sizeof(opsf), "%.*s/contexts/0/operations", (int)len,
		 state);
	pid = read_text_file(pidf, NULL);
	ops = read_text_file(opsf, NULL);
	if (pid)
		pid[strcspn(pid, "\n")] = '\0';
	if (ops)
		ops[strcspn(ops, "\n")] = '\0';
	snprintf(err, errlen, "cannot mark pages idle through /proc/kpageidle: "
		 "busy: DAMON is running (kdamond %.*s, pid %s, %s operations), "
		 "and the kernel lets one idle page tracker mark at a time; "
		 "stop it (echo off > /sys/kernel/mm/damon/admin/kdamonds/%.*s/"
		 "state) or run idletop when it is done",
		 (int)(state + len - num), num, pid && *pid ? pid : "?",
		 ops && *ops ? ops : "unknown", (int)(state + len - num), num);
	free(pid);
	free(ops);
}

/*
 * " pid (comm)" of each process under root/proc other than this one
 * with a descriptor linked to /proc/kpageidle, appended to buf (at most
 * three); how many were found.
 */
static int kpageidle_holders(const char *root, char *buf, size_t len)
{
	char *proc = path_join(root, "proc"), fd[4096], link[64], *comm;
	struct dirent *p, *f;
	DIR *pd, *fdd;
	int found = 0, self = (int)getpid();
	ssize_t n;

	pd = proc ? opendir(proc) : NULL;
	while (pd && found < 3 && (p = readdir(pd))) {
		if (p->d_name[strspn(p->d_name, "0123456789")] ||
		    atoi(p->d_name) == self)
			continue;
		snprintf(fd, sizeof(fd), "%s/%s/fd", proc, p->d_name);
		fdd = opendir(fd);
		while (fdd && (f = readdir(fdd))) {
			snprintf(fd, sizeof(fd), "%s/%s/fd/%s", proc,
				 p->d_name, f->d_name);
			n = readlink(fd, link, sizeof(link) - 1);
			if (n < 0)
				continue;
			link[n] = '\0';
			if (strcmp(link, "/" IDLESRC_KPAGEIDLE_PATH))
				continue;
			snprintf(fd, sizeof(fd), "%s/%s/comm", proc, p->d_name);
			comm = read_text_file(fd, NULL);
			if (comm)
				comm[strcspn(comm, "\n")] = '\0';
			snprintf(buf + strlen(buf), len - strlen(buf),
				 "%s pid %s (%s)", found ? "," : "", p->d_name,
				 comm ? comm : "?");
			free(comm);
			found++;
			break;
		}
		if (fdd)
			closedir(fdd);
	}
	if (pd)
		closedir(pd);
	free(proc);
	return found;
}

void idlesrc_busy_error(const char *root, char *err, size_t errlen)
{
	char *state = kdamond_on(root, "paddr"), who[256] = "";

	if (!state)
		state = kdamond_on(root, NULL);
	if (state) {
		busy_damon(state, err, errlen);
		free(state);
		return;
	}
	if (kpageidle_holders(root, who, sizeof(who)))
		snprintf(err, errlen, "cannot mark pages idle through "
			 "/proc/kpageidle: busy: another idle page tracker has "
			 "/proc/kpageidle open for marking (processes with it "
			 "open:%s); the kernel lets one tracker mark at a "
			 "time: stop it, or run idletop when it is done", who);
	else
		snprintf(err, errlen, "cannot mark pages idle through "
			 "/proc/kpageidle: busy: another idle page tracker has "
			 "/proc/kpageidle open for marking (no process here has "
			 "it open: it runs in another PID namespace or "
			 "container); the kernel lets one tracker mark at a "
			 "time");
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
