/*
 * systemd's readiness protocol, written by hand: with Type=notify, systemd
 * passes the path of a datagram socket in NOTIFY_SOCKET ("/path", or
 * "@name" in the abstract namespace) and reads "READY=1", "STATUS=..."
 * and "STOPPING=1" lines from it.  Without NOTIFY_SOCKET every call is a
 * no-op, so the daemon needs no libsystemd and runs the same elsewhere.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "daemon.h"

static int			sdnotify_fd = -1;
static struct sockaddr_un	sdnotify_addr;
static socklen_t		sdnotify_len;

/*
 * Read NOTIFY_SOCKET and open a socket to it, then unset it so that no
 * child (a run, a build) talks to systemd in our name.
 */
void
sdnotify_init(void)
{
	const char	*path = getenv("NOTIFY_SOCKET");
	size_t		 n;

	if (path == NULL || (path[0] != '/' && path[0] != '@'))
		goto out;
	n = strlen(path);
	if (n >= sizeof(sdnotify_addr.sun_path)) {
		log_warnx("NOTIFY_SOCKET is too long; not notifying systemd");
		goto out;
	}
	memset(&sdnotify_addr, 0, sizeof(sdnotify_addr));
	sdnotify_addr.sun_family = AF_UNIX;
	memcpy(sdnotify_addr.sun_path, path, n);
	if (path[0] == '@')
		sdnotify_addr.sun_path[0] = '\0';	/* abstract */
	sdnotify_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	/*
	 * Non-blocking: a reader that stops reading fills its queue
	 * (net.unix.max_dgram_qlen, 10 datagrams on Linux), and a blocking
	 * sendto() would then stop the event loop for ever.
	 */
	sdnotify_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0);
	if (sdnotify_fd == -1)
		log_warn("NOTIFY_SOCKET: socket");
out:
	unsetenv("NOTIFY_SOCKET");
}

int
sdnotify_enabled(void)
{
	return sdnotify_fd != -1;
}

/* Send one notification ("READY=1\nSTATUS=idle"); failures are logged. */
void
sdnotify(const char *fmt, ...)
{
	char	 msg[1024];
	va_list	 ap;
	int	 n;

	if (sdnotify_fd == -1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(msg))
		n = sizeof(msg) - 1;
	if (sendto(sdnotify_fd, msg, (size_t)n, MSG_NOSIGNAL,
	    (struct sockaddr *)&sdnotify_addr, sdnotify_len) != -1)
		return;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		log_warnx("NOTIFY_SOCKET: its queue is full (the service "
		    "manager does not read it): %.*s not sent",
		    (int)strcspn(msg, "\n"), msg);
	else
		log_debug("NOTIFY_SOCKET: sendto: %s", strerror(errno));
}
