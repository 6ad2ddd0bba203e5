/*
 * bench/snapshot: what a machine snapshot costs, in time and in the store.
 *
 * Takes the snapshot of this machine N times (as "perfwatch run" does
 * before its workloads) and prints the median, minimum and maximum time,
 * the time of the package database alone, the size of its JSON forms, and
 * what it adds to a fresh store: the first snapshot, the same one again
 * (stored once: nothing), and one with a single package upgraded (a new
 * package set).
 *
 * usage: snapshot [-n RUNS] [-w WORKDIR] [-d DPKG_ADMINDIR] [-s PACKAGES]
 *   -s N  first build a dpkg admin directory of at least N packages by
 *         repeating this machine's status file under new names, to measure
 *         the 2,000-package case on a smaller system.
 * Figures are printed, never asserted: the machine is shared and noisy.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "log.h"
#include "xmalloc.h"
#include "detect/stats.h"
#include "store/store.h"
#include "sysinfo/sysinfo.h"

/*
 * The scratch directory (static: snapshot_scratch_remove() runs after
 * main() has returned), and whether mkdtemp() made it.
 */
static char	snapshot_scratch[] = "/tmp/perfwatch-bench-snapshot.XXXXXX";
static int	snapshot_scratch_made;

/*
 * Remove the scratch directory, its store and the synthesized status
 * file: at exit, so that the fatal() of a failed step (a work directory
 * not there, a store that will not open) removes them too, which only
 * the end of main() did.
 */
static void
snapshot_scratch_remove(void)
{
	const char	*files[] = { "status", "store.db", "store.db-wal",
			    "store.db-shm", "store.db-journal" };
	char		*path;
	size_t		 i;

	if (!snapshot_scratch_made)
		return;
	for (i = 0; i < nitems(files); i++) {
		xasprintf(&path, "%s/%s", snapshot_scratch, files[i]);
		if (unlink(path) == -1 && errno != ENOENT)
			log_warn("unlink %s", path);
		free(path);
	}
	if (rmdir(snapshot_scratch) == -1)
		log_warn("rmdir %s", snapshot_scratch);
}

/* Bytes of a store on disk, its WAL included. */
static long long
store_bytes(const char *path)
{
	struct stat	 sb;
	long long	 n = 0;
	char		*wal;

	if (stat(path, &sb) == 0)
		n += (long long)sb.st_size;
	xasprintf(&wal, "%s-wal", path);
	if (stat(wal, &sb) == 0)
		n += (long long)sb.st_size;
	free(wal);
	return n;
}

/*
 * Write <dir>/status with the stanzas of src/status repeated, renamed
 * "<name>-copyK" from the second round on, until there are want packages.
 * Returns how many were written.
 */
static long
synthesize(const char *src, const char *dir, long want)
{
	FILE	*f;
	char	*path, *text, *p, *end, *stanza, *nl;
	long	 n = 0, round, nstanzas = 0;
	size_t	 len;

	xasprintf(&path, "%s/status", src);
	if ((f = fopen(path, "r")) == NULL)
		fatal("%s", path);
	free(path);
	text = NULL;
	len = 0;
	if (getdelim(&text, &len, '\0', f) == -1)
		fatal("read status");
	fclose(f);

	xasprintf(&path, "%s/status", dir);
	if ((f = fopen(path, "w")) == NULL)
		fatal("%s", path);
	free(path);
	for (round = 0; n < want; round++) {
		for (p = text; *p != '\0' && n < want; p = end) {
			if ((end = strstr(p, "\n\n")) == NULL)
				end = p + strlen(p);
			stanza = xstrndup(p, (size_t)(end - p));
			while (*end == '\n')
				end++;
			if (strncmp(stanza, "Package: ", 9) != 0) {
				free(stanza);
				continue;
			}
			if (round == 0)
				nstanzas++;
			nl = stanza + strcspn(stanza, "\n");
			if (round == 0)
				fprintf(f, "%s\n\n", stanza);
			else
				fprintf(f, "%.*s-copy%ld%s\n\n",
				    (int)(nl - stanza), stanza, round, nl);
			free(stanza);
			n++;
		}
		if (nstanzas == 0)
			fatalx("no packages in %s/status", src);
	}
	fclose(f);
	free(text);
	return n;
}

/* A copy of s whose first package has another version. */
static struct snapshot *
upgrade_one(const struct snapshot *s)
{
	struct snapshot	*u;
	size_t		 i;

	u = sysinfo_snapshot_new();
	for (i = 0; i < s->nfields; i++)
		sysinfo_snapshot_set(u, s->fields[i].key, s->fields[i].value);
	for (i = 0; i < s->npackages; i++)
		sysinfo_snapshot_add_package(u, s->packages[i].name,
		    i == 0 ? "999:0-bench" : s->packages[i].version,
		    s->packages[i].arch);
	return u;
}

