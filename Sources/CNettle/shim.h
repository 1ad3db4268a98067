// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors
// Nettle's AES, for the private-address resolver: it keeps each key's schedule, where a
// one-block AES from swift-crypto makes it again for every address. Nettle's CCM, for
// encrypted sensors (BTHome, MiBeacon): swift-crypto has no CCM.
#include <nettle/aes.h>
#include <nettle/ccm.h>
