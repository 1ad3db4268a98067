#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# favblue-scan's sensor readings against Home Assistant's parsers and Theengs Decoder, value by
# value (Tests/sensors/oracles.py): generated advertisements of every family FavBlue reads, edge
# values, cut-off objects, and encrypted frames with the right key, a wrong one and none.
set -uo pipefail
root="${FAVBLUE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$root"
venv="${FAVBLUE_VENV:-$root/.venv-peers}"
if [ -z "${FAVBLUE_BUILT:-}" ]; then
  swift build --product favblue-scan >/dev/null 2>&1 || { echo "build failed"; echo "Sensors: 0 passed, 1 failed"; exit 1; }
fi
scan="${FAVBLUE_BUILD:-$root/.build}/debug/favblue-scan"
# The oracles warn about frames they are given on purpose (objects out of order, a wrong key).
"$venv/bin/python" Tests/sensors/oracles.py "$scan" 2> >(grep -v -e "numerical order" -e "Decryption failed" >&2)
