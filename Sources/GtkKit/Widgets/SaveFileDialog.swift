// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim
import Dispatch

/// A "Save" file chooser: GtkFileChooserNative, so a sandboxed session gets the desktop's
/// portal dialog and everything else GTK's own chooser, where a full path can be typed into
/// the name entry. GTK 4.8 has no GtkFileDialog yet.
@MainActor
public final class SaveFileDialog: GObjectRef {
    /// One entry of the file type list: its label ("CSV (*.csv)") and a glob ("*.csv").
    public struct Filter: Sendable {
        public let name: String
        public let patterns: [String]

        /// Creates a filter.
        public init(name: String, pattern: String) {
            self.name = name
            patterns = [pattern]
        }

        /// A filter for several kinds of file at once ("*.bin", "*.zip").
        public init(name: String, patterns: [String]) {
            self.name = name
            self.patterns = patterns
        }
    }

    private var filters: [OpaquePointer] = []
    /// The dialog lives until it is answered, whoever made it.
    private var keepAlive: SaveFileDialog?
    private var chooser: OpaquePointer { OpaquePointer(object) }

    /// A modal dialog over `parent` titled `title` (also its accessible name), with `acceptLabel`
    /// on its button ("_Save"), `suggestedName` in the name entry, and `filters` to choose from.
    /// With `opening`, it chooses a file to read (Import…) instead, and `suggestedName` is unused.
    /// It opens in `folder` where given, else in Documents.
    public init(parent: Window, title: String, acceptLabel: String, cancelLabel: String, suggestedName: String,
                filters: [Filter], opening: Bool = false, folder: String? = nil) {
        let native = gtk_file_chooser_native_new(title, parent.window, opening ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SAVE,
                                                 acceptLabel, cancelLabel)!
        super.init(adopting: UnsafeMutableRawPointer(native))
        gtk_native_dialog_set_modal(gcast(object), 1)
        for filter in filters {
            let f = gtk_file_filter_new()!
            gtk_file_filter_set_name(f, filter.name)
            for pattern in filter.patterns { gtk_file_filter_add_pattern(f, pattern) }
            // The chooser takes its own reference; ours keeps the pointer comparable in `present`.
            gtk_file_chooser_add_filter(chooser, f)
            self.filters.append(f)
        }
        if let start = folder ?? (g_get_user_special_dir(G_USER_DIRECTORY_DOCUMENTS) ?? g_get_home_dir()).map({ String(cString: $0) }) {
            let file = g_file_new_for_path(start)
            gtk_file_chooser_set_current_folder(chooser, file, nil)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        if !opening { gtk_file_chooser_set_current_name(chooser, suggestedName) }
    }

    isolated deinit {
        for f in filters { g_object_unref(UnsafeMutableRawPointer(f)) }
    }

    /// Shows the dialog. `completion` gets the chosen path and the index of the filter chosen
    /// (nil when none), or nil when the dialog was cancelled.
    public func present(_ completion: @escaping (_ path: String?, _ filter: Int?) -> Void) {
        keepAlive = self
        connect("response") { [weak self] args in
            guard let self else { return }
            var path: String?
            var filterIndex: Int?
            if args.int(1) == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(self.chooser) {
                if let cPath = g_file_get_path(file) {
                    path = String(cString: cPath)
                    g_free(cPath)
                }
                g_object_unref(UnsafeMutableRawPointer(file))
                if let chosen = gtk_file_chooser_get_filter(self.chooser) {
                    filterIndex = self.filters.firstIndex(of: chosen)
                }
            }
            completion(path, filterIndex)
            // Let go on the next turn: GTK is still inside the emission.
            DispatchQueue.main.async { self.keepAlive = nil }
        }
        // Without a portal GTK shows a chooser of its own; Mnemonic.watchWindows names its buttons.
        gtk_native_dialog_show(gcast(object))
    }
}
