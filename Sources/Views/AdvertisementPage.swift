// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// One advertisement: how it goes out, what it carries and what its scan response carries.
/// Each field is taken as it is typed; one that does not read is marked and says why beneath,
/// and keeps what was typed.
@MainActor
public final class AdvertisementPage: Page {
    // MARK: Widgets
    private let frame: PageFrame
    private let send = Switch(accessibleName: L10n.tr("Send"))
    private let sendRow: ActionRow
    private let label: EntryRow
    private let kind: DropDown
    private let extended = Switch(accessibleName: L10n.tr("Extended Advertising"))
    private let extendedRow: ActionRow
    private let primary: DropDown
    private let secondary: DropDown
    private let primaryRow: ActionRow
    private let secondaryRow: ActionRow
    private let interval: EntryRow
    private let duration: EntryRow
    private let general = BoxedList(accessibleName: L10n.tr("How It Is Sent"))
    private let generalProblems = Label().xalign(0).wrap()
    private let data: AdvertisingFieldsEditor
    private let response: AdvertisingFieldsEditor
    private let sensor: SensorReadingsEditor?
    private let remove = Button(label: L10n.tr("_Remove Advertisement"), mnemonic: true)

    // MARK: Borrowed
    private weak var navigator: Navigator?
    private let model: AdvertisementEditorViewModel

    // MARK: Owned
    private var token: ObservationToken?
    private var settingControls = false
    private static let kinds = Advertisement.Kind.allCases
    private static let primaries: [Advertisement.PHY] = [.le1M, .coded]
    private static let secondaries = Advertisement.PHY.allCases

    public init(navigator: Navigator, model: AdvertisementEditorViewModel) {
        self.navigator = navigator
        self.model = model
        let ad = model.advertisement
        frame = PageFrame(title: ad?.title ?? L10n.tr("Advertisement"), backButton: true)
        frame.header.packEnd(PrimaryMenu.make())
        sendRow = ActionRow(title: L10n.tr("Send"), subtitle: "", control: send, activates: true)
        label = EntryRow(title: L10n.tr("Name in FavBlue"), text: ad?.title ?? "")
        kind = DropDown(Self.kinds.map(PeripheralViewModel.kindWords), accessibleName: L10n.tr("Kind"))
        extendedRow = ActionRow(title: L10n.tr("Extended Advertising"), subtitle: L10n.tr("Bluetooth 5: more data, other PHYs, several at once"),
                                control: extended, activates: true)
        primary = DropDown(Self.primaries.map(\.name), accessibleName: L10n.tr("Primary PHY"))
        secondary = DropDown(Self.secondaries.map(\.name), accessibleName: L10n.tr("Secondary PHY"))
        primaryRow = ActionRow(title: L10n.tr("Primary PHY"), subtitle: "", control: primary)
        secondaryRow = ActionRow(title: L10n.tr("Secondary PHY"), subtitle: "", control: secondary)
        interval = EntryRow(title: L10n.tr("Interval (milliseconds)"), text: ad.map { Formats.decimal($0.intervalMilliseconds, digits: $0.intervalMilliseconds == $0.intervalMilliseconds.rounded() ? 0 : 1) } ?? "")
        duration = EntryRow(title: L10n.tr("Stop After (seconds, empty for never)"), text: ad?.durationSeconds.map { Formats.decimal($0, digits: $0 == $0.rounded() ? 0 : 2) } ?? "")
        data = AdvertisingFieldsEditor(part: .data, model: model)
        response = AdvertisingFieldsEditor(part: .scanResponse, model: model)
        sensor = ad?.sensor != nil ? SensorReadingsEditor(model: model) : nil
        settingControls = true
        kind.selected = Self.kinds.firstIndex(of: ad?.kind ?? .connectable) ?? 0
        extended.isOn = ad?.extended ?? false
        primary.selected = Self.primaries.firstIndex(of: ad?.primaryPHY ?? .le1M) ?? 0
        secondary.selected = Self.secondaries.firstIndex(of: ad?.secondaryPHY ?? .le1M) ?? 0
        settingControls = false
        let kindRow = ActionRow(title: L10n.tr("Kind"), subtitle: "", control: kind)
        for row in [sendRow, label, kindRow, extendedRow, primaryRow, secondaryRow, interval, duration] as [Widget] { general.append(row) }
        generalProblems.css("error")
        remove.css("destructive-action")
        remove.align(.center, .center)
        let column = Box(vertical: true, spacing: 12)
        column.append(general, generalProblems)
        if let sensor { column.append(sensor.root) }
        column.append(data.root, response.root, remove)
        column.margins(18)
        frame.setContent(ScrolledWindow(child: Clamp(maximumSize: 640, child: column)))

        send.onToggled { [weak self] on in
            guard let self, !self.settingControls else { return }
            Task { await self.model.setOn(on) }
        }
        label.onChanged { [weak self] text in
            self?.model.setLabel(text)
            self?.frame.header.titleLabel.title = text.isEmpty ? L10n.tr("Advertisement") : text
        }
        kind.onSelected { [weak self] i in
            guard let self, !self.settingControls else { return }
            self.model.setKind(Self.kinds[i])
        }
        extended.onToggled { [weak self] on in
            guard let self, !self.settingControls else { return }
            self.model.setExtended(on)
        }
        primary.onSelected { [weak self] i in
            guard let self, !self.settingControls else { return }
            self.model.setPHY(primary: true, Self.primaries[i])
        }
        secondary.onSelected { [weak self] i in
            guard let self, !self.settingControls else { return }
            self.model.setPHY(primary: false, Self.secondaries[i])
        }
        interval.onChanged { [weak self] in self?.model.setInterval($0) }
        duration.onChanged { [weak self] in self?.model.setDuration($0) }
        remove.onClicked { [weak self] in self?.confirmRemove() }
        token = model.observe { [weak self] in self?.render() }
        render()
    }

