/*
 * Data in and out: import, export, history, show.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "json.h"
#include "log.h"
#include "utf8.h"
#include "xmalloc.h"
#include "detect/stats.h"
#include "cli.h"

static int
parse_format(const char *s, enum store_format *f)
{
	if (strcmp(s, "csv") == 0)
		*f = STORE_FORMAT_CSV;
	else if (strcmp(s, "jsonl") == 0 || strcmp(s, "json") == 0)
		*f = STORE_FORMAT_JSONL;
	else {
		fprintf(stderr, "perfwatch: --format: \"%s\" is not csv or "
		    "jsonl\n", s);
		return -1;
	}
	return 0;
}

/* When an import began and last said how far it was (perfwatch_mono). */
struct import_progress {
	double	start, last;
};

/*
 * A line on stderr, a terminal, every 2 s of a long import: what is read
 * so far.  Nothing is stored until the whole file has been read without
 * an error, so this counts rows read, not rows kept.
 */
static void
import_progress_line(const struct store_import_stats *s, void *arg)
{
	struct import_progress	*pr = arg;
	double			 now = perfwatch_mono();

	if (now - pr->last < 2)
		return;
	pr->last = now;
	fprintf(stderr, "perfwatch: import: %zu samples of %zu runs read, "
	    "%.0f s\n", s->samples, s->runs, now - pr->start);
}

static volatile sig_atomic_t import_signal;
static int	import_fd = -1;		/* what the import reads */
static int	import_null = -1;	/* /dev/null, to put in its place */

/*
 * Ask the import to stop, and end what it reads: the flag is looked at
 * before each row, and a signal that came after that look and before
 * the read of the next (a pipe, a terminal) was waited out for ever, the
 * read not yet begun to be cut short.  /dev/null in the input's place
 * makes that read, or the one under way, an end of file.
 */
static void
import_on_signal(int sig)
{
	int	saved = errno;

	import_signal = sig;
	if (import_fd != -1 && import_null != -1)
		(void)dup2(import_null, import_fd);
	errno = saved;
}

/*
 * Catch SIGTERM, and SIGINT and SIGHUP unless ignored (as run does: a
 * job started in the background, or under nohup, keeps them ignored),
 * in import_signal, for the import to stop at its next row and roll
 * back: killed there, it left the store it was making, empty, and the
 * directories made for it, which a refused import removes.  Without
 * SA_RESTART, so that a read waiting on a terminal or a pipe is cut
 * short too.  An export to a file catches them the same way (import_fd
 * is -1 then), to remove its temporary file.
 */
static void
import_catch(struct sigaction *old)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = import_on_signal;
	sigemptyset(&sa.sa_mask);
	cli_catch(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	cli_catch(SIGHUP, &sa, &old[2]);
}

/* Give the signals import_catch() caught their actions back. */
static void
import_release(const struct sigaction *old)
{
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigaction(SIGHUP, &old[2], NULL);
}

/* perfwatch import [--replace] [--format csv|jsonl] FILE|- */
int
cmd_import(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "replace", no_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	struct store_import_stats stats;
	struct import_progress	 pr;
	struct sigaction	 old[3];
	struct stat		 sb;
	json_t			*o;
	enum store_format	 format = STORE_FORMAT_AUTO, given;
	struct store		*st;
	const char		*name;
	char			*cause = NULL;
	FILE			*f;
	int			 ch, replace = 0, json = 0, rc;

	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			replace = 1;
			break;
		case 'f':
			if (parse_format(optarg, &given) == -1)
				return cli_usage("import");
			/* Two formats named: the last one won, unsaid. */
			if (format != STORE_FORMAT_AUTO && format != given)
				return cli_usage_why("import", "one --format: "
				    "csv or jsonl");
			format = given;
			break;
		case 'j':
			json = 1;
			break;
		default:
			return cli_usage("import");
		}
	}
	if (argc - optind > 1)
		return cli_bad_arg("import", argv[optind + 1]);
	if (argc - optind != 1)
		return cli_usage_why("import", "a FILE to import, or - for "
		    "standard input");
	name = argv[optind];
	if (strcmp(name, "-") == 0) {
		f = stdin;
		name = "<stdin>";
	} else if ((f = fopen(name, "r")) == NULL) {
		log_warn("%s", name);
		return EXIT_NOINPUT;
	}
	/* A directory opens, and then reads as an empty file would. */
	if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		errno = EISDIR;
		log_warn("%s", name);
		if (f != stdin)
			fclose(f);
		return EXIT_NOINPUT;
	}
	/* Before the store is made: a signal then leaves none behind. */
	import_null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	import_fd = fileno(f);
	import_catch(old);
	if ((st = cli_store(c)) == NULL) {
		import_release(old);
		import_fd = -1;
		if (import_null != -1)
			close(import_null);
		import_null = -1;
		if (f != stdin)
			fclose(f);
		return cli_store_none(c);
	}
	if (isatty(STDERR_FILENO)) {
		pr.start = pr.last = perfwatch_mono();
		store_import_progress(st, import_progress_line, &pr);
	}
	store_import_stop(st, &import_signal);
	rc = store_import(st, f, name, format, replace, &stats, &cause);
	store_import_stop(st, NULL);
	import_release(old);
	import_fd = -1;
	if (import_null != -1)
		close(import_null);
	import_null = -1;
	store_import_progress(st, NULL, NULL);
	if (f != stdin)
		fclose(f);
	if (rc == -1 && stats.stopped) {
		fprintf(stderr, "perfwatch: %s by signal %d\nperfwatch: "
		    "nothing was imported\n", cause, (int)import_signal);
		free(cause);
		cli_store_unmake(c);
		return 128 + (int)import_signal;
	}
	if (rc == -1) {
		fprintf(stderr, "perfwatch: %s%s\nperfwatch: nothing was "
		    "imported\n", cause, stats.store_busy ? " (another "
		    "process holds the store locked; try again)" : "");
		free(cause);
		cli_store_unmake(c);
		/*
		 * A full disk is no fault of the file: not a data error; a
		 * store locked by another process is to be tried again, as
		 * for the other locks a command meets, and so is a run to
		 * replace that is still being recorded; an input that fails
		 * to read is one that cannot be read, as one not there.
		 */
		if (stats.store_busy || stats.run_live)
			return EXIT_TEMPFAIL;
		if (stats.read_failed)
			return EXIT_NOINPUT;
		return stats.store_failed ? EXIT_IOERR : EXIT_DATAERR;
	}
	if (json) {
		/* "metrics" is a list in every --json: a count is not it. */
		o = pwjson_object();
		pwjson_set_int(o, "runs", (int64_t)stats.runs);
		pwjson_set_int(o, "new_metric_count", (int64_t)stats.metrics);
		pwjson_set_int(o, "samples", (int64_t)stats.samples);
		cli_json_print(o);
		json_decref(o);
	} else
		printf("imported %zu run%s, %zu sample%s (%zu new metric%s) "
		    "into %s\n", stats.runs, stats.runs == 1 ? "" : "s",
		    stats.samples, stats.samples == 1 ? "" : "s",
		    stats.metrics, stats.metrics == 1 ? "" : "s", c->db_path);
	return 0;
}

