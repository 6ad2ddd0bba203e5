/*
 * perfwatch: the command-line tool.
 *
 *   perfwatch [-c CONF] [-D DB] [-v] COMMAND [ARGS]
 *
 * The database is -D, else $PERFWATCH_DB, else state_dir/perfwatch.db when
 * the configuration sets state_dir, else
 * $XDG_STATE_HOME/perfwatch/perfwatch.db (~/.local/state/...).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "workloads/workloads.h"
#include "cli.h"

const char *cli_argv0;

static const struct cli_cmd cli_cmds[] = {
	{ "run", cmd_run, "run [--profile P] [--workload GLOB]... "
	    "[--iterations N] [--label L] [--trigger T] [--detail TEXT] "
	    "[--git-commit NAME=ID]... [--progress] [--no-check] [--json]",
	    "measure the battery now and record a run" },
	{ "import", cmd_import, "import [--replace] [--format csv|jsonl] "
	    "[--json] FILE|-", "add a history of samples from CSV or JSON Lines" },
	{ "export", cmd_export, "export [--format csv|jsonl] [--csv|--json] "
	    "[--run RUN]... [-o|--output FILE]", "write samples in the import format" },
	{ "history", cmd_history, "history [--workload W] [--metric M] "
	    "[--host H] [--limit N] [--json|--csv]", "a metric's summary run by run" },
	{ "runs", cmd_runs, "runs [--host H] [--status S] [--trigger T] "
	    "[--limit N] [--json|--csv]", "the runs recorded, newest last" },
	{ "show", cmd_show, "show [RUN|--latest] [--json|--csv]",
	    "every metric of one run" },
	{ "check", cmd_check, "check [RUN|--latest] [--json|--csv] "
	    "[--baseline NAME] [--workload GLOB]... [--metric GLOB]... "
	    "[--bisect]",
	    "judge a run against its baseline; exit 1 on a regression" },
	{ "compare", cmd_compare, "compare [--json|--csv] RUN|NAME=RUN,...|"
	    "'GLOB' ...", "runs or groups of runs side by side" },
	{ "changes", cmd_changes, "changes [--workload W] [--metric M] "
	    "[--host H] [--min-change PCT] [--window N] [--alpha A] "
	    "[--json|--csv]",
	    "where each metric's history shifted" },
	{ "alerts", cmd_alerts, "alerts [--all] [--limit N] [--before ID] "
	    "[--json|--csv] | alerts ack ID",
	    "open alerts, or acknowledge one" },
	{ "baseline", cmd_baseline, "baseline set NAME RUN... | "
	    "list [--json|--csv] | use NAME|rolling | show NAME [--json|--csv] | "
	    "delete NAME | index RUN",
	    "pinned baselines" },
	{ "env", cmd_env, "env show [--packages] [--json|--csv] [RUN] | "
	    "env diff [--json|--csv] RUN_A [RUN_B]",
	    "the machine snapshot of a run, or what changed between two" },
	{ "bisect", cmd_bisect, "bisect [--git NAME | --repo DIR] "
	    "[--build CMD] [--workload GLOB]... [--metric GLOB]... "
	    "[--profile P] [--iterations N] [--runs N] [--max-runs N] "
	    "[--no-side-check] [--json|--csv] GOOD..BAD | "
	    "bisect --list-git [--json|--csv]",
	    "find the commit that made a metric worse" },
	{ "status", cmd_status, "status [--json]",
	    "what perfwatchd is doing, its queue and next run" },
	{ "trigger", cmd_trigger, "trigger [--workload GLOB]...",
	    "ask perfwatchd for a battery now" },
	{ "pause", cmd_pause, "pause",
	    "perfwatchd starts nothing new until resumed" },
	{ "resume", cmd_resume, "resume", "undo pause" },
	{ "notify", cmd_notify, "notify flush [--json] [--force] [--syslog] | "
	    "notify test [--json] [--list | SINK] | "
	    "notify pending [--all] [--json|--csv] [--limit N]",
	    "deliver alerts to the sinks, test a sink, list the outbox" },
};

/* help's own usage: it is not in the list of commands that it prints. */
static const char	cli_help_usage[] = "help [COMMAND]";

