// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Play Sound: connects to a tracker that lets strangers ring it, writes its start command,
/// and lets go. An AirTag's sound characteristic takes 0xAF, as AirGuard sends it
/// (seemoo-lab/AirGuard, AirTag.kt: service 7DFC9000-…, characteristic 7DFC9001-…). A tag
/// that follows DULT serves the non-owner service 15190001-…; its control point 8E0C0001-…
/// takes Sound_Start, opcode 0x0300, little-endian (IETF draft-ietf-dult-accessory-protocol,
/// "Non-owner controls"). Google's Find My Device network requires that service of its tags.
@MainActor
public final class TrackerSoundPlayer {
    static let airTagSound = BluetoothUUID("7DFC9001-7D1C-4951-86AA-8D9728F8D66C")!
    static let airTagStart: [UInt8] = [0xAF]
    static let dultControlPoint = BluetoothUUID("8E0C0001-1D68-FB92-BF61-48377421680E")!
    static let dultSoundStart: [UInt8] = [0x00, 0x03]

    private let sessions: ChatSessions
    private let browser: GATTBrowser
    /// How long to wait for the connection and the tracker's services.
    private let patience: Duration

    public init(sessions: ChatSessions, browser: GATTBrowser, patience: Duration = .seconds(20)) {
        self.sessions = sessions
        self.browser = browser
        self.patience = patience
    }

    /// Whether FavBlue knows how to ring this kind of tracker.
    public static func canPlay(_ kind: TrackerKind) -> Bool { [.airTag, .dultTag, .findMyDeviceTag].contains(kind) }

    /// Rings `device`; nil once it was asked to, else why not, in words.
    public func play(on device: DeviceID) async -> String? {
        sessions.connect(to: device)
        defer { sessions.disconnect() }
        await settled(device)
        if case .failed(let why) = browser.phase, browser.device == device { return L10n.format("It could not be asked: {}", why) }
        guard browser.device == device, browser.phase == .ready else {
            return L10n.tr("It did not answer. Move closer to where you think it is, and try again.")
        }
        let characteristics = browser.services.flatMap(\.characteristics)
        let command: (handle: UInt16, bytes: [UInt8])
        if let sound = characteristics.first(where: { $0.uuid == Self.airTagSound }) {
            command = (sound.valueHandle, Self.airTagStart)
        } else if let control = characteristics.first(where: { $0.uuid == Self.dultControlPoint }) {
            command = (control.valueHandle, Self.dultSoundStart)
        } else {
            return L10n.tr("It offers no sound to strangers.")
        }
        do {
            try await sessions.connector.writeValue(command.bytes, at: command.handle, withResponse: true)
            return nil
        } catch {
            return L10n.format("It could not be asked: {}", error.message)
        }
    }

    /// Returns once the browser has `device`'s services or failed on it, as the browser says
    /// so, or once `patience` runs out.
    private func settled(_ device: DeviceID) async {
        let browser = self.browser
        func done() -> Bool {
            guard browser.device == device else { return false }
            if case .failed = browser.phase { return true }
            return browser.phase == .ready
        }
        guard !done() else { return }
        var token: ObservationToken?
        var timer: Task<Void, Never>?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            var told = false
            let tell: @MainActor () -> Void = {
                guard !told else { return }
                told = true
                continuation.resume()
            }
            token = browser.observe { if done() { tell() } }
            timer = Task { @MainActor [patience] in
                try? await Task.sleep(for: patience)
                tell()
            }
        }
        timer?.cancel()
        token?.invalidate()
    }
}
