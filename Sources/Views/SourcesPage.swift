// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// Preferences → Sources: this computer's source, then the others (gateways in other rooms
/// over MQTT, boards over H4), each with its state, a switch, Password… for a broker that
/// wants one, and Remove; Add Source… asks for a name and an address.
@MainActor
enum SourcesPage {
    static func make(_ model: SourcesViewModel, parent: Window) -> PreferencesPage {
        let page = PreferencesPage(title: L10n.ctx("Preferences page", "Sources"), icon: "network-workgroup-symbolic",
                                   name: PreferencesWindow.Area.sources)
        // One row needs no heading of its own: the row says "This Computer".
        let here = PreferencesGroup(title: "")
        let own = ActionRow(title: L10n.tr("This Computer"), subtitle: model.primary, control: Label())
        here.add(own)
        let others = PreferencesGroup(title: L10n.tr("Other Sources"))
        others.details = model.fromCommandLine
            ? L10n.tr("FavBlue was started with its radios named on the command line: changes here apply the next time it starts without them.")
            : L10n.tr("Gateways in other rooms that publish what they hear to an MQTT broker, and boards on the network.")
        let share = Switch(accessibleName: L10n.tr("Share with the House"))
        share.isOn = model.isSharing
        let shareRow = ActionRow(title: L10n.tr("Share with the House"), subtitle: model.sharingNote, control: share, activates: true)
        let sharing = PreferencesGroup(title: L10n.ctx("Preferences group", "Share"), rows: [shareRow])
        share.onToggled { [weak model] on in model?.isSharing = on }
        let rooms = PreferencesGroup(title: L10n.tr("Rooms"))
        page.add(here)
        page.add(others)
        page.add(rooms)
        page.add(sharing)
        // A row per room heard, its name as the user wants it said, added as gateways report.
        var roomRows: [String: ActionRow] = [:]
        func listRooms() {
            for room in model.rooms where roomRows[room] == nil {
                let name = Entry(accessibleName: L10n.format("Name of the room {}", room))
                name.placeholder(room)
                name.text = model.roomNames[room] ?? ""
                name.onChanged { [weak model] text in model?.setRoomName(text, for: room) }
                name.align(.end, .center)
                let row = ActionRow(title: room, subtitle: L10n.tr("As its gateway names it"), control: name)
                rooms.add(row)
                roomRows[room] = row
            }
            rooms.details = roomRows.isEmpty
                ? L10n.tr("Once a gateway reports, its room is listed here to be given a name of yours.")
                : L10n.tr("What each room is called in FavBlue, in its notifications and when shared with the house. Empty keeps the gateway’s name.")
        }
        var rows: [(name: String, row: ActionRow)] = []
        let add = Button(label: L10n.tr("_Add Source…"), mnemonic: true)
        add.align(.start, .center)
        let addRow = ActionRow(title: L10n.tr("Add a Source"), subtitle: L10n.tr("A broker (mqtt://…) or a board (h4-tcp:…)"), control: add)

        // One row per source, added and removed in place: the others, and the focus, stay put.
        func list(_ entry: SourcesViewModel.Entry) {
            let on = Switch(accessibleName: L10n.format("Use {}", entry.name))
            // Sources named on the command line are the only ones in use: a switch that looked on
            // beside "not in use" would say two things.
            on.isOn = entry.isOn && !model.fromCommandLine
            on.isSensitive = !model.fromCommandLine
            on.onToggled { [weak model] value in model?.setOn(value, entry.name) }
            let remove = Button(icon: "user-trash-symbolic", accessibleName: L10n.format("Remove {}", entry.name))
            remove.css("flat")
            let controls = Box(vertical: false, spacing: 6)
            if entry.broker != nil {
                let password = Button(label: L10n.tr("_Password…"), mnemonic: true)
                password.accessibleDescription(L10n.format("The password for {}, kept in the keyring", entry.name))
                password.onClicked { [weak model, weak password] in
                    guard let model else { return }
                    askPassword(entry.name, model: model, parent: parent) { password?.grabFocus() }
                }
                controls.append(password)
            }
            controls.append(remove, on)
            for control in [on, remove] { control.align(.center, .center) }
            let row = ActionRow(title: entry.name, subtitle: entry.address, control: controls)
            remove.onClicked { [weak model, weak row] in
                model?.remove(entry.name)
                if let row { others.remove(row) }
                rows.removeAll { $0.name == entry.name }
                // The row with the focus is gone: Add Source… takes it.
                add.grabFocus()
            }
            // Add a Source stays last.
            others.remove(addRow)
            others.add(row)
            others.add(addRow)
            rows.append((entry.name, row))
        }

        func refresh() {
            listRooms()
            shareRow.subtitle = model.sharingNote
            share.isSensitive = model.sharingBroker != nil || model.isSharing
            own.subtitle = [model.primary, model.state(of: L10n.tr("This Computer"))].filter { !$0.isEmpty }.joined(separator: "\n")
            for (name, row) in rows {
                let address = model.entries.first { $0.name == name }?.address ?? ""
                row.subtitle = address + "\n" + model.state(of: name)
                if model.hasProblem(name) { row.css("error") } else { row.removeCSS("error") }
            }
        }

        add.onClicked {
            askSource(model: model, parent: parent) { added in
                if added, let entry = model.entries.last {
                    list(entry)
                    refresh()
                }
                add.grabFocus()
            }
        }
        others.add(addRow)
        model.entries.forEach(list)
        refresh()
        // The states change while the page is open: said again every two seconds.
        func tick() {
            _ = MainLoop.after(seconds: 2) { [weak page] in
                guard page != nil else { return }
                refresh()
                tick()
            }
        }
        tick()
        return page
    }

