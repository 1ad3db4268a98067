#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the installed guide (Mallard, <datadir>/help/<lang>/favblue) as HTML into
# <datadir>/favblue/help/<lang>, which FavBlue opens in the web browser where Yelp is missing.
set -eu
datadir="$1"
case "$datadir" in /*) ;; *) datadir="$MESON_INSTALL_PREFIX/$datadir" ;; esac
root="${DESTDIR:-}$datadir"
for pages in "$root"/help/*/favblue; do
  [ -d "$pages" ] || continue
  lang=$(basename "$(dirname "$pages")")
  out="$root/favblue/help/$lang"
  rm -rf "$out"
  mkdir -p "$out"
  yelp-build html -o "$out/" "$pages"
done
