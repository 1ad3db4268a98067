#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Encodes each symbolic SVG as symbolic PNGs at 16, 32, 128 and 256 px (a button's icon and
# the empty page's, at scale 1 and 2), written to OUTDIR as NAME-SIZE.symbolic.png. GTK draws
# those without loading the SVG renderer, which otherwise held the first frame.
#   meson-helpers/encode-symbolic-icons.sh OUTDIR ICON.svg...
set -euo pipefail
out="$1"
shift
encoder="$(command -v gtk4-encode-symbolic-svg || true)"
if [ -z "$encoder" ]; then
  echo "encode-symbolic-icons: gtk4-encode-symbolic-svg is missing: install libgtk-4-bin" >&2
  exit 1
fi
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for svg in "$@"; do
  name="$(basename "$svg" .svg)"
  for size in 16 32 128 256; do
    "$encoder" -o "$work" "$svg" "${size}x${size}"
    mv "$work/$name.symbolic.png" "$out/$name-$size.symbolic.png"
  done
done
