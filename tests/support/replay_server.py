#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A replay server for the chat client's tests (Python 3 standard library).

Listens on 127.0.0.1 only, answers each POST with the next recorded response
of a script, and records every request it receives, so a test can assert
what went over the wire.

    replay_server.py --script SCRIPT.json --record REQUESTS.jsonl --port-file PORT

SCRIPT.json is a JSON array; the n-th request gets the n-th entry:
    {"status": 200, "json": {...}}        the body as JSON
    {"status": 500, "text": "..."}        the body as text
    {"delay": 2.5, ...}                   wait that many seconds first
    {"bytes": 100000, ...}                a body of that many "x" bytes
    {"raw": "..."}                        the body as bytes: each character
                                          U+0000..U+00FF one byte (a raw NUL)
    {"headers": {"Retry-After": "1"}}     extra response headers
    {"body_delay": 2.0, ...}              send the headers and the first half
                                          of the body, wait, then the rest
    {"events": ["...", ...], "pace": 0.01}
                                          a text/event-stream (chunked): each
                                          string as one event, "data: S" and a
                                          blank line, one every `pace` seconds,
                                          as a model streams; see below
After the script is used up, every request gets HTTP 500 with the error
message "replay script exhausted".

REQUESTS.jsonl gets one JSON object per request, written (and flushed)
before the response is sent: {"n", "method", "path", "headers" (names in
lower case), "body" (parsed JSON, or null), "raw" (the body as text when it
is not JSON), "t" (time.time() when the request was read, seconds)}.

For an "events" step, once the stream ends (all sent, or the client closed
the connection: looked for before each event), REQUESTS.jsonl also gets
{"n", "stream": {"events_sent", "events_total", "bytes_sent", "bytes_total",
"closed_early"}}: the events and bytes of event text (the "data: ..." lines
and blank lines, not the chunk framing) sent before the close was seen,
against those of the whole recording.

PORT gets the port number once the server listens (written to a temporary
name, then renamed, so a reader never sees half of it).  Port 0 (the
default) lets the system choose.  The server runs until it is killed.
"""
import argparse
import json
import os
import select
import socket
import socketserver
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--script", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()

    with open(args.script, encoding="utf-8") as f:
        script = json.load(f)
    lock = threading.Lock()
    state = {"n": 0}
    record = open(args.record, "a", encoding="utf-8")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *a):  # quiet: the record file is the log
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            text = raw.decode("utf-8", errors="replace")
            try:
                body = json.loads(text)
                raw_text = None
            except ValueError:
                body, raw_text = None, text
            with lock:
                n = state["n"]
                state["n"] += 1
                entry = {"n": n, "t": time.time(), "method": "POST", "path": self.path,
                         "headers": {k.lower(): v for k, v in self.headers.items()},
                         "body": body, "raw": raw_text}
                record.write(json.dumps(entry, ensure_ascii=False) + "\n")
                record.flush()
            step = script[n] if n < len(script) else {
                "status": 500, "json": {"error": {"message": "replay script exhausted"}}}
            if step.get("delay"):
                time.sleep(float(step["delay"]))
            if "events" in step:
                self.send_events(n, step)
                return
            if "json" in step:
                out = json.dumps(step["json"]).encode("utf-8")
                ctype = "application/json"
            elif "raw" in step:
                out = step["raw"].encode("latin-1")
                ctype = "application/json"
            elif "bytes" in step:
                out = b"x" * int(step["bytes"])
                ctype = "text/plain"
            else:
                out = step.get("text", "").encode("utf-8")
                ctype = "text/plain"
            try:
                self.send_response(int(step.get("status", 200)))
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(out)))
                for name, value in step.get("headers", {}).items():
                    self.send_header(name, value)
                self.end_headers()
                if step.get("body_delay"):
                    half = len(out) // 2
                    self.wfile.write(out[:half])
                    self.wfile.flush()
                    time.sleep(float(step["body_delay"]))
                    out = out[half:]
                self.wfile.write(out)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a time-out test)

        def peer_closed(self):
            """True when the client has closed its side (readable, no bytes)."""
            conn = self.connection
            readable, _, _ = select.select([conn], [], [], 0)
            if not readable:
                return False
            try:
                return conn.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                return True

        def send_events(self, n, step):
            frames = [("data: " + e + "\n\n").encode("utf-8") for e in step["events"]]
            pace = float(step.get("pace", 0))
            sent = sent_bytes = 0
            closed = False
            try:
                self.send_response(int(step.get("status", 200)))
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                self.wfile.flush()
                for frame in frames:
                    if pace:
                        time.sleep(pace)
                    if self.peer_closed():
                        closed = True
                        break
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(frame), frame))
                    self.wfile.flush()
                    sent += 1
                    sent_bytes += len(frame)
                if not closed:
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                closed = True
            self.close_connection = True
            with lock:
                record.write(json.dumps({"n": n, "stream": {
                    "events_sent": sent, "events_total": len(frames),
                    "bytes_sent": sent_bytes, "bytes_total": sum(len(f) for f in frames),
                    "closed_early": closed}}) + "\n")
                record.flush()

    class Server(ThreadingHTTPServer):
        def server_bind(self):
            # HTTPServer.server_bind asks DNS for the host's name
            # (socket.getfqdn), which can take seconds on a machine without
            # a resolver; loopback needs no name.
            socketserver.TCPServer.server_bind(self)
            self.server_name, self.server_port = "127.0.0.1", self.server_address[1]

        def handle_error(self, request, client_address):
            # A client that hangs up early (the time-out and size-cap tests)
            # is expected; anything else is printed as usual.
            import sys
            if not isinstance(sys.exc_info()[1], ConnectionError):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    tmp = args.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
