// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors
#include <libintl.h>
#include <locale.h>
