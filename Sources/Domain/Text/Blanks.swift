// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

extension StringProtocol {
    /// Without the spaces and tabs around it, as Foundation's `.whitespaces` trims. Done here
    /// because Foundation's first trim builds its character tables, on start-up's path.
    var trimmingBlanks: String {
        func isBlank(_ c: Character) -> Bool {
            c == "\t" || c.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
