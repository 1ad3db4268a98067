#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the release binaries with SwiftPM and copies them where meson expects them.
#   swift-build.sh PACKAGE_ROOT SCRATCH_PATH OUT_DIR
set -eu
swift build -c release --package-path "$1" --scratch-path "$2" --product favblue
swift build -c release --package-path "$1" --scratch-path "$2" --product favblue-scan
bin="$(swift build -c release --package-path "$1" --scratch-path "$2" --show-bin-path)"
cp "$bin/favblue" "$bin/favblue-scan" "$3/"
