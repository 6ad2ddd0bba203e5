/*
 * The report of a run, in the shapes the classic tools print: bonnie's
 * table, the stream's segments, UnixBench's index table, the sysbench
 * thread sweep; anything else as a plain metric table.
 *
 * The system index is the geometric mean over the sys.* tests of
 * (score / the reference run's score) x 1000; the reference is pinned per
 * host in the setting "index_reference:HOST" and defaults to the host's
 * first complete run that measured every test of the index the store
 * knows (store_run_first_with() says which comes first), again when the
 * pinned run is deleted.  That default is pinned only once no later run
 * can take its place (index_settled()).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json.h"
#include "log.h"
#include "xmalloc.h"
#include "detect/stats.h"
#include "workloads/workloads.h"
#include "cli.h"

static int	int_cmp(const void *, const void *);

/* The series of workload/metric in ser[], or NULL. */
static const struct store_series *
find_series(const struct store_series *ser, size_t n, const char *workload,
    const char *metric)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(ser[i].metric.workload, workload) == 0 &&
		    strcmp(ser[i].metric.metric, metric) == 0)
			return &ser[i];
	return NULL;
}

static double
series_median(const struct store_series *s)
{
	double	m;

	if (s == NULL || s->n == 0 || stats_median(s->values, s->n, &m) == -1)
		return NAN;
	return m;
}

/*
 * The iterations that any of the n series s[] (NULL ones skipped) has,
 * ascending and each once, in *its (free it); returns how many.  A table
 * has a row for each: an import may number its iterations 1 and 1000000.
 */
static size_t
series_iterations(const struct store_series *const *s, size_t n, int **its)
{
	size_t	i, k, total = 0, m = 0;

	for (i = 0; i < n; i++)
		total += s[i] != NULL ? s[i]->n : 0;
	*its = xcalloc(total > 0 ? total : 1, sizeof(**its));
	for (i = 0; i < n; i++)
		for (k = 0; s[i] != NULL && k < s[i]->n; k++)
			(*its)[m++] = s[i]->iterations[k];
	qsort(*its, m, sizeof(**its), int_cmp);
	for (i = 0, k = 0; i < m; i++)
		if (k == 0 || (*its)[k - 1] != (*its)[i])
			(*its)[k++] = (*its)[i];
	return k;
}

/*
 * The width of a table's iteration column for the n iterations its[],
 * ascending: 4 ("iter"), or as many digits as the last has, so that an
 * import's iteration 1000000 does not push its row out of its columns.
 */
static int
iter_width(const int *its, size_t n)
{
	char	buf[16];
	int	len;

	len = n > 0 ? snprintf(buf, sizeof(buf), "%d", its[n - 1]) : 0;
	return len > 4 ? len : 4;
}

/* The value of iteration it of s, NAN if absent. */
static double
series_at(const struct store_series *s, int it)
{
	size_t	i;

	if (s == NULL)
		return NAN;
	for (i = 0; i < s->n; i++)
		if (s->iterations[i] == it)
			return s->values[i];
	return NAN;
}

/*
 * v in a column of width with prec decimals, as the classic tools print
 * it; a value too large for the column (1e20 trans/s, an imported 1e300
 * K/sec) with an exponent, in as many significant digits as fit (three
 * at least), where %f printed all 301 digits of 1e300 and pushed the
 * row out of its columns.  A value past a double's range (an index of
 * 1e300 over 1e-300) is "-", as --json's null, not "inf".
 */
static void
print_num(FILE *f, int width, int prec, double v)
{
	char	buf[32];
	int	len, digits;

	if (!isfinite(v)) {
		fprintf(f, " %*s", width, "-");
		return;
	}
	/*
	 * A value that rounds to nothing is 0 (0.0), as no value is: -0.2
	 * K/sec printed "-0" and -0.04 %CPU "-0.0".
	 */
	len = snprintf(buf, sizeof(buf), "%.*f", prec, v);
	if (len > 0 && buf[0] == '-' && strspn(buf + 1, "0.") ==
	    (size_t)len - 1)
		memmove(buf, buf + 1, (size_t)len--);
	if (len >= 0 && len <= width && (size_t)len < sizeof(buf)) {
		fprintf(f, " %*s", width, buf);
		return;
	}
	/*
	 * "-d.de+300": a sign, the point and a three-digit exponent; three
	 * significant digits at least, a column pushed a little rather than
	 * 1.5e300 shown as 2e+300.
	 */
	digits = width - 6 - (v < 0);
	if (digits < 3)
		digits = 3;
	fprintf(f, " %*.*g", width, digits, v);
}