    public var root: Widget { frame.root }

    private func render() {
        if model.isGone {
            navigator?.goBack()
            return
        }
        settingControls = true
        send.isOn = model.isOn
        settingControls = false
        let ad = model.advertisement
        sendRow.subtitle = model.isOn ? L10n.tr("On air") : L10n.tr("Off")
        let isExtended = ad?.extended ?? false
        extendedRow.isSensitive = model.canExtend || isExtended
        primaryRow.isVisible = isExtended
        secondaryRow.isVisible = isExtended
        interval.setInvalid(model.errors[.interval] != nil)
        duration.setInvalid(model.errors[.duration] != nil)
        let messages = [model.errors[.interval], model.errors[.duration]].compactMap { $0 } + model.problems(.whole)
        generalProblems.text = messages.joined(separator: "\n")
        generalProblems.isVisible = !messages.isEmpty
        data.render()
        response.render()
        sensor?.render()
    }

    private func confirmRemove() {
        guard let navigator, let ad = model.advertisement else { return }
        let dialog = MessageDialog(parent: navigator.parentWindow, heading: L10n.tr("Remove This Advertisement?"),
                                   body: L10n.format("{} stops and is removed.", DeviceText.isolated(ad.title)))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("remove", label: L10n.tr("_Remove"), appearance: .destructive) { [weak self] in
            guard let self else { return }
            Task { await self.model.remove() }
        }
        dialog.setDefault("cancel", close: "cancel")
        dialog.present()
    }
}

/// A BTHome sensor's readings, which go out in its advertisement, plain or sealed with a key.
@MainActor
private final class SensorReadingsEditor {
    let root = Box(vertical: true, spacing: 6)
    private let list = BoxedList(accessibleName: L10n.tr("Sensor Readings"))
    private let temperature: EntryRow
    private let humidity: EntryRow
    private let battery: EntryRow
    private let encrypted = Switch(accessibleName: L10n.tr("Encrypted"))
    private let keyRow = PropertyRow(title: L10n.tr("Key for the receiving app"))
    private let copy = Button(icon: "edit-copy-symbolic", accessibleName: L10n.tr("Copy Key"))
    private let problems = Label().xalign(0).wrap()
    private let model: AdvertisementEditorViewModel
    private var setting = false

    init(model: AdvertisementEditorViewModel) {
        self.model = model
        let readings = model.advertisement?.sensor ?? BTHomeReadings()
        temperature = EntryRow(title: L10n.tr("Temperature (°C)"), text: Formats.decimal(readings.temperature, digits: 2))
        humidity = EntryRow(title: L10n.tr("Humidity (%)"), text: Formats.decimal(readings.humidity, digits: 2))
        battery = EntryRow(title: L10n.tr("Battery (%)"), text: Formats.number(readings.battery))
        let heading = Label(L10n.tr("Sensor Readings")).xalign(0)
        heading.css("heading")
        let explain = Label(L10n.tr("Sent as a BTHome v2 sensor, as FavBlue and Home Assistant read them. Changes go out when the advertisement starts again.")).xalign(0).wrap()
        explain.css("dim-text")
        copy.css("flat")
        copy.align(.center, .center)
        copy.tooltip(L10n.tr("Copy Key"))
        keyRow.addSuffix(copy)
        problems.css("error")
        for row in [temperature, humidity, battery, ActionRow(title: L10n.tr("Encrypted"), subtitle: L10n.tr("Readings only for whoever has the key"),
                                                           control: encrypted, activates: true), keyRow] as [Widget] { list.append(row) }
        root.append(heading, explain, list, problems)
        temperature.onChanged { [weak self] in self?.model.setTemperature($0) }
        humidity.onChanged { [weak self] in self?.model.setHumidity($0) }
        battery.onChanged { [weak self] in self?.model.setBattery($0) }
        encrypted.onToggled { [weak self] on in
            guard let self, !self.setting else { return }
            var key = [UInt8](repeating: 0, count: 16)
            for i in key.indices { key[i] = UInt8.random(in: 0...255) }
            self.model.setEncrypted(on, key: key)
        }
        copy.onClicked { [weak self] in
            guard let self, let key = self.model.sensorKey else { return }
            self.copy.copyToClipboard(key)
        }
    }

    func render() {
        setting = true
        encrypted.isOn = model.sensorKey != nil
        setting = false
        keyRow.isVisible = model.sensorKey != nil
        keyRow.value = model.sensorKey ?? ""
        temperature.setInvalid(model.errors[.temperature] != nil)
        humidity.setInvalid(model.errors[.humidity] != nil)
        battery.setInvalid(model.errors[.battery] != nil)
        let messages = [model.errors[.temperature], model.errors[.humidity], model.errors[.battery]].compactMap { $0 }
        problems.text = messages.joined(separator: "\n")
        problems.isVisible = !messages.isEmpty
    }
}
