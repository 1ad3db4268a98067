// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// A device reached over the network (MCUmgr's SMP over UDP): its Device Manager, on a page of
/// its own, titled with the address the user typed.
@MainActor
public final class NetworkDevicePage: Page {
    public let root: Widget
    private let section: DeviceManagerSection
    private let model: DeviceManagerViewModel

    public init(navigator: Navigator, model: DeviceManagerViewModel) {
        self.model = model
        let frame = PageFrame(title: model.networkName ?? "", backButton: true)
        frame.header.packEnd(PrimaryMenu.make())
        section = DeviceManagerSection(model: model, navigator: navigator)
        section.root.margins(18)
        frame.setContent(ScrolledWindow(child: Clamp(maximumSize: 600, child: section.root)))
        root = frame.root
    }

    public func adapt(narrow: Bool) { section.adapt(narrow: narrow) }

    /// Asks for a device's address and opens its page; the address is checked as it is typed.
    static func ask(navigator: Navigator, open: @escaping (NetworkTarget, String) -> Void) {
        let dialog = MessageDialog(parent: navigator.parentWindow, heading: L10n.tr("Connect to a Network Device"),
                                   body: L10n.tr("A device whose MCUmgr listens on UDP, as Zephyr’s SMP server does on port 1337, or a board on a serial line: type its device, such as /dev/ttyACM0."))
        let entry = Entry(accessibleName: L10n.tr("Address"))
        entry.placeholder("192.168.1.20")
        let problem = Label().xalign(0).wrap()
        problem.css("error")
        problem.isVisible = false
        dialog.setExtraChild(Box(vertical: true, spacing: 6).append(entry, problem))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("connect", label: L10n.tr("C_onnect"), appearance: .suggested) {
            guard let target = try? NetworkTarget(parsing: entry.text) else { return }
            open(target, entry.text.trimmingCharacters(in: .whitespaces))
        }
        dialog.setDefault("connect", close: "cancel")
        dialog.setEnabled("connect", false)
        entry.onChanged { text in
            let typed = text.trimmingCharacters(in: .whitespaces)
            var why: String?
            do throws(NetworkTargetProblem) { _ = try NetworkTarget(parsing: typed) } catch { why = typed.isEmpty ? nil : error.message }
            dialog.setEnabled("connect", !typed.isEmpty && why == nil)
            problem.text = why ?? ""
            problem.isVisible = why != nil
        }
        entry.onActivate {
            if (try? NetworkTarget(parsing: entry.text)) != nil { dialog.respond("connect") }
        }
        dialog.present()
    }
}
