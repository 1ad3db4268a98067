// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// The fields of an advertisement's data or of its scan response, each typed in place, with
/// how many bytes they take of what the adapter sends.
@MainActor
final class AdvertisingFieldsEditor {
    typealias Part = AdvertisementEditorViewModel.Part

    let root = Box(vertical: true, spacing: 6)
    private let usage = Label().xalign(0)
    private let list: BoxedList
    private let name: EntryRow
    private let discoverable = Switch(accessibleName: L10n.tr("Discoverable"))
    private let txPower: EntryRow
    private let appearance: EntryRow
    private let uuids: EntryRow
    private let extra: BoxedList
    private let problems = Label().xalign(0).wrap()
    private let part: Part
    private let model: AdvertisementEditorViewModel
    private var shownCounts: [Int] = []
    private var extraRows: [(field: AdvertisementEditorViewModel.Field, widgets: [Widget])] = []
    private var setting = false

    init(part: Part, model: AdvertisementEditorViewModel) {
        self.part = part
        self.model = model
        let title = part == .data ? L10n.tr("Advertising Data") : L10n.tr("Scan Response")
        list = BoxedList(accessibleName: title)
        extra = BoxedList(accessibleName: part == .data ? L10n.tr("More Advertising Data") : L10n.tr("More Scan Response Data"))
        let fields = part == .data ? model.advertisement?.data : model.advertisement?.scanResponse
        name = EntryRow(title: L10n.tr("Name"), text: model.name(part))
        txPower = EntryRow(title: L10n.tr("Transmit Power (dBm, empty for none)"), text: fields?.txPower.map { String($0) } ?? "")
        appearance = EntryRow(title: L10n.tr("Appearance (empty for none)"), text: fields?.appearance.map { String(format: "0x%04X", $0) } ?? "")
        uuids = EntryRow(title: L10n.tr("Service UUIDs"), text: fields?.serviceUUIDs.map(\.text).joined(separator: ", ") ?? "")
        let heading = Label(title).xalign(0)
        heading.css("heading")
        usage.css("caption", "dim-text", "numeric")
        problems.css("error")
        let discoverableRow = ActionRow(title: L10n.tr("Discoverable"), subtitle: L10n.tr("The flags say: found by any scan, LE only"),
                                        control: discoverable, activates: true)
        for row in [name, discoverableRow, txPower, appearance, uuids] as [Widget] { list.append(row) }
        let add = Box(vertical: false, spacing: 6)
        let addManufacturer = Button(label: L10n.tr("Add Manufacturer Data"))
        let addService = Button(label: L10n.tr("Add Service Data"))
        let addRaw = Button(label: L10n.tr("Add Other Field"))
        let buttons = FlowBox(maxPerLine: 3, columnSpacing: 6, rowSpacing: 6)
        for button in [addManufacturer, addService, addRaw] {
            button.css("flat")
            buttons.append(button)
        }
        add.append(buttons)
        // What a phone sees, said once, under the advertising data: one name, or which two.
        nameNote.xalign(0).wrap()
        nameNote.css("dim-text")
        followServer.css("flat")
        followServer.align(.start, .center)
        followServer.onClicked { [weak self] in self?.model.followServerName() }
        let nameLine = Box(vertical: true, spacing: 4).append(nameNote, followServer)
        nameLine.isVisible = part == .data
        listProblems.css("error")
        listProblems.xalign(0).wrap()
        // Each message sits under the fields it is about, above the Add buttons.
        root.append(heading, usage, list, listProblems, nameLine, extra, problems, add)
        setting = true
        discoverable.isOn = fields?.flags != nil
        setting = false
        name.onChanged { [weak self] text in self?.model.setName(part, text) }
        txPower.onChanged { [weak self] text in self?.model.setTxPower(part, text) }
        appearance.onChanged { [weak self] text in self?.model.setAppearance(part, text) }
        uuids.onChanged { [weak self] text in self?.model.setUUIDs(part, text) }
        discoverable.onToggled { [weak self] on in
            guard let self, !self.setting else { return }
            self.model.setDiscoverable(self.part, on)
        }
        addManufacturer.onClicked { [weak self] in self?.model.addManufacturer(part) }
        addService.onClicked { [weak self] in self?.model.addServiceData(part) }
        addRaw.onClicked { [weak self] in self?.model.addRaw(part) }
    }

