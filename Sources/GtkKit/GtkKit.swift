// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # GtkKit

@_exported import CAdwaita
import CGtkShim
