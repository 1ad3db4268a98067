// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The detail page's GATT browser, while its device is connected: every service as a row that
/// opens onto its characteristics, each with its properties, descriptors, value (decoded, as
/// text, as hex) and Read, Copy and Write. "Read All Values" reads every readable one in turn.
/// Rows are kept and updated in place, so the focus and a half-typed value stay put.
@MainActor
final class DeviceServicesSection {
    let root = Box(vertical: true, spacing: 8)
    private let heading = Label(L10n.tr("Services")).xalign(0)
    private let readAll = Button(label: L10n.tr("Read All Values"))
    private let reading = Spinner()
    private let rediscover = Button(label: L10n.tr("Find Services Again"))
    private let status = Label().xalign(0).wrap()
    let list = BoxedList(accessibleName: L10n.tr("Services"))
    /// The services named by the connection alone, where the source cannot browse them.
    private let plain = Label().xalign(0).wrap()
    /// Serves a copy of the device from Act as a Device; at the section's end, after what it copies.
    private let cloneButton = Button(label: L10n.tr("_Clone This Device"), mnemonic: true)
    private let clone: DeviceCloneViewModel?
    private var cloneToken: ObservationToken?

    private let device: DeviceID
    let model: DeviceServicesViewModel
    private let connection: ConnectionViewModel?
    weak var navigator: Navigator?
    /// Brings the notification rates down to what they are while values stop coming.
    private var ticker: Task<Void, Never>?
    private var token: ObservationToken?
    private var connectionToken: ObservationToken?
    private var shape: [[UInt16]] = []
    private var rows: [UInt16: CharacteristicView] = [:]
    private var includeLabels: [UInt16: [(row: ContentRow, label: Label)]] = [:]
    /// Pairing where the device asks for it; set by the page.
    var pair: (() -> Void)?
    var canPair: () -> Bool = { false }

    init(device: DeviceID, model: DeviceServicesViewModel, connection: ConnectionViewModel?, navigator: Navigator,
         clone: DeviceCloneViewModel? = nil) {
        self.device = device
        self.clone = clone
        self.model = model
        self.connection = connection
        self.navigator = navigator
        heading.css("heading")
        heading.expand(horizontal: true, vertical: false)
        readAll.css("flat")
        rediscover.css("flat")
        status.css("dim-text")
        reading.accessibleLabel(L10n.tr("Reading all values"))
        let header = Box(vertical: false, spacing: 6).append(heading, reading, rediscover, readAll)
        root.append(header, status, list, plain)
        if clone != nil {
            _ = cloneButton.align(.end, .center)
            root.append(cloneButton)
            cloneButton.onClicked { [weak self] in self?.makeClone() }
            cloneToken = clone?.observe { [weak self] in self?.render() }
        }
        readAll.onClicked { [weak self] in self?.model.readAll() }
        rediscover.onClicked { [weak self] in self?.model.rediscover() }
        token = model.observe { [weak self] in self?.render() }
        connectionToken = connection?.observe { [weak self] in self?.render() }
        render()
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let self else { return }
                if self.rows.values.contains(where: \.isLogging) { self.render() }
            }
        }
    }

    isolated deinit { ticker?.cancel() }

    func render() {
        let mine = model.isConnected(device)
        root.isVisible = mine
        // Between connections the rows stay, hidden: the device's next connection shows the same
        // tree in them, opened where the user opened it, instead of building it all again (a
        // device that drops the link every minute made an hour's worth of rows).
        guard mine else { return }
        readAll.isVisible = model.canReadAll || model.isReadingAll
        // Never greyed out while reading: the button keeps the focus the user gave it (the
        // browser ignores a second press); the spinner says it is busy.
        readAll.isSensitive = model.canReadAll || model.isReadingAll
        // A spinner, not a longer label, while reading: the header must not grow wider than a phone.
        reading.isVisible = model.isReadingAll
        reading.isSpinning = model.isReadingAll
        rediscover.isVisible = model.canRediscover
        status.text = model.status ?? ""
        status.isVisible = model.status != nil
        let services = model.services
        let newShape = services.map { [$0.id] + $0.characteristics.map(\.handle) }
        if !services.isEmpty, newShape != shape { rebuild(services) }
        // In place: the identifiers come and go (Preferences) with every service left as it was.
        for (index, service) in services.enumerated() {
            if index < list.allRows.count, let row = list.allRows[index] as? ExpanderRow, row.subtitle != service.subtitle {
                row.subtitle = service.subtitle
            }
            for (include, text) in zip(includeLabels[service.id] ?? [], service.includes) where include.label.text != text {
                include.label.text = text
                include.row.accessibleLabel(text)
            }
        }
        for service in services {
            for characteristic in service.characteristics { rows[characteristic.handle]?.render(characteristic) }
        }
        // A source that cannot browse still names the services the connection found.
        let named = (connection?.services ?? []).map(ServiceText.name)
        plain.text = services.isEmpty && model.canRediscover ? named.joined(separator: "\n") : ""
        plain.isVisible = !plain.text.isEmpty
        list.isVisible = !services.isEmpty
        if let clone {
            cloneButton.isVisible = !services.isEmpty && clone.unavailableReason == nil
            // Kept focusable while busy: a second press is ignored by the model.
            cloneButton.isSensitive = clone.canClone(device) || clone.busy
        }
    }

    private func makeClone() {
        guard let clone, !clone.busy else { return }
        let device = self.device
        Task { [weak self] in
            let prepared = await clone.prepare(device)
            guard let navigator = self?.navigator else { return }
            switch prepared {
            case .failure(let problem):
                navigator.toast(problem.message, button: nil, action: nil)
            case .success(let setup):
                PendingSetupFlow.run(setup, navigator: navigator) { [weak navigator] text in
                    navigator?.toast(text, button: L10n.tr("_Open"), action: { [weak navigator] in navigator?.showPeripheral() })
                }
            }
        }
    }

    private func rebuild(_ services: [DeviceServicesViewModel.Service]) {
        shape = services.map { [$0.id] + $0.characteristics.map(\.handle) }
        list.removeAll()
        rows = [:]
        includeLabels = [:]
        for service in services {
            let row = ExpanderRow(title: service.title, subtitle: service.subtitle)
            for include in service.includes {
                let label = Label(include).xalign(0).wrap().margins(12)
                label.css("dim-text")
                let content = ContentRow(label, accessibleName: include)
                includeLabels[service.id, default: []].append((content, label))
                row.addRow(content)
            }
            for characteristic in service.characteristics {
                let view = CharacteristicView(characteristic, model: model, section: self)
                rows[characteristic.handle] = view
                row.addRow(view.row)
            }
            list.append(row)
        }
    }

    func pairWanted() { pair?() }

    /// Scrolls the log and plot of the characteristic at `handle` into view.
    func showLog(_ handle: UInt16) { rows[handle]?.showLog() }

    /// Opens the service that holds the characteristic whose value is at `handle`.
    func reveal(_ handle: UInt16) {
        guard let index = shape.firstIndex(where: { $0.dropFirst().contains(handle) }),
              index < list.allRows.count, let row = list.allRows[index] as? ExpanderRow else { return }
        row.isExpanded = true
    }
}
