// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization

/// One screen in the window's navigation stack.
@MainActor
public protocol Page: AnyObject {
    /// The page's whole content, header bar included.
    var root: Widget { get }
    /// Called when the page becomes the visible one (start scanning, refresh).
    func pageDidAppear()
    /// Called before the page is covered or removed (stop scanning).
    func pageWillDisappear()
    /// Called before `page` covers this one; by default as `pageWillDisappear`.
    func pageWillBeCovered(by page: Page)
    /// Back was asked for (Escape, Alt+Left): true if the page used it itself, say to close its search.
    func consumeBack() -> Bool
    /// Puts the focus back where the page over it was opened from, when the page knows better
    /// than the widget that had it (a list row, whose widget shows another device by now);
    /// false leaves it to the window.
    func restoreFocus() -> Bool
    /// The window became narrow (a phone, a tiled window) or wide again: fold or unfold controls.
    func adapt(narrow: Bool)
    /// What the page keeps at its foot for typing (the chat's entry): notices float above it.
    var footer: Widget? { get }
}

extension Page {
    public func pageDidAppear() {}
    public func pageWillDisappear() {}
    public func pageWillBeCovered(by page: Page) { pageWillDisappear() }
    public func consumeBack() -> Bool { false }
    public func restoreFocus() -> Bool { false }
    public func adapt(narrow: Bool) {}
    public var footer: Widget? { nil }
}

/// What pages may ask of the window: moving between pages and showing notices.
@MainActor
public protocol Navigator: AnyObject {
    /// Opens the Scanner on top of the current page.
    func showScanner()
    /// Opens the detail page of one device.
    func showDetail(of device: DeviceID)
    /// Puts the detail page of `device` where the one of `old` is (pairing showed them to be one device).
    func showDetail(of device: DeviceID, replacing old: DeviceID)
    /// Opens the chat with one device (going back to it if it is open already).
    func showChat(with device: DeviceID)
    /// Opens Act as a Device (going back to it if it is open already).
    func showPeripheral()
    /// Opens one advertisement's page.
    func showAdvertisement(_ id: String)
    /// Opens the server editor (setting up an empty server when there is none).
    func showServer()
    /// Returns to the previous page.
    func goBack()
    /// Shows a short notice; with `button`, a click on it runs `action` (Undo).
    func toast(_ text: String, button: String?, action: (() -> Void)?)
    /// Shows a short notice with Undo, which Ctrl+Z runs too.
    func toast(_ text: String, undo: @escaping () -> Void)
    /// The window, for dialogs that must be transient for it.
    var parentWindow: Window { get }
}

/// Builds the pages; the composition root supplies it, so Views never name adapters.
@MainActor
public struct PageFactory {
    /// Makes the home page.
    public var favorites: (Navigator) -> Page
    /// Makes the Scanner page.
    public var scanner: (Navigator) -> Page
    /// Makes the detail page for one device.
    public var detail: (Navigator, DeviceID) -> Page
    /// Opens the Preferences window over the given window.
    /// Opens Preferences over the window, on the page named (`PreferencesWindow.Area`), else the first.
    public var preferences: (Window, String?) -> Void
    /// Export Devices… (the Scanner's rows as shown) or Export Favorites…, by the list page in view.
    public var exportDevices: (Navigator, ExportScope) -> Void
    /// Makes the chat page of one device.
    public var chat: ((Navigator, DeviceID) -> Page)?
    /// Makes the connection bar shown under Favorites and the Scanner.
    public var connectionBar: ((Navigator) -> ConnectionBar)?
    /// Makes Act as a Device, and one advertisement's page.
    public var peripheral: ((Navigator) -> Page)?
    public var advertisement: ((Navigator, String) -> Page)?
    /// Makes the server editor.
    public var server: ((Navigator) -> Page)?
    /// Makes the Device Manager of a device on the network, at the address typed (as typed, for its title).
    public var networkDevice: ((Navigator, NetworkTarget, String) -> Page)?

    /// Creates a factory from the page builders.
    public init(favorites: @escaping (Navigator) -> Page,
                scanner: @escaping (Navigator) -> Page,
                detail: @escaping (Navigator, DeviceID) -> Page,
                preferences: @escaping (Window, String?) -> Void = { _, _ in },
                exportDevices: @escaping (Navigator, ExportScope) -> Void = { _, _ in },
                chat: ((Navigator, DeviceID) -> Page)? = nil,
                connectionBar: ((Navigator) -> ConnectionBar)? = nil,
                peripheral: ((Navigator) -> Page)? = nil,
                advertisement: ((Navigator, String) -> Page)? = nil,
                server: ((Navigator) -> Page)? = nil,
                networkDevice: ((Navigator, NetworkTarget, String) -> Page)? = nil) {
        self.favorites = favorites
        self.scanner = scanner
        self.detail = detail
        self.preferences = preferences
        self.exportDevices = exportDevices
        self.chat = chat
        self.connectionBar = connectionBar
        self.peripheral = peripheral
        self.advertisement = advertisement
        self.server = server
        self.networkDevice = networkDevice
    }
}

/// The parts every page shares: a vertical box with an AdwHeaderBar on top.
@MainActor
public final class PageFrame {
    /// The whole page.
    public let root = Box(vertical: true)
    /// The header bar.
    public let header: HeaderBar

    /// Creates a frame titled `title`; `backButton` adds the Back button at the start.
    public init(title: String, backButton: Bool) {
        header = HeaderBar(title: title)
        root.append(header)
        if backButton {
            let back = Button(icon: "go-previous-symbolic", accessibleName: L10n.tr("Back"))
            back.action("win.back")
            header.packStart(back)
        }
    }

    /// Places the page's content under the header bar.
    public func setContent(_ content: Widget) {
        content.expand()
        root.append(content)
    }
}
