#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package: meson-helpers/package builds it through dpkg-buildpackage and debian/rules
# (reusing the test command's release build, FAVBLUE_MESON_BUILD, where there is one), lintian
# finds no error and no warning left unexplained in the .deb nor in the .changes, it holds what a
# desktop install needs with the runtime once (favblue-scan a second name of favblue) within
# its size, the debug symbols are in favblue-dbgsym, both manual pages render without groff's
# warnings, and both programs run from the package unpacked into a bare folder (dpkg -x).
set -uo pipefail
root="${FAVBLUE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}"
work="$(mktemp -d /tmp/favblue-package-test.XXXXXX)"
trap 'rm -rf "$work"' EXIT
cd "$root"
passed=0
failed=0
check() {  # check NAME COMMAND…: one test, passed when COMMAND succeeds
  local name="$1"; shift
  if "$@" >"$work/check.log" 2>&1; then
    passed=$((passed + 1)); echo "ok    $name"
  else
    failed=$((failed + 1)); echo "FAIL  $name"; sed 's/^/      /' "$work/check.log" | tail -n 25
  fi
}

args=(--output "$work/out")
[ -n "${FAVBLUE_MESON_BUILD:-}" ] && args+=(--builddir "$FAVBLUE_MESON_BUILD")
meson-helpers/package "${args[@]}" >"$work/package.log" 2>&1
status=$?
deb="$(tail -n 1 "$work/package.log")"
version="$(dpkg-parsechangelog -l debian/changelog -S Version)"
expected="$work/out/favblue_${version}_$(dpkg --print-architecture).deb"
builds() {
  [ "$status" -eq 0 ] || { cat "$work/package.log"; return 1; }
  [ "$deb" = "$expected" ] || { echo "last line: $deb, not $expected"; return 1; }
  [ -s "$deb" ]
}
check "meson-helpers/package builds and prints the package's path last" builds
if [ ! -s "$expected" ]; then
  echo "Package: $passed passed, $((failed + 1)) failed"; exit 1
fi
# Unpacked once into a bare folder; the checks below read the programs and pages from it.
dpkg -x "$deb" "$work/root"

lintian_clean() {
  # --fail-on warning: a warning must be fixed or overridden with its reason (debian/).
  lintian --fail-on error,warning --no-tag-display-limit "$deb" | tee "$work/lintian.txt"
  local status=${PIPESTATUS[0]}
  ! grep -E '^[EW]: ' "$work/lintian.txt" && [ "$status" -eq 0 ]
}
check "lintian reports no error and no warning" lintian_clean

changes="$work/out/favblue_${version}_$(dpkg --print-architecture).changes"
changes_clean() {
  [ -s "$changes" ] || { echo "no .changes beside the package"; ls "$work/out"; return 1; }
  grep -E '^ [0-9a-f]{64} [0-9]+ favblue-dbgsym_.*\.deb$' "$changes" || { echo "the .changes lists no favblue-dbgsym"; return 1; }
  lintian --fail-on error,warning --no-tag-display-limit "$changes" | tee "$work/lintian-changes.txt"
  local status=${PIPESTATUS[0]}
  ! grep -E '^[EW]: ' "$work/lintian-changes.txt" && [ "$status" -eq 0 ]
}
check "dpkg-buildpackage's .changes lists favblue and favblue-dbgsym, and lintian reports nothing in it" changes_clean

# The runtime, Foundation and ICU's data are linked into one program, once.
footprint() {
  local size installed
  size=$(stat -c %s "$deb"); installed=$(dpkg-deb -f "$deb" Installed-Size)
  echo ".deb $((size / 1024)) KiB (at most 20480), installed $installed KiB (at most 71680)"
  dpkg-deb -c "$deb" | grep -E ' \./usr/bin/favblue-scan -> favblue$' || { echo "favblue-scan is not a link to favblue:"; dpkg-deb -c "$deb" | grep usr/bin/; return 1; }
  [ "$size" -le $((20 * 1024 * 1024)) ] && [ "$installed" -le $((70 * 1024)) ]
}
check "favblue-scan is favblue under a second name; the .deb is at most 20 MiB and installs at most 70 MiB" footprint

debug_symbols() {
  local dbgsym="$work/out/favblue-dbgsym_${version}_$(dpkg --print-architecture).deb" id
  [ -s "$dbgsym" ] || { echo "no $dbgsym"; return 1; }
  id=$(readelf -n "$work/root/usr/bin/favblue" | sed -nE 's/.*Build ID: ([0-9a-f]+)/\1/p')
  [ -n "$id" ] || { echo "favblue has no build ID"; return 1; }
  readelf -S "$work/root/usr/bin/favblue" | grep -q '\.debug_info' && { echo "favblue still holds its debug information"; return 1; }
  dpkg-deb -c "$dbgsym" | grep -F "usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
}
check "favblue's debug symbols are in favblue-dbgsym, found by its build ID" debug_symbols

# dpkg-buildflags' hardening=+all for the link: position-independent, RELRO, bound at start.
hardened() {
  local program="$work/root/usr/bin/favblue"
  readelf -h "$program" | grep -E 'Type: +DYN' || { echo "favblue is not position-independent"; return 1; }
  readelf -lW "$program" | grep -E 'GNU_RELRO' || { echo "favblue has no RELRO segment"; return 1; }
  readelf -dW "$program" | grep -E 'FLAGS.*BIND_NOW' || { echo "favblue is not linked with -z now"; return 1; }
}
check "favblue is linked PIE, with RELRO and -z now" hardened