/*
 * Whether the symbolic link out (lstat'ed into *lsb) may be followed, by
 * the kernel's rule for an open (fs.protected_symlinks): in a directory
 * that is sticky and writable by all (/tmp), only a link of this user or
 * of the directory's owner.  realpath() and rename() are no open, and
 * root's export replaced the file another user's link named, with the
 * labels of a store that user could write (a line of /etc/crontab).
 */
static int
export_link_ok(const char *out, const struct stat *lsb)
{
	struct stat	 dsb;
	char		*copy;
	int		 ok;

	copy = xstrdup(out);
	ok = stat(dirname(copy), &dsb) == 0 && (!(dsb.st_mode & S_ISVTX) ||
	    !(dsb.st_mode & S_IWOTH) || lsb->st_uid == geteuid() ||
	    lsb->st_uid == dsb.st_uid);
	free(copy);
	return ok;
}

/* perfwatch export [--format csv|jsonl] [--run RUN]... [-o FILE] */
/*
 * Open export file out for writing.  A regular file (or a new one) is
 * written as a temporary file *tmp beside the file *dest it is to replace
 * once the export is whole (out itself, or where the symbolic link out
 * points); anything else (a device, a pipe) is written as it is, and *tmp
 * and *dest stay NULL.  NULL (with a warning) when it cannot be.
 */
