// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim
import Foundation

/// An AdwApplication: single instance over D-Bus, actions, accelerators and options.
@MainActor
public final class Application: GObjectRef {
    /// The application pointer, for the GTK calls inside GtkKit.
    var application: UnsafeMutablePointer<GtkApplication> { gcast(object) }
    private var gapplication: UnsafeMutablePointer<GApplication> { gcast(object) }

    /// Creates the application; `id` is the reverse-DNS application ID. Without `unique` it
    /// asks no bus whether another instance runs (where there is no session bus to ask).
    public init(id: String, unique: Bool = true) {
        super.init(adopting: adw_application_new(id, unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE))
        // Before any window: every window's access-key buttons are named once (see Mnemonic).
        connect("startup") { _ in Mnemonic.watchWindows() }
    }

    /// Declares a command-line option shown by `--help` and handled in `onLocalOptions`.
    public func addOption(_ long: String, argument: OptionArgument, description: String, placeholder: String?) {
        g_application_add_main_option(gapplication, long, 0, G_OPTION_FLAG_NONE, argument.gtk, description, placeholder)
    }

    /// Text shown by `--help` under the usage line.
    public func setOptionSummary(_ text: String) {
        g_application_set_option_context_summary(gapplication, text)
    }

    /// Runs `handler` with the parsed options in the launching process; return nil to continue
    /// starting, or an exit status to stop.
    public func onLocalOptions(_ handler: @escaping (OptionValues) -> Int32?) {
        connect("handle-local-options") { args in
            guard let dict = args.boxed(1) else { return }
            // -1 tells GApplication to carry on with its default processing.
            args.setReturnInt(handler(OptionValues(dict: dict.assumingMemoryBound(to: GVariantDict.self))) ?? -1)
        }
    }

    /// Runs `handler` on every activation, including a second launch of the app.
    public func onActivate(_ handler: @escaping () -> Void) {
        connect("activate") { _ in handler() }
    }

    /// Runs `handler` once at start-up in the primary instance.
    public func onStartup(_ handler: @escaping () -> Void) {
        connect("startup") { _ in handler() }
    }

    /// Runs `handler` once the launch has registered on the session bus, with whether it is a
    /// second launch that only hands its activation to the first (`isRemote`). In the first
    /// launch this comes before GTK starts (GApplication's ::startup); `onStartup` runs after.
    public func onRegistered(_ handler: @escaping (_ isRemote: Bool) -> Void) {
        connect("notify::is-registered") { [weak self] _ in
            guard let self, g_application_get_is_registered(self.gapplication) != 0 else { return }
            handler(g_application_get_is_remote(self.gapplication) != 0)
        }
    }

    /// Runs `handler` once when the primary instance ends, after its windows are gone.
    public func onShutdown(_ handler: @escaping () -> Void) {
        connect("shutdown") { _ in handler() }
    }

    /// Runs `handler` on the main loop each time the process gets `signal` (SIGTERM when the
    /// session logs out, SIGINT from a terminal), instead of the default of dying on the spot.
    public func onUnixSignal(_ signal: Int32, _ handler: @escaping () -> Void) {
        final class Box {
            let handler: () -> Void
            init(_ handler: @escaping () -> Void) { self.handler = handler }
        }
        let box = Unmanaged.passRetained(Box(handler)).toOpaque()
        _ = g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, { data in
            guard let data else { return 0 }
            MainActor.assumeIsolated { Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().handler() }
            return 1 // G_SOURCE_CONTINUE: a second signal while quitting is handled the same way
        }, box, { data in
            guard let data else { return }
            Unmanaged<Box>.fromOpaque(data).release()
        })
    }

    /// Adds an app-wide action (`app.NAME`) with optional accelerators.
    public func addAction(_ name: String, accels: [String] = [], _ handler: @escaping () -> Void) {
        Actions.add(to: UnsafeMutableRawPointer(object), name, handler)
        if !accels.isEmpty { setAccels(for: "app.\(name)", accels) }
    }

    /// Adds an app-wide action with a string parameter (`app.NAME`, target "…").
    public func addTargetedAction(_ name: String, _ handler: @escaping (String) -> Void) {
        Actions.addTargeted(to: UnsafeMutableRawPointer(object), name, handler)
    }

    /// Sends a desktop notification under `id` (a later one with the same id replaces it).
    /// Title and body are set as given, never as markup; clicking it runs `app.ACTION` with `target`.
    public func sendNotification(id: String, title: String, body: String, action: String, target: String) {
        let notification = g_notification_new(title)
        g_notification_set_body(notification, body)
        g_notification_set_default_action_and_target_value(notification, "app." + action, g_variant_new_string(target))
        g_application_send_notification(gapplication, id, notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
    }

    /// Binds keyboard accelerators to a detailed action name.
    public func setAccels(for action: String, _ accels: [String]) {
        withCStringArray(accels) { gtk_application_set_accels_for_action(application, action, $0) }
    }

    /// Runs the main loop until the last window closes; returns the exit status.
    public func run(arguments: [String]) -> Int32 {
        var cArgs = arguments.map { strdup($0) }
        defer { cArgs.forEach { free($0) } }
        return cArgs.withUnsafeMutableBufferPointer { buffer in
            g_application_run(gapplication, Int32(buffer.count), buffer.baseAddress)
        }
    }

    /// Quits the main loop.
    public func quit() { g_application_quit(gapplication) }

    /// Keeps the application running with no window open, until `release()`.
    public func hold() { g_application_hold(gapplication) }

    /// Ends one `hold()`.
    public func release() { g_application_release(gapplication) }
}

/// Whether the process has a session bus, found as GLib finds it: `DBUS_SESSION_BUS_ADDRESS`,
/// else the socket `$XDG_RUNTIME_DIR/bus`. Without either, GLib would start a `dbus-daemon`
/// through `dbus-launch` just to learn that the app is the only instance.
public enum SessionBus {
    public static func exists(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address != disabled }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        var info = stat()
        return stat(runtime + "/bus", &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Makes GLib's own look-ups find no bus rather than start one: the notifications and the
    /// keyring would otherwise ask for one later. The address names no transport GLib knows,
    /// so each asks, fails at once, and goes on without. What needs the bus is told so first:
    /// settings are written to GLib's key file (dconf writes through the bus), and GTK's
    /// accessibility, whose screen readers talk over the bus, is off.
    public static func disableAutolaunch() {
        setenv("DBUS_SESSION_BUS_ADDRESS", disabled, 1)
        setenv("GSETTINGS_BACKEND", "keyfile", 0)
        setenv("GTK_A11Y", "none", 0)
    }

    static let disabled = "disabled:"
}
