// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # GtkKit
//
// The Swift face of GTK 4 and libadwaita, and the only door to C for Views:
//
//     GtkKit/
//       GObjectRef, Widget(+Events)  ownership: floating refs sunk, `transfer full` adopted,
//                                    `transfer none` retained; keys, clicks, pointer and focus
//       Signals                      Swift closures as GClosures, released in the finalize notify
//       MainLoop                     drains libdispatch's main queue from GLib; timeouts
//       Application, Actions         GApplication, GAction and accelerators
//       Widgets/*                    the widgets FavBlue uses: windows and dialogs,
//                                    containers, inputs, lists, the drawing area and its Canvas
//       Settings, Style              GSettings and CSS providers
//
// In: Swift values (strings, numbers, closures, the small enums here). Out: GTK calls.
// CAdwaita and CGtkShim are imported `internal`, so no C type or function reaches a
// client: the compiler refuses any public declaration that would leak one. When a view
// needs something new, it gets a typed wrapper here. Nothing here knows about
// Bluetooth or favorites.

internal import CGtkShim

/// Reinterprets a GObject pointer as another GObject type; GObject casts keep the address.
@inline(__always)
func gcast<T>(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<T> {
    pointer!.assumingMemoryBound(to: T.self)
}

/// Reinterprets a typed GObject pointer as another GObject type.
@inline(__always)
func gcast<T, U>(_ pointer: UnsafeMutablePointer<U>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}

/// Reinterprets a GObject pointer as an opaque GTK type (final classes such as GtkLabel).
@inline(__always)
func gcast<U>(_ pointer: UnsafeMutablePointer<U>) -> OpaquePointer {
    OpaquePointer(pointer)
}

/// Reinterprets a raw GObject pointer as an opaque GTK type.
@inline(__always)
func gcast(_ pointer: UnsafeMutableRawPointer?) -> OpaquePointer {
    OpaquePointer(pointer!)
}

/// Calls `body` with a NULL-terminated array of C strings.
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let pointers: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) } + [nil]
    defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
