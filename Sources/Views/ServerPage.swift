// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// The server editor: the name centrals read, each service with its UUID, and each
/// characteristic with its UUID, what centrals may do with it, the security each access needs,
/// its description and its value's format. Rows are made again only when a service or a
/// characteristic comes or goes; typing and toggling keep the focus where it is.
@MainActor
public final class ServerPage: Page {
    private let frame: PageFrame
    private let general = BoxedList(accessibleName: L10n.tr("Server"))
    private let name: EntryRow
    private let nameProblem = Label().xalign(0).wrap()
    private let services = Box(vertical: true, spacing: 18)
    private let empty = Label(L10n.tr("No service yet. Add one, then its characteristics.")).xalign(0).wrap()
    private let addService = Button(label: L10n.tr("_Add Service"), mnemonic: true)
    private let remove = Button(label: L10n.tr("_Remove Server"), mnemonic: true)

    private weak var navigator: Navigator?
    private let model: ServerEditorViewModel
    private var token: ObservationToken?
    private var shape: [Int]?
    private var editors: [ServiceEditor] = []

    public init(navigator: Navigator, model: ServerEditorViewModel) {
        self.navigator = navigator
        self.model = model
        // Opened to set one up: there is a server to edit from the start.
        if model.setup == nil { model.create() }
        frame = PageFrame(title: L10n.tr("Server"), backButton: true)
        frame.header.packEnd(PrimaryMenu.make())
        name = EntryRow(title: L10n.tr("Name Centrals Read"), text: model.setup?.name ?? "FavBlue")
        general.append(name)
        nameProblem.css("error")
        empty.css("dim-text")
        addService.align(.start, .center)
        remove.css("destructive-action")
        remove.align(.center, .center)
        let column = Box(vertical: true, spacing: 12)
        column.append(general, nameProblem, services, empty, addService, remove)
        column.margins(18)
        frame.setContent(ScrolledWindow(child: Clamp(maximumSize: 640, child: column)))
        name.onChanged { [weak self] in self?.model.setName($0) }
        addService.onClicked { [weak self] in
            guard let self else { return }
            let index = self.model.addService()
            self.render()
            self.editors[safe: index]?.uuid.grabFocus()
        }
        remove.onClicked { [weak self] in self?.confirmRemove() }
        token = model.observe { [weak self] in self?.render() }
        render()
    }

    public var root: Widget { frame.root }

    private func render() {
        guard let setup = model.setup else {
            navigator?.goBack()
            return
        }
        name.setInvalid(model.errors[.name] != nil)
        nameProblem.text = model.errors[.name] ?? ""
        nameProblem.isVisible = model.errors[.name] != nil
        let newShape = setup.services.map(\.characteristics.count)
        if newShape != shape {
            shape = newShape
            rebuild(setup)
        }
        for (s, service) in setup.services.enumerated() { editors[safe: s]?.render(service) }
        empty.isVisible = setup.services.isEmpty
    }

    private func rebuild(_ setup: ServerSetup) {
        for editor in editors { services.remove(editor.root) }
        editors = setup.services.indices.map { s in ServiceEditor(index: s, model: model, page: self) }
        for editor in editors { services.append(editor.root) }
    }

    /// After a characteristic of service `s` went: the focus goes to that service's Add Characteristic.
    fileprivate func removedCharacteristic(of s: Int) {
        render()
        editors[safe: s]?.add.grabFocus()
    }

    /// After service `s` went: the focus goes to Add Service.
    fileprivate func removedService() {
        render()
        addService.grabFocus()
    }

    fileprivate func addedCharacteristic(to s: Int, at c: Int) {
        render()
        editors[safe: s]?.characteristics[safe: c]?.open()
    }

    private func confirmRemove() {
        guard let navigator else { return }
        let dialog = MessageDialog(parent: navigator.parentWindow, heading: L10n.tr("Remove the Server?"),
                                   body: L10n.tr("It stops, connected devices lose it, and its services and values are deleted."))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("remove", label: L10n.tr("_Remove"), appearance: .destructive) { [weak self] in
            guard let self else { return }
            Task { await self.model.removeServer() }
        }
        dialog.setDefault("cancel", close: "cancel")
        dialog.present()
    }
}

/// One service: its UUID, its characteristics, Add Characteristic and Remove Service.
@MainActor
private final class ServiceEditor {
    let root = Box(vertical: true, spacing: 6)
    private let heading = Label().xalign(0).wrap()
    private let list: BoxedList
    let uuid: EntryRow
    private let problem = Label().xalign(0).wrap()
    let add = Button(label: L10n.tr("Add _Characteristic"), mnemonic: true)
    private let removeButton = Button(label: L10n.tr("Remove _Service"), mnemonic: true)
    private(set) var characteristics: [CharacteristicEditor] = []
    private let index: Int
    private let model: ServerEditorViewModel