static FILE *
export_open(const char *out, char **tmp, char **dest)
{
	struct stat	 sb;
	mode_t		 mask, mode;
	FILE		*f;
	int		 fd;

	*tmp = *dest = NULL;
	if (stat(out, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		if ((f = fopen(out, "w")) == NULL)
			log_warn("%s", out);
		return f;
	}
	/* A link stays a link: the file it points to is replaced. */
	if (lstat(out, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		if (!export_link_ok(out, &sb)) {
			log_warnx("%s: a symbolic link of another user in a "
			    "directory all may write (sticky): not followed",
			    out);
			return NULL;
		}
		if ((*dest = realpath(out, NULL)) == NULL) {
			log_warn("%s", out);
			return NULL;
		}
	} else
		*dest = xstrdup(out);
	xasprintf(tmp, "%s.XXXXXX", *dest);
	if ((fd = mkstemp(*tmp)) == -1) {
		log_warn("%s", out);
		free(*tmp);
		free(*dest);
		*tmp = *dest = NULL;
		return NULL;
	}
	/*
	 * The mode fopen would leave: the file's own when it is there (an
	 * export kept private stays so), else what the umask gives.
	 */
	if (stat(*dest, &sb) == 0)
		mode = sb.st_mode & 07777;
	else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(fd, mode) == -1 ||
	    (f = fdopen(fd, "w")) == NULL) {
		log_warn("%s", *tmp);
		close(fd);
		unlink(*tmp);
		free(*tmp);
		free(*dest);
		*tmp = *dest = NULL;
		return NULL;
	}
	return f;
}

/*
 * What of the store at db the file out is, by device and inode (another
 * name for it, a link or a path through "..", is found too): the
 * database, or a file kept beside it; NULL for none, or a file not there.
 * Written there, an export replaced the database with CSV and exited 0,
 * or a lock with a new file that its holders do not hold.
 */
static const char *
export_store_file(const char *out, const char *db, char **file)
{
	static const char *const files[][2] = {
		{ "", "the database" },
		{ "-wal", "the database's write-ahead log" },
		{ "-shm", "the database's shared memory" },
		{ ".run", "the database's run lock" },
		{ ".notify", "the database's notification lock" },
	};
	struct stat	 osb, sb;
	size_t		 i;

	if (stat(out, &osb) == -1)
		return NULL;
	for (i = 0; i < nitems(files); i++) {
		xasprintf(file, "%s%s", db, files[i][0]);
		if (stat(*file, &sb) == 0 && sb.st_dev == osb.st_dev &&
		    sb.st_ino == osb.st_ino)
			return files[i][1];
		free(*file);
	}
	*file = NULL;
	return NULL;
}

int
cmd_export(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "run", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "csv", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 }
	};
	enum store_format format = STORE_FORMAT_AUTO, given = STORE_FORMAT_AUTO;
	struct sigaction old[3];
	sigset_t	 mask, omask;
	struct store	*st;
	const char	**labels = NULL, *out = NULL;
	size_t		 nlabels = 0;
	char		*cause = NULL;
	FILE		*f = stdout;
	char		*tmp = NULL, *dest = NULL, *file;
	const char	*what;
	int		 ch, rc, ioerr, sig = 0;

	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (parse_format(optarg, &given) == -1) {
				free(labels);
				return cli_usage("export");
			}
			break;
		case 'C':
			given = STORE_FORMAT_CSV;
			break;
		case 'J':
			given = STORE_FORMAT_JSONL;
			break;
		case 'r':
			labels = xreallocarray(labels, nlabels + 1,
			    sizeof(*labels));
			labels[nlabels++] = optarg;
			break;
		case 'o':
			/* "" was written as ".XXXXXX" here, then not moved. */
			if (optarg[0] == '\0') {
				free(labels);
				return cli_usage_why("export", "-o: an empty "
				    "file name");
			}
			out = optarg;
			break;
		default:
			free(labels);
			return cli_usage("export");
		}
		/* --format csv --json named two: the last one won, unsaid. */
		if (given != STORE_FORMAT_AUTO) {
			if (format != STORE_FORMAT_AUTO && format != given) {
				free(labels);
				return cli_usage_why("export", "one format: "
				    "--format csv or --csv, or --format jsonl "
				    "or --json");
			}
			format = given;
			given = STORE_FORMAT_AUTO;
		}
	}
	if (optind != argc) {
		free(labels);
		return cli_bad_arg("export", argv[optind]);
	}
	if ((st = cli_store(c)) == NULL) {
		free(labels);
		return cli_store_none(c);
	}
	if (out != NULL && strcmp(out, "-") == 0)
		out = NULL;
	/*
	 * Without --format, the name says it, as it does for import: an
	 * export -o h.jsonl that wrote CSV would not import again.
	 */
	if (format == STORE_FORMAT_AUTO && out != NULL)
		format = store_format_of_name(out);
	if (format == STORE_FORMAT_AUTO)
		format = STORE_FORMAT_CSV;
	if (out != NULL &&
	    (what = export_store_file(out, store_path(st), &file)) != NULL) {
		fprintf(stderr, "perfwatch: export to %s: that is %s, %s; "
		    "nothing was written\n", out, file, what);
		free(file);
		free(labels);
		return EXIT_CANTCREAT;
	}
	/*
	 * While the temporary file is there, SIGINT, SIGTERM and SIGHUP stop
	 * the export (at its next sample) rather than end the process, which
	 * left the file behind.  They are held back while it is made, so
	 * that none comes between.  A device or a pipe, written as it is,
	 * has nothing to remove and keeps their actions, which end it even
	 * in a write that waits.
	 */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, &omask);
	if (out != NULL && (f = export_open(out, &tmp, &dest)) == NULL) {
		sigprocmask(SIG_SETMASK, &omask, NULL);
		free(labels);
		return EXIT_CANTCREAT;
	}
	if (tmp != NULL) {
		import_signal = 0;
		import_catch(old);
		store_export_stop(st, &import_signal);
	}
	sigprocmask(SIG_SETMASK, &omask, NULL);
	rc = store_export(st, f, format, labels, nlabels, &cause);
	ioerr = ferror(f);
	free(labels);
	if (out != NULL) {
		if (fclose(f) == EOF && rc == 0) {
			log_warn("%s", tmp != NULL ? tmp : out);
			rc = -1;
			ioerr = 1;
		}
		/* Asked to stop: what was written is no whole export. */
		if (tmp != NULL && (sig = (int)import_signal) != 0) {
			rc = -1;
			ioerr = 0;
		}
		/*
		 * A whole export takes the file's place at once; a failed one
		 * leaves what was there as it was.
		 */
		if (tmp != NULL && rc == 0 && rename(tmp, dest) == -1) {
			log_warn("%s", out);
			rc = -1;
			ioerr = 1;
		}
		if (tmp != NULL && rc == -1 && unlink(tmp) == -1)
			log_warn("%s", tmp);
		if (tmp != NULL) {
			store_export_stop(st, NULL);
			import_release(old);
		}
		free(tmp);
		free(dest);
	}
	if (sig != 0) {
		fprintf(stderr, "perfwatch: export to %s stopped by signal %d; "
		    "the file is left as it was\n", out, sig);
		free(cause);
		return 128 + sig;
	}
	if (rc == -1) {
		/* A write error names where it wrote: the store cannot. */
		if (cause != NULL && ioerr)
			fprintf(stderr, "perfwatch: %s: %s\n", out != NULL ? out :
			    "standard output", cause);
		else if (cause != NULL)
			fprintf(stderr, "perfwatch: %s\n", cause);
		free(cause);
		/* A store that failed or was busy is not a run not there. */
		return ioerr ? EXIT_IOERR : cli_store_status(st, EXIT_DATAERR);
	}
	return 0;
}

/* Summary columns shared by history and show. */
static void
summary_cells(struct table *t, size_t col, const struct store_series *s,
    enum cli_output out)
{
	struct stats_summary	sum;
	char			buf[5][32];

	if (s->n == 0 || stats_summarize(s->values, s->n, &sum) == -1) {
		table_addf(t, col, "-");
		table_addf(t, col + 1, "-");
		table_addf(t, col + 2, "-");
		table_addf(t, col + 3, "-");
		table_addf(t, col + 4, "0");
		return;
	}
	cli_fmt_figure(buf[0], sizeof(buf[0]), sum.median, out);
	cli_fmt_figure(buf[1], sizeof(buf[1]), sum.min, out);
	cli_fmt_figure(buf[2], sizeof(buf[2]), sum.max, out);
	cli_fmt_figure(buf[3], sizeof(buf[3]), sum.n > 1 ? sum.stddev : NAN,
	    out);
	table_addf(t, col, "%s", buf[0]);
	table_addf(t, col + 1, "%s", buf[1]);
	table_addf(t, col + 2, "%s", buf[2]);
	table_addf(t, col + 3, "%s", buf[3]);
	table_addf(t, col + 4, "%zu", sum.n);
}

