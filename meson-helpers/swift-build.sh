#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the release binaries with SwiftPM and copies them where meson expects them.
#   swift-build.sh PACKAGE_ROOT SCRATCH_PATH OUT_DIR
set -eu
# The app links Swift's runtime and Foundation statically: loading and binding them as shared
# libraries cost it about 15 ms before main() (Benchmarks/startup), a tenth of its start-up.
# favblue-scan is linked the same way, so the modules both use are compiled once, not twice.
swift build -c release --package-path "$1" --scratch-path "$2" --product favblue --static-swift-stdlib
swift build -c release --package-path "$1" --scratch-path "$2" --product favblue-scan --static-swift-stdlib
bin="$(swift build -c release --package-path "$1" --scratch-path "$2" --static-swift-stdlib --show-bin-path)"
cp "$bin/favblue" "$bin/favblue-scan" "$3/"
