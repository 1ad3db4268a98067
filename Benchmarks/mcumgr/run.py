#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Firmware upload through FavBlue's own host against the reference client: a fresh fake
Zephyr board each run (Tests/PeerTests/peers/smp_device.py, Bumble, its controller over
H4/TCP), the same image, link and buffers; `favblue-scan mcumgr … image upload` and
smpclient's Bumble transport (smpclient_upload.py) alternating. Each times the upload alone,
from its first request to the answer to its last part, and the board checks the image whole
(its hash), so nothing lost goes unseen. Prints each one's median and their ratio, and the
throughput against what the board allows.

    python3 Benchmarks/mcumgr/run.py [FAVBLUE_SCAN] [--runs N] [--size KIB] [--buf-size N]
                                     [--buf-count N] [--answer-delay MS [--from-last-write]]
                                     [--acl-length N] [--only favblue]
    meson-helpers/on-display python3 Benchmarks/mcumgr/run.py --app .build/release/favblue-bench [--runs N]

--app runs Update Firmware in the app instead (favblue-bench, the board's page on screen), and
prints the main thread's share of the upload's time (goal ≤ 20 %) and the frame intervals. Each
run has fresh data and cache folders, but the runs share one Mesa shader cache, as a user's
launches do: the first run fills it (under software GL, compiling GTK's shaders for what the
upload first draws costs the main thread some 50 ms) and is reported on its own line, not in the
medians.

--answer-delay models a real link (each answer one connection interval after the event its
request was sent in, taken to begin with the request's first write; --from-last-write counts from
its last): pipelining with the window FavBlue keeps (buf_count − 1 requests in flight: one buffer
carries the answer) allows (buf_count − 1) × part / delay; the figure printed is FavBlue's share
of that. --acl-length is the LE ACL packet the controller FavBlue drives takes: 251 (the default)
as a controller with LE Data Length Extension, 27 as Bumble's own.
"""
import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEER = os.path.join(ROOT, "Tests", "PeerTests", "peers", "smp_device.py")
VENV = os.environ.get("FAVBLUE_VENV", os.path.join(ROOT, ".venv-peers"))
PYTHON = os.path.join(VENV, "bin", "python")
ADDRESS = "F0:F1:F2:F3:F4:F5"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def image(folder, kib):
    raw, signed = os.path.join(folder, "app.bin"), os.path.join(folder, "app.signed.bin")
    with open(raw, "wb") as f:
        f.write(bytes((i * 13 + 5) % 256 for i in range(kib * 1024 - 0x200 - 64)))
    subprocess.run([os.path.join(VENV, "bin", "imgtool"), "sign", "--header-size", "0x200", "--align", "4", "--version", "2.0.0",
                    "--slot-size", "0x100000", "--pad-header", raw, signed], check=True, capture_output=True)
    return signed


# The board process's own CPU seconds during each upload (its BUSY line), in the order run.
BOARD_BUSY = []


def on_board(args, run):
    """A fresh board; `run(port)` uploads and returns what it measured; the board must then
    hold the image whole (its hash checked)."""
    port = free_port()
    peer = subprocess.Popen([PYTHON, PEER, "--transport", f"tcp-server:127.0.0.1:{port}", "--buf-size", str(args.buf_size),
                             "--buf-count", str(args.buf_count), "--answer-delay", str(args.answer_delay),
                             "--acl-length", str(args.acl_length)] + (["--from-last-write"] if args.from_last_write else []),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        for line in peer.stdout:
            if line.startswith("READY"):
                break
        result = run(port)
        peer.terminate()
        out = peer.communicate(timeout=10)[0]
        if not re.search(r"^IMAGE 2\.0\.0 ", out, re.M):
            sys.exit(f"the board did not take the image whole: {out[-500:]}")
        busy = re.search(r"^BUSY ([0-9.]+) ([0-9.]+)$", out, re.M)
        BOARD_BUSY.append(float(busy.group(1)) if busy else None)
        return result
    finally:
        if peer.poll() is None:
            peer.kill()
            peer.wait()


def upload(command, args):
    """`command(port)` uploads; returns the seconds it says the upload took."""
    def run(port):
        done = subprocess.run(command(port), capture_output=True, text=True, timeout=600)
        said = re.search(r"sent (\d+) bytes in ([0-9.]+) s", done.stderr)
        if done.returncode != 0 or not said:
            sys.exit(f"{command(port)[0]} failed: {done.stderr[-1500:]}")
        return float(said.group(2))
    return on_board(args, run)


def in_the_app(bench, path, args, shader_cache):
    """favblue-bench's Update Firmware (Test Only) from the board's page, on screen: its seconds,
    main thread share and frames, as the app measured them."""
    def run(port):
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, GSETTINGS_BACKEND="memory", FAVBLUE_DM_BENCHMARK=path,
                       FAVBLUE_DM_BENCHMARK_DEVICE=f"{ADDRESS}/le-random",
                       XDG_DATA_HOME=os.path.join(home, "data"), XDG_CACHE_HOME=os.path.join(home, "cache"),
                       MESA_SHADER_CACHE_DIR=shader_cache)
            done = subprocess.run([bench, "--splash-ms", "0", "--storage", "memory", "--source", f"h4-tcp:127.0.0.1:{port}"],
                                  env=env, capture_output=True, text=True, timeout=600)
        said = re.search(r"^devicemanager-benchmark (\{.*\})$", done.stderr, re.M)
        if not said or "error" in json.loads(said.group(1)):
            sys.exit(f"favblue-bench failed: {done.stderr[-1500:]}")
        return json.loads(said.group(1))
    return on_board(args, run)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scan", nargs="?", default=os.path.join(ROOT, ".build", "release", "favblue-scan"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--buf-size", type=int, default=2048)
    parser.add_argument("--buf-count", type=int, default=4)
    parser.add_argument("--answer-delay", type=float, default=0)
    parser.add_argument("--from-last-write", action="store_true")
    parser.add_argument("--acl-length", type=int, default=251)
    parser.add_argument("--only", choices=["favblue"])
    parser.add_argument("--app", metavar="FAVBLUE_BENCH",
                        help="the app's Update Firmware instead (under a display), with its main thread's share")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="favblue-mcumgr-bench-")
    path = image(folder, args.size)
    size = os.path.getsize(path)
    delay = f"{args.answer_delay} ms from the request's {'last' if args.from_last_write else 'first'} write"
    board = (f"image: {size} bytes; board: buf_size {args.buf_size}, buf_count {args.buf_count}, answer delay {delay}; "
             f"LE ACL packets of {args.acl_length} bytes")
    if args.app:
        shader_cache = os.path.join(folder, "mesa-shader-cache")
        first = in_the_app(args.app, path, args, shader_cache)
        runs = [in_the_app(args.app, path, args, shader_cache) for _ in range(args.runs)]
        print(board)
        print(f"first run, Mesa's shader cache empty: {first['seconds']:.3f} s, main thread share {first['main_thread_busy']:.3f}")
        for key, label in (("seconds", "seconds"), ("kB_per_second", "kB/s"), ("main_thread_busy", "main thread share"),
                           ("process_cpu_share", "process CPU share"), ("frame_interval_p95_ms", "frame interval p95 (ms)"),
                           ("frame_interval_max_ms", "frame interval max (ms)")):
            values = [r[key] for r in runs]
            print(f"app {label}: median {statistics.median(values):.3f}  runs {[round(v, 3) for v in values]}")
        print("goal: main thread share ≤ 0.20")
        return
    favblue = lambda port: [args.scan, "mcumgr", f"{ADDRESS}/le-random", "--source", f"h4-tcp:127.0.0.1:{port}",
                            "image", "upload", path, "--mode", "test-only"]
    reference = lambda port: [PYTHON, os.path.join(HERE, "smpclient_upload.py"), str(port), ADDRESS, path]
    ours, theirs, ours_busy, theirs_busy = [], [], [], []
    for _ in range(args.runs):
        ours.append(upload(favblue, args))
        ours_busy.append(BOARD_BUSY[-1])
        if not args.only:
            theirs.append(upload(reference, args))
            theirs_busy.append(BOARD_BUSY[-1])
    print(board)
    print(f"FavBlue   : median {statistics.median(ours):.3f} s  ({size / statistics.median(ours) / 1000:.1f} kB/s)  runs {[round(t, 3) for t in ours]}")
    if theirs:
        print(f"smpclient : median {statistics.median(theirs):.3f} s  ({size / statistics.median(theirs) / 1000:.1f} kB/s)  runs {[round(t, 3) for t in theirs]}")
        print(f"ratio FavBlue / smpclient: {statistics.median(ours) / statistics.median(theirs):.3f} (goal ≤ 0.5)")
    # The board is one Python process (its controller, the link and the SMP server): an upload
    # cannot take less than the CPU time it spends on it.
    for name, busy, times in (("FavBlue", ours_busy, ours), ("smpclient", theirs_busy, theirs)):
        if times and None not in busy:
            print(f"board's own CPU during {name}'s uploads: median {statistics.median(busy):.3f} s, "
                  f"{statistics.median(busy) / statistics.median(times) * 100:.0f} % of its upload's time")
    if args.answer_delay:
        # Each part carries buf_size less its header and CBOR (about 30 bytes).
        part = args.buf_size - 30
        model = (args.buf_count - 1) * part / (args.answer_delay / 1000)
        print(f"model with pipelining: {model / 1000:.1f} kB/s; FavBlue reaches {size / statistics.median(ours) / model * 100:.0f} %")


main()