/*
 * 0 when host is NULL or a host of the store; else 65 after a message
 * naming the store's hosts it is likely a typo of (name_hint), or the
 * exit status of a store that failed.
 */
int
cli_host_known(struct store *st, const char *host)
{
	int64_t	  id;
	char	**names, *hint;
	size_t	  n;
	int	  rc;

	if (host == NULL || store_host_find(st, host, &id) == 0)
		return 0;
	if ((rc = cli_store_failed(st)) != 0)
		return rc;
	if (store_host_names(st, &names, &n) == -1)
		return (rc = cli_store_failed(st)) != 0 ? rc : EXIT_SOFTWARE;
	hint = name_hint(host, names, n);
	fprintf(stderr, "perfwatch: no host %s in the store%s%s%s\n", host,
	    hint != NULL ? " (did you mean " : "",
	    hint != NULL ? cli_show(hint) : "", hint != NULL ? "?)" : "");
	free(hint);
	store_host_names_free(names, n);
	return EXIT_DATAERR;
}

/*
 * The newest run of this host with status (NULL: any) into r, for a
 * command given no run: 0, CLI_LATEST_NONE when this host has runs but
 * none with status, CLI_LATEST_EMPTY when the store has no run at all
 * (neither said: the caller words it), else an exit status after a
 * message.  A store can hold other machines' runs (import): the newest
 * of those, which check took, is no run of this machine, so without one
 * of this host the message names the hosts the store holds runs of, for
 * the user to name a run as HOST:LABEL.
 */
int
cli_run_latest(struct cli *c, const char *status, struct store_run *r)
{
	struct store_run_filter	 f;
	struct store_run	*runs = NULL, any;
	char			 name[256], *hosts = NULL, *s;
	size_t			 n = 0, i, j, nh = 0;
	int64_t			 host = 0;
	int			 rc;

	memset(r, 0, sizeof(*r));
	store_host_local_name(name, sizeof(name));
	if (store_host_find(c->st, name, &host) == -1) {
		if ((rc = cli_store_failed(c->st)) != 0)
			return rc;
		host = 0;
	}
	if (host != 0) {
		if (store_run_latest_of(c->st, host, status, r) == 0)
			return 0;
		if ((rc = cli_store_failed(c->st)) != 0)
			return rc;
		if (status != NULL &&
		    store_run_latest_of(c->st, host, NULL, &any) == 0) {
			store_run_clear(&any);
			return CLI_LATEST_NONE;
		}
		if ((rc = cli_store_failed(c->st)) != 0)
			return rc;
	}
	memset(&f, 0, sizeof(f));
	if (store_runs_list(c->st, &f, &runs, &n) == -1)
		return (rc = cli_store_failed(c->st)) != 0 ? rc :
		    EXIT_SOFTWARE;
	if (n == 0)
		return CLI_LATEST_EMPTY;
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(runs[j].host_name, runs[i].host_name) == 0)
				break;
		if (j < i)
			continue;
		xasprintf(&s, "%s%s%s", hosts != NULL ? hosts : "",
		    nh > 0 ? ", " : "", cli_show(runs[i].host_name));
		free(hosts);
		hosts = s;
		nh++;
	}
	fprintf(stderr, "perfwatch: no run of this host (%s) in %s, which "
	    "holds runs of %s %s: name a run, as HOST:LABEL\n", cli_show(name),
	    c->db_path, nh == 1 ? "host" : "hosts", hosts);
	free(hosts);
	store_runs_free(runs, n);
	return EXIT_DATAERR;
}

/*
 * The metrics named by --workload and --metric (NULL: any), at least one
 * when a name is given, and the host of --host (NULL: any) known: 0 and
 * *ms filled (empty only for an empty store), or an exit status after a
 * message, so that a name mistyped is said to be one and not taken for a
 * metric with no history.
 */
int
cli_metrics_match(struct store *st, const char *host, const char *workload,
    const char *metric, struct store_metric **ms, size_t *nms)
{
	char	*whint, *mhint;
	int	 rc;

	*ms = NULL;
	*nms = 0;
	if ((rc = cli_host_known(st, host)) != 0)
		return rc;
	if (store_metrics_list(st, workload, metric, ms, nms) == -1) {
		log_warnx("%s", store_errmsg(st));
		return EXIT_SOFTWARE;
	}
	if (*nms > 0 || (workload == NULL && metric == NULL))
		return 0;
	store_metrics_free(*ms, *nms);
	*ms = NULL;
	if (store_metrics_list(st, NULL, NULL, ms, nms) == -1) {
		log_warnx("%s", store_errmsg(st));
		return EXIT_SOFTWARE;
	}
	store_metrics_hint(*ms, *nms, workload, metric, &whint, &mhint);
	fprintf(stderr, "perfwatch: no metric matches%s%s%s%s%s%s%s%s%s%s\n",
	    workload ? " workload " : "", workload ? workload : "",
	    whint ? " (did you mean " : "", whint ? cli_show(whint) : "",
	    whint ? "?)" : "",
	    metric ? " metric " : "", metric ? metric : "",
	    mhint ? " (did you mean " : "", mhint ? cli_show(mhint) : "",
	    mhint ? "?)" : "");
	free(whint);
	free(mhint);
	store_metrics_free(*ms, *nms);
	*ms = NULL;
	*nms = 0;
	return EXIT_DATAERR;
}