/* " --label--" over width columns (the leading blank included). */
static void
banner(FILE *f, const char *label, int width)
{
	int	len = (int)strlen(label), left, right, i;

	left = (width - 1 - len) / 2;
	right = width - 1 - len - left;
	fputc(' ', f);
	for (i = 0; i < left; i++)
		fputc('-', f);
	fputs(label, f);
	for (i = 0; i < right; i++)
		fputc('-', f);
}

/*
 * The unit over a classic table's column of s: label, the one the tool
 * prints, when s is stored in the workload's own unit (native) or absent,
 * else s's own unit, escaped: the stream table said MiB/s over an import
 * of MB/s, as bonnie's said K/sec over KB/s.
 */
static const char *
col_unit(const struct store_series *s, const char *native, const char *label)
{
	if (s == NULL || strcmp(s->metric.unit, native) == 0)
		return label;
	return cli_show(s->metric.unit);
}

/*
 * v of s's column as print_num() prints it, when s is stored in the
 * workload's own unit (native) or absent, or when the tool's decimals
 * come as near v as any figure that fits; else in the most significant
 * digits that fit width: an import's 6.43 MB/s read "6" in bonnie's K/sec
 * column, 0.42 GB/s "0.4" in the stream table's, a p95 of 0.0005 s
 * "0.00".
 */
static void
print_col(FILE *f, int width, int prec, const struct store_series *s,
    const char *native, double v)
{
	char	fixed[64], sig[64];
	int	digits;

	if (s == NULL || strcmp(s->metric.unit, native) == 0 || !isfinite(v)) {
		print_num(f, width, prec, v);
		return;
	}
	for (digits = width < 17 ? width : 17; digits > 0; digits--) {
		snprintf(sig, sizeof(sig), "%.*g", digits, v);
		if ((int)strlen(sig) <= width)
			break;
	}
	snprintf(fixed, sizeof(fixed), "%.*f", prec, v);
	if (digits == 0 || ((int)strlen(fixed) <= width &&
	    fabs(strtod(fixed, NULL) - v) <= fabs(strtod(sig, NULL) - v)))
		print_num(f, width, prec, v);
	else
		fprintf(f, " %*s", width, sig);
}

/* bonnie's classic table: a row per iteration and one of medians. */
static int
report_bonnie(FILE *f, const struct store_series *ser, size_t n)
{
	static const char *const cols[] = { "putc", "write", "rewrite",
	    "getc", "read", "seeks" };
	const struct store_series *s[12], *kps[6];
	char	 kname[32], cname[32];
	int	*its, it, iw;
	size_t	 i, k, nits;

	for (i = 0; i < 6; i++) {
		snprintf(kname, sizeof(kname), "%s_%s", cols[i],
		    i == 5 ? "ps" : "kps");
		snprintf(cname, sizeof(cname), "%s_cpu", cols[i]);
		s[2 * i] = find_series(ser, n, "disk.bonnie", kname);
		s[2 * i + 1] = find_series(ser, n, "disk.bonnie", cname);
		kps[i] = s[2 * i];
	}
	if ((nits = series_iterations(kps, 6, &its)) == 0) {
		free(its);
		return 0;
	}
	iw = iter_width(its, nits);
	fprintf(f, "disk.bonnie\n%*s", iw + 1, "");
	banner(f, "Sequential Output", 45);
	banner(f, "Sequential Input", 30);
	banner(f, "Random", 15);
	fprintf(f, "\n%*s", iw + 1, "");
	for (i = 0; i < 6; i++)
		banner(f, (const char *[]){ "Per Char", "Block", "Rewrite",
		    "Per Char", "Block", "Seeks" }[i], 15);
	fprintf(f, "\n%-*s ", iw, "iter");
	for (i = 0; i < 6; i++) {
		fputc(' ', f);
		cli_fpad(f, i == 5 ? col_unit(s[2 * i], "/sec", "/sec") :
		    col_unit(s[2 * i], "K/sec", "K/sec"), 8);
		fputc(' ', f);
		cli_fpad(f, col_unit(s[2 * i + 1], "%CPU", "%CPU"), 5);
	}
	fputc('\n', f);
	for (k = 0; k < nits; k++) {
		it = its[k];
		fprintf(f, "%*d ", iw, it);
		for (i = 0; i < 6; i++) {
			print_col(f, 8, i == 5 ? 1 : 0, s[2 * i],
			    i == 5 ? "/sec" : "K/sec",
			    series_at(s[2 * i], it));
			print_col(f, 5, 1, s[2 * i + 1], "%CPU",
			    series_at(s[2 * i + 1], it));
		}
		fputc('\n', f);
	}
	free(its);
	fprintf(f, "%-*s ", iw, "med.");
	for (i = 0; i < 6; i++) {
		print_col(f, 8, i == 5 ? 1 : 0, s[2 * i], i == 5 ? "/sec" :
		    "K/sec", series_median(s[2 * i]));
		print_col(f, 5, 1, s[2 * i + 1], "%CPU",
		    series_median(s[2 * i + 1]));
	}
	fprintf(f, "\n\n");
	return 1;
}

