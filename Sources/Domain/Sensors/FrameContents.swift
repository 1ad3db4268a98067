// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// What a partial frame carries, told from its bytes without decoding it: a MiBeacon's object
/// types, the probe pair a grill thermometer's frame is for. A frame that a later one of the same
/// kind carries all of is never decoded, as its readings would be replaced anyway.
struct FrameContents: Equatable, Sendable {
    /// The family and, within it, the model whose frames these are: contents of different kinds never compare.
    let family: ObjectIdentifier
    let kind: UInt32
    /// A frame that speaks for every reading the device has (ThermoBeacon's readings frame).
    let everything: Bool
    private var items = SIMD4<UInt32>()
    private var count = 0

    init(_ family: SensorFamily.Type, kind: UInt32 = 0, everything: Bool = false) {
        self.family = ObjectIdentifier(family)
        self.kind = kind
        self.everything = everything
    }

    /// Adds one thing carried (an object's type and length); false when there are more than it
    /// holds, and then the frame must be decoded as any other.
    mutating func add(_ item: UInt32) -> Bool {
        if (0..<count).contains(where: { items[$0] == item }) { return true }
        guard count < items.scalarCount else { return false }
        items[count] = item
        count += 1
        return true
    }

    /// Whether this frame carries all that `older` carried, so `older` need not be decoded.
    func covers(_ older: FrameContents) -> Bool {
        guard family == older.family, kind == older.kind else { return false }
        if everything { return true }
        if older.everything { return false }
        return (0..<older.count).allSatisfy { j in (0..<count).contains { items[$0] == older.items[j] } }
    }
}
