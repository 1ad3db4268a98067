// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Makes the scanner a source names.
public enum ScannerFactory {
    /// A scanner for `source`. `demoCapture` is the path of the shipped demo capture, which the
    /// `demo` source replays with `DemoChatDevice` advertising alongside;
    /// `fast` replays captures without pacing; `record` writes what the session saw (a replay's
    /// events as they are replayed).
    public static func make(_ source: ScanSource, demoCapture: String?, fast: Bool = false, mode: ScanMode = .continuous,
                            record: PacketRecorder? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) -> DeviceScanner {
        switch source {
        case .btsnoop(let path):
            return ReplayScanner(path: path, realTime: !fast, record: record)
        case .demo:
            return DemoScanner(capture: demoCapture ?? "/nonexistent/demo.btsnoop", realTime: !fast, record: record)
        case .hci(let index):
            return HCIScanner(open: { () throws(ScanFailure) in try TransportOpener.rawHCI(index: index) },
                              resetController: false, mode: mode, record: record, log: log)
        case .auto:
            // BlueZ over D-Bus comes later; until then the first adapter that opens.
            return HCIScanner(open: { () throws(ScanFailure) in try firstAdapter() },
                              resetController: false, mode: mode, record: record, log: log)
        case .h4Unix(let path):
            return HCIScanner(open: { () throws(ScanFailure) in try TransportOpener.unix(path: path) }, mode: mode, record: record, log: log)
        case .h4TCP(let host, let port):
            return HCIScanner(open: { () throws(ScanFailure) in try TransportOpener.tcp(host: host, port: port) },
                              mode: mode, record: record, log: log)
        case .h4Serial(let device, let baud):
            return HCIScanner(open: { () throws(ScanFailure) in try TransportOpener.serial(device: device, baud: baud) },
                              mode: mode, record: record, log: log)
        }
    }

    private static func firstAdapter() throws(ScanFailure) -> HCITransport {
        var firstError: ScanFailure?
        for index in 0..<4 {
            do { return try TransportOpener.rawHCI(index: index) } catch { firstError = firstError ?? error }
        }
        throw firstError ?? .unavailable(L10n.tr("no adapter found"))
    }
}