static void
usage_all(FILE *f)
{
	size_t	i;

	fprintf(f, "usage: perfwatch [-hvV] [-c CONF] [-D DB] COMMAND [ARGS]\n"
	    "commands:\n");
	for (i = 0; i < nitems(cli_cmds); i++)
		fprintf(f, "  %-10s %s\n", cli_cmds[i].name,
		    cli_cmds[i].summary);
	fprintf(f, "Run \"perfwatch help COMMAND\" or \"perfwatch COMMAND "
	    "--help\" for a command's options.\n");
}

/*
 * The index in cli_cmds of command name, or nitems(cli_cmds) after saying
 * it is unknown (with the command it is likely a typo of) and printing
 * the list of commands.
 */
static size_t
cli_cmd_find(const char *name)
{
	size_t	i, near = nitems(cli_cmds);
	int	d, best = -1;

	for (i = 0; i < nitems(cli_cmds); i++) {
		if (strcmp(cli_cmds[i].name, name) == 0)
			return i;
		if ((d = name_near(name, cli_cmds[i].name)) != -1 &&
		    (best == -1 || d < best)) {
			best = d;
			near = i;
		}
	}
	fprintf(stderr, "perfwatch: unknown command \"%s\"", cli_show(name));
	if (near < nitems(cli_cmds))
		fprintf(stderr, " (did you mean %s?)", cli_cmds[near].name);
	fputc('\n', stderr);
	usage_all(stderr);
	return nitems(cli_cmds);
}

/* Long forms of the options before the command. */
static const struct option cli_longopts[] = {
	{ "help",	no_argument,	NULL,	'h' },
	{ "version",	no_argument,	NULL,	'V' },
	{ NULL,		0,		NULL,	0 }
};

/*
 * Print command cmd's usage line, the one its --help prints (the table
 * above is the only place it is written); returns the usage exit code.
 */
int
cli_usage(const char *cmd)
{
	size_t	i;

	for (i = 0; i < nitems(cli_cmds); i++)
		if (strcmp(cli_cmds[i].name, cmd) == 0)
			break;
	fprintf(stderr, "usage: perfwatch %s\n", i < nitems(cli_cmds) ?
	    cli_cmds[i].usage : cmd);
	return EXIT_USAGE;
}

/*
 * The command being parsed, as its messages name it: "perfwatch env show".
 * cli_name() also puts it in argv[0], where getopt_long() takes the name
 * its own messages begin with.
 */
static char	cli_name_buf[48] = "perfwatch";
int		cli_out_errno;

void
cli_name(char **argv, const char *cmd, const char *sub)
{
	snprintf(cli_name_buf, sizeof(cli_name_buf), "perfwatch %s%s%s", cmd,
	    sub != NULL ? " " : "", sub != NULL ? sub : "");
	argv[0] = cli_name_buf;
}

/*
 * Why the words given do not make a command, then command cmd's usage
 * line (none if cmd is NULL: the caller prints it); the usage exit code.
 */
int
cli_usage_why(const char *cmd, const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "%s: ", cli_name_buf);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return cmd != NULL ? cli_usage(cmd) : EXIT_USAGE;
}

/*
 * A word that command cmd does not take, an option or one argument too
 * many: say which, in getopt_long()'s words, then print the usage line.
 */
int
cli_bad_arg(const char *cmd, const char *arg)
{
	if (arg[0] == '-' && arg[1] != '\0')
		return cli_usage_why(cmd, "unrecognized option '%s'", arg);
	return cli_usage_why(cmd, "unexpected argument '%s'", arg);
}

/* Command cmd has no subcommand word: say so, then print the usage line. */
int
cli_bad_sub(const char *cmd, const char *word)
{
	if (word[0] == '-' && word[1] != '\0')
		return cli_bad_arg(cmd, word);
	return cli_usage_why(cmd, "unknown subcommand '%s'", word);
}