holds() {
  dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$work/files.txt"
  local missing=0
  for path in /usr/bin/favblue /usr/bin/favblue-scan \
      /usr/share/applications/io.github.favblue.FavBlue.desktop \
      /usr/share/metainfo/io.github.favblue.FavBlue.metainfo.xml \
      /usr/share/icons/hicolor/scalable/apps/io.github.favblue.FavBlue.svg \
      /usr/share/icons/hicolor/48x48/apps/io.github.favblue.FavBlue.png \
      /usr/share/icons/hicolor/symbolic/apps/io.github.favblue.FavBlue-symbolic.svg \
      /usr/share/glib-2.0/schemas/io.github.favblue.FavBlue.gschema.xml \
      /usr/share/locale/de/LC_MESSAGES/favblue.mo \
      /usr/share/help/C/favblue/index.page /usr/share/help/de/favblue/index.page \
      /usr/share/man/man1/favblue.1.gz /usr/share/man/man1/favblue-scan.1.gz \
      /usr/share/doc/favblue/copyright /usr/share/doc/favblue/changelog.gz \
      /usr/share/favblue/favblue.gresource /usr/share/favblue/demo.btsnoop; do
    grep -qxF "$path" "$work/files.txt" || { echo "missing: $path"; missing=1; }
  done
  # Compiled by GLib's trigger on the user's machine, never shipped compiled.
  if grep -E 'gschemas\.compiled$' "$work/files.txt"; then echo "a compiled schema is shipped"; missing=1; fi
  return $missing
}
check "the package holds the programs, desktop data, translations, guide and manual pages" holds

depends() {
  dpkg-deb -f "$deb" Depends Recommends Installed-Size | tee "$work/fields.txt"
  grep -q '^Depends: .*libgtk-4-1' "$work/fields.txt" && grep -q '^Depends: .*libadwaita-1-0' "$work/fields.txt" \
    && grep -q '^Recommends: .*libmosquitto1' "$work/fields.txt" && grep -q '^Recommends: .*bluez' "$work/fields.txt" \
    && ! grep -qi 'swift' "$work/fields.txt"
}
check "Depends come from dpkg-shlibdeps, with no Swift; libmosquitto1 and bluez are recommended" depends

scan="$work/root/usr/bin/favblue-scan"
check "favblue-scan --version from the unpacked package" bash -c '[ "$("$1" --version)" = "favblue-scan $2" ]' _ "$scan" "$version"
demo() {
  "$scan" --source demo --duration 2 --format json >"$work/demo.json" || return 1
  python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]; print(len(rows), "devices"); sys.exit(0 if rows and all("address" in r for r in rows) else 1)' "$work/demo.json"
}
check "favblue-scan --source demo --duration 2 --format json from the unpacked package" demo
check "favblue --version from the unpacked package" bash -c '[ "$("$1" --version)" = "favblue $2" ]' _ "$work/root/usr/bin/favblue" "$version"

manual() {
  local page="$work/root/usr/share/man/man1/$1.1.gz"
  # groff -ww: every warning; any line on stderr fails the page.
  zcat "$page" | groff -ww -man -Tutf8 -z 2>"$work/groff.txt" || return 1
  [ ! -s "$work/groff.txt" ] || { cat "$work/groff.txt"; return 1; }
  MANWIDTH=80 man --warnings=w -l "$page" 2>"$work/man.txt" >"$work/man-out.txt" || return 1
  [ ! -s "$work/man.txt" ] || { cat "$work/man.txt"; return 1; }
  grep -q "$2" "$work/man-out.txt" || { echo "the page does not mention $2"; return 1; }
}
check "man -l favblue.1 renders without warnings" manual favblue "splash-ms"
check "man -l favblue-scan.1 renders without warnings" manual favblue-scan "sensor-keys"

# A build without a tool it needs names the tool and its Debian package, and writes nothing.
missing_tool() {
  local bin="$work/no-dh-bin" dir
  mkdir -p "$bin"
  for dir in ${PATH//:/ }; do
    [ -d "$dir" ] || continue
    for tool in "$dir"/*; do
      [ -x "$tool" ] && [ ! -e "$bin/${tool##*/}" ] && ln -s "$tool" "$bin/${tool##*/}"
    done
  done
  rm -f "$bin/dh"
  if PATH="$bin" meson-helpers/package --output "$work/no-dh" 2>"$work/no-dh.txt"; then
    echo "the package was built without dh"; return 1
  fi
  cat "$work/no-dh.txt"
  grep -qxF "package: dh is missing: install the Debian package debhelper (apt-get install debhelper)" "$work/no-dh.txt" \
    && grep -qxF "package: no package was written" "$work/no-dh.txt" \
    && [ -z "$(ls -A "$work/no-dh" 2>/dev/null)" ]
}
check "without dh, the build names debhelper and leaves no package" missing_tool

echo "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB, installed $(dpkg-deb -f "$deb" Installed-Size) KiB"
echo "Package: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
