// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # TestSupport
//
// Fakes of Domain's ports for view-model and use-case unit tests only; the
// adapters themselves are tested against real SQLite files and real peers.

import Domain
