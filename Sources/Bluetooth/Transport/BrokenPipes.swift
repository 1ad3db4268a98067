// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Glibc

/// A write to a link whose other end went away (a controller's socket, a broker) is an error
/// to report, EPIPE, not a signal that ends the process without a word: SIGPIPE is ignored
/// before the first link is used.
public enum BrokenPipes {
    private static let ignored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Ignores SIGPIPE, once for the process.
    public static func ignore() { ignored }
}
