// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GtkButton with a label or an icon.
@MainActor
public final class Button: Widget {
    /// A button with a text label; `mnemonic` lets Alt+letter press it.
    public init(label: String, mnemonic: Bool = false) {
        super.init(mnemonic ? gtk_button_new_with_mnemonic(label) : gtk_button_new_with_label(label))
        if mnemonic { Mnemonic.name(self, label) }
    }

    /// An icon-only button; `accessibleName` is what screen readers say and the tooltip shows.
    public init(icon: String, accessibleName: String) {
        super.init(gtk_button_new_from_icon_name(icon))
        accessibleLabel(accessibleName)
        tooltip(accessibleName)
    }

    /// A button with an icon and a label (AdwButtonContent).
    public init(icon: String, label: String) {
        super.init(gtk_button_new())
        let content = adw_button_content_new()!
        adw_button_content_set_icon_name(gcast(content), icon)
        adw_button_content_set_label(gcast(content), label)
        adw_button_content_set_use_underline(gcast(content), 1)
        gtk_button_set_child(gcast(object), content)
        Mnemonic.name(self, label)
    }

    /// A button showing `child` (a label with a badge, say); name it with `accessibleLabel`.
    public init(child: Widget) {
        super.init(gtk_button_new())
        gtk_button_set_child(gcast(object), child.widget)
    }

    /// Runs `handler` when the button is clicked or activated with the keyboard.
    public func onClicked(_ handler: @escaping () -> Void) {
        connect("clicked") { _ in handler() }
    }

    /// Activates a GAction (`win.back`, `app.quit`) instead of a handler.
    @discardableResult
    public func action(_ name: String) -> Self {
        gtk_actionable_set_action_name(OpaquePointer(object), name)
        return self
    }

    /// Changes the icon.
    public func setIcon(_ name: String) {
        // GTK sets the image again even when the name is the same, and lays the window out again.
        if let current = gtk_button_get_icon_name(gcast(object)), String(cString: current) == name { return }
        gtk_button_set_icon_name(gcast(object), name)
    }

    /// Changes the text label, and the name screen readers say with it.
    public func setLabel(_ text: String) {
        gtk_button_set_label(gcast(object), text)
        if gtk_button_get_use_underline(gcast(object)) != 0 { Mnemonic.name(self, text) }
    }
}

/// Labels with an access key ("_Cancel"): what screen readers should say of them.
public enum Mnemonic {
    /// Names `widget` by `label` without its marks, and by that alone. GTK 4.8 names a button
    /// by its accessible label followed by the label it is labelled by ("_Cancel Cancel"); the
    /// label alone, set here, is said once.
    @MainActor
    public static func name(_ widget: Widget, _ label: String) {
        name(OpaquePointer(widget.object), label)
    }

    /// Names, as `name` does, every button under `root` whose label `matches` (with whether the
    /// button takes its access key from it): for buttons a dialog makes itself from labels.
    @MainActor
    static func nameButtons(in root: UnsafeMutablePointer<GtkWidget>, where matches: (String, Bool) -> Bool) {
        var stack = [root]
        while let current = stack.popLast() {
            let instance = UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self)
            if g_type_check_instance_is_a(instance, gtk_button_get_type()) != 0,
               let text = gtk_button_get_label(gcast(UnsafeMutableRawPointer(current))) {
                let label = String(cString: text)
                if matches(label, gtk_button_get_use_underline(gcast(UnsafeMutableRawPointer(current))) != 0) {
                    name(OpaquePointer(current), label)
                }
            }
            var child = gtk_widget_get_first_child(current)
            while let next = child {
                stack.append(next)
                child = gtk_widget_get_next_sibling(next)
            }
        }
    }

    /// Names, once, the access-key buttons of every window as it is mapped: dialogs that GTK
    /// builds itself (the file chooser's, its "Replace?" question) as well as ours.
    @MainActor
    static func watchWindows() {
        guard let windows = gtk_window_get_toplevels() else { return }
        Signals.connect(UnsafeMutableRawPointer(windows), "items-changed") { args in
            let first = args.uint(1), added = args.uint(3)
            for index in first..<(first + added) {
                guard let window = g_list_model_get_item(windows, index) else { continue }
                defer { g_object_unref(window) }
                // GTK's own dialogs only: ours name their buttons as they make them.
                let instance = window.assumingMemoryBound(to: GTypeInstance.self)
                guard g_type_check_instance_is_a(instance, gtk_message_dialog_get_type()) != 0
                        || g_type_check_instance_is_a(instance, gtk_file_chooser_dialog_get_type()) != 0 else { continue }
                let widget = window.assumingMemoryBound(to: GtkWidget.self)
                Signals.connect(window, "map", after: true) { _ in
                    nameButtons(in: widget) { label, accessKey in accessKey && label.contains("_") }
                }
            }
        }
    }

    @MainActor
    static func name(_ accessible: OpaquePointer, _ label: String) {
        gtk_accessible_reset_relation(accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY)
        cgtk_accessible_set_label(accessible, plain(label))
    }

    /// The label without its access-key marks: "_Cancel" → "Cancel", "Save __as" → "Save _as".
    /// GTK 4.8 names such a button by the raw label and its text together ("_Cancel Cancel"), so
    /// the name is set from this instead.
    public static func plain(_ label: String) -> String {
        var out = ""
        var pending = false
        for character in label {
            if character == "_" && !pending {
                pending = true
                continue
            }
            out.append(character)
            pending = false
        }
        return out
    }
}
