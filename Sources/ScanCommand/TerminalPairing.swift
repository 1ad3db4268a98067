// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import SecurityToolbox

/// Pairing for `favblue-scan serve`: Just Works is taken as it comes; a number to compare or a
/// code to type is asked on standard error and answered on standard input, so the events on
/// standard output stay one JSON line each. The bonds last as long as the command.
enum TerminalPairing {
    /// The Security Manager the command's peripheral pairs through.
    static func security() -> HCISecurity {
        let crypto = ToolboxPairingCrypto()
        let keyring = HCIKeyring(hashing: AESAddressHashing(), local: LocalIdentity(random: crypto.random(22)))
        return HCISecurity(crypto: crypto, keyring: keyring,
                           keep: { bond in keyring.set(keyring.all.filter { $0.identity != bond.identity } + [bond]) },
                           forget: { identity in keyring.set(keyring.all.filter { $0.identity != identity }) })
    }

    /// Puts a central's question to the terminal. The answer is read on a thread of its own:
    /// the peripheral's replies go on meanwhile.
    static func ask(_ prompt: PairingPrompt) {
        let central = prompt.device.address
        switch prompt.question {
        case .confirm(let number):
            say("does \(central) show \(code(number))? Type y and Enter if it does.")
            Thread.detachNewThread { prompt.answer(readLine()?.lowercased().hasPrefix("y") == true ? .confirmed : .declined) }
        case .enterPasskey:
            say("type the six digits \(central) shows, then Enter.")
            Thread.detachNewThread {
                let digits = (readLine() ?? "").filter(\.isNumber)
                prompt.answer(digits.count == 6 ? UInt32(digits).map { .passkey($0) } ?? .declined : .declined)
            }
        case .displayPasskey(let number, _):
            say("type \(code(number)) on \(central).")
        case .enterPin, .displayPin, .pairingRequested:
            prompt.answer(.declined)
        }
    }

    /// Six digits in two groups, as the app shows them.
    private static func code(_ number: UInt32) -> String {
        let digits = String(format: "%06u", number)
        return "\(digits.prefix(3)) \(digits.suffix(3))"
    }

    private static func say(_ text: String) {
        FileHandle.standardError.write(Data("favblue-scan: pairing: \(text)\n".utf8))
    }
}
