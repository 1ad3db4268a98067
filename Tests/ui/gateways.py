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
    def __init__(self):
        self.port = free_port()
        self.directory = tempfile.mkdtemp(prefix="favblue-mqtt-")
        config = os.path.join(self.directory, "mosquitto.conf")
        with open(config, "w") as f:
            f.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\n")
        self.process = subprocess.Popen(["/usr/sbin/mosquitto", "-c", config], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while subprocess.run(["mosquitto_pub", "-p", str(self.port), "-h", "127.0.0.1", "-t", "probe", "-m", "x"],
                             capture_output=True).returncode != 0:
            if time.time() > deadline:
                raise AssertionError("mosquitto did not start")
            time.sleep(0.1)
        self.url = f"mqtt://127.0.0.1:{self.port}/home"

    def publish(self, gateway, report):
        mac = report["id"].replace(":", "")
        subprocess.run(["mosquitto_pub", "-p", str(self.port), "-h", "127.0.0.1", "-t", f"home/{gateway}/BTtoMQTT/{mac}",
                        "-m", json.dumps(report)], check=True, capture_output=True)

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