/* --limit N: a count, 0 for all; -1 after a message. */
int
cli_parse_limit(const char *arg, size_t *limit)
{
	long long	 v;

	if (cli_parse_count(arg, 0, LLONG_MAX, &v) == -1) {
		fprintf(stderr, "perfwatch: --limit: \"%s\" is not a count "
		    "(0 for all)\n", arg);
		return -1;
	}
	*limit = (size_t)v;
	return 0;
}

/*
 * History's rows for metric m, a series for each host apart (runs of one
 * metric on two machines are no one history): the newest limit runs with
 * samples of it on each host (on host alone unless NULL), into the table
 * t (to be printed as out) or, with JSON, the array arr (view.h, as the
 * dashboard serves it).  0, or an exit status.
 */
static int
history_metric(struct store *st, const struct store_metric *m,
    const char *host, size_t limit, struct table *t, enum cli_output out,
    json_t *arr)
{
	struct store_run	*runs = NULL;
	struct store_series	*ser;
	int64_t			*ids;
	size_t			 nruns = 0, nser, j;
	char			 tbuf[32];
	int			 rc;

	if (arr != NULL)
		return view_history_json(st, m, host, limit, arr) == -1 ?
		    EXIT_SOFTWARE : 0;
	if (store_metric_runs(st, m->id, host, limit, &runs, &nruns) == -1)
		return (rc = cli_store_failed(st)) != 0 ? rc : EXIT_SOFTWARE;
	ids = xcalloc(nruns > 0 ? nruns : 1, sizeof(*ids));
	for (j = 0; j < nruns; j++)
		ids[j] = runs[j].id;
	if (store_metric_series(st, m->id, ids, nruns, &ser, &nser) == -1) {
		free(ids);
		store_runs_free(runs, nruns);
		/* Said as for the runs above: it exited 70 without a word. */
		return (rc = cli_store_failed(st)) != 0 ? rc : EXIT_SOFTWARE;
	}
	for (j = 0; j < nser; j++) {
		if (ser[j].n == 0)
			continue;
		fmt_time(tbuf, sizeof(tbuf), runs[j].started);
		table_addf(t, 0, "%s", runs[j].label);
		table_addf(t, 1, "%s", tbuf);
		table_addf(t, 2, "%s", m->workload);
		table_addf(t, 3, "%s", m->metric);
		summary_cells(t, 4, &ser[j], out);
		table_addf(t, 9, "%s", m->unit);
		table_addf(t, 10, "%s", runs[j].busy ? "yes" : "no");
		table_addf(t, 11, "%s", runs[j].host_name);
		table_end_row(t);
	}
	store_series_free(ser, nser);
	free(ids);
	store_runs_free(runs, nruns);
	return 0;
}

/* perfwatch history [--workload W] [--metric M] [--host H] [--limit N] */
int
cmd_history(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "metric", required_argument, NULL, 'm' },
		{ "limit", required_argument, NULL, 'n' },
		{ "host", required_argument, NULL, 'H' },
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 }
	};
	/* The host last, so that the columns before it stay where they were. */
	static const char *const hdr[] = { "run", "time", "workload",
	    "metric", "median", "min", "max", "stddev", "n", "unit", "busy",
	    "host" };
	/* For a program each column is named as --json names it. */
	static const char *const csv_hdr[] = { "run", "time", "workload",
	    "metric", "median", "min", "max", "stddev", "samples", "unit",
	    "busy", "host" };
	static const enum table_align al[] = { ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_LEFT, ALIGN_LEFT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT,
	    ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT };
	struct store_metric	*ms = NULL;
	struct store		*st;
	struct table		*t;
	const char		*workload = NULL, *metric = NULL, *host = NULL;
	json_t			*arr = NULL;
	size_t			 nms = 0, limit = 20, i;
	int			 ch, rc = 0, began;

	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'w':
		case 'm':
		case 'H':
			if (cli_blank_opt(ch == 'w' ? "--workload" : ch == 'm' ?
			    "--metric" : "--host", optarg))
				return cli_usage("history");
			if (ch == 'w')
				workload = optarg;
			else if (ch == 'm')
				metric = optarg;
			else
				host = optarg;
			break;
		case 'n':
			if (cli_parse_limit(optarg, &limit) == -1)
				return cli_usage("history");
			break;
		case 'J':
			c->out = OUT_JSON;
			break;
		case 'C':
			c->out = OUT_CSV;
			break;
		default:
			return cli_usage("history");
		}
	}
	if (optind != argc)
		return cli_bad_arg("history", argv[optind]);
	if ((st = cli_store(c)) == NULL)
		return cli_store_none(c);
	if ((rc = cli_metrics_match(st, host, workload, metric, &ms,
	    &nms)) != 0)
		return rc;
	_Static_assert(nitems(hdr) == nitems(csv_hdr), "history: CSV header");
	t = table_new(nitems(hdr), c->out == OUT_CSV ? csv_hdr : hdr, al);
	if (c->out == OUT_JSON)
		arr = pwjson_array();
	/* One read for every metric's queries, not a lock and a cache check each. */
	if ((began = store_read_begin(st)) == -1)
		rc = EXIT_SOFTWARE;
	for (i = 0; i < nms && rc == 0; i++)
		rc = history_metric(st, &ms[i], host, limit, t, c->out,
		    arr);
	store_read_end(st, began);
	if (rc == 0) {
		if (arr != NULL)
			cli_json_print(arr);
		else if (nms == 0 && c->out == OUT_TABLE)
			printf("no runs\n");
		else
			table_print(t, stdout, c->out);
	}
	json_decref(arr);
	table_free(t);
	store_metrics_free(ms, nms);
	return rc;
}

