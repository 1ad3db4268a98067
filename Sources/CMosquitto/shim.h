// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors
// The Eclipse Mosquitto client library, for the gateways that publish to an MQTT broker.
#include <mosquitto.h>
