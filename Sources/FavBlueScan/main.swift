// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// Command-line scanner over Bluetooth. (Filled by the Bluetooth engine work.)
print("favblue-scan: not built yet")
