# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The virtual controller FavBlue drives, made to keep to the Core spec where Bumble 0.0.236
does not, so a host written to the spec can be tested against it:

  * LE Create Connection Cancel (Vol 4, Part E, §7.8.13) ends the pending attempt and reports
    it with an LE Connection Complete event, status Unknown Connection Identifier (0x02).
    Bumble answers the command but keeps the attempt, so the next LE Create Connection gets
    Command Disallowed (0x0C) and never completes.
  * The resolving-list commands are left out of Read Local Supported Commands (§7.4.2): Bumble
    accepts them but resolves nothing, so a host that trusted them would connect by an identity
    address the peer never advertises. A host then takes its own fallback, as with a controller
    that lacks them.
"""
import asyncio

from bumble import hci

UNRESOLVING = {
    hci.HCI_LE_ADD_DEVICE_TO_RESOLVING_LIST_COMMAND,
    hci.HCI_LE_REMOVE_DEVICE_FROM_RESOLVING_LIST_COMMAND,
    hci.HCI_LE_CLEAR_RESOLVING_LIST_COMMAND,
    hci.HCI_LE_READ_RESOLVING_LIST_SIZE_COMMAND,
    hci.HCI_LE_SET_ADDRESS_RESOLUTION_ENABLE_COMMAND,
    hci.HCI_LE_SET_RESOLVABLE_PRIVATE_ADDRESS_TIMEOUT_COMMAND,
}


def keep_to_the_spec(controller, claim_resolving_list=False, unanswered_encryptions=0):
    """Patches `controller` (a bumble.controller.Controller) in place, as described above.

    Two ways of not keeping its word, as real controllers have been seen to:
      * `claim_resolving_list` keeps the resolving-list commands claimed, as Bumble ships: they
        are accepted and nothing is ever resolved.
      * `unanswered_encryptions` N: after the first LE Enable Encryption (pairing's), every other
        one gets its Command Status and then nothing, no Encryption Change, N times; the link
        stays up, silent.
    """
    if not claim_resolving_list:
        controller.supported_commands = set(controller.supported_commands) - UNRESOLVING

    if unanswered_encryptions:
        answer = controller.on_hci_le_enable_encryption_command
        left, seen = [unanswered_encryptions], [0]

        def enable_encryption(command):
            seen[0] += 1
            if left[0] > 0 and seen[0] % 2 == 0:
                left[0] -= 1
                print('UNANSWERED_ENCRYPTION', flush=True)
                controller._send_hci_command_status(hci.HCI_COMMAND_STATUS_PENDING, command.op_code)
                return None
            return answer(command)

        controller.on_hci_le_enable_encryption_command = enable_encryption

    def cancel(_command):
        pending = controller.pending_le_connection
        controller.pending_le_connection = None
        if pending is not None:
            peer = pending.peer_address

            def report():
                controller.send_hci_packet(hci.HCI_LE_Connection_Complete_Event(
                    status=hci.HCI_ErrorCode.UNKNOWN_CONNECTION_IDENTIFIER_ERROR, connection_handle=0,
                    role=hci.Role.CENTRAL, peer_address_type=peer.address_type, peer_address=peer,
                    connection_interval=0, peripheral_latency=0, supervision_timeout=0, central_clock_accuracy=0))
            # After the command's own Command Complete, which the caller sends on return.
            asyncio.get_running_loop().call_soon(report)
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    controller.on_hci_le_create_connection_cancel_command = cancel
    return controller