    private var fields: AdvertisingFields? { part == .data ? model.advertisement?.data : model.advertisement?.scanResponse }
    private let nameNote = Label()
    /// What is wrong with the name, power, appearance or UUIDs, under their list.
    private let listProblems = Label()
    private let followServer = Button(label: L10n.tr("Use the Server’s Name"))

    func render() {
        guard let fields else { return }
        usage.text = model.usage(part)
        // A name that follows the server's changes with it; one the user is typing is left alone.
        let shownName = model.name(part)
        if model.advertisement?.nameFollowsServer == true, name.text != shownName, !name.hasFocus { name.text = shownName }
        let note = part == .data ? model.nameNote : nil
        nameNote.text = note ?? ""
        nameNote.isVisible = note != nil
        followServer.isVisible = part == .data && model.canFollowServerName
        let flagged = model.problemFields(part)
        let listFields: [(EntryRow, AdvertisementEditorViewModel.Field, (AdvertisingFields.Field) -> Bool)] = [
            (name, .name(part), { $0 == .localName }), (txPower, .txPower(part), { $0 == .txPower }),
            (appearance, .appearance(part), { $0 == .appearance }),
            (uuids, .uuids(part), { if case .serviceUUIDs = $0 { return true } else { return false } }),
        ]
        for (row, field, concerns) in listFields {
            // Marked where its own text does not read, or where it is what does not fit.
            row.setInvalid(model.errors[field] != nil || flagged.contains(where: concerns))
        }
        let counts = [fields.manufacturerData.count, fields.serviceData.count, fields.raw.count]
        if counts != shownCounts {
            // An entry was added or removed: the list is made again from the advertisement.
            let grew = counts.reduce(0, +) > shownCounts.reduce(0, +) && !shownCounts.isEmpty
            shownCounts = counts
            rebuild(fields, focusLast: grew)
        }
        for (field, widgets) in extraRows {
            let bad = model.badControls[field] ?? []
            let tooLong = structure(of: field).map { flagged.contains($0) } ?? false
            for (i, widget) in widgets.enumerated() {
                guard widget is Entry || widget is TextArea else { continue }
                // Only the half that does not read is marked; the bytes where the field is what does not fit.
                let wrong = bad.isEmpty ? model.errors[field] != nil : bad.contains(i)
                widget.markInvalid(wrong || (tooLong && i == widgets.count - 1))
            }
        }
        let errors = model.errors.filter { AdvertisingFieldsEditor.belongs($0.key, to: part) }
        let listKeys = Set(listFields.map(\.1))
        let listMessages = errors.filter { listKeys.contains($0.key) }.sorted { "\($0.key)" < "\($1.key)" }.map(\.value)
            + model.problemMessages(part, about: { field in listFields.contains { $0.2(field) } }, andWhole: false)
        listProblems.text = listMessages.joined(separator: "\n")
        listProblems.isVisible = !listMessages.isEmpty
        let messages = errors.filter { !listKeys.contains($0.key) }.sorted { "\($0.key)" < "\($1.key)" }.map(\.value)
            + model.problemMessages(part, about: { field in !listFields.contains { $0.2(field) } }, andWhole: true)
        problems.text = messages.joined(separator: "\n")
        problems.isVisible = !messages.isEmpty
        extra.isVisible = counts.reduce(0, +) > 0
    }

    /// The AD structure a row of the extra list edits, to match a problem about it.
    private func structure(of field: AdvertisementEditorViewModel.Field) -> AdvertisingFields.Field? {
        guard let fields else { return nil }
        switch field {
        case .serviceData(_, let i): return fields.serviceData[safe: i].map { .serviceData($0.uuid) }
        case .manufacturer(_, let i): return fields.manufacturerData[safe: i].map { .manufacturerData($0.companyID) }
        case .raw(_, let i): return fields.raw[safe: i].map { .raw($0.type) }
        default: return nil
        }
    }

    static func belongs(_ field: AdvertisementEditorViewModel.Field, to part: Part) -> Bool {
        switch field {
        case .name(let p), .txPower(let p), .appearance(let p), .uuids(let p), .manufacturer(let p, _), .serviceData(let p, _), .raw(let p, _):
            return p == part
        default:
            return false
        }
    }

