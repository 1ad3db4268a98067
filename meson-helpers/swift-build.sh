#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the release program with SwiftPM and copies it where meson expects it.
#   swift-build.sh PACKAGE_ROOT SCRATCH_PATH OUT_DIR
# The link takes dpkg-buildflags' hardening (RELRO, -z now; Swift links PIE itself), here and in
# the package build alike, so that the package reuses the test command's build as it is.
set -eu
# One program: favblue-scan is installed as a second name of favblue, so the Swift runtime,
# Foundation and ICU's data, linked statically, are on disk once.
# Static, because loading and binding them as shared libraries cost the app about 15 ms before
# main() (Benchmarks/startup), a tenth of its start-up.
ldflags="${LDFLAGS:-}"
if [ -z "$ldflags" ] && command -v dpkg-buildflags >/dev/null 2>&1; then
  ldflags="$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get LDFLAGS)"
fi
flags=""
for flag in $ldflags; do
  case "$flag" in
    -Wl,*) for part in $(echo "${flag#-Wl,}" | tr ',' ' '); do flags="$flags -Xlinker $part"; done ;;
    *) flags="$flags -Xlinker $flag" ;;
  esac
done
# Relative relocations packed (DT_RELR, glibc 2.36): 2.5 MB less on disk and less work at start.
flags="$flags -Xlinker -z -Xlinker pack-relative-relocs"
# shellcheck disable=SC2086 # each flag is one word
swift build -c release --package-path "$1" --scratch-path "$2" --product favblue --static-swift-stdlib $flags
bin="$(swift build -c release --package-path "$1" --scratch-path "$2" --static-swift-stdlib --show-bin-path)"
cp "$bin/favblue" "$3/"
