#!/usr/bin/env python3
"""The isolationtester-style peer of `locklab explore --no-reduce`.

Like PostgreSQL's isolationtester, it runs a script's sessions against a
real server, one connection per session (main and each worker), and
tries every interleaving of their steps: depth first over "which waiting
session sends its next command", each schedule run again from the start
(main's DEL resets the state), as explore's raw search does. A worker's
next command may depend on its replies (a bidder books only if its LLEN
saw room), so the orders are found by running them, not listed ahead.

It speaks RESP over TCP itself (standard library only) and prints the
search in explore's words, so the two can be compared line for line:

    summary: explored 6 schedules (complete, raw): 4 DOUBLE BOOKING, 2 all clear
    rate: 5300 schedules/s (...)

The scripts are the Python twins of these .lab files:
    two-bidders      repl/explore/testdata/two-bidders.lab
    three-bidders    repl/explore/testdata/three-bidders.lab
    all-conflicting  bench/all-conflicting.lab

Usage: bench/peer/isolation.py [--host H] --port P [--max-schedules N]
                               [--seconds S] SCRIPT
A complete space is run again and again for at least S seconds (default
3) to time it; a bounded one (--max-schedules N: the first N schedules
in depth-first order) is run once.
"""

import argparse
import socket
import sys
import time


class RespError(Exception):
    """An error reply from the server."""


class Conn:
    """One session's connection: RESP2 commands, one round trip each."""

    def __init__(self, host, port, name):
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.rfile = self.sock.makefile("rb")
        self.call("CLIENT", "SETNAME", name)

    def call(self, *args):
        parts = [b"*%d\r\n" % len(args)]
        for a in args:
            b = a if isinstance(a, bytes) else str(a).encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(b), b))
        self.sock.sendall(b"".join(parts))
        return self.reply()

    def reply(self):
        line = self.rfile.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest
        if kind == b"-":
            raise RespError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            data = self.rfile.read(n + 2)
            return data[:-2]
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.reply() for _ in range(n)]
        raise ValueError("unknown reply %r" % line)

    def close(self):
        self.rfile.close()
        self.sock.close()


BOOKINGS = "room:2pm:bookings"


def bidder(name, seats):
    """bid(): count the bookings, and book if there was room."""
    n = yield ("LLEN", BOOKINGS)
    if n < seats:
        yield ("RPUSH", BOOKINGS, name)


def pusher(name):
    """work(): five pushes on k; the replies steer nothing."""
    for cmd in ("RPUSH", "LPUSH", "RPUSH", "LPUSH", "RPUSH"):
        yield (cmd, "k", name)


def booking_verdict(seats):
    """The final count's verdict, in explore's words."""
    def verdict(count):
        if count <= seats:
            return "all clear", True
        return ("DOUBLE BOOKING" if seats == 1 else "OVERBOOKING"), False
    return verdict


def all_pushed(count):
    return "no verdict", count == 15


class Script:
    """Main's set-up, the workers, and main's check after `wait`."""

    def __init__(self, setup, workers, check, verdict):
        self.setup, self.workers, self.check, self.verdict = setup, workers, check, verdict


SCRIPTS = {
    "two-bidders": Script([("DEL", BOOKINGS)],
                          [("alice", lambda: bidder("alice", 1)), ("bob", lambda: bidder("bob", 1))],
                          ("LLEN", BOOKINGS), booking_verdict(1)),
    "three-bidders": Script([("DEL", BOOKINGS)],
                            [(n, (lambda n=n: bidder(n, 2))) for n in ("alice", "bob", "carol")],
                            ("LLEN", BOOKINGS), booking_verdict(2)),
    "all-conflicting": Script([("DEL", "k")],
                              [(n, (lambda n=n: pusher(n))) for n in ("a", "b", "c")],
                              ("LLEN", "k"), all_pushed),
}


def run_schedule(script, conns, prefix):
    """Runs one schedule: prefix's picks, then the first waiting session
    at each later choice. Returns its choices as (pick, width) pairs and
    its verdict and whether its check held."""
    main = conns["main"]
    for cmd in script.setup:
        main.call(*cmd)
    progs = [(conns[name], start()) for name, start in script.workers]
    pending = [next(prog, None) for _, prog in progs]
    choices = []
    while True:
        waiting = [i for i, cmd in enumerate(pending) if cmd is not None]
        if not waiting:
            break
        pick = prefix[len(choices)] if len(choices) < len(prefix) else 0
        choices.append((pick, len(waiting)))
        i = waiting[pick]
        conn, prog = progs[i]
        try:
            pending[i] = prog.send(conn.call(*pending[i]))
        except StopIteration:
            pending[i] = None
    verdict, held = script.verdict(main.call(*script.check))
    return choices, verdict, held


def next_prefix(choices):
    """The next schedule's prefix in depth-first order, or None: the last
    choice that has a later pick left, moved on by one."""
    for j in range(len(choices) - 1, -1, -1):
        pick, width = choices[j]
        if pick + 1 < width:
            return [p for p, _ in choices[:j]] + [pick + 1]
    return None


def search(script, conns, limit):
    """Every schedule depth first, or the first limit of them. Returns
    the verdict counts, the failed checks, and whether it was complete."""
    groups, failed, prefix, n = {}, 0, [], 0
    while prefix is not None and (limit == 0 or n < limit):
        choices, verdict, held = run_schedule(script, conns, prefix)
        groups[verdict] = groups.get(verdict, 0) + 1
        failed += not held
        n += 1
        prefix = next_prefix(choices)
    return groups, failed, prefix is None


def summary(groups, complete, limit):
    """The search in explore's one line."""
    n = sum(groups.values())
    keys = sorted(groups, key=lambda k: (k == "all clear", -groups[k], k))
    bound = "complete" if complete else "bounded at %d schedules" % limit
    noun = "schedule" if n == 1 else "schedules"
    parts = ", ".join("%d %s" % (groups[k], k) for k in keys)
    return "explored %d %s (%s, raw): %s" % (n, noun, bound, parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--max-schedules", type=int, default=0, help="stop after the first N schedules")
    ap.add_argument("--seconds", type=float, default=3.0, help="time a complete space over at least S seconds")
    ap.add_argument("script", choices=sorted(SCRIPTS))
    a = ap.parse_args()
    script = SCRIPTS[a.script]
    names = ["main"] + [name for name, _ in script.workers]
    conns = {name: Conn(a.host, a.port, name) for name in names}
    try:
        t0 = time.perf_counter()
        groups, failed, complete = search(script, conns, a.max_schedules)
        schedules, passes = sum(groups.values()), 1
        while complete and time.perf_counter() - t0 < a.seconds:
            schedules += sum(search(script, conns, 0)[0].values())
            passes += 1
        took = time.perf_counter() - t0
    finally:
        for c in conns.values():
            c.close()
    print("summary: " + summary(groups, complete, a.max_schedules))
    print("script failed in %d of %d schedules" % (failed, sum(groups.values())))
    print("rate: %.0f schedules/s (%d schedules, %d pass(es), in %.2f s; %d connections over TCP)"
          % (schedules / took, schedules, passes, took, len(conns)))


if __name__ == "__main__":
    sys.exit(main())