    private func rebuild(_ fields: AdvertisingFields, focusLast: Bool) {
        extra.removeAll()
        extraRows = []
        var last: Widget?
        let companies = model.companies
        for (i, m) in fields.manufacturerData.enumerated() {
            let company = DropDown(companies.map { "\($0.name) (0x\(String(format: "%04X", $0.id)))" },
                                   accessibleName: L10n.tr("Company"))
            company.searchable()
            company.selected = companies.firstIndex { $0.id == m.companyID } ?? 0
            let hex = Self.hexField(L10n.format("Manufacturer data of {}", model.company(m.companyID)), m.data)
            let apply = { [weak self, weak company, weak hex] in
                guard let self, let company, let hex, companies.indices.contains(company.selected) else { return }
                self.model.setManufacturer(self.part, i, company: companies[company.selected].id, hex: hex.text)
            }
            company.onSelected { _ in apply() }
            hex.onChanged { _ in apply() }
            last = add(row: [company, hex], title: L10n.tr("Manufacturer Data"), field: .manufacturer(part, i)) { [weak self] in
                self?.model.removeManufacturer(self?.part ?? .data, i)
            }
        }
        for (i, s) in fields.serviceData.enumerated() {
            let uuid = Entry(accessibleName: L10n.tr("Service data UUID"))
            uuid.text = s.uuid.text
            let hex = Self.hexField(L10n.format("Service data for {}", s.uuid.text), s.data)
            let apply = { [weak self, weak uuid, weak hex] in
                guard let self, let uuid, let hex else { return }
                self.model.setServiceData(self.part, i, uuid: uuid.text, hex: hex.text)
            }
            uuid.onChanged { _ in apply() }
            hex.onChanged { _ in apply() }
            last = add(row: [uuid, hex], title: L10n.tr("Service Data"), field: .serviceData(part, i)) { [weak self] in
                self?.model.removeServiceData(self?.part ?? .data, i)
            }
        }
        for (i, r) in fields.raw.enumerated() {
            let type = Entry(accessibleName: L10n.tr("AD type"))
            type.text = String(format: "0x%02X", r.type)
            let hex = Self.hexField(L10n.format("Bytes of the AD structure of type 0x{}", Hex.compact([r.type])), r.data)
            let apply = { [weak self, weak type, weak hex] in
                guard let self, let type, let hex else { return }
                self.model.setRaw(self.part, i, type: type.text, hex: hex.text)
            }
            type.onChanged { _ in apply() }
            hex.onChanged { _ in apply() }
            last = add(row: [type, hex], title: L10n.tr("Other AD Structure"), field: .raw(part, i)) { [weak self] in
                self?.model.removeRaw(self?.part ?? .data, i)
            }
        }
        if focusLast { last?.grabFocus() }
    }

    /// The bytes of a field, whose lines wrap: a narrow window shows them whole, not cut.
    private static func hexField(_ name: String, _ bytes: [UInt8]) -> TextArea {
        let hex = TextArea(accessibleName: name)
        hex.text = Hex.spaced(bytes)
        hex.css("favblue-hex")
        hex.tooltip(L10n.tr("Bytes in hex"))
        return hex
    }

    /// A row of an entry list: its caption, the controls, and Remove. Returns the first control.
    private func add(row controls: [Widget], title: String, field: AdvertisementEditorViewModel.Field,
                     remove: @escaping () -> Void) -> Widget {
        let caption = Label(title).xalign(0)
        caption.css("caption-heading")
        let line = Box(vertical: false, spacing: 6)
        // The key (a UUID, a company, a type) takes what it needs; the bytes take the rest,
        // so a narrow window still shows them.
        for (i, control) in controls.enumerated() {
            if i == 0, controls.count > 1, let key = control as? Entry { key.widthChars(6) }
            control.expand(horizontal: i == controls.count - 1 || controls.count == 1, vertical: false)
            // The bytes may wrap over lines; the key beside them keeps one line's height.
            control.align(.fill, .start)
            line.append(control)
        }
        let removeButton = Button(icon: "user-trash-symbolic", accessibleName: L10n.format("Remove {}", title))
        removeButton.css("flat")
        removeButton.tooltip(L10n.format("Remove {}", title))
        removeButton.onClicked(remove)
        removeButton.align(.center, .start)
        line.append(removeButton)
        let box = Box(vertical: true, spacing: 4).append(caption, line)
        box.margins(12)
        extra.append(ContentRow(box, accessibleName: title))
        extraRows.append((field, controls))
        return controls[0]
    }
}

extension Entry {
    /// Marks the entry as holding what does not read (the error style), or not.
    func setInvalid(_ invalid: Bool) { markInvalid(invalid) }
}
