# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Real Bluetooth peers for the UI tests: Bumble LE devices behind an H4 TCP
link, and BlueZ's btvirt with a discoverable BR/EDR controller."""

import os
import select
import shutil
import socket
import struct
import subprocess
import threading
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LE_PEERS = os.path.join(ROOT, "Tests", "PeerTests", "peers", "le_peers.py")
CHAT_PEER = os.path.join(ROOT, "Tests", "PeerTests", "peers", "chat_peer.py")
CENTRAL_PEER = os.path.join(ROOT, "Tests", "PeerTests", "peers", "central_peer.py")
BTVIRT_SOCKET = "/tmp/bt-server-bredr"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bumble_python():
    """The Python of the venv that has Bumble (meson-helpers/bootstrap makes it)."""
    venv = os.environ.get("FAVBLUE_VENV") or os.path.join(ROOT, ".venv-peers")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        raise unittest.SkipTest(f"no Bumble venv at {venv}: run meson-helpers/bootstrap")
    return python


class BumblePeers:
    """Advertising LE devices; FavBlue drives their shared radio at `source`."""

    def __init__(self, count=3, *extra):
        python = bumble_python()
        port = free_port()
        self.source = f"h4-tcp:127.0.0.1:{port}"
        self.process = subprocess.Popen([python, LE_PEERS, f"tcp-server:127.0.0.1:{port}", "--count", str(count), *extra],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        self._lines = _Lines(self.process.stdout)
        deadline = time.time() + 30
        while not any("ready" in line for line in self._lines.snapshot()):
            if time.time() > deadline or self.process.poll() is not None:
                self.stop()
                raise AssertionError(f"Bumble peers did not start: {self._lines.snapshot()}")
            time.sleep(0.05)

    def silence(self, index):
        """Device `index` (from 0) stops advertising; its controller stays on the link."""
        self.process.stdin.write(f"silent {index}\n")
        self.process.stdin.flush()
        deadline = time.time() + 10
        while not any(f"silent {index}" in line for line in self._lines.snapshot()):
            if time.time() > deadline or self.process.poll() is not None:
                raise AssertionError(f"peer {index} did not fall silent: {self._lines.snapshot()}")
            time.sleep(0.05)

    def kill(self):
        """Vanishes at once, as an unplugged adapter would."""
        self.process.kill()
        self.process.wait()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe:
                pipe.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _command(sock, opcode, params=b""):
    sock.sendall(bytes([0x01]) + struct.pack("<HB", opcode, len(params)) + params)
    deadline = time.time() + 3
    buffer = b""
    while time.time() < deadline:
        ready, _, _ = select.select([sock], [], [], 0.2)
        if ready:
            buffer += sock.recv(4096)
            # Command Complete (0x0E) or Status (0x0F) for our opcode ends the wait.
            if any(buffer[i:i + 2] in (b"\x04\x0e", b"\x04\x0f") for i in range(len(buffer))):
                return


class _Lines:
    """Every line a child prints, read by a thread of its own. A select() on the pipe cannot
    see lines Python's buffer has already read ahead, so a wait built on it can miss a line
    that arrived together with the one before."""

    def __init__(self, stream):
        self._lock = threading.Lock()
        self._items = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        try:
            for line in stream:
                with self._lock:
                    self._items.append(line.strip())
        except (ValueError, OSError):
            pass  # the pipe was closed by stop()

    def snapshot(self):
        with self._lock:
            return list(self._items)


class ChatPeer:
    """A Bumble GATT chat peripheral ("Chat Peer", F0:F1:F2:F3:F4:F5) that echoes each line;
    FavBlue drives the radio at `source`. `lines` is what the peer has printed so far."""

    def __init__(self, *args):
        python = bumble_python()
        port = free_port()
        self.source = f"h4-tcp:127.0.0.1:{port}"
        self.process = subprocess.Popen([python, CHAT_PEER, "--transport", f"tcp-server:127.0.0.1:{port}", *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self._lines = _Lines(self.process.stdout)
        self.wait_for("READY", timeout=30)

    @property
    def lines(self):
        return self._lines.snapshot()

    def wait_for(self, prefix, timeout=15):
        """Waits for a line starting with `prefix` and returns it."""
        deadline = time.time() + timeout
        while True:
            for line in self.lines:
                if line.startswith(prefix):
                    return line
            if time.time() > deadline or self.process.poll() is not None:
                time.sleep(0.2)  # the last lines of a peer that ended
                raise AssertionError(f"the chat peer never said {prefix!r}: {self.lines}")
            time.sleep(0.05)

    def count(self, prefix):
        """How many lines so far start with `prefix`."""
        return sum(1 for line in self.lines if line.startswith(prefix))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class CentralPeer(ChatPeer):
    """A Bumble central (a phone app) on the air of the controller FavBlue drives at `source`;
    `send` gives it a command of central_peer.py, and the lines say what it saw."""

    def __init__(self, *args):
        python = bumble_python()
        port = free_port()
        self.source = f"h4-tcp:127.0.0.1:{port}"
        self.process = subprocess.Popen([python, CENTRAL_PEER, "--transport", f"tcp-server:127.0.0.1:{port}", *args],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self._lines = _Lines(self.process.stdout)
        self.wait_for("READY", timeout=30)

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def stop(self):
        if self.process.stdin:
            try:
                self.process.stdin.close()
            except OSError:
                pass
        super().stop()


class BtvirtStereo:
    """btvirt with one discoverable BR/EDR controller named `name` (in its EIR);
    FavBlue gets a second controller of the same piconet at `source`."""

    def __init__(self, name="Old Stereo"):
        if not shutil.which("btvirt"):
            raise unittest.SkipTest("btvirt is not installed (bluez-test-tools)")
        for suffix in ("bredr", "bredrle", "le", "amp", "mon"):
            try:
                os.remove(f"/tmp/bt-server-{suffix}")
            except FileNotFoundError:
                pass
        self.process = subprocess.Popen(["btvirt", "-s"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while not os.path.exists(BTVIRT_SOCKET):
            if time.time() > deadline:
                self.stop()
                raise AssertionError("btvirt did not create its socket")
            time.sleep(0.05)
        self.source = f"h4-unix:{BTVIRT_SOCKET}"
        self.target = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.target.connect(BTVIRT_SOCKET)
        encoded = name.encode()
        eir = bytes([len(encoded) + 1, 0x09]) + encoded + bytes([0x03, 0x03, 0x0B, 0x11])
        _command(self.target, 0x0C03)                                          # Reset
        _command(self.target, 0x0C13, encoded.ljust(248, b"\0"))               # Write Local Name
        _command(self.target, 0x0C52, bytes([0x00]) + eir.ljust(240, b"\0"))   # Write Extended Inquiry Response
        _command(self.target, 0x0C1A, bytes([0x03]))                           # Write Scan Enable: inquiry + page

    def stop(self):
        if getattr(self, "target", None):
            self.target.close()
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=5)
        for suffix in ("bredr", "bredrle", "le", "amp", "mon"):
            try:
                os.remove(f"/tmp/bt-server-{suffix}")
            except FileNotFoundError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
