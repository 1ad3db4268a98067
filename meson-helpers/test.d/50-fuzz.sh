#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fuzzes the HCI event, AD/EIR, btsnoop and ACL/L2CAP/SMP/ATT parsers and the pairing state machine with libFuzzer and AddressSanitizer
# for FUZZ_SECONDS (default 60), seeded from the real captures and the demo capture.
set -uo pipefail
root="${FAVBLUE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}"
seconds="${FUZZ_SECONDS:-60}"
work="$(mktemp -d /tmp/favblue-fuzz.XXXXXX)"
trap 'rm -rf "$work"' EXIT
cd "$root"

# The generated name tables and sensor family list come from the normal build (the test command has made them).
if [ -z "${FAVBLUE_BUILT:-}" ]; then
  swift build --target Bluetooth >/dev/null 2>&1 || { echo "build failed"; echo "Fuzz: 0 passed, 1 failed"; exit 1; }
fi
tables="$(for kind in Service Characteristic Descriptor; do find .build -path "*ServiceNameTable/${kind}NameTable.swift" | head -n 1; done
          find .build -path "*SensorFamilyList/SensorFamilyList.swift" | head -n 1)"
mkdir -p "$work/src"
# One module: drop the cross-module imports.
# The D-Bus layer (Sources/Bluetooth/BlueZ) and what uses it (Sources/Bluetooth/Routes) parse
# nothing from the air and need GIO: left out. Of HomeServices, the gateways' message reader
# (BTtoMQTT) parses what a broker sends: it is in.
for f in $(find Sources/Localization Sources/Domain Sources/Bluetooth -name '*.swift' -not -path 'Sources/Bluetooth/BlueZ/*' -not -path 'Sources/Bluetooth/Routes/*') \
         Sources/HomeServices/Gateways/BTtoMQTT.swift $tables Fuzz/FuzzParsers.swift; do
  sed -e '/^import Domain$/d' -e '/^import Localization$/d' -e '/^import Bluetooth$/d' -e '/^@testable import/d' "$f" > "$work/src/f_$(echo "$f" | tr '/' '_')"
done
if ! swiftc -sanitize=fuzzer,address -parse-as-library -module-name FuzzParsers -O \
     -I Sources/CBlueZ -I Sources/CIntl -lbluetooth "$work"/src/*.swift -o "$work/fuzz-parsers" 2> "$work/build.log"; then
  tail -n 30 "$work/build.log"; echo "Fuzz: 0 passed, 1 failed"; exit 1
fi

# Seeds: every event of the captures as an "event" input (selector 0), and whole captures (selector 2).
mkdir -p "$work/corpus"
n=0
for capture in Tests/Fixtures/captures/*.btsnoop data/demo.btsnoop; do
  [ -f "$capture" ] || continue
  n=$((n + 1))
  { printf '\x02'; head -c 65536 "$capture"; } > "$work/corpus/capture-$n"
  python3 - "$capture" "$work/corpus" "$n" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
link = struct.unpack(">I", data[12:16])[0]
off, k = 16, 0
while off + 24 <= len(data) and k < 200:
    inc = struct.unpack(">I", data[off + 4:off + 8])[0]
    body = data[off + 24:off + 24 + inc]
    off += 24 + inc
    if link == 1002 and body[:1] == b"\x04":
        open(f"{sys.argv[2]}/event-{sys.argv[3]}-{k}", "wb").write(b"\x00" + body[1:])
        open(f"{sys.argv[2]}/ad-{sys.argv[3]}-{k}", "wb").write(b"\x01" + body[1:])
        k += 1
PY
done
# ACL seeds (selector 3): a length byte, then an ACL packet; a chat exchange as the spec writes it.
acl() { printf '\x03'; for p in "$@"; do printf "\\x$(printf %02x $(( ${#p} / 2 )))"; printf "$(echo "$p" | sed 's/../\\x&/g')"; done; }
acl 010007000300040003f700 > "$work/corpus/acl-mtu"
acl 01200c000800040009070b00100c0001c0 > "$work/corpus/acl-chars"
acl 01200f000b0004001b1000686920f09f9880 > "$work/corpus/acl-notify"
acl 01201b001b000400011500 0110080001020304050607 > "$work/corpus/acl-fragments"
acl 01200b0007000600010300011007 01200c000800050012010800060010000000c800 > "$work/corpus/acl-smp-signalling"
# A Secure Connections responder: Pairing Response, then a public key and a confirm.
acl 01200b000700060002030009100203 01204500410006000c$(printf '02%.0s' $(seq 64)) 0120150011000600030202020202020202020202020202020202 > "$work/corpus/acl-smp-pairing"
# Characteristic values (selector 4): a heart rate with RR intervals, a temperature measurement.
printf '\x04\x37\x16\x48\x00\x03' > "$work/corpus/value-heart-rate"
printf '\x04\x1c\x06\x6e\x01\x00\xff\xea\x07\x0b\x19\x0c\x1e\x00\x02' > "$work/corpus/value-temperature"
# Inputs that once failed, kept so they are tried first on every run.
cp Fuzz/seeds/* "$work/corpus/"
echo "seeds: $(ls "$work/corpus" | wc -l)"
if "$work/fuzz-parsers" -artifact_prefix="$work/" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 "$work/corpus" > "$work/fuzz.log" 2>&1; then
  grep -E "stat::number_of_executed_units|Done" "$work/fuzz.log" | tail -n 2
  echo "Fuzz: 1 passed, 0 failed"
else
  tail -n 40 "$work/fuzz.log"
  echo "Fuzz: 0 passed, 1 failed"
  exit 1
fi