/*
 * After a store call returned -1 where that may mean "there is none": 0
 * when nothing failed, for the caller to say what is not there; else say
 * what failed and return the exit status, 75 (EX_TEMPFAIL: try again)
 * for a store that another process held locked past the busy timeout, as
 * for the other locks a command waits on, 74 (EX_IOERR) for a full disk,
 * as import and run exit on one, 70 for any other error.  A
 * store that was only busy was reported as "no baseline" or "no run",
 * which sent the user looking for a typo.
 */
int
cli_store_failed(struct store *st)
{
	switch (store_failure(st)) {
	case STORE_FOUND_NONE:
		return 0;
	case STORE_BUSY:
		fprintf(stderr, "%s: %s: busy, locked by another process "
		    "(%s); try again\n", cli_name_buf, store_path(st),
		    store_errmsg(st));
		return EXIT_TEMPFAIL;
	default:
		fprintf(stderr, "%s: %s: %s\n", cli_name_buf, store_path(st),
		    store_errmsg(st));
		return cli_failure_status(store_failure(st), EXIT_SOFTWARE);
	}
}

/*
 * The exit status after a store call that returned -1 with its own
 * message (a cause naming the store's error): 75 when the store was
 * busy, 74 when the disk was full, 70 when it failed otherwise, none
 * when nothing failed (there is no such thing).
 */
int
cli_store_status(struct store *st, int none)
{
	return cli_failure_status(store_failure(st), none);
}

/*
 * The same for a failure a call kept for its caller (detect_check's and
 * detect_compare's res->failure), read after the store has moved on.
 */
int
cli_failure_status(enum store_failure f, int none)
{
	switch (f) {
	case STORE_FOUND_NONE:
		return none;
	case STORE_BUSY:
		return EXIT_TEMPFAIL;
	case STORE_FULL:
		/* A write the disk could not take, as import's and run's. */
		return EXIT_IOERR;
	default:
		return EXIT_SOFTWARE;
	}
}

/*
 * Refuse an option's text that is empty or blanks alone, for an option
 * whose text must say something: 1 after saying so (the caller prints
 * its usage, 64), else 0.  run --detail '' recorded a detail that showed
 * as a blank, history --host '' said "no host  in the store".
 */
int
cli_blank_opt(const char *opt, const char *arg)
{
	if (arg[strspn(arg, " \t")] != '\0')
		return 0;
	fprintf(stderr, "%s: %s: %s\n", cli_name_buf, opt,
	    arg[0] == '\0' ? "empty" : "blank");
	return 1;
}

/*
 * The text of a number option or argument is the number and nothing
 * else, so that every option takes what --window took: strtoll and
 * strtod skip blanks and take a sign, so " 5" and "+5" were 5, and
 * strtod takes hexadecimal, inf and nan too, so --min-change 0x2 was 2.
 * These do not print: each caller says what its option wants.
 */

/* A count: decimal digits alone, from lo to hi.  0, or -1. */
int
cli_parse_count(const char *s, long long lo, long long hi, long long *out)
{
	char		*end;
	long long	 v;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || errno != 0 || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/*
 * A decimal number, from lo to hi: digits, a point and an exponent, with
 * no sign before it (no option takes a negative number).  0, or -1.
 */
int
cli_parse_real(const char *s, double lo, double hi, double *out)
{
	char	*end;
	double	 v;

	if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' &&
	    isdigit((unsigned char)s[1])))
		return -1;
	/* No x (hexadecimal), no letters of inf or nan. */
	if (s[strspn(s, "0123456789.eE+-")] != '\0')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || errno != 0 || !(v >= lo) || !(v <= hi))
		return -1;
	*out = v;
	return 0;
}

/* Reset getopt for a subcommand's own arguments. */
void
cli_getopt_reset(void)
{
#if defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
	optreset = 1;
	optind = 1;
#else
	optind = 0;
#endif
}

/*
 * Give sig the action sa, its old one in *old, unless it was ignored: a
 * shell without job control starts a command with & with SIGINT
 * ignored, nohup(1) with SIGHUP ignored, and such a signal is not for
 * the command.  An ignored signal stays so across exec, for the
 * command's children too.
 */