    init(index: Int, model: ServerEditorViewModel, page: ServerPage) {
        self.index = index
        self.model = model
        let service = model.setup?.services[safe: index]
        list = BoxedList(accessibleName: service.map { model.title($0.uuid) } ?? "")
        uuid = EntryRow(title: L10n.tr("Service UUID"), text: service?.uuid.text ?? "")
        heading.css("heading")
        problem.css("error")
        list.append(uuid)
        for c in (service?.characteristics ?? []).indices {
            let editor = CharacteristicEditor(service: index, index: c, model: model, page: page)
            characteristics.append(editor)
            list.append(editor.row)
        }
        removeButton.css("flat")
        add.css("flat")
        let buttons = Box(vertical: false, spacing: 6).append(add, removeButton)
        root.append(heading, list, problem, buttons)
        uuid.onChanged { [weak model] in model?.setServiceUUID(index, $0) }
        add.onClicked { [weak model, weak page] in
            guard let model else { return }
            let c = model.addCharacteristic(to: index)
            page?.addedCharacteristic(to: index, at: c)
        }
        removeButton.onClicked { [weak model, weak page] in
            model?.removeService(index)
            page?.removedService()
        }
    }

    func render(_ service: ServedService) {
        // The header follows what the field holds: a UUID that does not read is shown as typed, not the last good one's name.
        let typed = uuid.text.trimmingCharacters(in: .whitespaces)
        let title = model.errors[.service(index)] != nil && !typed.isEmpty ? DeviceText.shown(typed) : model.title(service.uuid)
        heading.text = title
        list.accessibleLabel(title)
        add.accessibleLabel(L10n.format("Add a Characteristic to {}", title))
        removeButton.accessibleLabel(L10n.format("Remove {}", title))
        uuid.setInvalid(model.errors[.service(index)] != nil)
        var messages = [model.errors[.service(index)]].compactMap { $0 }
        for (c, characteristic) in service.characteristics.enumerated() {
            characteristics[safe: c]?.render(characteristic)
            if let error = model.errors[.characteristic(index, c)] { messages.append(error) }
        }
        problem.text = messages.joined(separator: "\n")
        problem.isVisible = !messages.isEmpty
    }
}

/// One characteristic, as a row that opens onto its settings.
@MainActor
private final class CharacteristicEditor {
    let row = ExpanderRow(title: "")
    private let uuid: EntryRow
    private let switches: [Switch]
    private let switchRows: [ActionRow]
    private let reading: DropDown
    private let writing: DropDown
    private let readingRow: ActionRow
    private let writingRow: ActionRow
    private let description: EntryRow
    private let format: DropDown
    /// The Presentation Format's unit and power of ten, shown while it has a format.
    private let unit: DropDown
    private let exponent = SpinButton(min: -10, max: 10, step: 1, accessibleName: L10n.tr("Exponent"))
    private let unitRow: ActionRow
    private let exponentRow: ActionRow
    private let remove = Button(label: L10n.tr("Remove C_haracteristic"), mnemonic: true)
    private let service: Int
    private let index: Int
    private let model: ServerEditorViewModel
    private var setting = false
    private static let securities = AttributeSecurity.allCases
    private static let formats = ServerEditorViewModel.ValueFormat.allCases

