// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

print("no benchmark yet")