void
cli_catch(int sig, const struct sigaction *sa, struct sigaction *old)
{
	sigaction(sig, NULL, old);
	if (old->sa_handler != SIG_IGN)
		sigaction(sig, sa, NULL);
}

/* Accept --json or --csv; 1 if arg was one of them. */
int
cli_output_option(struct cli *c, const char *arg)
{
	if (strcmp(arg, "--json") == 0) {
		c->out = OUT_JSON;
		return 1;
	}
	if (strcmp(arg, "--csv") == 0) {
		c->out = OUT_CSV;
		return 1;
	}
	return 0;
}

/*
 * For a command that reads its words by hand: 1 when arg is an option, 0
 * when it is a word, -1 for the first "--", which ends the options as it
 * does for getopt(3) and is itself skipped, so that a run labelled "-rc1"
 * can still be named.  *ended starts at 0.
 */
int
cli_option_word(const char *arg, int *ended)
{
	if (*ended)
		return 0;
	if (strcmp(arg, "--") == 0) {
		*ended = 1;
		return -1;
	}
	return arg[0] == '-' && arg[1] != '\0';
}

/*
 * mkdir -p of the directory that will hold path; *made is the first
 * directory it made (allocated), or NULL when they were all there.
 */
int
cli_mkdir_parents(const char *path, char **made)
{
	char	*dir = xstrdup(path), *p;

	*made = NULL;
	for (p = dir + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) == 0) {
			if (*made == NULL)
				*made = xstrdup(dir);
		} else if (errno != EEXIST) {
			/* The path alone read as the database's own fault. */
			log_warn("%s: cannot make its directory %s", path, dir);
			free(dir);
			return -1;
		}
		*p = '/';
	}
	free(dir);
	return 0;
}

static char	*cli_db_path(struct cli *);

/*
 * Whether the database file is there, without opening it or saying
 * anything: for a usage error that a store's runs could mend.
 */
int
cli_store_exists(struct cli *c)
{
	char	*path;
	int	 there;

	if (c->st != NULL)
		return 1;
	path = cli_db_path(c);
	there = access(path, F_OK) == 0;
	free(path);
	return there;
}

/* Work out which database file to use. */
static char *
cli_db_path(struct cli *c)
{
	const char	*env, *home;
	char		*path;

	if (c->db_opt != NULL)
		return xstrdup(c->db_opt);
	if ((env = getenv("PERFWATCH_DB")) != NULL && *env != '\0')
		return xstrdup(env);
	if (c->cfg != NULL && config_file(c->cfg) != NULL &&
	    config_is_set(c->cfg, "perfwatch", "state_dir")) {
		xasprintf(&path, "%s/perfwatch.db",
		    config_get_str(c->cfg, "perfwatch", "state_dir"));
		return path;
	}
	if ((env = getenv("XDG_STATE_HOME")) != NULL && env[0] == '/') {
		xasprintf(&path, "%s/perfwatch/perfwatch.db", env);
		return path;
	}
	if ((home = getenv("HOME")) == NULL || *home == '\0')
		home = "/";
	xasprintf(&path, "%s/.local/state/perfwatch/perfwatch.db", home);
	return path;
}

/*
 * Whether path is an empty file that SQLite would take for an empty
 * database and write a schema into: one with no write-ahead log either,
 * since a store being made has its header in the file (WAL mode writes
 * it) before its first rows are in the log.
 */
static int
cli_db_empty(const char *path)
{
	struct stat	 sb;
	char		*wal;
	int		 empty;

	if (stat(path, &sb) == -1 || !S_ISREG(sb.st_mode) || sb.st_size != 0)
		return 0;
	xasprintf(&wal, "%s-wal", path);
	empty = stat(wal, &sb) == -1 || sb.st_size == 0;
	free(wal);
	return empty;
}

