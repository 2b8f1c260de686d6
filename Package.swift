// swift-tools-version:6.2
import PackageDescription

// No packages from outside the toolchain: the rules use only the stdlib, the
// service only Foundation-free code of its own, and HTTP comes from libevent.
//
// Who may call whom:
//
//   notification-text (executable: wires the service to the adapter)
//     ├── EventHTTP ─────────── HTTPCore, CLibevent   (the only code that touches libevent)
//     └── NotificationService ─ HTTPCore, NotificationEngine
//   notification-bench (executable: the in-process benchmark)
//     └── NotificationService, NotificationEngine, HTTPCore
//   NotificationText (the library apps link) ─ NotificationEngine
//   NotificationEngine (package-internal): the rules, the JSON reader and
//     writer, the decoders, problems
//     └── EnginePrimitives: the lane mask (SSE2 on x86-64, the stdlib elsewhere)
//
// HTTPCore holds the values both sides share (request, response, the handler
// protocol, server state, transport rejections, the status table) and
// imports nothing but the stdlib; the adapter knows no route or problem
// code, the service no socket. docs/architecture.md has the whole map.
//
// Raw memory (Unsafe* pointers and buffers, withUnsafe*, C calls that take
// pointers) lives in three modules, the fences (docs/adr/0032):
//   - the engine (NotificationEngine and its EnginePrimitives): byte ranges,
//     the JSON reader and writer, scratch buffers, the lane mask;
//   - EventHTTP: libevent's buffers, callbacks and sockets;
//   - NotificationService, at its edge with the platform only: descriptors
//     and files (`ProcessIO`, which the command line and the bench call with
//     plain values), `--json-lines`' splitter (`LineSplitter`, memchr), the
//     log's buffers and write(2), the clock, the token store's lock,
//     thread-specific keys, /proc, malloc's settings. The
//     service, not a module of its own: it already owns the process's
//     edge, and the command line and the bench already depend on it.
// Every other module is built with `strictMemorySafety` as errors, so an
// unsafe construct written into one fails the build; `make check-fences`
// fails when a module outside the fences lacks it or names raw memory.

let strictMemorySafety: [SwiftSetting] = [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]

let package = Package(
    name: "notification-text",
    // The NotificationText library (plain values over the engine, both the
    // standard library only) is meant for apps too: an iOS notification
    // service extension can link the very renderer and composer the service
    // runs. The service and its adapter are built and run on Linux. The
    // platforms are the lowest that Xcode 26 and 27 build for (docs/adr/0027);
    // `make check-library` fails when the library or the engine uses a
    // standard-library API newer than them.
    platforms: [.iOS(.v15), .macOS(.v12), .watchOS(.v9), .tvOS(.v15), .visionOS(.v1)],
    products: [
        .library(name: "NotificationText", targets: ["NotificationText"]),
        .executable(name: "notification-text", targets: ["notification-text"]),
    ],
    targets: [
        // Not a product: reached by `package` declarations from this package only.
        .target(name: "NotificationEngine", dependencies: ["EnginePrimitives"]),
        // The engine's one primitive the standard library lacks, SSE2's lane
        // mask from the toolchain's clang intrinsics (docs/adr/0031); not a
        // product either.
        .target(name: "EnginePrimitives"),
        // Strict memory safety, as on every module outside the fences: the
        // library apps link holds no raw memory, and any unsafe construct
        // written into it is an error, not a warning.
        .target(
            name: "NotificationText", dependencies: ["NotificationEngine"],
            swiftSettings: strictMemorySafety
        ),
        .target(name: "HTTPCore", swiftSettings: strictMemorySafety),
        .systemLibrary(
            name: "CLibevent",
            pkgConfig: "libevent",
            providers: [.apt(["libevent-dev"])]
        ),
        .target(
            name: "EventHTTP",
            dependencies: ["HTTPCore", "CLibevent"]
        ),
        .target(
            name: "NotificationService",
            dependencies: ["HTTPCore", "NotificationEngine"],
            // Every file in Resources/ becomes a `PackageResources` array of its
            // bytes (openapi.yaml: `PackageResources.openapi_yaml`); no Foundation.
            resources: [.embedInCode("Resources")]
        ),
        .executableTarget(
            name: "notification-text",
            dependencies: ["HTTPCore", "NotificationEngine", "NotificationService", "EventHTTP"],
            swiftSettings: strictMemorySafety,
            // `BuildVersion.version` (the VERSION file) and `.revision` (git).
            plugins: ["BuildVersion"]
        ),
        .plugin(name: "BuildVersion", capability: .buildTool()),
        .executableTarget(
            name: "notification-bench",
            dependencies: ["HTTPCore", "NotificationEngine", "NotificationService"],
            swiftSettings: strictMemorySafety
        ),
        .testTarget(
            name: "NotificationEngineTests",
            dependencies: ["NotificationEngine", "EnginePrimitives", "EngineTestSupport"]
        ),
        // What the engine's and the service's tests share: a JSON tree over the
        // engine's parser, and the repository's files.
        .target(
            name: "EngineTestSupport",
            dependencies: ["NotificationEngine"],
            path: "Tests/EngineTestSupport"
        ),
        .testTarget(
            name: "NotificationTextTests",
            dependencies: ["NotificationText"]
        ),
        .testTarget(
            name: "HTTPCoreTests",
            dependencies: ["HTTPCore"]
        ),
        // The live tests' raw-socket client, shared by the test targets that start servers, and the
        // reader of test-fixtures/reject.json, which the routes' and the binary's tests both run.
        .target(
            name: "HTTPTestSupport",
            path: "Tests/HTTPTestSupport"
        ),
        .testTarget(
            name: "EventHTTPTests",
            dependencies: ["EventHTTP", "HTTPCore", "HTTPTestSupport", "NotificationService", "NotificationEngine"]
        ),
        // The executable as a subprocess (serve, render, compose), with
        // @testable access to its configuration.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "notification-text", "HTTPCore", "HTTPTestSupport", "NotificationService", "NotificationEngine",
            ]
        ),
        .testTarget(
            name: "NotificationServiceTests",
            dependencies: [
                "NotificationService", "HTTPCore", "NotificationEngine", "NotificationText", "HTTPTestSupport",
                "EngineTestSupport",
            ]
        ),
    ]
)

// The libFuzzer targets (fuzz/README.md), declared only for `make fuzz-build`,
// which sets NOTIFICATION_TEXT_FUZZ=1 and builds them with --sanitize=fuzzer
// --sanitize=address in .build-fuzz/: libFuzzer supplies their `main`, so no
// other build could link them.
if Context.environment["NOTIFICATION_TEXT_FUZZ"] == "1" {
    package.targets += [
        .executableTarget(name: "fuzz-render", dependencies: ["NotificationEngine"], path: "fuzz/render"),
        .executableTarget(
            name: "fuzz-compose", dependencies: ["NotificationService", "NotificationEngine", "HTTPCore"],
            path: "fuzz/compose"),
    ]
}

// Settings applied in one place for every target.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny")
        ]
}