static int
report_stream(FILE *f, const struct store_series *ser, size_t n)
{
	const struct store_series *w, *m, *sd, *cpu;
	char	*seg;
	int	*its, it, iw;
	size_t	 k, nits;

	w = find_series(ser, n, "disk.stream", "write_mibps");
	m = find_series(ser, n, "disk.stream", "seg_mean_mibps");
	sd = find_series(ser, n, "disk.stream", "seg_sd_mibps");
	cpu = find_series(ser, n, "disk.stream", "write_cpu");
	if (w == NULL || w->n == 0)
		return 0;
	nits = series_iterations(&w, 1, &its);
	iw = iter_width(its, nits);
	/* The median row's label fills the iteration column, no more. */
	xasprintf(&seg, "segments %s (mean +- sd)",
	    col_unit(m != NULL ? m : sd, "MiB/s", "MiB/s"));
	/* The segment's size is the run's note: show has no other. */
	fprintf(f, "disk.stream: 1 MiB writes, an fsync after each segment\n"
	    "  %*s ", iw, "iter");
	cli_fpad(f, col_unit(w, "MiB/s", "MiB/s"), 7);
	fputc(' ', f);
	cli_fpad(f, seg, 29);
	fputc(' ', f);
	cli_fpad(f, col_unit(cpu, "%CPU", "%CPU"), 5);
	fputc('\n', f);
	free(seg);
	for (k = 0; k < nits; k++) {
		it = its[k];
		fprintf(f, "  %*d", iw, it);
		print_col(f, 7, 1, w, "MiB/s", series_at(w, it));
		print_col(f, 12, 1, m, "MiB/s", series_at(m, it));
		fprintf(f, " +-");
		print_col(f, 6, 1, sd, "MiB/s", series_at(sd, it));
		print_col(f, 12, 1, cpu, "%CPU", series_at(cpu, it));
		fputc('\n', f);
	}
	free(its);
	fprintf(f, "%*s", iw + 2, "median");
	print_col(f, 7, 1, w, "MiB/s", series_median(w));
	print_col(f, 12, 1, m, "MiB/s", series_median(m));
	fprintf(f, " +-");
	print_col(f, 6, 1, sd, "MiB/s", series_median(sd));
	print_col(f, 12, 1, cpu, "%CPU", series_median(cpu));
	fprintf(f, "\n\n");
	return 1;
}

/*
 * How many tests of the index the n series ser[] have a score of, in
 * *tested; returns how many tests the index has.
 */
static size_t
index_count(const struct store_series *ser, size_t n, size_t *tested)
{
	const struct wl_workload	*wl;
	const struct store_series	*s;
	size_t				 nwl, i, all = 0;

	*tested = 0;
	wl = wl_list(&nwl);
	for (i = 0; i < nwl; i++) {
		if (!(wl[i].flags & WL_F_INDEX))
			continue;
		all++;
		if ((s = find_series(ser, n, wl[i].name,
		    wl[i].index_metric)) != NULL && s->n > 0)
			(*tested)++;
	}
	return all;
}

/* Whether any of the n series ser[] is a test of the index with a score. */
static int
index_tested(const struct store_series *ser, size_t n)
{
	size_t	tested;

	(void)index_count(ser, n, &tested);
	return tested > 0;
}

/*
 * Whether run rr, of series ser[], is the reference for good: one that
 * measured every test of the index, not on a busy machine, and is no
 * bisection's is the first such run whatever runs come after it.  An
 * earlier one is the first of what the store knows now: a first run of
 * sys.pipe alone, pinned, kept every later Index Score "partial: 1 of
 * 12" however many full runs followed.
 */
