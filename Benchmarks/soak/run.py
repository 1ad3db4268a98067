#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Soak: an hour of chat in the live window under a busy room, watching memory, file
descriptors and threads, then every message counted in the database against the peer's log.

What runs, exactly:

* One Bumble process (Benchmarks/soak/soak_peer.py, which runs
  Tests/PeerTests/peers/chat_peer.py unchanged) holds one virtual LE air with
  - the chat peer "Chat Peer" (F0:F1:F2:F3:F4:F5, FavBlue's chat service), started with
    `--disconnect-after 60`: it drops every connection 60 s after it was made, and echoes
    every line it receives ("echo: <line>") as its own notification;
  - a crowd of 1,000 advertisers (D0:00:00:00:HH:LL, "Soak NNNN") taking turns at 250
    advertising PDUs a second, which the exposed controller hands FavBlue as 500 reports a
    second (an advertisement and a scan response each) while FavBlue scans.
  FavBlue takes one radio source, so this one H4 link (`--source h4-tcp:…`) carries both the
  busy room and the connection; a btsnoop replay could not run beside it.
* FavBlue (`--storage sqlite`, GSK_RENDERER=cairo, its own XDG folders and keyfile
  settings) on a virtual display of its own (meson-helpers/on-display, which this script
  re-runs itself under). Settings: Scan in the Background on, Auto Scan's interval and
  length both 15 s, so the room keeps streaming into the live-device model while the chat
  page covers the Scanner (the Scanner's own scan stops when it is left).
* The soak drives the window as the UI tests do (Tests/ui/harness.py over AT-SPI,
  keystrokes with xdotool): Add New Devices, Details for Chat Peer, Connect, Open Chat.
  Then it starts the crowd and types 10 lines a second ("a000001", Return) into the chat
  entry; the peer answers each, so 10 messages a second go each way. It stops typing 2 s
  before the peer's 60 s drop (and while more than 5 s of lines wait for the peer). When
  the peer drops the link, FavBlue does not reconnect by itself: the soak presses the chat
  page's Connect, as a user would, and resumes once the peer reports the new subscription.
* Every 10 s: RSS (/proc/PID/status VmRSS), open fds (/proc/PID/fd) and threads
  (/proc/PID/task) of favblue.
* At the end: the last echoes are awaited, Ctrl+Q quits FavBlue (which writes its pending
  messages), and the `messages` table of its SQLite file is read and compared, line by
  line, with what the soak typed and what the peer logged (`RX` received, `SENT` sent).

Figures and their pass marks:
  RSS        every sample after the first 15 min within ±5 % of the sample at 15 min
             (runs shorter than an hour take a quarter of the run instead, and say so)
  fds        flat after 15 min: highest − lowest ≤ 2, and the end no higher than at 15 min
  threads    flat after 15 min: highest − lowest ≤ 4 (libdispatch's pool grows and shrinks),
             and the end no higher than at 15 min + 2
  messages   typed = stored outgoing; stored outgoing marked sent = the peer's RX, line by
             line; the peer's SENT = stored incoming, line by line
  reconnects every disconnection by the peer was followed by a reconnection
  busy room  reports FavBlue was handed per second while the soak ran ≥ 90 % of 500

    /usr/bin/python3 Benchmarks/soak/run.py [--minutes 60] [--binary .build/release/favblue]

The Bumble venv is .venv-peers (or $FAVBLUE_VENV), as for the UI tests. Not part of the
test command. The working folder (database, logs, samples) is kept and named at the end.
"""
import argparse
import collections
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

from figures import figures

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ON_DISPLAY = os.path.join(ROOT, "meson-helpers", "on-display")
SOAK_PEER = os.path.join(HERE, "soak_peer.py")

PEER = "Chat Peer"
SKIP = ("Messages", "Devices nearby")      # long lists the accessibility walks leave out
GUARD_SECONDS = 2.0                        # stop typing this long before the peer's drop
BACKLOG_SECONDS = 5.0                      # pause typing while this many seconds of lines are unanswered


def parse():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    release = os.path.join(ROOT, ".build", "release", "favblue")
    debug = os.path.join(ROOT, ".build", "debug", "favblue")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--binary", default=release if os.path.exists(release) else debug)
    parser.add_argument("--rate", type=float, default=10, help="lines typed a second (the peer echoes each)")
    parser.add_argument("--busy-devices", type=int, default=1000)
    parser.add_argument("--busy-rate", type=float, default=500, help="reports a second")
    parser.add_argument("--disconnect-every", type=float, default=60)
    parser.add_argument("--sample-every", type=float, default=10)
    return parser.parse_args()


# MARK: process figures

def sample(pid):
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return {"rss_kib": rss, "fds": len(os.listdir(f"/proc/{pid}/fd")), "threads": len(os.listdir(f"/proc/{pid}/task"))}


def write_settings(home):
    """Scan in the Background on, Auto Scan 15 s of every 15 s: the room streams in all along."""
    folder = os.path.join(home, "xdg_config_home", "glib-2.0", "settings")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "keyfile"), "w") as f:
        f.write("[io/github/favblue/FavBlue]\n"
                "background-scan=true\nscanner-period-seconds=15\nscanner-window-seconds=15\n"
                "splash-duration-ms=0\n")


# MARK: the peer's log

class PeerLog:
    """Reads the chat peer's lines as they come (peers.ChatPeer gathers them) and keeps the tallies."""

    def __init__(self, peer):
        self.peer = peer
        self.seen = 0
        self.rx = []            # texts the peer received
        self.sent = []          # texts the peer sent
        self.connected = 0
        self.subscribed = 0
        self.disconnected = 0
        self.busy = []          # (time, pdus, reports)
        self.last_connected_at = None

    def poll(self):
        now = time.monotonic()
        lines = self.peer.lines  # one snapshot: the peer's reader thread keeps adding
        for line in lines[self.seen:]:
            word = line.split(" ", 1)[0]
            if word == "RX":
                parts = line.split(" ", 3)
                self.rx.append(parts[3] if len(parts) > 3 else "")
            elif word == "SENT":
                self.sent.append(line.split(" ", 2)[2] if line.count(" ") >= 2 else "")
            elif word == "CONNECTED":
                self.connected += 1
                self.last_connected_at = now
            elif word == "SUBSCRIBED":
                self.subscribed += 1
            elif word == "DISCONNECTED":
                self.disconnected += 1
            elif word == "BUSY" and line != "BUSY STARTED":
                _, pdus, reports = line.split()
                self.busy.append((now, int(pdus), int(reports)))
        self.seen = len(lines)

    def wait(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline or self.peer.process.poll() is not None:
                raise SoakError(f"timed out waiting for the peer: {what}; its last lines: {self.peer.lines[-8:]}")
            time.sleep(0.1)
            self.poll()


class SoakError(Exception):
    pass


# MARK: the window

def entry_ready(app):
    """The chat entry is sensitive and focused; clicks it when it lost the focus."""
    from harness import Atspi
    node = app.find("Message", "text", skip=SKIP)
    states = node.get_state_set()
    if not states.contains(Atspi.StateType.SENSITIVE):
        return False
    if not states.contains(Atspi.StateType.FOCUSED):
        app.click_on("Message", "text")
        time.sleep(0.3)
    return True


def open_chat(app, log):
    app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
    app.press("Add New Devices")
    app.wait_for(lambda: PEER in app.names("label"), timeout=30, what="the peer in the Scanner")
    app.press(f"Details for {PEER}")
    app.wait_for(lambda: f"Connect to {PEER}" in app.names("button"), what="Connect on the detail page")
    subscribed = log.subscribed
    app.press(f"Connect to {PEER}")
    log.wait(lambda: log.subscribed > subscribed, 30, "the first subscription")
    app.wait_for(lambda: f"Open chat with {PEER}" in app.names("button"), what="Open Chat once connected")
    app.press(f"Open chat with {PEER}")
    app.wait_for(lambda: "Message" in app.names("text", skip=SKIP), what="the chat page")


def reconnect(app, log):
    """After the peer's drop: the chat page's Connect, then the peer's new subscription."""
    app.wait_for(lambda: f"Connect to {PEER}" in app.names("button", skip=SKIP), timeout=30,
                 what="Connect in the chat page's header after the drop")
    subscribed = log.subscribed
    app.press(f"Connect to {PEER}", skip=SKIP)
    log.wait(lambda: log.subscribed > subscribed, 30, "the subscription after reconnecting")
    app.wait_for(lambda: entry_ready(app), timeout=15, what="the chat entry to take lines again")


# MARK: the database

def stored_messages(home):
    path = os.path.join(home, "xdg_data_home", "favblue", "favblue.sqlite")
    if not os.path.exists(path):
        raise SoakError(f"no database at {path}")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT direction, body, body_is_text, delivery FROM messages ORDER BY seq").fetchall()
    finally:
        db.close()
    out = collections.defaultdict(list)
    for direction, body, is_text, delivery in rows:
        text = bytes(body).decode("utf-8", "replace") if is_text else bytes(body).hex()
        out[(direction, delivery)].append(text)
    return out


# MARK: the soak

def soak(args):
    os.environ["FAVBLUE_BIN"] = os.path.abspath(args.binary)
    sys.path.insert(0, os.path.join(ROOT, "Tests", "ui"))
    import harness
    import peers
    # peers.ChatPeer starts this script in place of chat_peer.py; soak_peer.py runs chat_peer.py itself.
    peers.CHAT_PEER = SOAK_PEER

    home = tempfile.mkdtemp(prefix="favblue-soak-")
    write_settings(home)
    samples, typed = [], []
    reconnects = {"drops": 0, "done": 0, "backlog": 0}
    aborted = None
    started = ended = time.monotonic()
    # Bumble's default advertising interval (1 s): with chat_peer.py's --advertising-interval 100,
    # FavBlue's CCCD write never reached the peer in a trial run (connected, no SUBSCRIBED).
    peer = peers.ChatPeer("--service", "chat", "--disconnect-after", str(args.disconnect_every),
                          "--busy-devices", str(args.busy_devices), "--busy-rate", str(args.busy_rate))
    log = PeerLog(peer)
    app = harness.App("--source", peer.source, storage="sqlite", home=home, env={"GSK_RENDERER": "cairo"})
    try:
        try:
            open_chat(app, log)
            os.kill(peer.process.pid, signal.SIGUSR1)         # the crowd starts
            subprocess.run(["xdotool", "windowfocus", "--sync", app.window_id()], check=False, timeout=10)
            app.wait_for(lambda: entry_ready(app), timeout=15, what="the chat entry")
            log.poll()
            started = time.monotonic()
            end_at = started + args.minutes * 60
            next_sample = started
            next_line = started
            drops_seen = log.disconnected
            print(f"soak started: {args.minutes:g} min, favblue pid {app.proc.pid}, folder {home}", flush=True)
            while True:
                now = time.monotonic()
                if now >= end_at:
                    break
                if app.proc.poll() is not None:
                    raise SoakError(f"favblue exited with {app.proc.returncode}: {app.stderr()[-1500:]}")
                log.poll()
                if now >= next_sample:
                    s = sample(app.proc.pid)
                    s["t"] = now - started
                    samples.append(s)
                    print(f"  {s['t'] / 60:5.1f} min  RSS {s['rss_kib'] / 1024:6.1f} MiB  fds {s['fds']:3d}  "
                          f"threads {s['threads']:3d}  typed {len(typed)}  peer rx {len(log.rx)} sent {len(log.sent)}  "
                          f"drops {reconnects['drops']}", flush=True)
                    next_sample += args.sample_every
                if log.disconnected > drops_seen:
                    reconnects["drops"] += log.disconnected - drops_seen
                    drops_seen = log.disconnected
                    reconnect(app, log)
                    reconnects["done"] += 1
                    drops_seen = log.disconnected
                    next_line = time.monotonic()
                    continue
                window_open = log.last_connected_at is not None and \
                    now < log.last_connected_at + args.disconnect_every - GUARD_SECONDS
                if not window_open:
                    time.sleep(0.05)
                    continue
                if len(typed) - len(log.rx) > args.rate * BACKLOG_SECONDS:
                    reconnects["backlog"] += 1
                    log.wait(lambda: len(typed) - len(log.rx) <= args.rate or log.disconnected > drops_seen, 60,
                             "the peer to catch up with the lines typed")
                    next_line = time.monotonic()
                    continue
                if now >= next_line:
                    text = f"a{len(typed) + 1:06d}"
                    # `xdotool type` takes every argument after it as text, so Return is its own call
                    # ("\n" typed is not an Enter to GTK).
                    subprocess.run(["xdotool", "type", "--delay", "5", text], check=True, timeout=30)
                    subprocess.run(["xdotool", "key", "Return"], check=True, timeout=30)
                    typed.append(text)
                    next_line = max(next_line + 1 / args.rate, time.monotonic() - 1)
                else:
                    time.sleep(min(next_line - now, 0.05))
            ended = time.monotonic()
            # The last echoes, then quit: Ctrl+Q writes what waits for its batch.
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and (len(log.rx) < len(typed) or len(log.sent) < len(log.rx)):
                time.sleep(0.2)
                log.poll()
            time.sleep(1)
            log.poll()
        except (SoakError, AssertionError) as error:
            aborted = str(error)[:1500]
            ended = time.monotonic()
            log.poll()
        if app.proc.poll() is None:
            app.key("ctrl+q")
            try:
                app.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                aborted = (aborted + "; " if aborted else "") + "favblue did not quit on Ctrl+Q within 20 s"
    finally:
        app.close()
        peer.stop()
        with open(os.path.join(home, "peer.log"), "w") as f:
            f.write("\n".join(peer.lines) + "\n")
        with open(os.path.join(home, "samples.json"), "w") as f:
            json.dump(samples, f)
    try:
        stored = stored_messages(home)
    except (SoakError, sqlite3.Error) as error:
        aborted = (aborted + "; " if aborted else "") + f"database: {error}"
        stored = {}
    return figures(args, samples, typed, log, stored, reconnects, started, ended, aborted, home)


def main():
    args = parse()
    if not os.path.exists(args.binary):
        sys.exit(f"no favblue binary at {args.binary}")
    if not os.environ.get("FAVBLUE_SOAK_ON_DISPLAY"):
        # A display, a session bus and an accessibility bus of its own.
        env = dict(os.environ, FAVBLUE_SOAK_ON_DISPLAY="1")
        os.execve(ON_DISPLAY, [ON_DISPLAY, sys.executable, os.path.abspath(__file__), *sys.argv[1:]], env)
    sys.exit(0 if soak(args) else 1)


if __name__ == "__main__":
    main()
