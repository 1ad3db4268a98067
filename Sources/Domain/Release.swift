// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// This release, as both programs' `--version` say it; meson-helpers/meson.build and
/// debian/changelog carry the same (the package's test compares them).
public enum Release {
    public static let version = "0.1.0"
}
