// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// The server on the Act as a Device page: whether it serves, and each characteristic's value
/// to set and to send to the centrals that follow it.
@MainActor
final class PeripheralServerSection {
    // MARK: Widgets
    let root = Box(vertical: true, spacing: 12)
    private let heading = Label(L10n.tr("Server")).xalign(0)
    private let note = Label().xalign(0).wrap()
    private let controls = PropertyList(accessibleName: L10n.tr("Server"))
    private let serve = Switch(accessibleName: L10n.tr("Serve"))
    private let serveRow: ActionRow
    private let services = BoxedList(accessibleName: L10n.tr("Served Services"))
    private let empty = Label(L10n.tr("No server is set up. Set one up here, or let the Heart Rate Monitor, Battery or FavBlue Chat preset, Import… or Clone This Device on a connected device’s page bring one.")).xalign(0).wrap()
    /// Opens the server editor: Set Up a Server with none, Edit Server with one.
    private let edit = Button(label: L10n.tr("_Set Up a Server"), mnemonic: true)
    private var editLabel = ""

    // MARK: Owned
    private let model: PeripheralViewModel
    private var shownShape: [String] = []
    private var characteristics: [ServedCharacteristicID: CharacteristicEditor] = [:]
    private var settingSwitch = false

    init(model: PeripheralViewModel, openEditor: @escaping () -> Void) {
        self.model = model
        serveRow = ActionRow(title: L10n.tr("Serve"), subtitle: "", control: serve, activates: true)
        heading.css("heading")
        note.css("dim-text")
        empty.css("dim-text")
        controls.append(serveRow)
        heading.expand(horizontal: true, vertical: false)
        edit.css("flat")
        edit.onClicked(openEditor)
        root.append(Box(vertical: false, spacing: 6).append(heading, edit), note, controls, empty, services)
        serve.onToggled { [weak self] on in
            guard let self, !self.settingSwitch else { return }
            Task { await self.model.setServing(on) }
        }
    }

    func render() {
        let has = model.hasServer
        let label = has ? L10n.tr("_Edit Server") : L10n.tr("_Set Up a Server")
        if editLabel != label {
            editLabel = label
            edit.setLabel(label)
        }
        empty.isVisible = !has
        controls.isVisible = has
        services.isVisible = has
        settingSwitch = true
        serve.isOn = model.serving
        settingSwitch = false
        note.isVisible = model.serverProblem != nil
        note.text = model.serverProblem ?? ""
        if model.serverProblem != nil { note.css("error") } else { note.removeCSS("error") }
        serveRow.subtitle = model.findable ?? model.serverTitle.map { L10n.format("As {}", $0) } ?? ""
        let rows = model.services
        let shape = rows.flatMap { [$0.title] + $0.characteristics.map { "\($0.id.service).\($0.id.characteristic) \($0.title)" } }
        if shape != shownShape {
            // A new setup: its rows are made anew. Values change in place below.
            shownShape = shape
            services.removeAll()
            characteristics = [:]
            for service in rows {
                let expander = ExpanderRow(title: service.title)
                expander.isExpanded = true
                for c in service.characteristics {
                    let editor = CharacteristicEditor(c, model: model)
                    characteristics[c.id] = editor
                    expander.addRow(editor.row)
                }
                services.append(expander)
            }
        }
        for service in rows {
            for c in service.characteristics { characteristics[c.id]?.show(c) }
        }
    }
}

/// One served characteristic: its value, typed as the GATT browser types values, and Send.
@MainActor
private final class CharacteristicEditor {
    let row: ContentRow
    private let box = Box(vertical: true, spacing: 6)
    private let title = Label().xalign(0).wrap()
    private let details = Label().xalign(0).wrap()
    private let entry: Entry
    private let set = Button(label: L10n.tr("Set Value"))
    private let send: Button
    private let said = Label().xalign(0).wrap()
    private let model: PeripheralViewModel
    private let id: ServedCharacteristicID
    private var format: ValueInputFormat
    /// The value last shown, so what the user is typing is never replaced while the value holds.
    private var shownValue: String?

    init(_ c: PeripheralViewModel.CharacteristicRow, model: PeripheralViewModel) {
        self.model = model
        id = c.id
        format = c.format
        entry = Entry(accessibleName: L10n.format("Value of {}", c.title))
        send = Button(label: L10n.tr("Send"))
        send.accessibleLabel(L10n.format("Send {} to the connected devices that follow it", c.title))
        row = ContentRow(box, accessibleName: c.title)
        title.css("heading")
        details.css("caption", "dim-text")
        said.css("caption")
        entry.expand(horizontal: true, vertical: false)
        // The buttons under the value: beside it, they left a phone's width a sliver to type in.
        let buttons = Box(vertical: false, spacing: 6)
        buttons.append(set, send)
        _ = buttons.align(.end, .center)
        box.append(title, details, entry, buttons, said)
        box.margins(12)
        entry.onActivate { [weak self] in self?.apply() }
        set.onClicked { [weak self] in self?.apply() }
        send.onClicked { [weak self] in
            guard let self else { return }
            Task {
                // What is typed is sent: the value is set first.
                if let problem = await self.applied() { return self.say(problem, error: true) }
                self.say(await self.model.send(self.id), error: false)
            }
        }
        entry.onChanged { [weak self] _ in self?.said.text = "" }
        show(c)
    }

    func show(_ c: PeripheralViewModel.CharacteristicRow) {
        title.text = c.title
        format = c.format
        let kind: String
        switch c.format {
        case .text: kind = L10n.format("{} · typed as text", c.properties)
        case .hex: kind = L10n.format("{} · typed as hex", c.properties)
        case .number: kind = L10n.format("{} · typed as a number", c.properties)
        }
        details.text = kind
        send.isVisible = c.canSend
        // A value that changed (a central wrote it) shows, unless the user is typing another.
        if c.value != shownValue, !entry.hasFocus || shownValue == nil {
            entry.text = c.value
            shownValue = c.value
        }
    }

    private func apply() {
        Task { if let problem = await applied() { say(problem, error: true) } else { say(L10n.tr("Connected devices read this value from now on."), error: false) } }
    }

    /// Sets the value typed; one that does not read is marked in its field, and what centrals
    /// read is said to be the last good value, until it is put right.
    private func applied() async -> String? {
        let problem = await model.setValue(entry.text, of: id, as: format)
        entry.setInvalid(problem != nil)
        if problem == nil { shownValue = entry.text }
        guard let problem else { return nil }
        // Where there was a good value, what centrals read meanwhile is said too.
        guard let last = shownValue, !last.isEmpty else { return problem }
        return L10n.format("{} Connected devices still read {}.", problem, "“\(DeviceText.isolated(last))”")
    }

    private func say(_ text: String, error: Bool) {
        said.text = text
        if error { said.css("error") } else { said.removeCSS("error") }
    }
}