/*
 * The system index's columns of a row of show --csv, for test t (NULL: a
 * metric not of the index, left empty): the reference run, its score and
 * the test's index.
 */
static void
show_index_cells(struct table *t, size_t col, const struct cli_index *ix,
    const struct cli_index_test *it)
{
	char	buf[32];

	if (it == NULL)
		return;
	table_addf(t, col, "%s", ix->reference != NULL ? ix->reference : "-");
	cli_fmt_figure(buf, sizeof(buf), it->reference, OUT_CSV);
	table_addf(t, col + 1, "%s", buf);
	cli_fmt_figure(buf, sizeof(buf), it->index, OUT_CSV);
	table_addf(t, col + 2, "%s", buf);
}

/*
 * The rows of show --csv for the system index that the metrics' rows do
 * not hold: a test that only the reference run measured, with "-" for
 * the run's figures, as the text's index table has it; then the Index
 * Score, workload "all" and metric "index", with the number of tests it
 * is of as its n (fewer than the index's rows: partial).
 */
static void
show_index_rows(struct table *t, const struct cli_index *ix,
    const struct store_series *ser, size_t n)
{
	const struct cli_index_test	*it;
	char				 buf[32];
	size_t				 i, j;

	for (i = 0; i < ix->ntests; i++) {
		it = &ix->tests[i];
		for (j = 0; j < n; j++)
			if (strcmp(ser[j].metric.workload, it->workload) == 0 &&
			    strcmp(ser[j].metric.metric, it->metric) == 0)
				break;
		if (j < n)
			continue;
		table_addf(t, 0, "%s", it->workload);
		table_addf(t, 1, "%s", it->metric);
		for (j = 2; j <= 5; j++)
			table_addf(t, j, "-");
		table_addf(t, 6, "0");
		table_addf(t, 7, "%s", it->unit);
		table_addf(t, 8, "%s", better_name(it->better));
		show_index_cells(t, 9, ix, it);
		table_end_row(t);
	}
	table_addf(t, 0, "all");
	table_addf(t, 1, "index");
	table_addf(t, 6, "%zu", ix->scored);
	table_addf(t, 8, "%s", better_name(BETTER_HIGHER));
	table_addf(t, 9, "%s", ix->reference != NULL ? ix->reference : "-");
	cli_fmt_figure(buf, sizeof(buf), ix->score, OUT_CSV);
	table_addf(t, 11, "%s", buf);
	table_end_row(t);
}

/* The test of the index that series s is, or NULL. */
static const struct cli_index_test *
show_index_test(const struct cli_index *ix, const struct store_series *s)
{
	size_t	i;

	for (i = 0; i < ix->ntests; i++)
		if (strcmp(ix->tests[i].workload, s->metric.workload) == 0 &&
		    strcmp(ix->tests[i].metric, s->metric.metric) == 0)
			return &ix->tests[i];
	return NULL;
}

/*
 * Copy into to the members of from named in keys, in that order, null
 * where from has none, and then any others from has, as they come.
 */
static void
show_json_ordered(json_t *to, json_t *from, const char *const *keys,
    size_t nkeys)
{
	const char	*key;
	json_t		*v;
	size_t		 i;

	for (i = 0; i < nkeys; i++) {
		v = json_object_get(from, keys[i]);
		pwjson_set(to, keys[i], v != NULL ? json_incref(v) :
		    json_null());
	}
	json_object_foreach(from, key, v) {
		for (i = 0; i < nkeys; i++)
			if (strcmp(key, keys[i]) == 0)
				break;
		if (i == nkeys)
			pwjson_set(to, key, json_incref(v));
	}
}

/*
 * A run's quiet look, as show --json gives it: every key in the order
 * perfwatch(1) lists them, null where it has no value.  The stored
 * object's order is not that (a run keeps its keys sorted), and a run
 * recorded before run_quiet() wrote them all lacks "why" when it
 * was quiet and "seen" when another run held the lock; an imported run
 * marked busy has only "busy" and "why".
 */
static json_t *
show_quiet_json(json_t *stored)
{
	static const char *const keys[] = { "policy", "busy", "why",
	    "waited", "seen" };
	static const char *const seen_keys[] = { "interval", "load1",
	    "load5", "load15", "ncpu", "runnable", "cpu_busy", "swap_in",
	    "swap_out", "mem_total_kb", "mem_available_kb", "throttle_count",
	    "throttle_events" };
	json_t	*q, *seen, *s;

	q = pwjson_object();
	show_json_ordered(q, stored, keys, nitems(keys));
	/* Replaced in its place, seen's own keys in their order. */
	seen = json_object_get(stored, "seen");
	if (json_is_object(seen)) {
		s = pwjson_object();
		show_json_ordered(s, seen, seen_keys, nitems(seen_keys));
		pwjson_set(q, "seen", s);
	}
	return q;
}