/* Open the store (once), creating its directory if needed. */
struct store *
cli_store(struct cli *c)
{
	struct statvfs	 sv;
	char		*cause = NULL;

	if (c->st != NULL)
		return c->st;
	c->db_path = cli_db_path(c);
	/*
	 * Only what adds runs makes a database: a -D with a typo in it, or
	 * PERFWATCH_DB set in one shell and not another, would otherwise
	 * leave an empty file (and its directories) behind and report "no
	 * runs" of the store that was meant.
	 */
	if (!c->creates && access(c->db_path, F_OK) == -1 && errno == ENOENT) {
		log_warnx("%s: no such database (perfwatch run or perfwatch "
		    "import makes one)", c->db_path);
		return NULL;
	}
	/*
	 * Nor does it turn an empty file into one: "runs -D empty.txt"
	 * wrote a schema of 118 KiB into it and said "no runs".
	 */
	if (!c->creates && cli_db_empty(c->db_path)) {
		log_warnx("%s: an empty file, no database yet (perfwatch run "
		    "or perfwatch import makes one)", c->db_path);
		return NULL;
	}
	c->made = access(c->db_path, F_OK) == -1 && errno == ENOENT;
	if (cli_mkdir_parents(c->db_path, &c->made_dir) == -1)
		return NULL;
	/* One that only reads can read a store on a full file system. */
	c->st = c->creates || c->writes ? store_open(c->db_path, &cause) :
	    store_open_reader(c->db_path, &cause);
	if (c->st == NULL) {
		c->busy = errno == EBUSY;
		log_warnx("%s", cause);
		free(cause);
		return NULL;
	}
	/*
	 * A file read-only to this user opens, read-only: a command that
	 * writes failed only at its first write, as "attempt to write a
	 * readonly database", with the status of whatever it was doing
	 * (65 for check and baseline set, 70 for a run, after its snapshot;
	 * baseline delete said there was no such baseline).
	 */
	if ((c->creates || c->writes) && !store_writable(c->st)) {
		/* Its owner cannot write it either. */
		if (statvfs(c->db_path, &sv) == 0 &&
		    (sv.f_flag & ST_RDONLY) != 0)
			log_warnx("%s: on a read-only file system, and %s "
			    "writes to it", c->db_path, cli_name_buf);
		else
			log_warnx("%s: read-only to this user, and %s writes "
			    "to it: run it as the database's owner",
			    c->db_path, cli_name_buf);
		store_close(c->st);
		c->st = NULL;
		return NULL;
	}
	return c->st;
}

/*
 * The exit status of a command whose cli_store() failed: 75 (try again)
 * when another process held the database locked, else 73.
 */
int
cli_store_none(struct cli *c)
{
	return c->busy ? EXIT_TEMPFAIL : EXIT_CANTCREAT;
}

/*
 * Undo what cli_store() made for a command that then added nothing (an
 * import refused): the database and its directories, as if it had never
 * run, so that a bad file given with a mistyped -D leaves no empty store
 * behind.  A store that another process has open, or has put a run in
 * since, is kept (store_remove_unused).
 */
void
cli_store_unmake(struct cli *c)
{
	char	*p;
	int	 removed;

	if (!c->made || c->st == NULL)
		return;
	c->made = 0;
	removed = store_remove_unused(c->st);
	c->st = NULL;
	if (!removed)
		return;
	/* Each directory made, deepest first, up to the first one made. */
	p = xstrdup(c->db_path);
	while (c->made_dir != NULL && strrchr(p, '/') != NULL) {
		*strrchr(p, '/') = '\0';
		if (strlen(p) < strlen(c->made_dir) || rmdir(p) == -1)
			break;
	}
	free(p);
}

/*
 * Load -c CONF, or the system file if it exists, or the defaults.  A
 * system file there but not readable (0640 for a sink's password, and
 * the user not in its group) is said: without it the defaults name
 * another database, and every command would answer for that one.
 */
