# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A peer that is the far end of what a benchmark measures, made thinner: with debug logging
off, Bumble 0.0.236 still builds the debug line of every packet its controllers and host pass,
and of every ATT PDU its GATT server takes (each field formatted, colours added): about a third of
a peer's time per packet under the profiler, and a further seventh for a write's ATT PDU. A peer calls unformatted() once it has set its logging; with debug logging on, the
lines are built as before."""
import logging

from bumble import att, hci


def unformatted():
    if logging.getLogger('bumble').isEnabledFor(logging.DEBUG):
        return
    import bumble.controller
    import bumble.host
    hci.HCI_Packet.__format__ = lambda packet, spec: type(packet).__name__
    att.ATT_PDU.__str__ = lambda pdu: type(pdu).__name__
    for module in (bumble.controller, bumble.host):
        module.color = lambda text, *_, **__: text
