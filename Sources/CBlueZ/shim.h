// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
