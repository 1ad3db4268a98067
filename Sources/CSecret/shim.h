// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors
// libsecret: a broker's password goes to the desktop's keyring, never to settings or logs.
#include <libsecret/secret.h>
