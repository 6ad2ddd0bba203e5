"""A webhook receiver on loopback for the notify tests (http.server).

    webhook_server.py --port N --out DIR [--fail-first K] [--status S]
                      [--hang SECONDS] [--location URL]
                      [--retry-after VALUE] [--stall | --endless]
                      [--lock-db PATH --lock-for SECONDS] [--reply TEXT]
                      [--verify SECRET_FILE [--skew SECONDS]]

Each POST is kept: its raw body in DIR/req-<n>.body and its headers in
DIR/req-<n>.json.  The first K requests are answered 500 (a receiver
having a bad moment); later ones get status S (200 by default), with the body TEXT ("thanks"
by default).  With
--hang the body is read and the answer withheld that long (or until
SIGTERM): a receiver that has stopped answering.  With --location the
answer carries that Location header (give a 3xx --status: a receiver
that has moved).  With --retry-after the answer carries that
Retry-After header, as given (seconds or an HTTP-date: a receiver that
asks to be left alone for a while, with a 429 or 503 --status).  With --lock-db the first request takes the SQLite
database PATH's write lock (BEGIN EXCLUSIVE) before it is answered and
holds it --lock-for seconds: another process busy with the store just
as the delivery is to be recorded.
With --stall the status line, the headers and the body TEXT are sent but
the Content-Length promises more, which never comes (until SIGTERM); with
--endless the body, of no stated length, is TEXT and then eight lines
every tenth of a second for ever: receivers that have answered and then
keep the connection busy.
With --verify, the receiver checks each request as perfwatch(1) tells
a receiver to (the recipe is verify() below): the X-Perfwatch-Timestamp
within TOLERANCE seconds of its clock (which --skew sets that many
seconds ahead), the X-Perfwatch-Signature the HMAC-SHA256 under the
secret file's contents of TIMESTAMP "." DELIVERY "." BODY, and the
X-Perfwatch-Delivery not one it has already taken (answered 2xx).  A
request that fails is answered 401 with the reason; a delivery taken
before is answered 200 and not taken again.  The verdict ("ok",
"duplicate", or the reason) is kept in DIR/req-<n>.json.
DIR/ready appears once the server listens; SIGTERM stops it.
"""
import argparse
import hashlib
import hmac
import http.server
import json
import os
import sqlite3
import signal
import sys
import threading
import time

# How far a request's timestamp may be from the receiver's clock.
TOLERANCE = 300


def verify(secret, headers, body, now, seen):
    """The verdict on one request: "ok", "duplicate" or why it is refused.

    secret is the secret file's contents without its trailing newline;
    seen holds the delivery ids already taken."""
    ts = headers.get("X-Perfwatch-Timestamp", "")
    delivery = headers.get("X-Perfwatch-Delivery", "")
    sig = headers.get("X-Perfwatch-Signature", "")
    if not ts.isascii() or not ts.isdigit():
        return "no timestamp"
    if not delivery or "." in delivery:
        return "no delivery id"
    if abs(now - int(ts)) > TOLERANCE:
        return "stale timestamp"
    signed = ts.encode() + b"." + delivery.encode() + b"." + body
    want = "sha256=" + hmac.new(secret, signed, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(sig.encode(), want.encode()):
        return "bad signature"
    if delivery in seen:
        return "duplicate"
    return "ok"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--fail-first", type=int, default=0)
    ap.add_argument("--status", type=int, default=200)
    ap.add_argument("--hang", type=float, default=0)
    ap.add_argument("--location")
    ap.add_argument("--retry-after")
    ap.add_argument("--stall", action="store_true")
    ap.add_argument("--endless", action="store_true")
    ap.add_argument("--reply", default="thanks")
    ap.add_argument("--lock-db")
    ap.add_argument("--lock-for", type=float, default=0)
    ap.add_argument("--verify")
    ap.add_argument("--skew", type=float, default=0)
    a = ap.parse_args()
    secret = None
    if a.verify is not None:
        with open(a.verify, "rb") as f:
            secret = f.read().rstrip(b"\r\n")
    seen = set()
    count = [0]
    lock = threading.Lock()
    stop = threading.Event()

    def hold_lock(taken):
        db = sqlite3.connect(a.lock_db, timeout=30, isolation_level=None)
        db.execute("BEGIN EXCLUSIVE")
        with open(os.path.join(a.out, "locked"), "w"):
            pass
        taken.set()
        stop.wait(a.lock_for)
        db.execute("COMMIT")
        db.close()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            n = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(n)
            with lock:
                count[0] += 1
                k = count[0]
            verdict = None
            if secret is not None:
                with lock:
                    verdict = verify(secret, self.headers, body,
                                     time.time() + a.skew, seen)
            base = os.path.join(a.out, "req-%d" % k)
            with open(base + ".body", "wb") as f:
                f.write(body)
            with open(base + ".json", "w") as f:
                json.dump({"path": self.path, "verdict": verdict,
                           "headers": {h: v for h, v in
                                       self.headers.items()}}, f)
            if verdict not in (None, "ok"):
                refused = verdict != "duplicate"
                reply = verdict.encode()
                self.send_response(401 if refused else 200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)
                return
            if a.lock_db is not None and k == 1:
                taken = threading.Event()
                threading.Thread(target=hold_lock, args=(taken,),
                                 daemon=True).start()
                taken.wait(30)
            if a.hang > 0 and stop.wait(a.hang):
                return
            status = 500 if k <= a.fail_first else a.status
            if verdict == "ok" and 200 <= status < 300:
                with lock:
                    seen.add(self.headers["X-Perfwatch-Delivery"])
            reply = b"receiver busy, try later" if status == 500 \
                else a.reply.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            if a.location is not None:
                self.send_header("Location", a.location)
            if a.retry_after is not None:
                self.send_header("Retry-After", a.retry_after)
            if not a.endless:
                self.send_header("Content-Length",
                                 str(len(reply) + (1000 if a.stall else 0)))
            self.end_headers()
            self.wfile.write(reply)
            self.wfile.flush()
            if a.stall:
                stop.wait()
            while a.endless and not stop.wait(0.1):
                self.wfile.write(b"and more\n" * 8)
                self.wfile.flush()

        def log_message(self, *args):
            pass

    srv = http.server.HTTPServer(("127.0.0.1", a.port), Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    open(os.path.join(a.out, "ready"), "w").close()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(0.2):
        pass
    srv.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