static int
index_settled(const struct store_run *rr, const struct store_series *ser,
    size_t n)
{
	size_t	tested;

	return !rr->busy && rr->trigger != NULL &&
	    strcmp(rr->trigger, "bisect") != 0 &&
	    index_count(ser, n, &tested) == tested;
}

/*
 * The host's first run to be the reference (store_run_first_with()), in
 * *ref: 0, or -1 when there is none.  A run of a workload of the user's
 * own that is called sys.* is none: pinned, it left every later index
 * without a reference.
 */
static int
index_first_run(struct store *st, const struct store_run *r, int64_t *ref)
{
	const struct wl_workload	*wl;
	const char			*names[32], *metrics[32];
	size_t				 nwl, i, n = 0;

	wl = wl_list(&nwl);
	for (i = 0; i < nwl && n < nitems(names); i++)
		if (wl[i].flags & WL_F_INDEX) {
			names[n] = wl[i].name;
			metrics[n++] = wl[i].index_metric;
		}
	return store_run_first_with(st, r->host, names, metrics, n, ref);
}

/*
 * Read run ref, the reference of run r's host, into *rr and its series
 * into *ser, *n: 0, or -1 when it is not there, not a complete run of
 * that host, or, read, has no test of the index (a run of a workload of
 * the user's own called sys.*, that an older perfwatch pinned).  A run
 * import --replace made in its place can have its number: one aborted
 * was the reference.  Series that cannot be read leave it the
 * reference, with none: the table then shows what it can.
 */
static int
index_reference_read(struct store *st, const struct store_run *r,
    int64_t ref, struct store_run *rr, struct store_series **ser, size_t *n)
{
	*ser = NULL;
	*n = 0;
	memset(rr, 0, sizeof(*rr));
	if (ref <= 0 || store_run_get(st, ref, rr) == -1)
		return -1;
	if (rr->host != r->host || rr->status == NULL ||
	    strcmp(rr->status, RUN_COMPLETE) != 0) {
		store_run_clear(rr);
		memset(rr, 0, sizeof(*rr));
		return -1;
	}
	if (store_run_series(st, ref, ser, n) == -1) {
		*ser = NULL;
		*n = 0;
	} else if (!index_tested(*ser, *n)) {
		store_series_free(*ser, *n);
		*ser = NULL;
		*n = 0;
		store_run_clear(rr);
		memset(rr, 0, sizeof(*rr));
		return -1;
	}
	return 0;
}

/*
 * The reference run of the system index for the run's host, read once
 * into *rr and its series (index_reference_read); *rr is all zero when
 * there is none.  A pinned run that is gone (import --replace deletes the run
 * it replaces), or that has no test of the index, is chosen anew as if
 * nothing were pinned: the host's first complete run with a test of the
 * index, which is the replacement when the run was the first.  The run
 * chosen is pinned only when settled (index_settled()); until then each
 * index chooses again, and a run of every test after a first run of
 * one is the reference from then on.
 */
static void
index_reference(struct store *st, const struct store_run *r,
    struct store_run *rr, struct store_series **ser, size_t *n)
{
	char	*key, *val = NULL, buf[32];
	int64_t	 ref = 0;

	xasprintf(&key, "index_reference:%s", r->host_name);
	if (store_setting_get(st, key, &val) == 0) {
		ref = strtoll(val, NULL, 10);
		free(val);
		if (index_reference_read(st, r, ref, rr, ser, n) == -1)
			ref = 0;
	}
	if (ref == 0 && index_first_run(st, r, &ref) == 0 &&
	    index_reference_read(st, r, ref, rr, ser, n) == 0 &&
	    index_settled(rr, *ser, *n)) {
		/*
		 * Pinned where the store can be written: a store read-only
		 * to its reader (a backup, a read-only file system) is read
		 * as it is, its first run the reference all the same.
		 */
		snprintf(buf, sizeof(buf), "%lld", (long long)ref);
		if (store_writable(st) && store_setting_set(st, key, buf) == -1)
			log_warnx("%s: %s", key, store_errmsg(st));
	}
	free(key);
}

/*
 * Pin run r as the reference of its host's system index: 0, or -1 with
 * *cause when it is not a complete run with a test of the index (65),
 * or when the store failed (store_failure() says so).
 */
