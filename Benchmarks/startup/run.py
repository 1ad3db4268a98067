#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Start-up benchmark: time from exec to the first window mapped (the X server's
MapNotify, as another client sees it), to the first presented frame, and RSS
after 10 s idle (--idle S), for favblue and a minimal C GTK 4 + libadwaita window built the
same way, alternating. Median of RUNS runs each (default 11). Two ways:

- prepared: fresh temporary XDG data and cache folders, the memory GSettings
  backend, `--storage memory`, the splash on;
- as a stranger: `--splash-ms 0` so the main window is what maps, the user's own
  home and the default GSettings backend, the default storage (SQLite in the
  user's data folder), as someone who installed the package would start it.

favblue also prints when each start-up phase ended, so the extra time can be
placed.

With --plain-x it starts an X server of its own (Xvfb) and runs both programs there with no
session bus in their environment, as on a bare X server: GLib then starts one for the display
(dbus-launch --autolaunch) on the first launch, and every launch asks dbus-launch for it.

    meson-helpers/on-display python3 Benchmarks/startup/run.py [FAVBLUE_BINARY] [--runs N] [--way prepared|stranger|both] [--invocations K]

--same-page adds a third program to the alternation: FavBlue's empty home page built in C
(same-page-window.c) with the installed favblue's style sheet and icons. favblue against it is
favblue's own extra time; it against the minimal window is what the page itself costs to draw.

--invocations K repeats the whole comparison K times (default 1) and reports, per way, the median
of the K ratios and their spread (lowest–highest): between invocations the machine itself moves
the figure by several per cent, more than many a change does.
    python3 Benchmarks/startup/run.py /usr/bin/favblue --plain-x --way stranger
"""
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 11
IDLE = float(sys.argv[sys.argv.index("--idle") + 1]) if "--idle" in sys.argv else 10.0
INVOCATIONS = int(sys.argv[sys.argv.index("--invocations") + 1]) if "--invocations" in sys.argv else 1
WAY = sys.argv[sys.argv.index("--way") + 1] if "--way" in sys.argv else "both"
PLAIN_X = "--plain-x" in sys.argv
SAME_PAGE = "--same-page" in sys.argv


def start_plain_x():
    """An Xvfb of its own, and no session bus in this process's environment (inherited by both)."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-screen", "0", "1280x800x24"],
                              pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as numbers:
        number = numbers.readline().strip()
    if not number:
        sys.exit("Xvfb did not start")
    os.environ["DISPLAY"] = ":" + number
    os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
    return server


class MapWatcher:
    """Timestamps every top-level MapNotify on the display, read from xev."""

    def __init__(self):
        self.proc = subprocess.Popen(["xev", "-root", "-event", "substructure"], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.events = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        time.sleep(0.5)

    def _read(self):
        for line in self.proc.stdout:
            if line.startswith("MapNotify"):
                self.events.put(time.monotonic_ns() // 1000)

    def drain(self):
        while not self.events.empty():
            self.events.get_nowait()

    def next_map(self, timeout=20):
        return self.events.get(timeout=timeout)

    def close(self):
        self.proc.terminate()


def build_minimal(out_dir, name="minimal-window"):
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libadwaita-1"],
                           capture_output=True, text=True, check=True).stdout.split()
    binary = os.path.join(out_dir, name)
    subprocess.run(["cc", "-O2", "-o", binary, os.path.join(HERE, name + ".c"), *flags], check=True)
    return binary


def gresource_of(favblue):
    """The installed favblue's resource bundle (PREFIX/bin/favblue → PREFIX/share/favblue)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(favblue))), "share", "favblue", "favblue.gresource")
    if not os.path.exists(path):
        sys.exit(f"--same-page needs an installed favblue: {path} is missing")
    return path


def measure(argv, env, watcher, phases):
    watcher.drain()
    start_us = time.monotonic_ns() // 1000
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    first = None
    for line in proc.stderr:
        if line.startswith("startup-phase "):
            _, name, stamp = line.split()
            phases.setdefault(name, []).append((int(stamp) - start_us) / 1000.0)
        if line.startswith("first-frame "):
            first = int(line.split()[1])
            break
    mapped = watcher.next_map()
    time.sleep(IDLE)
    with open(f"/proc/{proc.pid}/status") as f:
        rss_kb = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
    proc.terminate()
    proc.wait(timeout=10)
    return (mapped - start_us) / 1000.0, (first - start_us) / 1000.0, rss_kb / 1024.0


def compare(title, favblue_argv, minimal, env, watcher, same_page=None):
    """favblue and the minimal window (and with --same-page the home page in C), alternating, so a
    slow spell of this noisy machine hits them alike."""
    phases = {"favblue": {}, "minimal C window": {}}
    runs = {"favblue": [], "minimal C window": []}
    if same_page:
        phases["same page in C"] = {}
        runs["same page in C"] = []
    for _ in range(RUNS):
        runs["favblue"].append(measure(favblue_argv, env, watcher, phases["favblue"]))
        runs["minimal C window"].append(measure([minimal], env, watcher, phases["minimal C window"]))
        if same_page:
            runs["same page in C"].append(measure([same_page[0]], dict(env, FAVBLUE_GRESOURCE=same_page[1]),
                                                  watcher, phases["same page in C"]))
    results = {name: tuple(statistics.median(r[i] for r in rs) for i in range(3)) for name, rs in runs.items()}
    print(f"== {title} (median of {RUNS})")
    for name, (mapped, ms, rss) in results.items():
        print(f"{name:18s} mapped {mapped:7.1f} ms   first frame {ms:7.1f} ms   RSS after {IDLE:g} s idle {rss:6.1f} MiB")
    fb, base = results["favblue"], results["minimal C window"]
    print(f"ratio favblue/minimal: mapped {fb[0] / base[0]:.2f}x, first frame {fb[1] / base[1]:.2f}x, RSS {fb[2] / base[2]:.2f}x")
    ratios = (fb[0] / base[0], fb[1] / base[1], fb[2] / base[2])
    if same_page:
        page = results["same page in C"]
        print(f"ratio favblue/same page in C: mapped {fb[0] / page[0]:.2f}x, first frame {fb[1] / page[1]:.2f}x, RSS {fb[2] / page[2]:.2f}x")
        print(f"ratio same page in C/minimal: mapped {page[0] / base[0]:.2f}x, first frame {page[1] / base[1]:.2f}x")
        ratios += (fb[0] / page[0], fb[1] / page[1], page[0] / base[0], page[1] / base[1])
    for app, marks in phases.items():
        print(f"{app} phases, ms after exec (median):")
        for name, stamps in sorted(marks.items(), key=lambda kv: statistics.median(kv[1])):
            print(f"  {statistics.median(stamps):7.1f}  {name}")
    return ratios


def summarize(way, ratios):
    """The median ratio of the invocations and their spread, for mapped, first frame and RSS."""
    if len(ratios) < 2:
        return
    print(f"== {way}: {len(ratios)} invocations of {RUNS} runs each, ratio favblue/minimal")
    names = ["mapped", "first frame", "RSS", "mapped, favblue/same page in C", "first frame, favblue/same page in C",
             "mapped, same page in C/minimal", "first frame, same page in C/minimal"]
    for i, what in enumerate(names[:len(ratios[0])]):
        values = sorted(r[i] for r in ratios)
        print(f"{what:12s} median {statistics.median(values):.3f}x   spread {values[0]:.3f}x–{values[-1]:.3f}x")


def main():
    args = [a for i, a in enumerate(sys.argv[1:], 1)
            if a not in ("--runs", "--way", "--plain-x", "--invocations", "--idle", "--same-page")
            and sys.argv[i - 1] not in ("--runs", "--way", "--invocations", "--idle")]
    favblue = args[0] if args else os.path.join(ROOT, ".build", "release", "favblue")
    server = None
    if PLAIN_X:
        server = start_plain_x()
        print(f"plain X server {os.environ['DISPLAY']}, no session bus in the environment")
    watcher = MapWatcher()
    with tempfile.TemporaryDirectory() as tmp:
        minimal = build_minimal(tmp)
        same_page = (build_minimal(tmp, "same-page-window"), gresource_of(favblue)) if SAME_PAGE else None
        ratios = {"prepared": [], "stranger": []}
        for _ in range(INVOCATIONS):
            if WAY in ("prepared", "both"):
                env = dict(os.environ, FAVBLUE_REPORT_FIRST_FRAME="1", GSETTINGS_BACKEND="memory",
                           XDG_DATA_HOME=os.path.join(tmp, "data"), XDG_CACHE_HOME=os.path.join(tmp, "cache"))
                ratios["prepared"].append(compare("prepared: temporary folders, memory settings, --storage memory, splash on",
                                                  [favblue, "--storage", "memory"], minimal, env, watcher))
            if WAY in ("stranger", "both"):
                # Only the first-frame report is added; nothing of the user's environment is replaced.
                env = dict(os.environ, FAVBLUE_REPORT_FIRST_FRAME="1")
                env.pop("GSETTINGS_BACKEND", None)
                ratios["stranger"].append(compare("as a stranger: own home, default settings backend and storage, --splash-ms 0",
                                                  [favblue, "--splash-ms", "0"], minimal, env, watcher, same_page))
        for way, found in ratios.items():
            summarize(way, found)
    watcher.close()
    if server:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