static int
cli_load_config(struct cli *c)
{
	char	*cause = NULL;

	if (c->conf_path == NULL) {
		if (access(CONFIG_DEFAULT_PATH, R_OK) == 0)
			c->conf_path = CONFIG_DEFAULT_PATH;
		else if (errno != ENOENT)
			log_warnx("%s: %s; using the built-in defaults",
			    CONFIG_DEFAULT_PATH, strerror(errno));
	}
	if (c->conf_path == NULL) {
		c->cfg = config_default();
		return 0;
	}
	if ((c->cfg = config_load(c->conf_path, &cause)) == NULL) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
		return -1;
	}
	return 0;
}

/*
 * Whether the words after the command ask for its usage: --help or -h
 * wherever it stands before a "--", so that "perfwatch notify flush
 * --help" (which the completion offers) prints it as "perfwatch notify
 * --help" does, rather than calling --help an unknown option.
 */
static int
cli_help_asked(int argc, char **argv)
{
	int	k;

	for (k = 1; k < argc && strcmp(argv[k], "--") != 0; k++)
		if (strcmp(argv[k], "--help") == 0 ||
		    strcmp(argv[k], "-h") == 0)
			return 1;
	return 0;
}

/*
 * Whether the words after the command ask for --json and --csv both,
 * before a "--": every usage gives them as one or the other, and the one
 * named last won without a word.
 */
static int
cli_both_outputs(int argc, char **argv)
{
	int	k, json = 0, csv = 0;

	for (k = 1; k < argc && strcmp(argv[k], "--") != 0; k++) {
		if (strcmp(argv[k], "--json") == 0)
			json = 1;
		else if (strcmp(argv[k], "--csv") == 0)
			csv = 1;
	}
	return json && csv;
}

/*
 * Whether the command is check --bisect: under git bisect run, 78 (a bad
 * configuration) would mark the commit bad; 128 stops the bisection.
 * --bisect as check reads it, abbreviated too: "--bis" was check's
 * --bisect, and its bad configuration 78.
 */
static int
cli_bisecting(const char *cmd, int argc, char **argv)
{
	int	k;

	if (strcmp(cmd, "check") != 0)
		return 0;
	for (k = 1; k < argc && strcmp(argv[k], "--") != 0; k++)
		if (check_bisect_word(argv[k]))
			return 1;
	return 0;
}

/*
 * Whether the words, perfwatch's own options before the command and all,
 * are check --bisect: a usage error in those options (an unknown one, -c
 * '') is found before the command is known, and 64 marked the commit
 * bad.  The first "check" is taken for the command, even if it was an
 * option's argument: the words are wrong either way, and 128 is as much
 * a usage error's status under check --bisect as 64.
 */
static int
cli_bisecting_words(int argc, char **argv)
{
	int	k;

	for (k = 1; k < argc; k++)
		if (strcmp(argv[k], "check") == 0)
			return cli_bisecting(argv[k], argc - k, argv + k);
	return 0;
}

/*
 * rc, or 74 when what went to standard output was not written (a full
 * disk, a closed pipe): a listing that was lost must not exit 0.  Said
 * once: a command that exits 74 has told of its write error already.
 * Under check --bisect (bisecting), 74 would mark the commit bad: 128
 * stops the bisection instead, as a store that cannot be read does.
 */
static int
cli_stdout_done(int rc, int bisecting)
{
	if ((fflush(stdout) == EOF || ferror(stdout)) && rc != EXIT_IOERR) {
		/*
		 * The error of the write that failed: SQLite's close of the
		 * store, since, left EAGAIN of a lock another process held,
		 * and a full disk read "Resource temporarily unavailable".
		 */
		if (cli_out_errno != 0)
			errno = cli_out_errno;
		log_warn("standard output");
		if (bisecting)
			rc = EXIT_BISECT_ABORT;
		else if (rc == 0)
			rc = EXIT_IOERR;
	}
	return rc;
}

