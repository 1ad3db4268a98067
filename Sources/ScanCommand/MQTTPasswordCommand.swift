// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import ArgumentParser
import Bluetooth
import Domain
import Foundation
import HomeServices

/// Keeps a broker's password in the desktop's keyring, read from standard input (never from
/// the command line, where other users and the shell's history would see it).
struct MQTTPasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mqtt-password",
        abstract: "Keep an MQTT broker's password in the desktop's keyring, read from standard input.")

    @Argument(help: "The broker, as given to --source: mqtt[s]://USER@HOST[:PORT]/PREFIX")
    var broker: String

    func run() throws {
        let address: MQTTAddress
        do { address = try MQTTAddress(parsing: broker) } catch { FavBlueScan.exit(saying: FavBlueScan.explain(error)) }
        guard address.user != nil else { FavBlueScan.exit(saying: "\(address) names no user: give mqtt://USER@HOST/PREFIX") }
        let password: String?
        if isatty(STDIN_FILENO) != 0 {
            password = getpass("Password for \(address): ").map { String(cString: $0) }
        } else {
            password = readLine(strippingNewline: true)
        }
        guard let password, !password.isEmpty else { FavBlueScan.exit(saying: "no password was given on standard input") }
        do { try BrokerKeyring.store(password, for: address) } catch { FavBlueScan.exit(saying: error.description) }
        print("The password for \(address) is kept in the keyring.")
    }
}
