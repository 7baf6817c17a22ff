// swift-tools-version: 6.0
// certkit — SecTrust-style certificate trust evaluation for Linux.
import PackageDescription

let package = Package(
    name: "certkit",
    products: [
        .library(name: "CertKit", targets: ["CertKit"]),
        .library(name: "CertKitOpenSSL", targets: ["CertKitOpenSSL"]),
        .library(name: "CertKitGnuTLS", targets: ["CertKitGnuTLS"]),
        .library(name: "CertKitSockets", targets: ["CertKitSockets"]),
        .executable(name: "certkit", targets: ["certkit"]),
        .executable(name: "PinnedClient", targets: ["PinnedClient"]),
        .executable(name: "ClientTrustServer", targets: ["ClientTrustServer"]),
        .executable(name: "certkit-benchmarks", targets: ["CertKitBenchmarks"]),
    ],
    targets: [
        // The backend-neutral core: pure Swift, no C import.
        .target(name: "CertKit"),

        // System libraries and the thin C shims for what Swift cannot import (macros, function-pointer globals).
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"])]
        ),
        .target(name: "COpenSSLShims", dependencies: ["COpenSSL"]),
        .target(name: "CGnuTLSShims", dependencies: ["CGnuTLS"]),

        // Capturing a TLS server's chain: the TLSChainFetcher protocol and TLSConnectError (public), and the TCP
        // connection with a deadline that the TLS clients of both backends run over (Glibc only, package access).
        .target(name: "CertKitSockets", dependencies: ["CertKit"]),

        // Backends: one folder each, each readable alone.
        .target(name: "CertKitOpenSSL", dependencies: ["CertKit", "CertKitSockets", "COpenSSL", "COpenSSLShims"]),
        .target(name: "CertKitGnuTLS", dependencies: ["CertKit", "CertKitSockets", "CGnuTLS", "CGnuTLSShims"]),

        // The one list of backends (name, trust backend, TLS client), for the command line, tests, fuzzing and
        // benchmarks (package access).
        .target(name: "CertKitBackends", dependencies: ["CertKit", "CertKitSockets", "CertKitOpenSSL", "CertKitGnuTLS"]),

        // The command line: a library so tests can drive it, and a thin executable.
        .target(name: "CertKitCLI", dependencies: ["CertKit", "CertKitSockets", "CertKitBackends"]),
        .executableTarget(name: "certkit", dependencies: ["CertKitCLI"]),

        // Sample program: the Linux counterpart of a server-trust challenge handler.
        .executableTarget(
            name: "PinnedClient",
            dependencies: ["CertKit", "CertKitOpenSSL"],
            path: "Samples/PinnedClient"
        ),

        // Sample program: the server side of mutual TLS, deciding on client certificates with ClientTrust.
        .executableTarget(
            name: "ClientTrustServer",
            dependencies: ["CertKit", "CertKitOpenSSL", "CertKitGnuTLS", "CertKitSockets"],
            path: "Samples/ClientTrustServer"
        ),

        // Benchmarks: raw C baselines and certkit, measured in one run.
        .target(
            name: "CBaselines",
            dependencies: ["COpenSSL", "CGnuTLS"],
            path: "Benchmarks/CBaselines"
        ),
        .executableTarget(
            name: "CertKitBenchmarks",
            dependencies: ["CertKit", "CertKitBackends", "CertKitCLI", "CBaselines"],
            path: "Benchmarks/CertKitBenchmarks"
        ),

        // libFuzzer targets over every way bytes come in: decoders and evaluation on each backend (built with
        // -DFUZZING by Scripts/fuzz.sh; plain builds replay files through a target).
        .executableTarget(
            name: "CertKitFuzz",
            dependencies: ["CertKit", "CertKitBackends", "CertKitTestSupport"],
            path: "Tests/Fuzz",
            exclude: ["Corpus"]
        ),

        // The test support library: the conformance scenario model, the fixture locator, temporary directories,
        // processes and loopback servers, run-time test PKIs and the forwarding backend double (scenarios read their
        // policy with the command line's PolicyOptions, so that both read the option words one way).
        .target(name: "CertKitTestSupport", dependencies: ["CertKit", "CertKitCLI"], path: "Tests/Support"),

        .testTarget(
            name: "CertKitTests",
            dependencies: [
                "CertKit", "CertKitSockets", "CertKitOpenSSL", "CertKitGnuTLS", "CertKitBackends", "CertKitTestSupport",
            ]),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["CertKit", "CertKitOpenSSL", "CertKitBackends", "CertKitCLI", "CertKitTestSupport"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["CertKitCLI", "CertKit", "CertKitBackends", "CertKitSockets", "CertKitTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