int
cli_index_pin(struct store *st, const struct store_run *r, char **cause)
{
	struct store_series	*ser;
	struct store_run	 rr;
	char			*key, buf[32];
	size_t			 n;
	int			 rc;

	if (index_reference_read(st, r, r->id, &rr, &ser, &n) == -1) {
		if (store_failure(st) == STORE_FOUND_NONE)
			xasprintf(cause, "run %s cannot be the reference of "
			    "the system index: it is %s", cli_show(r->label),
			    r->status == NULL ||
			    strcmp(r->status, RUN_COMPLETE) != 0 ?
			    "not complete" : "of no test of the index");
		else
			xasprintf(cause, "%s", store_errmsg(st));
		return -1;
	}
	store_series_free(ser, n);
	store_run_clear(&rr);
	xasprintf(&key, "index_reference:%s", r->host_name);
	snprintf(buf, sizeof(buf), "%lld", (long long)r->id);
	if ((rc = store_setting_set(st, key, buf)) == -1)
		xasprintf(cause, "%s", store_errmsg(st));
	free(key);
	return rc;
}

int
cli_index_get(struct store *st, const struct store_run *r,
    const struct store_series *ser, size_t n, struct cli_index *ix)
{
	const struct wl_workload	*wl;
	const struct store_series	*s, *rs;
	struct store_series		*ref = NULL;
	struct store_run		 rr;
	struct cli_index_test		*t;
	double				*score, *base;
	size_t				 nwl, i, nref = 0;

	memset(ix, 0, sizeof(*ix));
	if (!index_tested(ser, n))
		return 0;
	wl = wl_list(&nwl);
	memset(&rr, 0, sizeof(rr));
	index_reference(st, r, &rr, &ref, &nref);
	ix->reference = rr.label;
	rr.label = NULL;
	ix->tests = xcalloc(nwl, sizeof(*ix->tests));
	score = xcalloc(nwl, sizeof(*score));
	base = xcalloc(nwl, sizeof(*base));
	for (i = 0; i < nwl; i++) {
		if (!(wl[i].flags & WL_F_INDEX))
			continue;
		s = find_series(ser, n, wl[i].name, wl[i].index_metric);
		rs = find_series(ref, nref, wl[i].name, wl[i].index_metric);
		if ((s == NULL || s->n == 0) && (rs == NULL || rs->n == 0))
			continue;
		t = &ix->tests[ix->ntests++];
		t->workload = wl[i].name;
		t->metric = wl[i].index_metric;
		t->unit = xstrdup(s != NULL ? s->metric.unit : rs->metric.unit);
		t->better = s != NULL ? s->metric.better : rs->metric.better;
		t->measured = s != NULL && s->n > 0;
		t->score = series_median(s);
		t->reference = series_median(rs);
		/*
		 * A geometric mean takes positive scores only: a test that
		 * scored 0 or less (an import of a broken run) has no index,
		 * and the score is of the others, partial, where it made the
		 * whole Index Score "-" and a negative score an index of
		 * -1000.
		 */
		t->index = !(t->score > 0) || !(t->reference > 0) ? NAN :
		    t->score / t->reference * 1000.0;
		if (!isnan(t->index)) {
			score[ix->scored] = t->score;
			base[ix->scored++] = t->reference;
		}
	}
	ix->score = ix->scored > 0 ? wl_index(score, base, ix->scored) : NAN;
	free(score);
	free(base);
	store_series_free(ref, nref);
	store_run_clear(&rr);
	return 1;
}

void
cli_index_clear(struct cli_index *ix)
{
	size_t	i;

	for (i = 0; i < ix->ntests; i++)
		free(ix->tests[i].unit);
	free(ix->tests);
	free(ix->reference);
	memset(ix, 0, sizeof(*ix));
}

/*
 * UnixBench's index table; adds "index" to json when it is not NULL (null
 * for a run without the index's tests).  A
 * test that the run or its reference lacks (a workload that failed, a
 * reference run of fewer tests) has a row with "-" for its index, and the
 * score, over the tests both have, says that it is partial: a mean of
 * fewer tests is no match for a full one.
 */
