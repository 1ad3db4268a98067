// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # GtkKit
//
// The Swift face of GTK 4 and libadwaita, kept as thin as we can:
//
//     GtkKit/
//       GObjectRef, Widget        ownership: floating refs sunk, `transfer full` adopted
//       Signals                   Swift closures as GClosures, released in the finalize notify
//       MainLoop                  drains libdispatch's main queue from GLib
//       Application, Actions      GApplication, GAction and accelerators
//       Widgets/*                 the widgets FavBlue uses
//       Settings, Style           GSettings and CSS providers
//
// Views call these wrappers, or the C API directly through CAdwaita (re-exported
// here) for one-off calls. Nothing here knows about Bluetooth or favorites.

@_exported import CAdwaita
import CGtkShim

/// Reinterprets a GObject pointer as another GObject type; GObject casts keep the address.
@inline(__always)
public func gcast<T>(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<T> {
    pointer!.assumingMemoryBound(to: T.self)
}

/// Reinterprets a typed GObject pointer as another GObject type.
@inline(__always)
public func gcast<T, U>(_ pointer: UnsafeMutablePointer<U>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}

/// Reinterprets a GObject pointer as an opaque GTK type (final classes such as GtkLabel).
@inline(__always)
public func gcast<U>(_ pointer: UnsafeMutablePointer<U>) -> OpaquePointer {
    OpaquePointer(pointer)
}

/// Reinterprets a raw GObject pointer as an opaque GTK type.
@inline(__always)
public func gcast(_ pointer: UnsafeMutableRawPointer?) -> OpaquePointer {
    OpaquePointer(pointer!)
}
