# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The app's accessibility tree as AT-SPI serves it: one walk asks a whole level of the tree at
once over the accessibility bus, and each node it gives back acts on the object it is."""

import collections

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, Gio, GLib  # noqa: E402

ACCESSIBLE = "org.a11y.atspi.Accessible"
_NAME_ARGS = GLib.Variant("(ss)", (ACCESSIBLE, "Name"))
_VISIBLE = int(Atspi.StateType.VISIBLE)
_ROLES = {}


def _role_name(code):
    """A role's name ("push button"), asked of libatspi once a role."""
    name = _ROLES.get(code)
    if name is None:
        name = _ROLES[code] = Atspi.role_get_name(Atspi.Role(code)) or ""
    return name


Extents = collections.namedtuple("Extents", "x y width height")


class StateSet:
    """The states of a node as one GetState answered them."""

    def __init__(self, words):
        self.bits = words[0] | (words[1] << 32 if len(words) > 1 else 0)

    def contains(self, state):
        return bool(self.bits >> int(state) & 1)


class Node:
    """One node of the tree as a walk saw it: its name, role, states and children, plus the
    calls a test makes on it (an action, its extents, its text), sent to the object it is, so
    a button that moves with its device is still the one acted on."""

    def __init__(self, conn, bus, path, parent=None):
        self.conn, self.bus, self.path, self.parent = conn, bus, path, parent
        self.answers = {}
        self.children = []
        self.name = self.role = ""
        self.states = StateSet([0, 0])

    def _call(self, iface, method, args=None):
        return self.conn.call_sync(self.bus, self.path, iface, method, args, None, Gio.DBusCallFlags.NONE, 5000, None).unpack()

    def _property(self, iface, name):
        return self._call("org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (iface, name)))[0]

    def get_name(self):
        return self.name

    def get_role_name(self):
        return self.role

    def get_state_set(self):
        return self.states

    def get_child_count(self):
        return len(self.children)

    def get_child_at_index(self, i):
        return self.children[i]

    def get_parent(self):
        return self.parent

    def get_description(self):
        return self._property(ACCESSIBLE, "Description")

    def clear_cache(self):
        pass

    def do_action(self, index=0):
        return self._call("org.a11y.atspi.Action", "DoAction", GLib.Variant("(i)", (index,)))[0]

    def n_actions(self):
        return self._property("org.a11y.atspi.Action", "NActions")

    def extents(self, coords=Atspi.CoordType.SCREEN):
        """Where it is: x, y, width and height."""
        x, y, width, height = self._call("org.a11y.atspi.Component", "GetExtents", GLib.Variant("(u)", (int(coords),)))[0]
        return Extents(x, y, width, height)

    def text(self):
        """What a text field holds, as a screen reader reads it."""
        return self._call("org.a11y.atspi.Text", "GetText", GLib.Variant("(ii)", (0, -1)))[0]

    def set_text_contents(self, text):
        return self._call("org.a11y.atspi.EditableText", "SetTextContents", GLib.Variant("(s)", (text,)))[0]


def walk_tree(conn, bus, path, skip=(), max_depth=60, named=True):
    """Every showing node under (bus, path), in reading order (depth first), as Node.

    A level's questions are all sent before any answer is read: GTK answers them one after
    another without a round trip each, which makes a walk several times faster than asking
    node by node. A node that goes away mid-walk (a recycled list row) is left out, and its
    later siblings are not. The answers are read straight from their variants, with no
    unpacking in Python: a walk of a busy window asks a few thousand questions. With `named`
    False only the states and children are asked (half the questions): enough to find the
    focus, whose name and role are then asked of it alone (`named_now`)."""
    context = GLib.MainContext.new()
    context.push_thread_default()
    try:
        root = Node(conn, bus, path)
        level, depth = [root], 0
        pending = [0]

        def done(c, result, slot):
            pending[0] -= 1
            try:
                slot[0][slot[1]] = c.call_finish(result)
            except GLib.Error:
                pass  # gone: its answer stays missing
        flags = Gio.DBusCallFlags.NONE
        while level and depth <= max_depth:
            for node in level:
                a, b, p = node.answers, node.bus, node.path
                conn.call(b, p, ACCESSIBLE, "GetState", None, None, flags, 10000, None, done, (a, "state"))
                conn.call(b, p, ACCESSIBLE, "GetChildren", None, None, flags, 10000, None, done, (a, "children"))
                pending[0] += 2
                if named or skip:  # what to skip is told by its name
                    conn.call(b, p, "org.freedesktop.DBus.Properties", "Get", _NAME_ARGS, None, flags, 10000, None, done, (a, "name"))
                    conn.call(b, p, ACCESSIBLE, "GetRole", None, None, flags, 10000, None, done, (a, "role"))
                    pending[0] += 2
            while pending[0]:
                context.iteration(True)
            following = []
            for node in level:
                a = node.answers
                if "state" not in a or "children" not in a or ("name" in a) != ("role" in a):
                    node.gone = True
                    continue
                node.states = StateSet(a["state"].get_child_value(0).unpack())
                # Hidden pages (covered, or under the splash) are not visible.
                if not node.states.bits >> _VISIBLE & 1 and depth > 1:
                    node.gone = True
                    continue
                if "name" in a:
                    node.name = a["name"].get_child_value(0).get_variant().get_string()
                    node.role = _role_name(a["role"].get_child_value(0).get_uint32())
                if node.name not in skip:
                    kids = a["children"].get_child_value(0)
                    node.children = [Node(conn, *kids.get_child_value(i).unpack(), node) for i in range(kids.n_children())]
                    following += node.children
            level, depth = following, depth + 1
        for node in level:
            node.gone = True
    finally:
        context.pop_thread_default()
    out = []

    def collect(node):
        if getattr(node, "gone", False):
            return
        out.append(node)
        node.children = [c for c in node.children if not getattr(c, "gone", False)]
        for child in node.children:
            collect(child)
    collect(root)
    return out


def named_now(node):
    """`node` with its name and role asked, for a node a walk without names found."""
    node.name = node._property(ACCESSIBLE, "Name") or ""
    node.role = _role_name(node._call(ACCESSIBLE, "GetRole")[0])
    return node


def _ask_each(nodes, iface, method, args, read):
    """`method` asked of each of `nodes` at once, as a walk asks (one round trip, not one a node):
    each answer as `read(answer, i)` makes it, None for a node that is None or went away meanwhile."""
    answers = [None] * len(nodes)
    asked = [(i, node) for i, node in enumerate(nodes) if node is not None]
    if not asked:
        return answers
    pending = [len(asked)]
    context = GLib.MainContext.new()
    context.push_thread_default()
    try:
        def done(c, result, i):
            pending[0] -= 1
            try:
                answers[i] = read(c.call_finish(result).unpack()[0], i)
            except GLib.Error:
                pass
        for i, node in asked:
            node.conn.call(node.bus, node.path, iface, method, args, None, Gio.DBusCallFlags.NONE, 10000, None, done, i)
        while pending[0]:
            context.iteration(True)
    finally:
        context.pop_thread_default()
    return answers


def extents_of(nodes, coords=Atspi.CoordType.SCREEN):
    """Where each of `nodes` is; None for a node that went away meanwhile (or was None)."""
    return _ask_each(nodes, "org.a11y.atspi.Component", "GetExtents", GLib.Variant("(u)", (int(coords),)),
                     lambda answer, i: Extents(*answer))


def child_at(nodes, index):
    """Each node's child at `index`; None for a node that went away meanwhile (or was None). Only
    the path is known of a child: enough to act on it or ask where it is."""
    return _ask_each(nodes, ACCESSIBLE, "GetChildAtIndex", GLib.Variant("(i)", (index,)),
                     lambda answer, i: Node(nodes[i].conn, answer[0], answer[1], nodes[i]))


_connection = None


def a11y_connection():
    """A connection to the accessibility bus of this display's session."""
    global _connection
    if _connection is None or _connection.is_closed():
        session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        address = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                                    GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 10000, None).unpack()[0]
        _connection = Gio.DBusConnection.new_for_address_sync(
            address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    return _connection