static int
report_index(struct store *st, const struct store_run *r, FILE *f,
    const struct store_series *ser, size_t n, json_t *json)
{
	const struct cli_index_test	*t;
	struct cli_index		 ix;
	json_t				*arr = NULL, *o;
	char				 label[96];
	size_t				 i, unref = 0;

	/* A run without the tests: null, as every key without a value. */
	if (cli_index_get(st, r, ser, n, &ix) == 0) {
		if (json != NULL)
			pwjson_set(json, "index", json_null());
		return 0;
	}
	if (json != NULL)
		arr = pwjson_array();
	else
		fprintf(f, "System Benchmarks (reference run %s)\n"
		    "  %-16s %14s %6s %14s %8s\n",
		    ix.reference != NULL ? cli_show(ix.reference) : "-", "test",
		    "score", "unit", "reference", "index");
	for (i = 0; i < ix.ntests; i++) {
		t = &ix.tests[i];
		if (json != NULL) {
			o = pwjson_object();
			pwjson_set_str(o, "test", t->workload);
			pwjson_set_num(o, "score", t->score);
			pwjson_set_str(o, "unit", t->unit);
			pwjson_set_num(o, "reference", t->reference);
			pwjson_set_num(o, "index", t->index);
			pwjson_append(arr, o);
		} else {
			fprintf(f, "  %-16s", t->workload);
			print_num(f, 14, 1, t->score);
			/* An imported unit is the file's text: escaped. */
			fputc(' ', f);
			cli_fpad(f, cli_show(t->unit), 6);
			print_num(f, 14, 1, t->reference);
			print_num(f, 8, 1, t->index);
			fputc('\n', f);
		}
	}
	if (json != NULL) {
		o = pwjson_object();
		pwjson_set(o, "tests", arr);
		/*
		 * The reference run's label: "reference_run", as alerts name
		 * theirs first_bad_run and last_run; "reference" is each
		 * test's score in that run.
		 */
		pwjson_set_str(o, "reference_run", ix.reference);
		pwjson_set_num(o, "score", ix.score);
		pwjson_set_int(o, "scored", (int64_t)ix.scored);
		pwjson_set_bool(o, "partial", ix.scored < ix.ntests);
		pwjson_set(json, "index", o);
	} else {
		if (ix.scored < ix.ntests)
			snprintf(label, sizeof(label), "System Benchmarks "
			    "Index Score (partial: %zu of %zu)", ix.scored,
			    ix.ntests);
		else
			snprintf(label, sizeof(label), "System Benchmarks "
			    "Index Score");
		fprintf(f, "  %-16s %14s %6s %14s %8s\n", "", "", "",
		    "", "========");
		/* Over test, score, unit and reference: 16 + 15 + 7 + 15. */
		fprintf(f, "  %-53s", label);
		print_num(f, 8, 1, ix.score);
		fputc('\n', f);
		/*
		 * Tests this run scored that its reference did not: another
		 * reference mends that (where it does not for a test the run
		 * itself lacks), and "partial" alone did not say how.
		 */
		for (i = 0; i < ix.ntests; i++)
			if (ix.tests[i].score > 0 &&
			    !(ix.tests[i].reference > 0))
				unref++;
		if (unref > 0)
			fprintf(f, "  %zu test%s no reference: perfwatch "
			    "baseline index RUN pins another\n", unref,
			    unref == 1 ? " has" : "s have");
		fputc('\n', f);
	}
	cli_index_clear(&ix);
	return 1;
}