int
main(int argc, char **argv)
{
	struct cli	 c;
	const char	*cmd;
	size_t		 i;
	int		 ch, rc;

	memset(&c, 0, sizeof(c));
	cli_argv0 = argv[0];
	/*
	 * getopt_long() names us by argv[0], on glibc the path we were
	 * started by: "perfwatch:" as every other message says, the path
	 * kept in cli_argv0 to find ourselves.
	 */
	argv[0] = cli_name_buf;
	log_init("perfwatch", 1, 0);
	/* What an import may call a test of the system index. */
	store_metric_rule_set(wl_metric_rule);
	/* A command's 1 says something (check: a regression); a crash 70. */
	log_set_fatal_status(EXIT_SOFTWARE);
	while ((ch = getopt_long(argc, argv, "+c:D:hvV", cli_longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
		case 'D':
			/*
			 * An empty path is none: SQLite took -D '' for a
			 * temporary database, into which a run or an import
			 * went and was lost, with exit 0.
			 */
			if (optarg[0] == '\0') {
				fprintf(stderr, "perfwatch: -%c: an empty file "
				    "name\n", ch);
				usage_all(stderr);
				return cli_bisecting_words(argc, argv) ?
				    EXIT_BISECT_ABORT : EXIT_USAGE;
			}
			if (ch == 'c')
				c.conf_path = optarg;
			else
				c.db_opt = optarg;
			break;
		case 'v':
			c.verbose++;
			log_set_verbose(c.verbose);
			break;
		case 'V':
			printf("perfwatch %s\n", PERFWATCH_VERSION);
			return cli_stdout_done(0, 0);
		case 'h':
			usage_all(stdout);
			return cli_stdout_done(0, 0);
		default:
			usage_all(stderr);
			return cli_bisecting_words(argc, argv) ?
			    EXIT_BISECT_ABORT : EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		usage_all(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[0];
	if (strcmp(cmd, "help") == 0) {
		/* perfwatch help [COMMAND]: as --help, on standard output. */
		if (argc == 1) {
			usage_all(stdout);
			return cli_stdout_done(0, 0);
		}
		/* help is a command too: its --help, and help help. */
		if (cli_help_asked(argc, argv) || (argc == 2 &&
		    strcmp(argv[1], "help") == 0)) {
			printf("usage: perfwatch %s\n  %s\n", cli_help_usage,
			    "the commands, or a command's usage");
			return cli_stdout_done(0, 0);
		}
		if (argc > 2) {
			fprintf(stderr, "usage: perfwatch %s\n", cli_help_usage);
			return EXIT_USAGE;
		}
		cmd = argv[1];
		if ((i = cli_cmd_find(cmd)) == nitems(cli_cmds))
			return EXIT_USAGE;
		printf("usage: perfwatch %s\n  %s\n", cli_cmds[i].usage,
		    cli_cmds[i].summary);
		return cli_stdout_done(0, 0);
	}
	if ((i = cli_cmd_find(cmd)) == nitems(cli_cmds))
		return EXIT_USAGE;
	if (cli_help_asked(argc, argv)) {
		printf("usage: perfwatch %s\n  %s\n", cli_cmds[i].usage,
		    cli_cmds[i].summary);
		return cli_stdout_done(0, 0);
	}
	if (cli_both_outputs(argc, argv)) {
		cli_name(argv, cli_cmds[i].name, NULL);
		rc = cli_usage_why(cmd, "--json or --csv, not both");
		return cli_bisecting(cmd, argc, argv) ? EXIT_BISECT_ABORT : rc;
	}
	if (cli_load_config(&c) == -1)
		return cli_bisecting(cmd, argc, argv) ? EXIT_BISECT_ABORT :
		    EXIT_CONFIG;
	cli_name(argv, cli_cmds[i].name, NULL);
	c.creates = strcmp(cmd, "run") == 0 || strcmp(cmd, "import") == 0 ||
	    strcmp(cmd, "bisect") == 0;
	rc = cli_cmds[i].fn(&c, argc, argv);
	if ((fflush(stdout) == EOF || ferror(stdout)) && cli_out_errno == 0)
		cli_out_errno = errno;
	store_close(c.st);
	config_free(c.cfg);
	free(c.db_path);
	free(c.made_dir);
	return cli_stdout_done(rc, cli_bisecting(cmd, argc, argv));
}
