/* SPDX-License-Identifier: GPL-3.0-or-later
 * Copyright The FavBlue authors
 *
 * What the start-up benchmark's C windows report, as favblue does with
 * FAVBLUE_REPORT_FIRST_FRAME=1: when each start-up phase ended, and the first
 * presented frame (monotonic µs).
 */
#ifndef FAVBLUE_BENCH_REPORT_H
#define FAVBLUE_BENCH_REPORT_H

#include <gtk/gtk.h>
#include <stdio.h>

static void
after_paint (GdkFrameClock *clock, gpointer user_data)
{
  (void) user_data;
  fprintf (stderr, "first-frame %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  g_signal_handlers_disconnect_by_func (clock, after_paint, NULL);
}

static void
on_map (GtkWidget *window, gpointer user_data)
{
  (void) user_data;
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (after_paint), NULL);
}

static void
mark (const char *phase)
{
  fprintf (stderr, "startup-phase %s %" G_GINT64_FORMAT "\n", phase, g_get_monotonic_time ());
}

static void
startup (GApplication *app, gpointer user_data)
{
  (void) app;
  (void) user_data;
  mark ("gapplication-startup");
}

/* Presents the built window, marking before and after. */
static void
present_window (GtkWidget *window)
{
  g_signal_connect (window, "map", G_CALLBACK (on_map), NULL);
  mark ("window-built");
  gtk_window_present (GTK_WINDOW (window));
  mark ("presented");
}

/* Runs the application with `activate` building its window; returns the exit status. */
static int
run_application (GApplication *app, GCallback activate, int argc, char **argv)
{
  g_signal_connect (app, "startup", G_CALLBACK (startup), NULL);
  g_signal_connect (app, "activate", activate, NULL);
  int status = g_application_run (app, argc, argv);
  g_object_unref (app);
  return status;
}

#endif
