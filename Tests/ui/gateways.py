# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A real MQTT broker (Debian's mosquitto, on a free port) and fake gateways publishing what
they hear in OpenMQTTGateway's BTtoMQTT format."""

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time

from peers import free_port


class Broker:
    def __init__(self, user=None, password=None):
        self.port = free_port()
        self.directory = tempfile.mkdtemp(prefix="favblue-mqtt-")
        # The broker drops root for its own user, who must read its files here.
        os.chmod(self.directory, 0o755)
        self.credentials = ["-u", user, "-P", password] if user else []
        config = os.path.join(self.directory, "mosquitto.conf")
        with open(config, "w") as f:
            f.write(f"listener {self.port} 127.0.0.1\n")
            if user:
                passwords = os.path.join(self.directory, "passwords")
                open(passwords, "w").close()
                subprocess.run(["mosquitto_passwd", "-b", passwords, user, password], check=True)
                os.chmod(passwords, 0o644)
                f.write(f"allow_anonymous false\npassword_file {passwords}\n")
            else:
                f.write("allow_anonymous true\n")
        self.process = subprocess.Popen(["/usr/sbin/mosquitto", "-c", config], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while subprocess.run(["mosquitto_pub", "-p", str(self.port), "-h", "127.0.0.1", "-t", "probe", "-m", "x", *self.credentials],
                             capture_output=True).returncode != 0:
            if time.time() > deadline:
                raise AssertionError("mosquitto did not start")
            time.sleep(0.1)
        self.url = f"mqtt://{user + '@' if user else ''}127.0.0.1:{self.port}/home"

    def publish(self, gateway, report):
        mac = report["id"].replace(":", "")
        subprocess.run(["mosquitto_pub", "-p", str(self.port), "-h", "127.0.0.1", "-t", f"home/{gateway}/BTtoMQTT/{mac}",
                        "-m", json.dumps(report), *self.credentials], check=True, capture_output=True)

    def stop(self):
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)


class Gateways(threading.Thread):
    """Rooms hearing one device, each at its signal, four times a second; `signals` may change."""

    def __init__(self, broker, address, name, signals):
        super().__init__(daemon=True)
        self.broker, self.address, self.name, self.signals = broker, address, name, dict(signals)
        self.running = True
        self.start()

    def run(self):
        while self.running:
            for room, rssi in list(self.signals.items()):
                self.broker.publish(room, {"id": self.address, "mac_type": 1, "adv_type": 0, "name": self.name, "rssi": rssi})
            time.sleep(0.25)

    def stop(self):
        self.running = False
        self.join(5)


class Keyring:
    """GNOME Keyring's Secret Service on the test's session bus, its login keyring unlocked."""

    def __init__(self):
        self.home = tempfile.mkdtemp(prefix="favblue-keyring-")
        self.log = os.path.join(self.home, "daemon.log")
        # A daemon an earlier lookup on this bus started (the desktop's own: locked, no login
        # keyring) would keep the name: it is stopped first. Each daemon has folders of its own,
        # so none finds, and replaces, another worker's through a shared cache folder.
        self._stop_owner()
        self.process = self._start()
        # Under load (six workers on two cores) the first start may take long, or the daemon may
        # end before it holds the name: it is started again while time is left.
        deadline = time.time() + 40
        # Asked before this daemon holds the name, the bus would start the desktop's own (locked,
        # with a password prompt): so nothing asks until it is listed.
        while not self._serving():
            if self.process.poll() is not None and time.time() < deadline - 5:
                self._stop_owner()
                self.process = self._start()
            if time.time() > deadline:
                with open(self.log, encoding="utf-8", errors="replace") as f:
                    said = f.read()[-2000:]
                state = "running" if self.process.poll() is None else f"ended with {self.process.returncode}"
                raise AssertionError(f"the keyring did not start: no unlocked login keyring after 40 s; "
                                     f"gnome-keyring-daemon {state}, it said:\n{said}")
            time.sleep(0.1)

    def _start(self):
        runtime = os.path.join(self.home, "run")
        os.makedirs(runtime, mode=0o700, exist_ok=True)
        env = dict(os.environ, HOME=self.home, XDG_DATA_HOME=os.path.join(self.home, "data"),
                   XDG_CACHE_HOME=os.path.join(self.home, "cache"), XDG_RUNTIME_DIR=runtime)
        with open(self.log, "a") as log:
            process = subprocess.Popen(["gnome-keyring-daemon", "--unlock", "--foreground", "--components=secrets"],
                                       stdin=subprocess.PIPE, stdout=log, stderr=log, env=env)
        process.stdin.write(b"login")
        process.stdin.close()
        return process

    @staticmethod
    def _stop_owner():
        """Stops whatever holds org.freedesktop.secrets on this test's session bus, and waits
        until the name is free."""
        answer = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                 "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.secrets"],
                                capture_output=True, text=True).stdout
        pid = answer.split()[-1] if "uint32" in answer else None
        if not pid:
            return
        subprocess.run(["kill", pid], capture_output=True)
        deadline = time.time() + 10
        while time.time() < deadline and "org.freedesktop.secrets" in subprocess.run(
                ["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                 "org.freedesktop.DBus.ListNames"], capture_output=True, text=True).stdout:
            time.sleep(0.1)

    @staticmethod
    def _serving():
        names = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                "org.freedesktop.DBus.ListNames"], capture_output=True, text=True).stdout
        if "org.freedesktop.secrets" not in names:
            return False
        # The name comes before the unlocked login keyring; a store that came between would find
        # no default collection and wait on a password prompt no one answers (seen under load).
        alias = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.secrets",
                                "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.ReadAlias", "string:default"],
                               capture_output=True, text=True).stdout
        return "object path" in alias and '"/"' not in alias

    def stop(self):
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.home, ignore_errors=True)
