#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""BlueZ-route benchmark: 1,000 devices on a mock bluetoothd, each changing its
RSSI twice a second (2,000 PropertiesChanged signals a second) for 60 s, fed
over D-Bus to the real window of the release favblue under Xvfb. Prints the
main thread's busy share, the CPU share of the D-Bus thread (and of GLib's D-Bus
I/O thread) and of the whole process,
frame-interval p50/p95, peak RSS, list refreshes per second, and the signal
rate the mock really sent, so a mock that fell behind shows.

The same window with a quiet room (10 devices, each twice a second) runs first,
so the cost of the busy room reads as a ratio measured on the same machine in
the same run. Each run has a bus of its own (a private dbus-daemon, given to
the app as its system bus) and a mock of its own (Benchmarks/bluez/storm.py,
run by the system Python, which has python-dbusmock). The storm starts once the
app's discovery runs, so the first moments of the window are quiet.

    meson-helpers/on-display python3 Benchmarks/bluez/run.py [FAVBLUE_BINARY] [--seconds N] [--devices 1000] [--hz 2]

FAVBLUE_BINARY defaults to .build/release/favblue-bench (the app with the benchmarks' drivers:
swift build -c release --product favblue-bench); a build with
--scratch-path .build-bench is at .build-bench/release/favblue-bench.
"""
import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STORM = os.path.join(HERE, "storm.py")
# python-dbusmock and dbus-python come with the system's Python, not necessarily with the one running this.
MOCK_PYTHON = "/usr/bin/python3"
QUIET_DEVICES = 10
ADAPTER_PATH = "/org/bluez/hci0"
# The storm outlasts the window, so it never ends before the app stops measuring.
STORM_MARGIN_SECONDS = 60


def gdbus(address, path, method, *args, timeout=10):
    """Calls `method` on org.bluez at `path`; returns the reply as Python values."""
    proc = subprocess.run(["gdbus", "call", "--address", address, "--dest", "org.bluez", "--object-path", path,
                           "--method", method, *args], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    return proc.stdout.strip()


def has_bluez(address):
    proc = subprocess.run(["gdbus", "call", "--address", address, "--dest", "org.freedesktop.DBus",
                           "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner",
                           "org.bluez"], capture_output=True, text=True, timeout=10)
    return proc.stdout.strip() == "(true,)"


def is_discovering(address):
    try:
        return gdbus(address, ADAPTER_PATH, "org.freedesktop.DBus.Properties.Get", "org.bluez.Adapter1",
                     "Discovering") == "(<true>,)"
    except RuntimeError:
        return False


def wait_for(check, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid`, all threads."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tail(path, chars=2000):
    try:
        with open(path, errors="replace") as f:
            return f.read()[-chars:]
    except OSError:
        return ""


def measure(binary, devices, hz, seconds, tmp, label):
    """One run of the real window against `devices` mock devices; the app's result with the mock's."""
    run = os.path.join(tmp, label)
    os.makedirs(run)
    logs = {name: os.path.join(run, name + ".log") for name in ("daemon", "mock", "app")}
    procs = []

    def fail(message, log="app"):
        sys.exit(f"{label} room: {message}\n{tail(logs[log])}")

    try:
        with open(logs["daemon"], "w") as daemon_log:
            daemon = subprocess.Popen(["dbus-daemon", "--session", f"--address=unix:path={run}/bus.sock", "--nofork",
                                       "--print-address=1"], stdout=subprocess.PIPE, stderr=daemon_log, text=True)
        procs.append(daemon)
        address = daemon.stdout.readline().strip()
        if not address:
            fail("the private dbus-daemon did not start", "daemon")
        with open(logs["mock"], "w") as mock_log:
            procs.append(subprocess.Popen([MOCK_PYTHON, "-m", "dbusmock", "--session", "--template", STORM],
                                          env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address),
                                          stdout=mock_log, stderr=subprocess.STDOUT))
        mock = procs[-1]
        if not wait_for(lambda: has_bluez(address), 30):
            fail("the mock bluetoothd did not take its name on the bus", "mock")
        # Known before the app connects, as devices bluetoothd heard lately are.
        gdbus(address, "/", "org.bluez.Mock.AddSensors", str(devices), timeout=120)

        env = dict(os.environ, GSETTINGS_BACKEND="memory", FAVBLUE_BENCHMARK_SECONDS=str(seconds),
                   DBUS_SYSTEM_BUS_ADDRESS=address,
                   XDG_DATA_HOME=os.path.join(run, "data"), XDG_CACHE_HOME=os.path.join(run, "cache"))
        with open(logs["app"], "w") as app_log:
            app = subprocess.Popen([binary, "--splash-ms", "0", "--storage", "memory", "--source", "bluez"],
                                   env=env, stdout=subprocess.DEVNULL, stderr=app_log)
        procs.append(app)
        if not wait_for(lambda: app.poll() is not None or is_discovering(address), 60) or app.poll() is not None:
            fail("favblue never started discovery on the mock adapter")
        daemon_cpu, mock_cpu, started = cpu_seconds(daemon.pid), cpu_seconds(mock.pid), time.monotonic()
        gdbus(address, "/", "org.bluez.Mock.StartStorm", str(devices), str(float(hz)),
              str(float(seconds + STORM_MARGIN_SECONDS)))
        try:
            app.wait(timeout=seconds + 120)
        except subprocess.TimeoutExpired:
            fail(f"favblue did not quit within {seconds + 120} s")
        if mock.poll() is not None:
            fail("the mock bluetoothd ended during the storm", "mock")
        storm = json.loads(ast.literal_eval(gdbus(address, "/", "org.bluez.Mock.StormStats"))[0])
        wall = time.monotonic() - started
        daemon_cpu = (cpu_seconds(daemon.pid) - daemon_cpu) / wall
        mock_cpu = (cpu_seconds(mock.pid) - mock_cpu) / wall
    finally:
        # SIGKILL: a child may have inherited blocked signals, and then ignores SIGTERM.
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    with open(logs["app"], errors="replace") as f:
        errors = f.read()
    line = next((l for l in errors.splitlines() if l.startswith("scanner-benchmark ")), None)
    if line is None:
        sys.exit(f"{label} room: favblue printed no result (exit status {app.returncode}):\n" + errors[-2000:])
    result = json.loads(line.split(" ", 1)[1])
    result.setdefault("dbus_thread_busy", None)
    result.setdefault("gdbus_io_thread_busy", None)
    result.setdefault("process_cpu", None)
    result.update(signals_per_second=storm["rate"], storm=storm, daemon_cpu=daemon_cpu, mock_cpu=mock_cpu,
                  stderr=[l for l in errors.splitlines() if not l.startswith("scanner-benchmark ")])
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "release", "favblue-bench"))
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--hz", type=float, default=2)
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"no favblue at {args.binary}: build it with swift build -c release --product favblue")
    rate = args.devices * args.hz
    with tempfile.TemporaryDirectory() as tmp:
        quiet = measure(args.binary, QUIET_DEVICES, args.hz, args.seconds, tmp, "quiet")
        busy = measure(args.binary, args.devices, args.hz, args.seconds, tmp, "busy")
    print(f"{args.devices} devices, each changing RSSI {args.hz:g} times a second ({rate:,.0f} signals/s), "
          f"{busy['seconds']:.0f} s over D-Bus into the real window "
          f"(quiet room: {QUIET_DEVICES} devices, {args.hz:g} a second each)")
    rows = [
        ("main thread busy", "main_thread_busy", 100, "%", "aim < 25 %"),
        ("D-Bus thread busy", "dbus_thread_busy", 100, "%", "FavBlue's GMainContext thread"),
        ("GDBus I/O thread", "gdbus_io_thread_busy", 100, "%", "GLib's reader and writer"),
        ("process CPU", "process_cpu", 100, "%", "100 % = one core"),
        ("frame interval p50", "frame_interval_p50_ms", 1, "ms", ""),
        ("frame interval p95", "frame_interval_p95_ms", 1, "ms", "aim <= 33 ms"),
        ("peak RSS", "peak_rss_mib", 1, "MiB", "aim <= 150 MB"),
        ("list refreshes", "refreshes_per_second", 1, "/s", "at most 4"),
        ("signals sent by mock", "signals_per_second", 1, "/s", f"target {rate:,.0f}"),
    ]
    print(f"{'':22s} {'busy':>11s} {'quiet':>11s} {'ratio':>7s}")
    for label, key, scale, unit, aim in rows:
        if busy[key] is None or quiet[key] is None:
            # The app found no thread of that name; see the note below.
            print(f"{label:22s} {'n/a':>7s}     {'n/a':>7s}")
            continue
        b, q = busy[key] * scale, quiet[key] * scale
        ratio = f"{b / q:6.2f}x" if q else "     -"
        print(f"{label:22s} {b:7.1f} {unit:<3s} {q:7.1f} {unit:<3s} {ratio}   {aim}")
    print(f"frames drawn           {busy['frames']:7d}    {quiet['frames']:7d}")
    print(f"rows shown at the end  {busy['rows']:7d}    {quiet['rows']:7d}")
    print(f"signals sent           {busy['storm']['emitted']:7d}    {quiet['storm']['emitted']:7d}"
          f"      of {busy['storm']['due']} / {quiet['storm']['due']} due in "
          f"{busy['storm']['elapsed']:.1f} s / {quiet['storm']['elapsed']:.1f} s of storm")
    print(f"mock / bus daemon CPU  {busy['mock_cpu'] * 100:5.1f} % / {busy['daemon_cpu'] * 100:4.1f} %"
          f"   quiet {quiet['mock_cpu'] * 100:.1f} % / {quiet['daemon_cpu'] * 100:.1f} %")
    if busy.get("dbus_thread_busy") is None:
        print("note: no thread of favblue is named favblue-dbus in /proc, so the D-Bus thread's share is unknown")
    if busy["rows"] < args.devices:
        print(f"note: the busy window listed {busy['rows']} of {args.devices} devices")
    for name, result in (("busy", busy), ("quiet", quiet)):
        if result["stderr"]:
            print(f"favblue's other output ({name}):\n  " + "\n  ".join(result["stderr"][-20:]))


if __name__ == "__main__":
    main()
