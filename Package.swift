// swift-tools-version: 6.1
// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import PackageDescription

// GTK-facing code deals in raw C pointers owned by GLib; strict Swift 6
// sendability checking adds nothing there, so those targets stay in the 5 mode.
let gtkSwift: [SwiftSetting] = [.swiftLanguageMode(.v5)]

// Swift's static runtime links executables with --export-dynamic, which put some 19,000
// Swift symbols in the dynamic table, for the loader to hash and page in at every start.
// Nothing looks FavBlue's symbols up at run time. The toolchain's lld, not gold: it packs the
// program's 100,000 relative relocations (-z pack-relative-relocs in swift-build.sh), 2.5 MB
// that the loader would otherwise read and apply one by one at each start.
let ownSymbolsOnly: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--no-export-dynamic", "-use-ld=lld"])]

let package = Package(
    name: "FavBlue",
    products: [
        .executable(name: "favblue", targets: ["FavBlue"]),
        .executable(name: "favblue-scan", targets: ["FavBlueScan"]),
        .executable(name: "favblue-bench", targets: ["AppBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // The Security Manager's AES (one block at a time, from _CryptoExtras) and, later, P-256.
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        // Tests only: a clock a test advances by hand, so nothing waits on real time.
        .package(url: "https://github.com/pointfreeco/swift-clocks", exact: "1.1.1"),
    ],
    targets: [
        // MARK: C libraries and the hand-written shim
        .systemLibrary(name: "CAdwaita", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),
        .systemLibrary(name: "CBlueZ", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        .target(name: "CGtkShim", dependencies: ["CAdwaita"]),
        .systemLibrary(name: "CIntl"),
        .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // GnuTLS's crypto library, for one use: the resolver's AES, with each key's schedule made once.
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        // The Eclipse Mosquitto client, for gateways that publish to an MQTT broker; loaded on first use.
        .target(name: "CMosquitto"),
        // libsecret, so that a broker's password lives in the desktop's keyring.
        .systemLibrary(name: "CSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),

        // MARK: Core
        .target(name: "Localization", dependencies: ["CIntl"]),
        .target(name: "Domain", dependencies: ["Localization"], plugins: ["SensorFamilyList"]),
        .target(name: "Bluetooth", dependencies: ["Domain", "Localization", "CBlueZ", "CGio"], plugins: ["ServiceNameTable"]),
        // What FavBlue shares with the home around it: MQTT gateways and Home Assistant, the
        // desktop's keyring for a broker's password, NetworkManager's places.
        .target(name: "HomeServices", dependencies: ["Bluetooth", "Domain", "Localization", "CGio", "CMosquitto", "CSecret"]),
        .target(name: "Persistence", dependencies: ["Domain", "Localization", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "ViewModels", dependencies: ["Domain", "Localization"]),
        // The Device Manager's links that are not Bluetooth (SMP over UDP and a serial line), and
        // GIO's inflate for a firmware package's members.
        .target(name: "DeviceLinks", dependencies: ["Domain", "Localization", "CGio"]),
        .target(name: "SecurityToolbox", dependencies: ["Domain", "CNettle", .product(name: "Crypto", package: "swift-crypto"),
                                                        .product(name: "_CryptoExtras", package: "swift-crypto")]),

        // MARK: GTK
        .target(name: "GtkKit", dependencies: ["CGtkShim", "CAdwaita"], swiftSettings: gtkSwift),
        .target(name: "Views", dependencies: ["GtkKit", "ViewModels", "Domain", "Localization"], swiftSettings: gtkSwift,
                plugins: ["CompileResources"]),

        // MARK: Executables
        // The composition root: options, settings, the store, the sources, window and page wiring.
        .target(name: "AppShell", dependencies: ["Views", "ViewModels", "Domain", "Localization", "Bluetooth", "HomeServices",
                                                 "Persistence", "GtkKit", "SecurityToolbox", "DeviceLinks"],
                swiftSettings: gtkSwift),
        .executableTarget(name: "FavBlue", dependencies: ["AppShell", "ScanCommand"],
                          swiftSettings: gtkSwift, linkerSettings: ownSymbolsOnly),
        // The app with the benchmarks' drivers (favblue-bench): built by the benchmarks alone, never installed.
        .executableTarget(name: "AppBench", dependencies: ["AppShell", "Views", "ViewModels", "Domain", "GtkKit"],
                          path: "Benchmarks/AppBench", swiftSettings: gtkSwift, linkerSettings: ownSymbolsOnly),
        .target(name: "ScanCommand", dependencies: ["Bluetooth", "HomeServices", "Domain", "SecurityToolbox", "DeviceLinks",
                                                    .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // favblue-scan on its own, for a build tree; the package installs it as a second name of favblue.
        .executableTarget(name: "FavBlueScan", dependencies: ["ScanCommand"], linkerSettings: ownSymbolsOnly),
        .executableTarget(name: "BluetoothBench", dependencies: ["Bluetooth", "Domain"], path: "Benchmarks/BluetoothBench"),
        .executableTarget(name: "PersistenceBench", dependencies: ["Persistence", "Domain"], path: "Benchmarks/PersistenceBench"),
        .executableTarget(name: "ResolveBench", dependencies: ["Bluetooth", "Domain", "SecurityToolbox"], path: "Benchmarks/ResolveBench"),
        .executableTarget(name: "TrackerBench", dependencies: ["Bluetooth", "Domain"], path: "Benchmarks/TrackerBench"),
        .executableTarget(name: "ChatBench", dependencies: ["Bluetooth", "Domain"], path: "Benchmarks/ChatBench"),
        // Linked as favblue-scan is, so the guard counts the same start-up.
        .executableTarget(name: "DecodeBench", dependencies: ["Bluetooth", "Domain"], path: "Benchmarks/DecodeBench",
                          linkerSettings: ownSymbolsOnly),

        // MARK: Build plugins
        .plugin(name: "CompileResources", capability: .buildTool()),
        .plugin(name: "ServiceNameTable", capability: .buildTool()),
        .plugin(name: "SensorFamilyList", capability: .buildTool()),

        // MARK: Tests
        .target(name: "TestSupport", dependencies: ["Domain", .product(name: "Clocks", package: "swift-clocks")],
                path: "Tests/TestSupport"),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "TestSupport", .product(name: "Clocks", package: "swift-clocks")]),
        .testTarget(name: "SecurityToolboxTests", dependencies: ["SecurityToolbox", "Domain",
                                                                .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "BluetoothTests", dependencies: ["Bluetooth", "HomeServices", "Domain", "TestSupport", "SecurityToolbox"]),
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence", "Domain", "TestSupport"]),
        .testTarget(name: "ViewModelsTests", dependencies: ["ViewModels", "Domain", "TestSupport",
                                                           .product(name: "Clocks", package: "swift-clocks")]),
        .testTarget(name: "GtkKitTests", dependencies: ["GtkKit", "CGtkShim", "CAdwaita"], swiftSettings: gtkSwift),
        .testTarget(name: "ViewsTests", dependencies: ["Views", "ViewModels", "GtkKit", "Domain", "Localization", "TestSupport"],
                    swiftSettings: gtkSwift),
        // End-to-end tests against real Bluetooth peers (btvirt, Bumble), kept apart to run alone.
        .testTarget(name: "PeerTests", dependencies: ["Bluetooth", "HomeServices", "Domain", "SecurityToolbox", "TestSupport", "DeviceLinks",
                                                     .product(name: "Crypto", package: "swift-crypto")]),
        // The BlueZ route end to end, against python-dbusmock's bluez5 template on a private bus.
        .testTarget(name: "BlueZTests", dependencies: ["Bluetooth", "HomeServices", "Domain", "Persistence", "ViewModels", "TestSupport"]),
    ]
)
