// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

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

/// Names for an LE GAP appearance (Assigned Numbers, §2.6): a category in bits 15–6 and a
/// subcategory in bits 5–0, where subcategory 0 is the generic member of its category.
public enum Appearance {
    /// "Wearable audio device: Earbud", say; the category alone for a generic or unlisted
    /// subcategory; nil for "Unknown" (0) and for categories the table does not know.
    public static func name(_ value: UInt16) -> String? {
        let category = value >> 6
        let sub = value & 0x3F
        guard let categoryName = categories[category]?() else { return nil }
        guard sub != 0, let subName = subcategories[category]?()[sub] else { return categoryName }
        return L10n.format("{}: {}", categoryName, subName)
    }

    // Closures, so each string is looked up in the language active when it is shown.
    private static let categories: [UInt16: @Sendable () -> String] = [
        0x01: { L10n.tr("Phone") }, 0x02: { L10n.tr("Computer") }, 0x03: { L10n.tr("Watch") },
        0x04: { L10n.tr("Clock") }, 0x05: { L10n.tr("Display") }, 0x06: { L10n.tr("Remote control") },
        0x07: { L10n.tr("Eyeglasses") }, 0x08: { L10n.tr("Tag") }, 0x09: { L10n.tr("Keyring") },
        0x0A: { L10n.tr("Media player") }, 0x0B: { L10n.tr("Barcode scanner") }, 0x0C: { L10n.tr("Thermometer") },
        0x0D: { L10n.tr("Heart rate sensor") }, 0x0E: { L10n.tr("Blood pressure") },
        0x0F: { L10n.tr("Human interface device") }, 0x10: { L10n.tr("Glucose meter") },
        0x11: { L10n.tr("Running or walking sensor") }, 0x12: { L10n.tr("Cycling") },
        0x13: { L10n.tr("Control device") }, 0x14: { L10n.tr("Network device") }, 0x15: { L10n.tr("Sensor") },
        0x16: { L10n.tr("Light fixture") }, 0x17: { L10n.tr("Fan") }, 0x18: { L10n.tr("HVAC") },
        0x19: { L10n.tr("Air conditioning") }, 0x1A: { L10n.tr("Humidifier") }, 0x1B: { L10n.tr("Heating") },
        0x1C: { L10n.tr("Access control") }, 0x1D: { L10n.tr("Motorized device") }, 0x1E: { L10n.tr("Power device") },
        0x1F: { L10n.tr("Light source") }, 0x20: { L10n.tr("Window covering") }, 0x21: { L10n.tr("Audio sink") },
        0x22: { L10n.tr("Audio source") }, 0x23: { L10n.tr("Motorized vehicle") },
        0x24: { L10n.tr("Domestic appliance") }, 0x25: { L10n.tr("Wearable audio device") },
        0x26: { L10n.tr("Aircraft") }, 0x27: { L10n.tr("AV equipment") }, 0x28: { L10n.tr("Display equipment") },
        0x29: { L10n.tr("Hearing aid") }, 0x2A: { L10n.tr("Gaming") }, 0x2B: { L10n.tr("Signage") },
        0x31: { L10n.tr("Pulse oximeter") }, 0x32: { L10n.tr("Weight scale") },
        0x33: { L10n.tr("Personal mobility device") }, 0x34: { L10n.tr("Continuous glucose monitor") },
        0x35: { L10n.tr("Insulin pump") }, 0x36: { L10n.tr("Medication delivery") }, 0x37: { L10n.tr("Spirometer") },
        0x51: { L10n.tr("Outdoor sports activity") },
    ]

    // The subcategories of the kinds of device most often heard nearby.
    private static let subcategories: [UInt16: @Sendable () -> [UInt16: String]] = [
        0x02: { [1: L10n.tr("Desktop"), 2: L10n.tr("Server"), 3: L10n.tr("Laptop"), 4: L10n.tr("Handheld"),
                 5: L10n.tr("Palm-size"), 6: L10n.tr("Wearable"), 7: L10n.tr("Tablet")] },
        0x03: { [1: L10n.tr("Sports watch"), 2: L10n.tr("Smartwatch")] },
        0x0C: { [1: L10n.tr("Ear thermometer")] },
        0x0D: { [1: L10n.tr("Heart rate belt")] },
        0x0E: { [1: L10n.tr("Arm"), 2: L10n.tr("Wrist")] },
        0x0F: { [1: L10n.tr("Keyboard"), 2: L10n.tr("Mouse"), 3: L10n.tr("Joystick"), 4: L10n.tr("Gamepad"),
                 5: L10n.tr("Digitizer tablet"), 6: L10n.tr("Card reader"), 7: L10n.tr("Digital pen"),
                 8: L10n.tr("Barcode scanner"), 9: L10n.tr("Touchpad"), 10: L10n.tr("Presentation remote")] },
        0x21: { [1: L10n.tr("Standalone speaker"), 2: L10n.tr("Soundbar"), 3: L10n.tr("Bookshelf speaker"),
                 4: L10n.tr("Standmounted speaker"), 5: L10n.tr("Speakerphone")] },
        0x25: { [1: L10n.tr("Earbud"), 2: L10n.tr("Headset"), 3: L10n.tr("Headphones"), 4: L10n.tr("Neck band")] },
    ]
}
