#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs each built <lang>.mo as <localedir>/<lang>/LC_MESSAGES/favblue.mo.
set -eu
localedir="$1"
case "$localedir" in /*) ;; *) localedir="$MESON_INSTALL_PREFIX/$localedir" ;; esac
for lang in $2; do
  dir="${DESTDIR:-}$localedir/$lang/LC_MESSAGES"
  mkdir -p "$dir"
  install -m 0644 "$MESON_BUILD_ROOT/$lang.mo" "$dir/favblue.mo"
done