/* perfwatch show [RUN|--latest] [--json|--csv]: RUN by default the newest */
int
cmd_show(struct cli *c, int argc, char **argv)
{
	/*
	 * The CSV has the text's system index table in three more columns
	 * (show_index_cells) and a row of its own for the Index Score; its
	 * columns are named as --json names them, the reference run as the
	 * index's "reference_run".
	 */
	static const char *const hdr[] = { "workload", "metric", "median",
	    "min", "max", "stddev", "n", "unit", "better" };
	static const char *const csv_hdr[] = { "workload", "metric",
	    "median", "min", "max", "stddev", "samples", "unit", "better",
	    "reference_run", "reference", "index" };
	static const enum table_align al[] = { ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT,
	    ALIGN_LEFT, ALIGN_LEFT };
	struct cli_index	 ix;
	struct store_run	 run;
	struct store_run_workload *w = NULL;
	struct store_series	*ser;
	struct store		*st;
	struct table		*t;
	const char		*what = NULL;
	char			*cause = NULL, tbuf[32];
	json_t			*o, *arr, *quiet = NULL, *stored;
	char			*why;
	size_t			 n, nw = 0, i;
	int			 k, opt, latest = 0, ended = 0;

	for (k = 1; k < argc; k++) {
		if ((opt = cli_option_word(argv[k], &ended)) == -1)
			continue;
		if (opt && cli_output_option(c, argv[k]))
			continue;
		if (opt && strcmp(argv[k], "--latest") == 0) {
			latest = 1;
			continue;
		}
		if (opt || what != NULL)
			return cli_bad_arg("show", argv[k]);
		what = argv[k];
	}
	if (latest && what != NULL)
		return cli_usage_why("show", "a RUN or --latest, not both");
	if ((st = cli_store(c)) == NULL)
		return cli_store_none(c);
	if (what == NULL) {
		/*
		 * This host's newest run whatever its status: what just
		 * happened here.
		 */
		if ((k = cli_run_latest(c, NULL, &run)) != 0) {
			if (k != CLI_LATEST_EMPTY)
				return k;
			fprintf(stderr, "perfwatch: no run in %s\n",
			    c->db_path);
			return EXIT_DATAERR;
		}
	} else if (store_run_resolve(st, what, &run, &cause) == -1) {
		fprintf(stderr, "perfwatch: %s\n", cause);
		free(cause);
		return cli_store_status(st, EXIT_DATAERR);
	}
	/*
	 * A read that fails is said, with the store and its error: this
	 * exited 70 without a word.
	 */
	if (store_run_series(st, run.id, &ser, &n) == -1) {
		store_run_clear(&run);
		return (k = cli_store_failed(st)) != 0 ? k : EXIT_SOFTWARE;
	}
	/* How each workload ended: a failed one has no metric to show. */
	if (store_run_workloads(st, run.id, &w, &nw) == -1) {
		store_series_free(ser, n);
		store_run_clear(&run);
		return (k = cli_store_failed(st)) != 0 ? k : EXIT_SOFTWARE;
	}
	if (c->out == OUT_JSON) {
		o = view_run_json(&run);
		stored = run.quiet != NULL ? json_loads(run.quiet, 0, NULL) :
		    NULL;
		quiet = json_is_object(stored) ? show_quiet_json(stored) :
		    NULL;
		json_decref(stored);
		pwjson_set(o, "quiet", quiet != NULL ? quiet : json_null());
		pwjson_set(o, "workloads", cli_workloads_json(w, nw));
		arr = pwjson_array();
		for (i = 0; i < n; i++)
			pwjson_append(arr, view_series_json(&ser[i]));
		pwjson_set(o, "metrics", arr);
		cli_report_index_json(c, &run, ser, n, o);
		cli_json_print(o);
		json_decref(o);
	} else {
		if (c->out == OUT_TABLE) {
			fmt_time(tbuf, sizeof(tbuf), run.started);
			printf("run %s on %s, %s, trigger %s%s%s, %s\n",
			    cli_show(run.label), cli_show(run.host_name),
			    tbuf, run.trigger, run.profile ? ", profile " : "",
			    run.profile ? cli_show(run.profile) : "",
			    run.status);
			/* A run measured on a busy machine says so. */
			if ((why = view_busy_why(&run)) != NULL)
				printf("measured on a busy machine: %s\n",
				    cli_show(why));
			free(why);
			putchar('\n');
			cli_report_classic(c, &run, ser, n, stdout);
		}
		/* The table's columns, or the CSV's with the index's. */
		_Static_assert(nitems(hdr) == nitems(al), "show: alignment");
		t = c->out == OUT_CSV ? table_new(nitems(csv_hdr), csv_hdr,
		    NULL) : table_new(nitems(hdr), hdr, al);
		memset(&ix, 0, sizeof(ix));
		if (c->out == OUT_CSV)
			(void)cli_index_get(st, &run, ser, n, &ix);
		for (i = 0; i < n; i++) {
			table_addf(t, 0, "%s", ser[i].metric.workload);
			table_addf(t, 1, "%s", ser[i].metric.metric);
			summary_cells(t, 2, &ser[i], c->out);
			table_addf(t, 7, "%s", ser[i].metric.unit);
			table_addf(t, 8, "%s", better_name(ser[i].metric.better));
			show_index_cells(t, 9, &ix, show_index_test(&ix,
			    &ser[i]));
			table_end_row(t);
		}
		if (ix.ntests > 0)
			show_index_rows(t, &ix, ser, n);
		cli_index_clear(&ix);
		table_print(t, stdout, c->out);
		table_free(t);
		/* Under the table, as run's report says it. */
		for (i = 0; i < nw && strcmp(w[i].status, "complete") == 0;
		    i++)
			;
		if (c->out == OUT_TABLE && i < nw) {
			putchar('\n');
			cli_workloads_print(stdout, w, nw);
		}
	}
	store_run_workloads_free(w, nw);
	store_series_free(ser, n);
	store_run_clear(&run);
	return 0;
}

/*
 * The first max characters of s, with "..." for the rest: a trigger's
 * detail (a package list can run to pages) in one table line.  Allocated.
 */
static char *
cut_text(const char *s, size_t max)
{
	size_t	len = strlen(s), at = 0, chars = 0, k;
	char	*out;

	while (at < len && chars < max) {
		if ((k = utf8_seq_len((const unsigned char *)s + at,
		    len - at)) == 0)
			k = 1;
		at += k;
		chars++;
	}
	if (at == len)
		return xstrdup(s);
	xasprintf(&out, "%.*s...", (int)at, s);
	return out;
}

