/* SPDX-License-Identifier: GPL-3.0-or-later
 * Copyright The FavBlue authors
 *
 * The baseline for the start-up benchmark: the smallest GTK 4 + libadwaita
 * window with a label, reporting when main() starts and its first presented
 * frame like favblue does with FAVBLUE_REPORT_FIRST_FRAME=1.
 */
#include <adwaita.h>
#include "report.h"

static void
activate (GtkApplication *app, gpointer user_data)
{
  (void) user_data;
  mark ("activate");
  GtkWidget *window = adw_application_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 640);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), gtk_label_new ("FavBlue"));
  g_signal_connect (window, "map", G_CALLBACK (on_map), NULL);
  mark ("window-built");
  gtk_window_present (GTK_WINDOW (window));
  mark ("presented");
}

int
main (int argc, char **argv)
{
  mark ("main");
  AdwApplication *app = adw_application_new ("io.github.favblue.MinimalWindow", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "startup", G_CALLBACK (startup), NULL);
  g_signal_connect (app, "activate", G_CALLBACK (activate), NULL);
  int status = g_application_run (G_APPLICATION (app), argc, argv);
  g_object_unref (app);
  return status;
}
