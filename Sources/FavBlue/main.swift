// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Views
print("favblue")
