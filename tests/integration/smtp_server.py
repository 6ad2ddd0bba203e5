"""A real SMTP server on loopback for the notify tests (aiosmtpd).

    smtp_server.py --port N --out DIR [--refuse ADDR]... [--greylist ADDR:N]...
        [--auth USER:PASS] [--hang-data SECONDS | --drop-data]
        [--defer-data N] [--refuse-ehlo] [--await-file PATH]

Each message accepted is written to DIR/msg-<n>.eml exactly as received
(after the SMTP dot-unstuffing) and its envelope (with the name the
client gave after EHLO or HELO) to DIR/msg-<n>.json.  A
recipient given with --refuse is refused at RCPT with a permanent 550;
one given with --greylist ADDR:N is refused with a temporary 450 (as a
greylisting server does) at its first N RCPTs, and taken after that.
Every RCPT is logged to DIR/rcpt.log as "<address> <code>", one a line.
With --auth the server offers AUTH PLAIN and LOGIN without TLS (loopback
only) and refuses mail from a session that did not log in with USER:PASS;
each login it is given, with the password it came with, is noted in
DIR/auth.log as "<mechanism> <user> <password>", one a line.
With --hang-data the server takes the message and withholds its answer
that long (a server stuck after DATA); with --drop-data it closes the
connection instead of answering.  Neither keeps the message.
With --defer-data N the first N messages are put off after DATA with a
temporary 451, and not kept.  With --refuse-ehlo EHLO is answered 502,
as by a server that speaks plain SMTP only; HELO works.
With --await-file the first message is kept and its answer (250) held
until PATH exists (30 s at most), so that a test can do something
between the message's arrival and the client's hearing of it, such as
taking the store's lock.
DIR/ready appears once the server listens; SIGTERM stops it.
"""
import argparse
import asyncio
import json
import os
import signal
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult


class Handler:
    def __init__(self, out, refuse, greylist, hang_data=0,
                 drop_data=False, await_file=None, defer_data=0,
                 refuse_ehlo=False):
        self.out = out
        self.refuse_ehlo = refuse_ehlo
        self.defer_data = defer_data
        self.await_file = await_file
        self.hang_data = hang_data
        self.drop_data = drop_data
        self.refuse = set(a.lower() for a in refuse)
        self.greylist = {}
        for g in greylist:
            addr, n = g.rsplit(":", 1)
            self.greylist[addr.lower()] = int(n)
        self.n = 0
        self.lock = threading.Lock()

    def log_rcpt(self, address, reply):
        with open(os.path.join(self.out, "rcpt.log"), "a") as f:
            f.write("%s %s\n" % (address, reply[:3]))
        return reply

    async def handle_EHLO(self, server, session, envelope, hostname,
                          responses):
        if self.refuse_ehlo:
            return ["502 5.5.2 Error: command not recognized"]
        session.host_name = hostname
        return responses

    async def handle_RCPT(self, server, session, envelope, address, options):
        key = address.lower()
        if key in self.refuse:
            return self.log_rcpt(address, "550 5.1.1 <%s>: Recipient "
                                 "address rejected: User unknown in local "
                                 "recipient table" % address)
        with self.lock:
            left = self.greylist.get(key, 0)
            if left > 0:
                self.greylist[key] = left - 1
        if left > 0:
            return self.log_rcpt(address, "450 4.2.0 <%s>: Recipient "
                                 "address rejected: Greylisted, try again "
                                 "later" % address)
        envelope.rcpt_tos.append(address)
        return self.log_rcpt(address, "250 2.1.5 Ok")

    async def handle_DATA(self, server, session, envelope):
        if self.drop_data:
            server.transport.close()
            return "421 4.3.0 closing"
        if self.hang_data > 0:
            await asyncio.sleep(self.hang_data)
            return "451 4.3.0 too late"
        with self.lock:
            defer = self.defer_data > 0
            if defer:
                self.defer_data -= 1
        if defer:
            return "451 4.3.0 Error: queue file write error, try later"
        with self.lock:
            self.n += 1
            n = self.n
        base = os.path.join(self.out, "msg-%d" % n)
        with open(base + ".eml.tmp", "wb") as f:
            f.write(envelope.original_content)
        with open(base + ".json", "w") as f:
            json.dump({"mail_from": envelope.mail_from,
                       "rcpt_tos": envelope.rcpt_tos,
                       "helo": session.host_name,
                       "login": session.auth_data
                       if session.authenticated else None}, f)
        os.rename(base + ".eml.tmp", base + ".eml")
        if self.await_file is not None and n == 1:
            for _ in range(300):
                if os.path.exists(self.await_file):
                    break
                await asyncio.sleep(0.1)
        return "250 2.0.0 Ok: queued as PW%04d" % n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--refuse", action="append", default=[])
    ap.add_argument("--greylist", action="append", default=[])
    ap.add_argument("--auth")
    ap.add_argument("--hang-data", type=float, default=0)
    ap.add_argument("--drop-data", action="store_true")
    ap.add_argument("--await-file")
    ap.add_argument("--defer-data", type=int, default=0)
    ap.add_argument("--refuse-ehlo", action="store_true")
    a = ap.parse_args()

    kw = {}
    if a.auth:
        user, password = a.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, data):
            with open(os.path.join(a.out, "auth.log"), "a") as f:
                f.write("%s %s %s\n" % (mechanism, data.login.decode(),
                                        data.password.decode()))
            ok = (data.login.decode() == user and
                  data.password.decode() == password)
            return AuthResult(success=ok, handled=False,
                              auth_data=user if ok else None)

        kw = dict(authenticator=authenticator, auth_required=True,
                  auth_require_tls=False)
    ctl = Controller(Handler(a.out, a.refuse, a.greylist, a.hang_data,
                             a.drop_data, a.await_file, a.defer_data,
                             a.refuse_ehlo),
                     hostname="127.0.0.1",
                     port=a.port, decode_data=False, **kw)
    ctl.start()
    open(os.path.join(a.out, "ready"), "w").close()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(0.2):
        pass
    ctl.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
