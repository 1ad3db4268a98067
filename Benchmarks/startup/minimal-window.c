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
  present_window (window);
}

int
main (int argc, char **argv)
{
  mark ("main");
  AdwApplication *app = adw_application_new ("io.github.favblue.MinimalWindow", G_APPLICATION_NON_UNIQUE);
  return run_application (G_APPLICATION (app), G_CALLBACK (activate), argc, argv);
}
