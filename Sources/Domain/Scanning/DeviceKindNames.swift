// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// Names for a BR/EDR class of device (Assigned Numbers, §2.8).
public enum DeviceClass {
    /// "Audio/Video: Headphones", say; the major class alone when the minor is unknown.
    public static func name(_ cod: UInt32) -> String {
        let major = (cod >> 8) & 0x1F
        let minor = (cod >> 2) & 0x3F
        let majorName: String
        var minorName: String?
        switch major {
        case 0x01:
            majorName = L10n.tr("Computer")
            minorName = [1: L10n.tr("Desktop"), 2: L10n.tr("Server"), 3: L10n.tr("Laptop"), 5: L10n.tr("Palm-size"),
                         6: L10n.tr("Wearable"), 7: L10n.tr("Tablet")][minor]
        case 0x02:
            majorName = L10n.tr("Phone")
            minorName = [1: L10n.tr("Cellular"), 2: L10n.tr("Cordless"), 3: L10n.tr("Smartphone")][minor]
        case 0x03: majorName = L10n.tr("Network access point")
        case 0x04:
            majorName = L10n.tr("Audio/Video")
            minorName = [1: L10n.tr("Headset"), 2: L10n.tr("Hands-free"), 4: L10n.tr("Microphone"), 5: L10n.tr("Loudspeaker"),
                         6: L10n.tr("Headphones"), 7: L10n.tr("Portable audio"), 8: L10n.tr("Car audio"),
                         10: L10n.tr("HiFi audio"), 11: L10n.tr("Video recorder"), 12: L10n.tr("Camera"),
                         15: L10n.tr("Video display and loudspeaker")][minor]
        case 0x05:
            majorName = L10n.tr("Peripheral")
            minorName = [16: L10n.tr("Keyboard"), 32: L10n.tr("Pointing device"), 48: L10n.tr("Keyboard and pointing device")][minor & 0x30]
        case 0x06: majorName = L10n.tr("Imaging")
        case 0x07:
            majorName = L10n.tr("Wearable")
            minorName = [1: L10n.tr("Wristwatch"), 4: L10n.tr("Helmet"), 5: L10n.tr("Glasses")][minor]
        case 0x08: majorName = L10n.tr("Toy")
        case 0x09: majorName = L10n.tr("Health")
        default: majorName = L10n.tr("Uncategorized")
        }
        guard let minorName else { return majorName }
        return L10n.format("{}: {}", majorName, minorName)
    }
}