/* perfwatch runs [--host H] [--status S] [--trigger T] [--limit N] */
int
cmd_runs(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "host", required_argument, NULL, 'H' },
		{ "status", required_argument, NULL, 's' },
		{ "trigger", required_argument, NULL, 't' },
		{ "limit", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 }
	};
	/*
	 * The id, then the workloads that did not complete, last, each added
	 * after the others so that the columns before it stay where they
	 * were.  The length is "seconds" for a person, its unit; "duration"
	 * in CSV, the key --json gives it under, as the trigger's detail is
	 * "trigger_detail" there.
	 */
	static const char *const hdr[] = { "run", "host", "time", "seconds",
	    "trigger", "profile", "status", "busy", "detail", "id",
	    "incomplete" };
	static const char *const csv_hdr[] = { "run", "host", "time",
	    "duration", "trigger", "profile", "status", "busy",
	    "trigger_detail", "id", "incomplete" };
	static const enum table_align al[] = { ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_LEFT, ALIGN_RIGHT, ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_LEFT, ALIGN_LEFT, ALIGN_RIGHT, ALIGN_LEFT };
	static const char *const statuses[] = { RUN_RUNNING, RUN_COMPLETE,
	    RUN_ABORTED, RUN_FAILED };
	struct store_run_filter	 filt;
	struct store_run	*runs = NULL;
	struct store		*st;
	struct table		*t;
	json_t			*arr;
	char			 tbuf[32], *cut, *incs;
	size_t			 nruns = 0, i;
	int			 ch;

	memset(&filt, 0, sizeof(filt));
	filt.limit = 20;
	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'H':
			if (cli_blank_opt("--host", optarg))
				return cli_usage("runs");
			filt.host = optarg;
			break;
		case 's':
			for (i = 0; i < nitems(statuses); i++)
				if (strcmp(optarg, statuses[i]) == 0)
					break;
			if (i == nitems(statuses)) {
				fprintf(stderr, "perfwatch: --status: \"%s\" "
				    "is not running, complete, aborted or "
				    "failed\n", optarg);
				return cli_usage("runs");
			}
			filt.status = optarg;
			break;
		case 't':
			/* A misspelt trigger would list no runs, silently. */
			if (!store_trigger_known(optarg)) {
				fprintf(stderr, "perfwatch: --trigger: \"%s\" "
				    "is not schedule, package, kernel, git, "
				    "manual, rerun, bisect or import\n", optarg);
				return cli_usage("runs");
			}
			filt.trigger = optarg;
			break;
		case 'n':
			if (cli_parse_limit(optarg, &filt.limit) == -1)
				return cli_usage("runs");
			break;
		case 'J':
			c->out = OUT_JSON;
			break;
		case 'C':
			c->out = OUT_CSV;
			break;
		default:
			return cli_usage("runs");
		}
	}
	if (optind != argc)
		return cli_bad_arg("runs", argv[optind]);
	if ((st = cli_store(c)) == NULL)
		return cli_store_none(c);
	if ((ch = cli_host_known(st, filt.host)) != 0)
		return ch;
	/* The runs, and the workloads each did not complete: said why. */
	if (view_runs_list(st, &filt, &runs, &nruns, &arr) == -1)
		return cli_store_status(st, EXIT_SOFTWARE);
	t = table_new(nitems(hdr), c->out == OUT_CSV ? csv_hdr : hdr, al);
	for (i = 0; i < nruns && c->out != OUT_JSON; i++) {
		/* A complete run can have lost a workload: which, and how. */
		incs = view_incomplete_text(json_object_get(json_array_get(arr,
		    i), "incomplete"));
		fmt_time(tbuf, sizeof(tbuf), runs[i].started);
		table_addf(t, 0, "%s", runs[i].label);
		table_addf(t, 1, "%s", runs[i].host_name);
		table_addf(t, 2, "%s", tbuf);
		if (view_run_timed(&runs[i]))
			table_addf(t, 3, "%lld", (long long)
			    (runs[i].ended - runs[i].started));
		else
			table_addf(t, 3, "-");
		table_addf(t, 4, "%s", runs[i].trigger);
		table_addf(t, 5, "%s", runs[i].profile != NULL ?
		    runs[i].profile : "-");
		table_addf(t, 6, "%s", runs[i].status);
		table_addf(t, 7, "%s", runs[i].busy ? "yes" : "no");
		if (runs[i].trigger_detail == NULL)
			table_addf(t, 8, "-");
		else if (c->out == OUT_TABLE) {
			cut = cut_text(runs[i].trigger_detail, 60);
			table_addf(t, 8, "%s", cut);
			free(cut);
		} else
			table_addf(t, 8, "%s", runs[i].trigger_detail);
		/* A person types #id; a program reads the number. */
		table_addf(t, 9, c->out == OUT_TABLE ? "#%lld" : "%lld",
		    (long long)runs[i].id);
		if (incs == NULL)
			table_addf(t, 10, "-");
		else if (c->out == OUT_TABLE) {
			cut = cut_text(incs, 60);
			table_addf(t, 10, "%s", cut);
			free(cut);
		} else
			table_addf(t, 10, "%s", incs);
		table_end_row(t);
		free(incs);
	}
	if (c->out == OUT_JSON)
		cli_json_print(arr);
	else if (nruns == 0 && c->out == OUT_TABLE)
		printf("no runs\n");
	else
		table_print(t, stdout, c->out);
	json_decref(arr);
	table_free(t);
	store_runs_free(runs, nruns);
	return 0;
}
