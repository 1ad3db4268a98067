// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import XCTest

/// Every text/background pair in our CSS meets WCAG 2.1 AA:
/// 4.5:1 for normal text, 3:1 for large text.
final class ContrastTests: XCTestCase {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "data")

    func testLightStylePairsMeetAA() throws {
        let light = try Stylesheet(Self.dataDirectory.appending(path: "style.css"))
        try assertPairs(of: light, colours: light.colours)
    }

    func testDarkStylePairsMeetAA() throws {
        let light = try Stylesheet(Self.dataDirectory.appending(path: "style.css"))
        let dark = try Stylesheet(Self.dataDirectory.appending(path: "style-dark.css"))
        // style-dark.css is loaded on top of style.css.
        try assertPairs(of: dark, colours: light.colours.merging(dark.colours) { $1 })
        try assertPairs(of: light, colours: light.colours.merging(dark.colours) { $1 }, rulesOnly: true)
    }

    func testTheContrastFormulaMatchesKnownValues() {
        XCTAssertEqual(contrast(RGB(hex: "#000000")!, RGB(hex: "#ffffff")!), 21, accuracy: 0.01)
        // White on the brand blue RGB(77,116,217) is about 4.4:1: large text only.
        XCTAssertEqual(contrast(RGB(hex: "#ffffff")!, RGB(hex: "#4d74d9")!), 4.36, accuracy: 0.02)
    }

    private func assertPairs(of sheet: Stylesheet, colours: [String: RGB], rulesOnly: Bool = false,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        var checked = 0
        let pairs = (rulesOnly ? [] : sheet.declaredPairs) + sheet.rulePairs
        for pair in pairs {
            let fg = try XCTUnwrap(resolve(pair.foreground, colours), "unknown colour \(pair.foreground) in \(sheet.name)")
            let bg = try XCTUnwrap(resolve(pair.background, colours), "unknown colour \(pair.background) in \(sheet.name)")
            let ratio = contrast(fg, bg)
            let needed = pair.large ? 3.0 : 4.5
            XCTAssertGreaterThanOrEqual(ratio, needed,
                "\(sheet.name): \(pair.foreground) on \(pair.background) is \(String(format: "%.2f", ratio)):1",
                file: file, line: line)
            checked += 1
        }
        if !rulesOnly { XCTAssertGreaterThan(checked, 3, "\(sheet.name) declares its pairs", file: file, line: line) }
    }

    private func resolve(_ value: String, _ colours: [String: RGB]) -> RGB? {
        let name = value.hasPrefix("@") ? String(value.dropFirst()) : value
        if let colour = colours[name] { return colour }
        return RGB(hex: value)
    }
}

/// The parts of a GTK stylesheet the contrast check needs.
struct Stylesheet {
    struct Pair { let foreground: String; let background: String; let large: Bool }

    let name: String
    /// `@define-color` values, resolved.
    var colours: [String: RGB] = [:]
    /// "contrast: FG on BG [large]" lines from comments: pairs across rules.
    var declaredPairs: [Pair] = []
    /// Rules that set both `color` and `background-color`.
    var rulePairs: [Pair] = []

    init(_ url: URL) throws {
        name = url.lastPathComponent
        let text = try String(contentsOf: url, encoding: .utf8)
        var raw: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("@define-color") {
                let parts = trimmed.dropFirst("@define-color".count).trimmingCharacters(in: CharacterSet(charactersIn: " ;"))
                    .split(separator: " ", maxSplits: 1)
                if parts.count == 2 { raw[String(parts[0])] = String(parts[1]) }
            }
            if let range = trimmed.range(of: "contrast:") {
                let words = trimmed[range.upperBound...].split(separator: " ").map(String.init)
                if words.count >= 3, words[1] == "on" {
                    declaredPairs.append(Pair(foreground: words[0], background: words[2], large: words.contains("large")))
                }
            }
        }
        // Resolve references such as `@define-color accent_bg_color @brand_blue;`.
        for (key, value) in raw {
            var current = value
            var hops = 0
            while current.hasPrefix("@"), let next = raw[String(current.dropFirst())], hops < 10 { current = next; hops += 1 }
            if let rgb = RGB(hex: current) { colours[key] = rgb }
        }
        let noComments = text.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: "", options: .regularExpression)
        for block in noComments.split(separator: "}") {
            guard let open = block.firstIndex(of: "{") else { continue }
            let selector = block[..<open]
            var colour: String?
            var background: String?
            var large = false
            for declaration in block[block.index(after: open)...].split(separator: ";") {
                let kv = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                guard kv.count == 2 else { continue }
                switch kv[0] {
                case "color": colour = kv[1]
                case "background-color": background = kv[1]
                case "font-size": large = (Double(kv[1].replacingOccurrences(of: "pt", with: "")) ?? 0) >= 18
                default: break
                }
            }
            if let colour, let background {
                _ = selector
                rulePairs.append(Pair(foreground: colour, background: background, large: large))
            }
        }
    }
}

/// An sRGB colour.
struct RGB {
    let r: Double, g: Double, b: Double

    init?(hex: String) {
        let digits = hex.trimmingCharacters(in: .whitespaces).drop { $0 == "#" }
        guard hex.hasPrefix("#"), digits.count == 6, let value = Int(digits, radix: 16) else { return nil }
        r = Double((value >> 16) & 0xFF) / 255
        g = Double((value >> 8) & 0xFF) / 255
        b = Double(value & 0xFF) / 255
    }

    /// Relative luminance, WCAG 2.1.
    var luminance: Double {
        func channel(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }
}

/// The WCAG contrast ratio of two colours, 1 to 21.
func contrast(_ a: RGB, _ b: RGB) -> Double {
    let (hi, lo) = (max(a.luminance, b.luminance), min(a.luminance, b.luminance))
    return (hi + 0.05) / (lo + 0.05)
}
