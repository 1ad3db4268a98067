// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// Service names as users read them.
public enum ServiceText {
    /// The service's well-known name in the user's language, else its UUID.
    ///
    /// The names come from data/service-uuids.txt, which meson-helpers/update-po also puts
    /// in the translation template, each under the context "Bluetooth service".
    public static func name(_ service: ServiceID) -> String {
        service.name.map { L10n.ctx("Bluetooth service", $0) } ?? service.uuid
    }
}