static int
int_cmp(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * The thread counts N of the db.oltp series tps_tN, ascending, in
 * *counts (free it); returns how many.  Any list of counts is a valid
 * sweep (threads = 1,3,6), not only powers of two.
 */
static size_t
oltp_thread_counts(const struct store_series *ser, size_t n, int **counts)
{
	const char	*m;
	char		*end;
	long		 t;
	size_t		 i, k = 0;

	*counts = xcalloc(n > 0 ? n : 1, sizeof(**counts));
	for (i = 0; i < n; i++) {
		if (strcmp(ser[i].metric.workload, "db.oltp") != 0)
			continue;
		m = ser[i].metric.metric;
		/*
		 * As the workload writes it: tps_t01 is no second row for 1
		 * thread (it printed tps_t1's figures twice).
		 */
		if (strncmp(m, "tps_t", 5) != 0 ||
		    !isdigit((unsigned char)m[5]) || m[5] == '0')
			continue;
		errno = 0;
		t = strtol(m + 5, &end, 10);
		if (*end != '\0' || errno != 0 || t < 1 || t > INT_MAX)
			continue;
		(*counts)[k++] = (int)t;
	}
	qsort(*counts, k, sizeof(**counts), int_cmp);
	return k;
}

static int
report_oltp(FILE *f, const struct store_series *ser, size_t n)
{
	const struct store_series	*tps, *p95, *sc;
	double				 v;
	char				 name[32], *lat;
	int				*counts, t, any = 0;
	size_t				 i, nt;

	nt = oltp_thread_counts(ser, n, &counts);
	for (i = 0; i < nt; i++) {
		t = counts[i];
		snprintf(name, sizeof(name), "tps_t%d", t);
		if ((tps = find_series(ser, n, "db.oltp", name)) == NULL)
			continue;
		snprintf(name, sizeof(name), "p95_ms_t%d", t);
		p95 = find_series(ser, n, "db.oltp", name);
		if (!any) {
			xasprintf(&lat, "p95 %s", col_unit(p95, "ms", "ms"));
			fprintf(f, "db.oltp: sysbench OLTP read-only on "
			    "SQLite (medians)\n  %8s %12s %10s\n", "threads",
			    col_unit(tps, "tps", "trans/s"), lat);
			free(lat);
		}
		any = 1;
		fprintf(f, "  %8d", t);
		print_col(f, 12, 1, tps, "tps", series_median(tps));
		print_col(f, 10, 2, p95, "ms", series_median(p95));
		fputc('\n', f);
	}
	free(counts);
	if (any && (sc = find_series(ser, n, "db.oltp", "scalability")) !=
	    NULL && !isnan(v = series_median(sc))) {
		/* Each iteration's ratio, then their median: not the ratio
		 * of the medians above, which it need not equal. */
		fprintf(f, "  scalability (median of the iterations' peak / "
		    "1 thread): ");
		fprintf(f, fabs(v) < 1e6 ? "%.2fx\n" : "%.6gx\n", v);
	}
	if (any)
		fputc('\n', f);
	return any;
}

/* Everything not in a classic table, as show prints it. */
static void
report_rest(FILE *f, const struct store_series *ser, size_t n)
{
	static const char *const hdr[] = { "workload", "metric", "median",
	    "min", "max", "n", "unit" };
	static const enum table_align al[] = { ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_LEFT };
	struct table	*t;
	double		 lo, hi;
	char		 b[3][32];
	size_t		 i, rows = 0;

	t = table_new(nitems(hdr), hdr, al);
	for (i = 0; i < n; i++) {
		const char *w = ser[i].metric.workload;

		if (strcmp(w, "disk.bonnie") == 0 ||
		    strcmp(w, "disk.stream") == 0 ||
		    strcmp(w, "db.oltp") == 0 ||
		    (strncmp(w, "sys.", 4) == 0 && wl_find(w) != NULL))
			continue;
		if (stats_minmax(ser[i].values, ser[i].n, &lo, &hi) == -1)
			continue;
		fmt_value(b[0], sizeof(b[0]), series_median(&ser[i]));
		fmt_value(b[1], sizeof(b[1]), lo);
		fmt_value(b[2], sizeof(b[2]), hi);
		table_addf(t, 0, "%s", w);
		table_addf(t, 1, "%s", ser[i].metric.metric);
		table_addf(t, 2, "%s", b[0]);
		table_addf(t, 3, "%s", b[1]);
		table_addf(t, 4, "%s", b[2]);
		table_addf(t, 5, "%zu", ser[i].n);
		table_addf(t, 6, "%s", ser[i].metric.unit);
		table_end_row(t);
		rows++;
	}
	if (rows > 0) {
		table_print(t, f, OUT_TABLE);
		fputc('\n', f);
	}
	table_free(t);
}

/*
 * Print the classic tables (bonnie, stream, system index, OLTP) for what
 * of them the run measured; returns how many were printed.
 */
int
cli_report_classic(struct cli *c, const struct store_run *r,
    const struct store_series *ser, size_t n, FILE *f)
{
	int	k = 0;

	k += report_bonnie(f, ser, n);
	k += report_stream(f, ser, n);
	k += report_index(c->st, r, f, ser, n, NULL);
	k += report_oltp(f, ser, n);
	return k;
}

/*
 * Add the run's system index to o as "index", as run --json has it, when
 * it measured a test of the index.
 */
void
cli_report_index_json(struct cli *c, const struct store_run *r,
    const struct store_series *ser, size_t n, json_t *o)
{
	report_index(c->st, r, NULL, ser, n, o);
}

/* How each workload of a run ended, as JSON objects. */
json_t *
cli_workloads_json(const struct store_run_workload *w, size_t nw)
{
	json_t	*arr, *wj;
	size_t	 i;

	arr = pwjson_array();
	for (i = 0; i < nw; i++) {
		wj = pwjson_object();
		pwjson_set_str(wj, "workload", w[i].workload);
		pwjson_set_str(wj, "status", w[i].status);
		pwjson_set_num(wj, "wall", w[i].wall);
		pwjson_set_num(wj, "cpu", w[i].cpu);
		pwjson_set_str(wj, "error", w[i].error);
		pwjson_append(arr, wj);
	}
	return arr;
}

/*
 * A line for each workload of a run that did not complete: its status and
 * why ("disk.bonnie: timeout: timed out after 21600 s").
 */
void
cli_workloads_print(FILE *f, const struct store_run_workload *w, size_t nw)
{
	size_t	i;

	for (i = 0; i < nw; i++) {
		if (strcmp(w[i].status, "complete") != 0)
			fprintf(f, "%s: %s%s%s\n", cli_show(w[i].workload),
			    w[i].status, w[i].error ? ": " : "",
			    w[i].error ? cli_show(w[i].error) : "");
	}
}

/*
 * Say why the report of a run cannot be read back from the store, just
 * after the read that failed: the run measured and is recorded, and an
 * exit of 70 without a word left the user to guess what went wrong.
 * Returns the exit status: 75 for a store another process held locked,
 * else 70.
 */
static int
report_unreadable(struct cli *c)
{
	int	rc;

	if ((rc = cli_store_failed(c->st)) != 0)
		return rc;
	/* Nothing failed: the run's row is gone (deleted meanwhile). */
	fprintf(stderr, "perfwatch: the run is no longer in %s; no report\n",
	    store_path(c->st));
	return EXIT_SOFTWARE;
}

/*
 * Print the report of run: its header, the classic tables, and how each
 * workload ended; with check, the verdicts too (and return 1 when there
 * is a regression).  With json, one JSON document instead.
 */
int
cli_run_report(struct cli *c, int64_t run, int json, int check)
{
	struct store_run_workload	*w = NULL;
	struct store_series		*ser = NULL;
	struct store_run		 r;
	size_t				 n = 0, nw = 0, i;
	json_t				*o, *arr;
	char				 tbuf[32], dbuf[32];
	FILE				*f = stdout;
	int				 rc = 0;

	if (store_run_get(c->st, run, &r) == -1)
		return report_unreadable(c);
	/* No call on the store before report_unreadable() reads why. */
	if (store_run_series(c->st, run, &ser, &n) == -1 ||
	    store_run_workloads(c->st, run, &w, &nw) == -1) {
		store_run_clear(&r);
		store_series_free(ser, n);
		return report_unreadable(c);
	}
	fmt_time(tbuf, sizeof(tbuf), r.started);
	if (json) {
		/*
		 * The run as show --json and runs --json begin it (view.h),
		 * its id and trigger detail with it, where this built its own
		 * that lacked them.
		 */
		o = view_run_json(&r);
		pwjson_set(o, "workloads", cli_workloads_json(w, nw));
		arr = pwjson_array();
		for (i = 0; i < n; i++) {
			json_t *mj = pwjson_object();

			pwjson_set_str(mj, "workload", ser[i].metric.workload);
			pwjson_set_str(mj, "metric", ser[i].metric.metric);
			pwjson_set_str(mj, "unit", ser[i].metric.unit);
			pwjson_set_str(mj, "better",
			    better_name(ser[i].metric.better));
			pwjson_set_int(mj, "samples", (int64_t)ser[i].n);
			pwjson_set_num(mj, "median", series_median(&ser[i]));
			pwjson_append(arr, mj);
		}
		pwjson_set(o, "metrics", arr);
		report_index(c->st, &r, f, ser, n, o);
		/*
		 * A run not judged (--no-check, a failed run, a judgement
		 * that failed) has the keys of one that was, null: they
		 * were left out.
		 */
		pwjson_set(o, "alerts", json_null());
		pwjson_set(o, "check", json_null());
		if (check)
			rc = cli_check_run(c, run, o);
		pwjson_print(f, o, PWJSON_PRETTY);
		json_decref(o);
	} else {
		if (view_run_timed(&r))
			snprintf(dbuf, sizeof(dbuf), "%lld s",
			    (long long)(r.ended - r.started));
		else
			snprintf(dbuf, sizeof(dbuf), "length unknown");
		fprintf(f, "run %s on %s, %s, profile %s, %s, %s\n\n",
		    cli_show(r.label), cli_show(r.host_name), tbuf,
		    r.profile ? cli_show(r.profile) : "-", r.status, dbuf);
		cli_report_classic(c, &r, ser, n, f);
		report_rest(f, ser, n);
		cli_workloads_print(f, w, nw);
		if (check)
			rc = cli_check_run(c, run, NULL);
	}
	store_run_workloads_free(w, nw);
	store_series_free(ser, n);
	store_run_clear(&r);
	return rc;
}
