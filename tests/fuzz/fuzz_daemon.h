/*
 * The rest of perfwatchd, stood in for, for the fuzz targets that
 * include one of its files (fuzz_child, fuzz_http): a daemon that
 * starts no child (job_exec and job_exec_to give none, and nothing is
 * signalled), a job whose output is fuzz_out, and no watched git tree.
 * Included after the daemon's files.
 */
#ifndef PERFWATCH_FUZZ_DAEMON_H
#define PERFWATCH_FUZZ_DAEMON_H

static char		 fuzz_job __attribute__((unused));	/* a job: its address */
static const uint8_t	*fuzz_out;	/* what the child printed */
static size_t		 fuzz_outlen;

void
daemon_exit_if_done(struct daemon *d)
{
	(void)d;
}

void
daemon_status(struct daemon *d)
{
	(void)d;
}

/* The daemon's transaction, less its stop on a newer schema. */
int
daemon_store_begin(struct daemon *d)
{
	return store_begin(d->st);
}

/* The database is the one opened: the fuzz target's store stays. */
int
daemon_store_same(struct daemon *d)
{
	(void)d;
	return 0;
}

/* No schedule: nothing of it is kept. */
void
schedule_ran(struct daemon *d)
{
	(void)d;
}

/* No package or kernel watch: no run measured a change of theirs. */
int
pkgwatch_run_measured(struct daemon *d, const char *label)
{
	(void)d;
	(void)label;
	return 0;
}

void
gitwatch_done(struct daemon *d, const char *name, const char *commit)
{
	(void)d;
	(void)name;
	(void)commit;
}

struct gitwatch *
gitwatch_find(struct daemon *d, const char *name)
{
	(void)d;
	(void)name;
	return NULL;
}

struct job *
job_exec(struct daemon *d, const char *what, char *const argv[],
    const char *cwd, int flags, int (*line_cb)(struct job *, const char *,
    void *), void (*done_cb)(struct job *, void *), void *arg)
{
	(void)d;
	(void)what;
	(void)argv;
	(void)cwd;
	(void)flags;
	(void)line_cb;
	(void)done_cb;
	(void)arg;
	return NULL;
}

struct job *
job_exec_to(struct daemon *d, const char *what, char *const argv[],
    const char *cwd, int flags, int file, int (*line_cb)(struct job *,
    const char *, void *), void (*done_cb)(struct job *, void *), void *arg)
{
	(void)d;
	(void)what;
	(void)argv;
	(void)cwd;
	(void)flags;
	(void)file;
	(void)line_cb;
	(void)done_cb;
	(void)arg;
	return NULL;
}

/* Nothing is started, so nothing is signalled. */
void
job_kill_group(struct job *j)
{
	(void)j;
	abort();
}

void
job_kill_leftovers(struct job *j)
{
	(void)j;
	abort();
}

void
job_signal(struct job *j, int sig)
{
	(void)j;
	(void)sig;
	abort();
}

void
job_signal_group(struct job *j, int sig)
{
	(void)j;
	(void)sig;
	abort();
}

pid_t
job_pid(const struct job *j)
{
	(void)j;
	return 12345;
}

const char *
job_output(struct job *j, size_t *len)
{
	(void)j;
	*len = fuzz_outlen;
	return (const char *)fuzz_out;
}

void
job_max_output(struct job *j, size_t max)
{
	(void)j;
	(void)max;
}

const char *
daemon_host_name(void)
{
	return "fuzz";
}

#include "tests/unit/job_quiet.h"

#endif
