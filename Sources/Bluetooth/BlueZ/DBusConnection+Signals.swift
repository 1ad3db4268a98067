// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGio
import Foundation

/// The signals a BlueZ client follows, already typed.
public enum DBusSignal: Equatable, Sendable {
    case interfacesAdded(path: String, interfaces: [String: [String: DBusValue]])
    case interfacesRemoved(path: String, interfaces: [String])
    case propertiesChanged(path: String, interface: String, changed: [String: DBusValue], invalidated: [String])
    /// The service's owner changed: empty `newOwner` means it went away (bluetoothd stopped).
    case nameOwnerChanged(name: String, oldOwner: String, newOwner: String)
}

extension DBusConnection {
    /// ObjectManager, PropertiesChanged (sent by `service` only) and the service's
    /// NameOwnerChanged, as one stream. Ends when the consumer stops or on close().
    public func signals(service: String) -> AsyncStream<DBusSignal> {
        let (stream, continuation) = AsyncStream<DBusSignal>.makeStream()
        let subscriber = SignalSubscriber(continuation: continuation)
        let subscribed = subscribe(subscriber, service: service)
        if !subscribed { continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(subscriber) }
        return stream
    }
}

/// One consumer's subscriptions; GLib holds a reference per subscription.
final class SignalSubscriber: @unchecked Sendable {
    let continuation: AsyncStream<DBusSignal>.Continuation
    var ids: [guint] = []
    init(continuation: AsyncStream<DBusSignal>.Continuation) { self.continuation = continuation }

    func deliver(path: String, member: String, parameters: OpaquePointer) {
        guard let items = (try? DBusValue(gvariant: parameters))?.items else { return }
        func map(_ value: DBusValue) -> [String: [String: DBusValue]] {
            (value.stringKeyed ?? [:]).mapValues { $0.stringKeyed ?? [:] }
        }
        let signal: DBusSignal?
        switch (member, items.count) {
        case ("InterfacesAdded", 2):
            signal = items[0].stringValue.map { .interfacesAdded(path: $0, interfaces: map(items[1])) }
        case ("InterfacesRemoved", 2):
            signal = items[0].stringValue.map {
                .interfacesRemoved(path: $0, interfaces: items[1].items?.compactMap(\.stringValue) ?? [])
            }
        case ("PropertiesChanged", 3):
            signal = items[0].stringValue.map {
                .propertiesChanged(path: path, interface: $0, changed: items[1].stringKeyed ?? [:],
                                   invalidated: items[2].items?.compactMap(\.stringValue) ?? [])
            }
        case ("NameOwnerChanged", 3):
            let texts = items.compactMap(\.stringValue)
            signal = texts.count == 3 ? .nameOwnerChanged(name: texts[0], oldOwner: texts[1], newOwner: texts[2]) : nil
        default:
            signal = nil
        }
        if let signal { continuation.yield(signal) }
    }
}
