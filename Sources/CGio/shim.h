// SPDX-License-Identifier: GPL-3.0-or-later
// GDBus for the BlueZ source; no GTK here.
#include <gio/gio.h>
