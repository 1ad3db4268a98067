/* SPDX-License-Identifier: GPL-3.0-or-later
 * Copyright The FavBlue authors
 *
 * The few things Swift cannot call in GTK, GLib and libdispatch: macros,
 * variadic functions and a closure type. Everything else Swift calls directly.
 */
#pragma once

#include <adwaita.h>
#include <glib-unix.h>

G_BEGIN_DECLS

/* Called by the signal closure with the emission's parameters; `box` is the
 * opaque pointer handed to cgtk_signal_connect. */
typedef void (*CgtkMarshalFunc)(gpointer box, GValue *return_value,
                                guint n_params, const GValue *params);

gulong cgtk_signal_connect(gpointer instance, const char *signal,
                           CgtkMarshalFunc marshal, gpointer box,
                           GClosureNotify release, gboolean after);

GtkWidget *cgtk_widget_cast(gpointer instance);
gboolean cgtk_is_widget(gpointer instance);
GtkWindow *cgtk_window_cast(gpointer instance);

/* Whether GLib's slices come from malloc: GLib 2.76 and later, or always-malloc set before GLib's first slice. */
gboolean cgtk_slice_uses_malloc(void);
/* malloc_trim(0): the heap's free pages back to the system. */
int cgtk_memory_trim(void);
/* The program file's code paged out (MADV_PAGEOUT); bytes asked of, or -1. */
long cgtk_page_out_program(void);
void cgtk_accessible_set_label(GtkAccessible *accessible, const char *label);
void cgtk_accessible_set_description(GtkAccessible *accessible, const char *description);
void cgtk_accessible_set_hidden(GtkAccessible *accessible, gboolean hidden);
/* Says a field holds what does not read (ARIA invalid), beside its error style. */
void cgtk_accessible_set_invalid(GtkAccessible *accessible, gboolean invalid);
void cgtk_widget_set_invalid(GtkWidget *widget, gboolean invalid);
void cgtk_accessible_set_expanded(GtkAccessible *accessible, gboolean expanded);
GtkWidget *cgtk_first_descendant(GtkWidget *widget, GType type);
void cgtk_accessible_set_labelled_by(GtkAccessible *accessible, GtkWidget *label);

guint cgtk_main_queue_attach(void);
guint64 cgtk_main_queue_wakeups(void);

gboolean cgtk_value_holds_object(const GValue *value);
void cgtk_signal_emit_simple(gpointer instance, const char *signal);

/* A bin that reports its width ("width-changed", int pixels); see CGtkShim.c. */
#define CGTK_TYPE_WIDTH_BIN (cgtk_width_bin_get_type())
G_DECLARE_FINAL_TYPE(CgtkWidthBin, cgtk_width_bin, CGTK, WIDTH_BIN, GtkWidget)
GtkWidget *cgtk_width_bin_new(GtkWidget *child);
void cgtk_width_bin_set_min_width(CgtkWidthBin *self, int min_width);

/* Looks one icon up on another thread, so the icon theme is read there, not on the main thread. */
void cgtk_icon_theme_preload(void);

G_END_DECLS
