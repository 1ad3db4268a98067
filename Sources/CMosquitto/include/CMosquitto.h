// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors
// The Eclipse Mosquitto client library, for the gateways that publish to an MQTT broker.
// It is loaded when a broker is first used, not at start-up (it brings OpenSSL with it).
#include <mosquitto.h>

/// NULL once the library is loaded; else why it could not be, in the loader's words.
const char *favblue_mosquitto_unavailable(void);