    init(service: Int, index: Int, model: ServerEditorViewModel, page: ServerPage) {
        self.service = service
        self.index = index
        self.model = model
        let c = model.setup?.services[safe: service]?.characteristics[safe: index]
        uuid = EntryRow(title: L10n.tr("Characteristic UUID"), text: c?.uuid.text ?? "")
        let titles = [L10n.tr("Read"), L10n.tr("Write"), L10n.tr("Write Without Response"), L10n.tr("Notify"), L10n.tr("Indicate")]
        switches = titles.map { Switch(accessibleName: $0) }
        switchRows = zip(titles, switches).map { ActionRow(title: $0, subtitle: "", control: $1, activates: true) }
        reading = DropDown(Self.securities.map(\.words), accessibleName: L10n.tr("Reading Needs"))
        writing = DropDown(Self.securities.map(\.words), accessibleName: L10n.tr("Writing Needs"))
        description = EntryRow(title: L10n.tr("Description (empty for none)"), text: c?.userDescription ?? "")
        format = DropDown(Self.formats.map(\.words), accessibleName: L10n.tr("Value Format"))
        row.addRow(uuid)
        for switchRow in switchRows { row.addRow(switchRow) }
        readingRow = ActionRow(title: L10n.tr("Reading Needs"), subtitle: "", control: reading)
        writingRow = ActionRow(title: L10n.tr("Writing Needs"), subtitle: "", control: writing)
        row.addRow(readingRow)
        row.addRow(writingRow)
        row.addRow(description)
        row.addRow(ActionRow(title: L10n.tr("Value Format"), subtitle: L10n.tr("How the value is typed, and what connected devices are told it is"),
                             control: format))
        unit = DropDown(ServerEditorViewModel.units.map(ServerEditorViewModel.unitWords), accessibleName: L10n.tr("Unit"))
        unitRow = ActionRow(title: L10n.tr("Unit"), subtitle: L10n.tr("What connected devices are told the value measures"), control: unit)
        exponentRow = ActionRow(title: L10n.tr("Exponent"), subtitle: L10n.tr("The value is multiplied by ten to this power: −2 sends hundredths"),
                                control: exponent)
        row.addRow(unitRow)
        row.addRow(exponentRow)
        // Solid: a flat destructive button in libadwaita 1.2 draws white text on the row (under 2:1).
        remove.css("destructive-action")
        remove.align(.end, .center)
        remove.margins(6)
        row.addRow(ContentRow(remove, accessibleName: L10n.tr("Remove Characteristic")))

        uuid.onChanged { [weak model] in model?.setCharacteristicUUID(service, index, $0) }
        for (property, toggle) in zip(ServerEditorViewModel.properties, switches) {
            toggle.onToggled { [weak self] on in
                guard let self, !self.setting else { return }
                self.model.setProperty(service, index, property, on)
            }
        }
        reading.onSelected { [weak self] i in
            guard let self, !self.setting else { return }
            self.model.setSecurity(service, index, reading: true, Self.securities[i])
        }
        writing.onSelected { [weak self] i in
            guard let self, !self.setting else { return }
            self.model.setSecurity(service, index, reading: false, Self.securities[i])
        }
        description.onChanged { [weak model] in model?.setDescription(service, index, $0) }
        format.onSelected { [weak self] i in
            guard let self, !self.setting else { return }
            self.model.setFormat(service, index, Self.formats[i])
        }
        unit.onSelected { [weak self] i in
            guard let self, !self.setting, ServerEditorViewModel.units.indices.contains(i) else { return }
            self.model.setUnit(service, index, ServerEditorViewModel.units[i])
        }
        exponent.onChanged { [weak self] value in
            guard let self, !self.setting else { return }
            self.model.setExponent(service, index, value)
        }
        remove.onClicked { [weak model, weak page] in
            model?.removeCharacteristic(service, index)
            page?.removedCharacteristic(of: service)
        }
    }

    /// Opens the row and puts the keyboard in its UUID (a characteristic just added).
    func open() {
        row.isExpanded = true
        uuid.grabFocus()
    }

    func render(_ c: ServedCharacteristic) {
        let typed = uuid.text.trimmingCharacters(in: .whitespaces)
        let title = model.errors[.characteristic(service, index)] != nil && !typed.isEmpty ? DeviceText.shown(typed) : model.title(c.uuid)
        if row.title != title { row.title = title }
        row.subtitle = c.properties.words.joined(separator: L10n.tr(", "))
        uuid.setInvalid(model.errors[.characteristic(service, index)] != nil)
        setting = true
        defer { setting = false }
        for (property, toggle) in zip(ServerEditorViewModel.properties, switches) {
            toggle.isOn = c.properties.contains(property)
        }
        let names = [L10n.format("{} can be read", title), L10n.format("{} can be written", title),
                     L10n.format("{} can be written without response", title), L10n.format("{} notifies", title),
                     L10n.format("{} indicates", title)]
        for (toggle, name) in zip(switches, names) { toggle.accessibleLabel(name) }
        // What no central can do needs nothing.
        readingRow.isVisible = c.properties.contains(.read)
        writingRow.isVisible = !c.properties.isDisjoint(with: [.write, .writeWithoutResponse])
        reading.selected = Self.securities.firstIndex(of: c.readSecurity) ?? 0
        writing.selected = Self.securities.firstIndex(of: c.writeSecurity) ?? 0
        reading.accessibleLabel(L10n.format("What reading {} needs", title))
        writing.accessibleLabel(L10n.format("What writing {} needs", title))
        format.selected = Self.formats.firstIndex(of: model.format(c)) ?? 0
        format.accessibleLabel(L10n.format("Format of {}", title))
        // A unit and a power of ten mean something only beside a format.
        unitRow.isVisible = c.presentation != nil
        exponentRow.isVisible = c.presentation != nil
        unit.selected = ServerEditorViewModel.units.firstIndex(of: model.unit(c)) ?? 0
        exponent.value = model.exponent(c)
        unit.accessibleLabel(L10n.format("Unit of {}", title))
        exponent.accessibleLabel(L10n.format("Exponent of {}", title))
        remove.accessibleLabel(L10n.format("Remove {}", title))
    }
}
