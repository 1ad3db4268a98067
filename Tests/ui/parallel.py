#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Runs the UI tests in several workers at once, each on a virtual display and a session
(and so accessibility) bus of its own:

    Tests/ui/parallel.py [--jobs N] [PATTERN]

The unit of work is one test. Workers take tests from one shared queue, longest first
(durations.json holds the seconds each took in a measured run), so the slowest never
starts last. Each finished test prints one line with its time; failures are told
in full at the end, and the closing lines are unittest's ("Ran N tests", "OK" or
"FAILED (…)"), so a caller counts them as it would count one unittest run.

A worker (`--worker QUEUE REPORT`) is what runs on a display; the plain call starts them."""

import argparse
import ast
import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DURATIONS = os.path.join(HERE, "durations.json")


# MARK: the queue

def test_ids(pattern):
    """`module.Class.test_name` for every test method in the matching files, read without
    importing them (importing needs a display)."""
    import fnmatch
    out = []
    for name in sorted(os.listdir(HERE)):
        if not fnmatch.fnmatch(name, pattern):
            continue
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                out += [f"{name[:-3]}.{node.name}.{item.name}" for item in node.body
                        if isinstance(item, ast.FunctionDef) and item.name.startswith("test_")]
    return out


def ordered(tests):
    """Longest first; a test never measured goes first of all (it may be long)."""
    try:
        with open(DURATIONS, encoding="utf-8") as f:
            known = json.load(f)
    except (OSError, ValueError):
        known = {}
    return sorted(tests, key=lambda t: -known.get(t, 1e9))


def claim(queue):
    """Takes the next class off the shared queue file, or None when it is empty."""
    with open(queue, "r+", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        lines = [line for line in f.read().splitlines() if line]
        if not lines:
            return None
        f.seek(0)
        f.truncate()
        f.write("\n".join(lines[1:]))
        return lines[0]


# MARK: a worker, on its display

# A test that never ends would hold the whole run: one still running after this many seconds
# (the longest takes some three minutes) fails with a timeout, and its worker goes on.
LIMIT = int(os.environ.get("FAVBLUE_UI_TEST_LIMIT", "600"))


class TestTookTooLong(Exception):
    pass


def too_long(signum, frame):
    raise TestTookTooLong(f"the test did not end within {LIMIT} s (FAVBLUE_UI_TEST_LIMIT)")


class LineResult(unittest.TextTestResult):
    """One complete line per finished test, with its time: workers share one terminal."""

    def __init__(self, stream, descriptions, verbosity, tag=""):
        super().__init__(stream, descriptions, 0)
        self.tag = tag
        self.started = {}

    def startTest(self, test):
        self.started[test.id()] = time.monotonic()
        super().startTest(test)
        # Raised in the test wherever it waits; its own cleanup (the app's exit) still runs.
        signal.signal(signal.SIGALRM, too_long)
        signal.alarm(LIMIT)

    def stopTest(self, test):
        signal.alarm(0)
        super().stopTest(test)

    def _say(self, test, word):
        took = time.monotonic() - self.started.get(test.id(), time.monotonic())
        print(f"[{self.tag}] {word:7} {took:6.1f} s  {test.id()}", flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._say(test, "ok")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._say(test, "FAIL")

    def addError(self, test, err):
        super().addError(test, err)
        self._say(test, "ERROR")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._say(test, "skipped")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._say(test, "xfail")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._say(test, "XPASS")


def work(queue, report, tag):
    sys.path.insert(0, HERE)
    loader = unittest.TestLoader()
    totals = {"run": 0, "failures": [], "errors": [], "skipped": [], "unexpected": 0, "took": {}}
    while (name := claim(queue)) is not None:
        started = time.monotonic()
        try:
            suite = loader.loadTestsFromName(name)
        except Exception as error:  # an import that fails is a failure, never a silent gap
            totals["run"] += 1
            totals["errors"].append((name, f"could not load {name}: {error!r}"))
            continue
        with open(os.devnull, "w") as quiet:
            result = LineResult(quiet, True, 0, tag=tag)
            suite.run(result)
        totals["run"] += result.testsRun
        totals["failures"] += [(t.id(), text) for t, text in result.failures]
        totals["errors"] += [(t.id() if hasattr(t, "id") else str(t), text) for t, text in result.errors]
        totals["skipped"] += [(t.id(), reason) for t, reason in result.skipped]
        totals["unexpected"] += len(result.unexpectedSuccesses)
        totals["took"][name] = round(time.monotonic() - started, 1)
    with open(report, "w", encoding="utf-8") as f:
        json.dump(totals, f)


# MARK: the plain call

def main():
    parser = argparse.ArgumentParser(description="Runs the UI tests in parallel workers.")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("FAVBLUE_UI_JOBS", "3")))
    parser.add_argument("--worker", nargs=2, metavar=("QUEUE", "REPORT"))
    parser.add_argument("--tag", default="")
    parser.add_argument("pattern", nargs="?", default="test_*.py")
    args = parser.parse_args()
    if args.worker:
        work(*args.worker, args.tag)
        return 0

    import shutil
    import tempfile
    started = time.monotonic()
    work_dir = tempfile.mkdtemp(prefix="favblue-ui-queue-")
    tests = ordered(test_ids(args.pattern))
    queue = os.path.join(work_dir, "queue")
    with open(queue, "w", encoding="utf-8") as f:
        f.write("\n".join(tests))
    jobs = max(1, min(args.jobs, len(tests)))
    print(f"{len(tests)} tests in {jobs} workers, each with its own display and accessibility bus", flush=True)
    workers = []
    for n in range(jobs):
        report = os.path.join(work_dir, f"report-{n}.json")
        command = [os.path.join(ROOT, "meson-helpers", "on-display"), sys.executable, os.path.abspath(__file__),
                   "--worker", queue, report, "--tag", f"w{n + 1}"]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        pump = threading.Thread(target=lambda p=process: [sys.stdout.write(line) or sys.stdout.flush() for line in p.stdout])
        pump.start()
        workers.append((process, pump, report))

    run, failures, errors, skipped, unexpected, took = 0, [], [], [], 0, {}
    for process, pump, report in workers:
        process.wait()
        pump.join()
        try:
            with open(report, encoding="utf-8") as f:
                totals = json.load(f)
        except (OSError, ValueError):
            # A worker that died took its tests with it: say so, and count it as failed.
            errors.append(("worker", f"a UI test worker ended with {process.returncode} before reporting"))
            run += 1
            continue
        run += totals["run"]
        failures += totals["failures"]
        errors += totals["errors"]
        skipped += totals["skipped"]
        unexpected += totals["unexpected"]
        took.update(totals["took"])
    shutil.rmtree(work_dir, ignore_errors=True)

    for title, items in (("FAIL", failures), ("ERROR", errors)):
        for test, text in items:
            print("=" * 70)
            print(f"{title}: {test}")
            print("-" * 70)
            print(text)
    for test, reason in skipped:
        print(f"skipped {test}: {reason}")
    print("Slowest: " + ", ".join(f"{t} {s:.0f} s" for t, s in sorted(took.items(), key=lambda i: -i[1])[:5]))
    # FAVBLUE_UI_DURATIONS_OUT=Tests/ui/durations.json keeps this run's times for the next one's order.
    if os.environ.get("FAVBLUE_UI_DURATIONS_OUT"):
        with open(os.environ["FAVBLUE_UI_DURATIONS_OUT"], "w", encoding="utf-8") as f:
            json.dump(dict(sorted(took.items())), f, indent=1)
            f.write("\n")
    print("-" * 70)
    print(f"Ran {run} tests in {time.monotonic() - started:.3f}s")
    print()
    bad = []
    if failures:
        bad.append(f"failures={len(failures)}")
    if errors:
        bad.append(f"errors={len(errors)}")
    if skipped:
        bad.append(f"skipped={len(skipped)}")
    if unexpected:
        bad.append(f"unexpected successes={unexpected}")
    if failures or errors or unexpected:
        print(f"FAILED ({', '.join(bad)})")
        return 1
    print(f"OK ({', '.join(bad)})" if bad else "OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
