// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Persistence
import XCTest

/// The database goes where GLib's g_get_user_data_dir() says, as in every GNOME app: a HOME
/// pointed at another folder is obeyed, not the password file's home.
final class DataDirectoryTests: XCTestCase {
    func testXDGDataHomeWinsThenHome() {
        XCTAssertEqual(StoreFactory.defaultDirectory(environment: ["XDG_DATA_HOME": "/srv/data", "HOME": "/home/other"]),
                       "/srv/data/favblue")
        XCTAssertEqual(StoreFactory.defaultDirectory(environment: ["HOME": "/home/other"]), "/home/other/.local/share/favblue")
    }

    func testARelativeXDGDataHomeIsIgnoredAsTheSpecificationSays() {
        XCTAssertEqual(StoreFactory.defaultDirectory(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/other"]),
                       "/home/other/.local/share/favblue")
    }

    func testWithoutHomeThePasswordFilesHomeIsUsed() {
        XCTAssertTrue(StoreFactory.defaultDirectory(environment: [:]).hasSuffix("/.local/share/favblue"))
    }
}
