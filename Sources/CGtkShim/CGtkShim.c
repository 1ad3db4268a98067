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

void
cgtk_accessible_set_invalid (GtkAccessible *accessible, gboolean invalid)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  gtk_accessible_update_state (accessible, GTK_ACCESSIBLE_STATE_INVALID,
                               invalid ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
}

void
cgtk_widget_set_invalid (GtkWidget *widget, gboolean invalid)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  cgtk_accessible_set_invalid (GTK_ACCESSIBLE (widget), invalid);
  /* An entry (a row's too) is read through the text inside it: that says so as well. */
  while (GTK_IS_EDITABLE (widget))
    {
      GtkEditable *inner = gtk_editable_get_delegate (GTK_EDITABLE (widget));
      if (inner == NULL || GTK_WIDGET (inner) == widget)
        break;
      widget = GTK_WIDGET (inner);
      cgtk_accessible_set_invalid (GTK_ACCESSIBLE (widget), invalid);
    }
}

/* gtk_accessible_update_state is variadic. */
void
cgtk_accessible_set_hidden (GtkAccessible *accessible, gboolean hidden)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  gtk_accessible_update_state (accessible, GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

/* gtk_accessible_update_state is variadic. */
void
cgtk_accessible_set_expanded (GtkAccessible *accessible, gboolean expanded)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  gtk_accessible_update_state (accessible, GTK_ACCESSIBLE_STATE_EXPANDED, expanded, -1);
}

/* G_TYPE_CHECK_INSTANCE_TYPE is a macro: the first widget of `type` inside `widget`, depth
 * first (a part a composite widget keeps to itself, such as an AdwExpanderRow's header or a
 * GtkDropDown's button), or NULL. */
GtkWidget *
cgtk_first_descendant (GtkWidget *widget, GType type)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      GtkWidget *inner = cgtk_first_descendant (child, type);
      if (inner != NULL)
        return inner;
    }
  return NULL;
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

/* GTK 4.8 and libadwaita 1.2 have no breakpoints and no size-allocate signal,
 * so nothing tells Swift how wide a page is. This bin holds one child, gives it
 * all its room and emits "width-changed" (int, pixels) when its width changes.
 * A GObject subclass is far simpler in C than through Swift. */
struct _CgtkWidthBin {
  GtkWidget parent_instance;
  GtkWidget *child;
  int width;
  /* The narrowest it asks to be, whatever its child's wide layout needs (-1: the child's).
   * A window manager keeps a window at its minimum, so a wide layout's minimum would keep
   * the window from ever getting narrow enough to switch; below it, the child is laid out
   * at its own minimum and clipped until its narrow layout takes over. */
  int min_width;
};

G_DEFINE_FINAL_TYPE (CgtkWidthBin, cgtk_width_bin, GTK_TYPE_WIDGET)

static guint width_changed_signal;

static void
cgtk_width_bin_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                        int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  CgtkWidthBin *self = CGTK_WIDTH_BIN (widget);
  if (self->child == NULL || !gtk_widget_should_layout (self->child))
    return;
  if (self->min_width < 0)
    {
      gtk_widget_measure (self->child, orientation, for_size, minimum, natural,
                          minimum_baseline, natural_baseline);
      return;
    }
  if (orientation == GTK_ORIENTATION_VERTICAL && for_size >= 0)
    {
      int child_min = 0;
      gtk_widget_measure (self->child, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, NULL, NULL, NULL);
      for_size = MAX (for_size, child_min);
    }
  gtk_widget_measure (self->child, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MIN (*minimum, self->min_width);
      *natural = MAX (*natural, *minimum);
    }
}

static void
cgtk_width_bin_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  CgtkWidthBin *self = CGTK_WIDTH_BIN (widget);
  if (self->child != NULL && gtk_widget_should_layout (self->child))
    {
      int child_width = width, child_height = height;
      if (self->min_width >= 0)
        {
          int child_min = 0, child_min_height = 0;
          gtk_widget_measure (self->child, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, NULL, NULL, NULL);
          child_width = MAX (width, child_min);
          gtk_widget_measure (self->child, GTK_ORIENTATION_VERTICAL, child_width, &child_min_height, NULL, NULL, NULL);
          child_height = MAX (height, child_min_height);
        }
      gtk_widget_allocate (self->child, child_width, child_height, baseline, NULL);
    }
  if (width != self->width)
    {
      self->width = width;
      g_signal_emit (self, width_changed_signal, 0, width);
    }
}

static GtkSizeRequestMode
cgtk_width_bin_get_request_mode (GtkWidget *widget)
{
  CgtkWidthBin *self = CGTK_WIDTH_BIN (widget);
  return self->child != NULL ? gtk_widget_get_request_mode (self->child) : GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
cgtk_width_bin_dispose (GObject *object)
{
  CgtkWidthBin *self = CGTK_WIDTH_BIN (object);
  g_clear_pointer (&self->child, gtk_widget_unparent);
  G_OBJECT_CLASS (cgtk_width_bin_parent_class)->dispose (object);
}

static void
cgtk_width_bin_class_init (CgtkWidthBinClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = cgtk_width_bin_dispose;
  widget_class->measure = cgtk_width_bin_measure;
  widget_class->size_allocate = cgtk_width_bin_size_allocate;
  widget_class->get_request_mode = cgtk_width_bin_get_request_mode;
  width_changed_signal = g_signal_new ("width-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  /* A plain container: screen readers see its child, not the bin. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void
cgtk_width_bin_init (CgtkWidthBin *self)
{
  self->width = -1;
  self->min_width = -1;
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
}

void
cgtk_width_bin_set_min_width (CgtkWidthBin *self, int min_width)
{
  self->min_width = min_width;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

GtkWidget *
cgtk_width_bin_new (GtkWidget *child)
{
  g_return_val_if_fail (GTK_IS_WIDGET (child), NULL);
  g_return_val_if_fail (gtk_widget_get_parent (child) == NULL, NULL);
  CgtkWidthBin *self = g_object_new (CGTK_TYPE_WIDTH_BIN, NULL);
  self->child = child;
  gtk_widget_set_parent (child, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

/* The icon theme's first lookup reads every theme's index and caches (some 7 ms), on whichever
 * thread asks first. GTK documents lookups on a theme set up on the main thread as safe from
 * other threads, so one is made there while the main thread builds the window. */
static gpointer
icon_theme_preload_thread (gpointer data)
{
  GtkIconTheme *theme = data;
  GtkIconPaintable *icon = gtk_icon_theme_lookup_icon (theme, "open-menu-symbolic", NULL, 16, 1,
                                                       GTK_TEXT_DIR_NONE, 0);
  g_clear_object (&icon);
  g_object_unref (theme);
  return NULL;
}

void
cgtk_icon_theme_preload (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  if (display == NULL)
    return;
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (display);
  g_thread_unref (g_thread_new ("icon-theme", icon_theme_preload_thread, g_object_ref (theme)));
}