    /// Add Source…: a name and an address, checked as they are typed.
    private static func askSource(model: SourcesViewModel, parent: Window, done: @escaping (Bool) -> Void) {
        let dialog = MessageDialog(parent: parent, heading: L10n.tr("Add a Source"),
                                   body: L10n.tr("Name it after its room, and give the address of its broker or board."))
        let name = Entry(accessibleName: L10n.tr("Name"))
        name.placeholder(L10n.tr("Name, such as Kitchen"))
        let address = Entry(accessibleName: L10n.tr("Address"))
        address.placeholder("mqtt://broker.local/home")
        address.activatesDefault()
        let reason = Label().xalign(0).wrap()
        reason.css("caption", "error")
        // Labels that stay once the fields are typed in (a placeholder goes), and the forms of
        // an address one to a line, never wrapped inside one.
        func caption(_ text: String) -> Label {
            let label = Label(text).xalign(0)
            label.css("caption-heading")
            return label
        }
        let forms = Box(vertical: true, spacing: 2)
        for form in [L10n.format("A broker: {}", "mqtt://[user@]host[:port]/prefix"),
                     L10n.format("A broker over TLS: {}", "mqtts://…"),
                     L10n.format("A board: {}", "h4-tcp:host:port")] {
            let line = Label(form).xalign(0)
            line.css("caption", "dim-text")
            forms.append(line)
        }
        dialog.setExtraChild(Box(vertical: true, spacing: 6).append(caption(L10n.tr("Name")), name, caption(L10n.tr("Address")), address,
                                                                    forms, reason))
        var added = false
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("add", label: L10n.tr("_Add"), appearance: .suggested) {
            model.add(name: name.text, address: address.text)
            added = true
        }
        dialog.setDefault("add", close: "cancel")
        let check = { [weak dialog] in
            let problem = model.problem(name: name.text, address: address.text)
            // Nothing typed yet is no mistake to point at.
            reason.text = name.text.isEmpty && address.text.isEmpty ? "" : problem ?? ""
            reason.isVisible = !reason.text.isEmpty
            dialog?.setEnabled("add", problem == nil)
        }
        name.onChanged { _ in check() }
        address.onChanged { _ in check() }
        check()
        dialog.onClosed { done(added) }
        dialog.present()
        name.grabFocus()
    }

    /// Password…: typed hidden, kept in the keyring, never shown again.
    private static func askPassword(_ source: String, model: SourcesViewModel, parent: Window, done: @escaping () -> Void) {
        let dialog = MessageDialog(parent: parent, heading: L10n.format("Password for {}", DeviceText.isolated(source)),
                                   body: L10n.tr("It is kept in your keyring, not in FavBlue’s settings."))
        let entry = Entry(accessibleName: L10n.tr("Password"))
        entry.hidesText()
        entry.activatesDefault()
        let reason = Label().xalign(0).wrap()
        reason.css("caption", "error")
        reason.isVisible = false
        dialog.setExtraChild(Box(vertical: true, spacing: 6).append(entry, reason))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("keep", label: L10n.tr("_Keep"), appearance: .suggested) {
            guard let problem = model.keepPassword(entry.text, for: source) else { return }
            let said = MessageDialog(parent: parent, heading: L10n.tr("The Password Was Not Kept"), body: problem)
            said.addResponse("close", label: L10n.tr("_Close"))
            said.setDefault("close", close: "close")
            said.present()
        }
        dialog.setDefault("keep", close: "cancel")
        entry.onChanged { [weak dialog] text in dialog?.setEnabled("keep", !text.isEmpty) }
        dialog.setEnabled("keep", false)
        dialog.onClosed { done() }
        dialog.present()
        entry.grabFocus()
    }
}
