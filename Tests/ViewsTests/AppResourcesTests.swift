// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
@testable import Views
import XCTest

/// A development build's translations, laid out where gettext looks, in a real directory.
final class AppResourcesTests: XCTestCase {
    private var bundle = "", cache = ""

    override func setUpWithError() throws {
        let base = NSTemporaryDirectory() + "favblue-resources-\(UUID().uuidString.prefix(8))"
        (bundle, cache) = (base + "/bundle", base + "/cache")
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: base) }
    }

    private func write(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: bundle + "/favblue-de.mo"))
    }

    private var target: String { cache + "/de/LC_MESSAGES/favblue.mo" }
    private var laidOut: String { (try? String(contentsOfFile: target, encoding: .utf8)) ?? "none" }
    private var written: Date? { try? FileManager.default.attributesOfItem(atPath: target)[.modificationDate] as? Date }

    func testACatalogIsLaidOutWhereGettextLooksAndAgainOnlyWhenTheBuildChangedIt() throws {
        try write("first")
        XCTAssertEqual(AppResources.materializeCatalogs(from: bundle, into: cache), cache)
        XCTAssertEqual(laidOut, "first")

        // Unchanged: the copy is not written again (dated in the past here, so a rewrite would show).
        let past = Date(timeIntervalSinceNow: -3600)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: target)
        _ = AppResources.materializeCatalogs(from: bundle, into: cache)
        XCTAssertEqual(written.map { abs($0.timeIntervalSince(past)) < 1 }, true, "left as it was")

        // Rebuilt with other words of the same length: laid out again.
        try write("other")
        _ = AppResources.materializeCatalogs(from: bundle, into: cache)
        XCTAssertEqual(laidOut, "other")
    }

    func testACacheThatCannotBeWrittenMeansNoTranslationsNotAFailure() throws {
        try write("first")
        FileManager.default.createFile(atPath: cache, contents: Data())
        XCTAssertNil(AppResources.materializeCatalogs(from: bundle, into: cache), "a file where the folder should be")
    }
}
