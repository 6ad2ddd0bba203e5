/*
 * What the unit tests of sysinfo/ and workloads/ share to run a child in
 * a cgroup v1 group of this machine: the group made under one of its
 * hierarchies, a control file of the group read or written, and a child
 * moved into it whose output comes back once it has exited and the
 * group, empty again, is gone.  Included after the system headers,
 * <cmocka.h> and "xmalloc.h".
 */
#ifndef PERFWATCH_TEST_CGROUP_GROUP_H
#define PERFWATCH_TEST_CGROUP_GROUP_H

/* Write text to the existing file path (a cgroup's); 0 or -1. */
static int
file_put(const char *path, const char *text)
{
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_WRONLY)) == -1)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * A new group pw-test.<pid> under parent, a group's directory (freed
 * here); NULL when it cannot be made, where the test skips.
 */
static char *
cgroup_group_make(char *parent)
{
	char	*dir;

	xasprintf(&dir, "%s/pw-test.%ld", parent, (long)getpid());
	free(parent);
	if (mkdir(dir, 0755) == -1) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* Take the group dir away, then fail saying why path could not be used. */
static void
cgroup_group_fail(const char *dir, const char *path)
{
	int	saved = errno;

	(void)rmdir(dir);
	fail_msg("%s: %s", path, strerror(saved));
}

/* Write text to the file name of the group dir, or fail without it. */
static void
cgroup_group_put(const char *dir, const char *name, const char *text)
{
	char	*path;

	xasprintf(&path, "%s/%s", dir, name);
	if (file_put(path, text) == -1)
		cgroup_group_fail(dir, path);
	free(path);
}

/* The first line of the file name of the group dir, or fail without it. */
static char *
cgroup_group_get(const char *dir, const char *name)
{
	char	*path, buf[128];
	ssize_t	 n;
	int	 fd;

	xasprintf(&path, "%s/%s", dir, name);
	if ((fd = open(path, O_RDONLY)) == -1)
		cgroup_group_fail(dir, path);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		if (n == 0)
			errno = EIO;
		cgroup_group_fail(dir, path);
	}
	free(path);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf);
}

/*
 * Fork a child that moves itself into the group dir, calls fn(fd, arg)
 * with fd the write end of a pipe, and exits 0 (or sooner, as fn says).
 * What it writes comes back in buf of size bytes, NUL-terminated; the
 * group is removed once the child has exited.  The child's wait status.
 */
static int
cgroup_group_child(const char *dir, void (*fn)(int, void *), void *arg,
    char *buf, size_t size)
{
	char	*path, line[32];
	ssize_t	 n;
	size_t	 len = 0;
	pid_t	 pid;
	int	 fds[2], status;

	assert_int_equal(pipe(fds), 0);
	if ((pid = fork()) == 0) {
		close(fds[0]);
		xasprintf(&path, "%s/cgroup.procs", dir);
		snprintf(line, sizeof(line), "%ld\n", (long)getpid());
		if (file_put(path, line) == -1) {
			dprintf(fds[1], "failed: %s: %s", path,
			    strerror(errno));
			_exit(1);
		}
		fn(fds[1], arg);
		_exit(0);
	}
	assert_true(pid > 0);
	close(fds[1]);
	/* To the end: a child may write in pieces. */
	while (len < size - 1 && (n = read(fds[0], buf + len,
	    size - 1 - len)) > 0)
		len += (size_t)n;
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	buf[len] = '\0';
	/* The child has exited: its group is empty and goes. */
	assert_int_equal(rmdir(dir), 0);
	return status;
}

#endif
