/* SPDX-License-Identifier: GPL-3.0-or-later
 * Copyright The FavBlue authors
 */
#include "CGtkShim.h"

#include <stdlib.h>

/* GLib before 2.76 reads its slice configuration the first time it hands out a slice, and
 * that happens in its own initialiser, before main (see SliceAllocator.swift). A function in
 * an executable's .preinit_array runs after every library is loaded but before any library's
 * initialiser, so the configuration set here is in time, without starting the process again.
 * (The environment cannot carry it: libc's own initialiser, which runs after this, takes the
 * environment back to what exec gave.) */
static void
cgtk_slice_preinit (int argc, char **argv, char **envp)
{
  (void) argc;
  (void) argv;
  (void) envp;
  /* Only constants and GSlice's static configuration are touched: nothing that needs GLib
   * initialised. A G_SLICE the user set is theirs. */
  if (getenv ("G_SLICE") == NULL && glib_check_version (2, 76, 0) != NULL)
    {
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      g_slice_set_config (G_SLICE_CONFIG_ALWAYS_MALLOC, TRUE);
      G_GNUC_END_IGNORE_DEPRECATIONS
    }
}

__attribute__ ((section (".preinit_array"), used))
static void (*const cgtk_slice_preinit_entry) (int, char **, char **) = cgtk_slice_preinit;

gboolean
cgtk_slice_uses_malloc (void)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  return glib_check_version (2, 76, 0) == NULL || g_slice_get_config (G_SLICE_CONFIG_ALWAYS_MALLOC);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

#include <malloc.h>

/* See SliceAllocator.giveBackFreedMemory(). */

int
cgtk_memory_trim (void)
{
  return malloc_trim (0);
}
