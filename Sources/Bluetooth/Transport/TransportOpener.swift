// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CBlueZ
import Domain
import Foundation
import Localization

/// Opens the links a ScanSource names.
public enum TransportOpener {
    /// H4 over a unix stream socket.
    public static func unix(path: String) throws(ScanFailure) -> HCITransport {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .unavailable(String(cString: strerror(errno))) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { Glibc.close(fd); throw .badSource(L10n.format("socket path too long: {}", path)) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .unavailable(L10n.format("cannot connect to {}: {}", path, reason))
        }
        return FileDescriptorTransport(fd: fd, label: path)
    }

    /// H4 over TCP.
    public static func tcp(host: String, port: UInt16) throws(ScanFailure) -> HCITransport {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else {
            throw .unavailable(L10n.format("cannot resolve {}", host))
        }
        defer { freeaddrinfo(info) }
        var node: UnsafeMutablePointer<addrinfo>? = first
        var lastError = ""
        while let current = node {
            let fd = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            if fd >= 0 {
                if connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 {
                    var one: Int32 = 1
                    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return FileDescriptorTransport(fd: fd, label: "\(host):\(port)")
                }
                lastError = String(cString: strerror(errno))
                Glibc.close(fd)
            }
            node = current.pointee.ai_next
        }
        throw .unavailable(L10n.format("cannot connect to {}:{}: {}", host, port, lastError))
    }

    /// H4 over a serial line, raw 8N1 at `baud`.
    public static func serial(device: String, baud: Int) throws(ScanFailure) -> HCITransport {
        let fd = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            if code == EACCES || code == EPERM {
                throw .permissionDenied(L10n.format("{}: {} (add yourself to the “dialout” group)", device, reason))
            }
            throw .unavailable(L10n.format("{}: {}", device, reason))
        }
        var tio = termios()
        if tcgetattr(fd, &tio) == 0 {
            cfmakeraw(&tio)
            let speeds: [Int: speed_t] = [9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400),
                                          57600: speed_t(B57600), 115_200: speed_t(B115200), 230_400: speed_t(B230400),
                                          460_800: speed_t(B460800), 921_600: speed_t(B921600), 1_000_000: speed_t(B1000000)]
            guard let speed = speeds[baud] else {
                Glibc.close(fd)
                throw .badSource(L10n.format("unsupported baud rate {}", baud))
            }
            cfsetispeed(&tio, speed)
            cfsetospeed(&tio, speed)
            tio.c_cflag |= tcflag_t(CLOCAL | CREAD)
            tcsetattr(fd, TCSANOW, &tio)
        }
        return FileDescriptorTransport(fd: fd, label: device)
    }

    /// A raw HCI socket on adapter `index` through libbluetooth. The kernel keeps managing
    /// the adapter, so the scanner must not reset it.
    public static func rawHCI(index: Int) throws(ScanFailure) -> HCITransport {
        let fd = hci_open_dev(Int32(index))
        guard fd >= 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            switch code {
            case EAFNOSUPPORT:
                throw .unavailable(L10n.tr("this system has no Bluetooth support (the kernel offers no Bluetooth sockets)"))
            case EPERM, EACCES:
                throw .permissionDenied(L10n.format("hci{}: {}", index, reason))
            case ENODEV:
                throw .unavailable(L10n.format("there is no adapter hci{}", index))
            default:
                throw .unavailable(L10n.format("hci{}: {}", index, reason))
            }
        }
        // Receive every event and data packet, not just those the kernel forwards by default.
        var filter = hci_filter()
        hci_filter_clear(&filter)
        hci_filter_all_ptypes(&filter)
        hci_filter_all_events(&filter)
        if setsockopt(fd, Int32(SOL_HCI), HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size)) < 0 {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .permissionDenied(L10n.format("hci{}: {}", index, reason))
        }
        return FileDescriptorTransport(fd: fd, label: "hci\(index)")
    }
}
