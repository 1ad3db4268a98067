/* SPDX-License-Identifier: GPL-3.0-or-later
 * Copyright The FavBlue authors
 */
#include "CGtkShim.h"

#include <errno.h>
#include <glib-unix.h>
#include <stdint.h>
#include <unistd.h>

/* libdispatch's hooks for a foreign run loop; Foundation's RunLoop uses the
 * same pair on Linux. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

typedef struct {
  GClosure closure;
  CgtkMarshalFunc marshal;
  gpointer box;
} CgtkClosure;

static void
cgtk_closure_marshal (GClosure *closure, GValue *return_value, guint n_params,
                      const GValue *params, gpointer hint, gpointer marshal_data)
{
  CgtkClosure *self = (CgtkClosure *) closure;
  (void) hint;
  (void) marshal_data;
  self->marshal (self->box, return_value, n_params, params);
}

/* g_signal_connect is a macro over a C callback of fixed signature; one
 * generic closure lets Swift handle every signal. `release` runs when the
 * closure is finalized (disconnect or instance destroyed) and frees `box`. */
gulong
cgtk_signal_connect (gpointer instance, const char *signal, CgtkMarshalFunc marshal,
                     gpointer box, GClosureNotify release, gboolean after)
{
  g_return_val_if_fail (G_IS_OBJECT (instance), 0);
  g_return_val_if_fail (signal != NULL && marshal != NULL, 0);

  GClosure *closure = g_closure_new_simple (sizeof (CgtkClosure), box);
  CgtkClosure *self = (CgtkClosure *) closure;
  self->marshal = marshal;
  self->box = box;
  g_closure_set_marshal (closure, cgtk_closure_marshal);
  if (release != NULL)
    g_closure_add_finalize_notifier (closure, box, release);
  return g_signal_connect_closure (instance, signal, closure, after);
}

/* GTK_WIDGET() is a macro; this is the checked cast. */
GtkWidget *
cgtk_widget_cast (gpointer instance)
{
  g_return_val_if_fail (GTK_IS_WIDGET (instance), NULL);
  return GTK_WIDGET (instance);
}

/* GTK_IS_WIDGET() is a macro. */
gboolean
cgtk_is_widget (gpointer instance)
{
  return instance != NULL && GTK_IS_WIDGET (instance);
}

/* GTK_WINDOW() is a macro; this is the checked cast. */
GtkWindow *
cgtk_window_cast (gpointer instance)
{
  g_return_val_if_fail (GTK_IS_WINDOW (instance), NULL);
  return GTK_WINDOW (instance);
}

/* gtk_accessible_update_property is variadic. */
void
cgtk_accessible_set_label (GtkAccessible *accessible, const char *label)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  g_return_if_fail (label != NULL);
  gtk_accessible_update_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/* gtk_accessible_update_property is variadic. */
void
cgtk_accessible_set_description (GtkAccessible *accessible, const char *description)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  g_return_if_fail (description != NULL);
  gtk_accessible_update_property (accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

/* gtk_accessible_update_state is variadic. */
void
cgtk_accessible_set_hidden (GtkAccessible *accessible, gboolean hidden)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  gtk_accessible_update_state (accessible, GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

/* gtk_accessible_update_relation is variadic. */
void
cgtk_accessible_set_labelled_by (GtkAccessible *accessible, GtkWidget *label)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  g_return_if_fail (GTK_IS_WIDGET (label));
  gtk_accessible_update_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
}

static guint64 main_queue_wakeups;

static gboolean
cgtk_main_queue_dispatch (gint fd, GIOCondition condition, gpointer user_data)
{
  (void) condition;
  (void) user_data;
  /* Drain the eventfd first, or the source stays readable and the loop spins. */
  uint64_t count;
  while (read (fd, &count, sizeof count) < 0 && errno == EINTR)
    ;
  main_queue_wakeups++;
  _dispatch_main_queue_callback_4CF (NULL);
  return G_SOURCE_CONTINUE;
}

/* While GTK owns the main thread nothing drains libdispatch's main queue, so
 * @MainActor work would never run. Watch the queue's eventfd from GLib. */
guint
cgtk_main_queue_attach (void)
{
  static guint source_id;
  if (source_id != 0)
    return source_id;
  int fd = _dispatch_get_main_queue_handle_4CF ();
  g_return_val_if_fail (fd >= 0, 0);
  source_id = g_unix_fd_add_full (G_PRIORITY_DEFAULT, fd, G_IO_IN,
                                  cgtk_main_queue_dispatch, NULL, NULL);
  return source_id;
}

/* How often the main-queue source has run, for the idle-loop test. */
guint64
cgtk_main_queue_wakeups (void)
{
  return main_queue_wakeups;
}

/* G_VALUE_HOLDS_OBJECT is a macro. */
gboolean
cgtk_value_holds_object (const GValue *value)
{
  g_return_val_if_fail (value != NULL, FALSE);
  return G_VALUE_HOLDS_OBJECT (value);
}

/* g_signal_emit_by_name is variadic; this emits a signal that has no
 * parameters and no return value ("clicked", "activate"). */
void
cgtk_signal_emit_simple (gpointer instance, const char *signal)
{
  g_return_if_fail (G_IS_OBJECT (instance));
  g_return_if_fail (signal != NULL);
  g_signal_emit_by_name (instance, signal);
}
