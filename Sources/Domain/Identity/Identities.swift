// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The owner of who each device is: the bonds, and the resolution of private addresses
/// against them. The live model asks it at the door, so everything after keys on identities.
@MainActor
public final class Identities {
    private var resolver: PrivateAddressResolver

    /// Starts with `bonds`; `hashing` brings the AES.
    public init(hashing: any AddressHashing, bonds: [ResolvingBond] = []) {
        resolver = PrivateAddressResolver(hashing: hashing, bonds: bonds)
    }

    /// The bonds that resolve addresses now.
    public var bonds: [ResolvingBond] { resolver.bonds }

    /// Replaces the bonds (a pairing, a Forget, a key typed in).
    public func setBonds(_ bonds: [ResolvingBond]) { resolver.setBonds(bonds) }

    /// The identity behind `address`: its bond's identity when a bond resolves it, else the address itself.
    public func identity(of address: DeviceID) -> DeviceID { resolver.resolve(address) ?? address }
}
