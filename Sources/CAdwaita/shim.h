// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors
#include <adwaita.h>
#include <glib-unix.h>
#include <locale.h>
#include <libintl.h>