int
main(int argc, char **argv)
{
	struct sysinfo_opts	 o;
	struct snapshot		*s = NULL, *pk, *up;
	const char		*mgr;
	struct store		*st;
	const char		*workdir = ".";
	const char		*tmpl;
	char			*cause = NULL, *dbpath, *t;
	char			 fh[SYSINFO_HASH_LEN + 1];
	char			 ph[SYSINFO_HASH_LEN + 1];
	double			*times, t0, pkt;
	long long		 empty, first, again, upgraded;
	long			 synth = 0, written = 0;
	int64_t			 nsnap, nsets, npkgs;
	int			 runs = 21, c, i;
	size_t			 fields_len, pkgs_len, all_len;

	log_init("snapshot", 1, 0);
	sysinfo_opts_init(&o);
	while ((c = getopt(argc, argv, "d:n:s:w:")) != -1) {
		switch (c) {
		case 'd':
			o.dpkg_admindir = optarg;
			break;
		case 'n':
			runs = atoi(optarg);
			break;
		case 's':
			synth = atol(optarg);
			break;
		case 'w':
			workdir = optarg;
			break;
		default:
			fprintf(stderr, "usage: snapshot [-n runs] [-w workdir] "
			    "[-d dpkg-admindir] [-s packages]\n");
			return 64;
		}
	}
	if (runs < 1)
		runs = 1;
	if ((tmpl = mkdtemp(snapshot_scratch)) == NULL)
		fatal("mkdtemp");
	snapshot_scratch_made = 1;
	atexit(snapshot_scratch_remove);
	if (synth > 0) {
		written = synthesize(o.dpkg_admindir, tmpl, synth);
		o.dpkg_admindir = tmpl;
		o.pkgmgr = SYSINFO_PKG_DPKG;
	}

	times = xcalloc((size_t)runs, sizeof(*times));
	for (i = 0; i < runs; i++) {
		sysinfo_snapshot_free(s);
		t0 = bench_now();
		if ((s = sysinfo_snapshot_take(workdir, &o, &cause)) == NULL)
			fatalx("%s", cause);
		times[i] = bench_now() - t0;
	}
	qsort(times, (size_t)runs, sizeof(*times), bench_cmp_double);

	/* The package database alone, when it is dpkg's. */
	pkt = -1;
	mgr = sysinfo_snapshot_get(s, "pkg.manager");
	if (mgr != NULL && strcmp(mgr, "dpkg") == 0) {
		t0 = bench_now();
		pk = sysinfo_snapshot_new();
		if (sysinfo_dpkg_read(pk, o.dpkg_admindir, &cause) == -1)
			fatalx("%s", cause);
		pkt = bench_now() - t0;
		sysinfo_snapshot_free(pk);
	}

	t = sysinfo_snapshot_dump(s, SYSINFO_FIELDS);
	fields_len = strlen(t);
	free(t);
	t = sysinfo_snapshot_dump(s, SYSINFO_PACKAGES);
	pkgs_len = strlen(t);
	free(t);
	t = sysinfo_snapshot_dump(s, SYSINFO_ALL);
	all_len = strlen(t);
	free(t);
	sysinfo_fields_hash(s, fh);
	sysinfo_packages_hash(s, ph);

	/* What the store keeps: first, the same again, one upgrade. */
	xasprintf(&dbpath, "%s/store.db", tmpl);
	if ((st = store_open(dbpath, &cause)) == NULL)
		fatalx("%s", cause);
	store_close(st);
	empty = store_bytes(dbpath);
	if ((st = store_open(dbpath, &cause)) == NULL ||
	    store_snapshot_put(st, s, &cause) <= 0)
		fatalx("%s", cause);
	store_close(st);
	first = store_bytes(dbpath);
	if ((st = store_open(dbpath, &cause)) == NULL ||
	    store_snapshot_put(st, s, &cause) <= 0)
		fatalx("%s", cause);
	store_close(st);
	again = store_bytes(dbpath);
	up = upgrade_one(s);
	if ((st = store_open(dbpath, &cause)) == NULL ||
	    store_snapshot_put(st, up, &cause) <= 0)
		fatalx("%s", cause);
	if (store_snapshot_usage(st, &nsnap, &nsets, &npkgs) == -1)
		fatalx("store_snapshot_usage failed");
	store_close(st);
	upgraded = store_bytes(dbpath);

	printf("snapshot of %s: %zu fields, %zu packages (%s)%s\n", workdir,
	    s->nfields, s->npackages, sysinfo_snapshot_get(s, "pkg.manager"),
	    synth > 0 ? ", synthesized admin directory" : "");
	if (synth > 0)
		printf("  synthesized: %ld packages in %s/status\n", written,
		    tmpl);
	/* Of an even -n, the mean of the middle two, not the upper one. */
	printf("take:      median %.2f ms, min %.2f ms, max %.2f ms over %d "
	    "runs\n", stats_median_sorted(times, (size_t)runs) * 1e3,
	    times[0] * 1e3, times[runs - 1] * 1e3, runs);
	if (pkt >= 0)
		printf("packages:  %.2f ms reading the dpkg database alone\n",
		    pkt * 1e3);
	printf("json:      fields %zu bytes, packages %zu bytes, whole %zu "
	    "bytes (compact)\n", fields_len, pkgs_len, all_len);
	printf("hashes:    fields %.16s..., packages %.16s...\n", fh, ph);
	printf("store:     empty %lld bytes; first snapshot +%lld bytes; "
	    "same again +%lld bytes; one package upgraded +%lld bytes\n",
	    empty, first - empty, again - first, upgraded - again);
	printf("store:     %lld snapshot rows, %lld package sets, %lld "
	    "package rows\n", (long long)nsnap, (long long)nsets,
	    (long long)npkgs);

	sysinfo_snapshot_free(up);
	sysinfo_snapshot_free(s);
	free(times);
	free(dbpath);
	return 0;
}
