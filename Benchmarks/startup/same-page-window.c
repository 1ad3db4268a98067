/* SPDX-License-Identifier: GPL-3.0-or-later
 * Copyright The FavBlue authors
 *
 * A second baseline for the start-up benchmark: FavBlue's empty home page built in C
 * (a header bar with + and the main menu, a status page with the heart, its title, its
 * sentence and the pill button), with FavBlue's own resources (style sheet, icons) when
 * run with FAVBLUE_GRESOURCE. Against this window, favblue's extra time is its own, not
 * the page's. It reports like minimal-window.c does.
 */
#include <adwaita.h>
#include <stdlib.h>
#include "report.h"

static void
activate (GtkApplication *app, gpointer user_data)
{
  (void) user_data;
  mark ("activate");
  GtkWidget *window = adw_application_window_new (app);
  gtk_window_set_title (GTK_WINDOW (window), "FavBlue");
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 640);

  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *add = gtk_button_new_from_icon_name ("list-add-symbolic");
  gtk_widget_set_tooltip_text (add, "Add New Devices");
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), add);
  GMenu *menu = g_menu_new ();
  g_menu_append (menu, "_Preferences", "app.preferences");
  g_menu_append (menu, "_Export Favorites…", "win.export");
  g_menu_append (menu, "_About FavBlue", "app.about");
  GtkWidget *menu_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (menu_button), "open-menu-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (menu_button), G_MENU_MODEL (menu));
  g_object_unref (menu);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), menu_button);

  GtkWidget *status = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), "favblue-heart-outline-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (status), "No Favorites Yet");
  adw_status_page_set_description (ADW_STATUS_PAGE (status),
                                   "Devices you add from the scanner appear here under the names you give them.");
  GtkWidget *pill = gtk_button_new_with_label ("Add New Devices");
  gtk_widget_add_css_class (pill, "pill");
  gtk_widget_add_css_class (pill, "suggested-action");
  gtk_widget_set_halign (pill, GTK_ALIGN_CENTER);
  adw_status_page_set_child (ADW_STATUS_PAGE (status), pill);
  gtk_widget_set_vexpand (status, TRUE);

  GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (column), header);
  gtk_box_append (GTK_BOX (column), status);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), column);
  present_window (window);
}

int
main (int argc, char **argv)
{
  mark ("main");
  const char *path = getenv ("FAVBLUE_GRESOURCE");
  if (path != NULL)
    {
      GError *error = NULL;
      GResource *resource = g_resource_load (path, &error);
      if (resource == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      g_resources_register (resource);
    }
  AdwApplication *app = adw_application_new ("io.github.favblue.SamePageWindow", G_APPLICATION_NON_UNIQUE);
  /* FavBlue's style sheet and icons, as libadwaita loads them for FavBlue. */
  if (path != NULL)
    g_application_set_resource_base_path (G_APPLICATION (app), "/io/github/favblue/FavBlue");
  return run_application (G_APPLICATION (app), G_CALLBACK (activate), argc, argv);
}
