// swift-tools-version:6.0
import PackageDescription

// No packages from outside the toolchain: the rules use only the stdlib, the
// service only Foundation-free code of its own, and HTTP comes from libevent.
let package = Package(
    name: "notification-text",
    products: [
        .library(name: "NotificationText", targets: ["NotificationText"]),
        .executable(name: "notification-text", targets: ["notification-text"]),
    ],
    targets: [
        .target(name: "NotificationText"),
        .systemLibrary(
            name: "CLibevent",
            pkgConfig: "libevent",
            providers: [.apt(["libevent-dev"])]
        ),
        .target(
            name: "EventHTTP",
            dependencies: ["CLibevent", "NotificationService"]
        ),
        .target(
            name: "NotificationService",
            dependencies: ["NotificationText"],
            // The playground page (GET /), compiled in as byte arrays: no bundle, no Foundation.
            resources: [
                .embedInCode("Playground/index.html"),
                .embedInCode("Playground/playground.css"),
                .embedInCode("Playground/playground.js"),
                .embedInCode("Playground/playground.svg"),
            ]
        ),
        .executableTarget(
            name: "notification-text",
            dependencies: ["NotificationText", "NotificationService", "EventHTTP"]
        ),
        .executableTarget(
            name: "notification-bench",
            dependencies: ["NotificationText", "NotificationService"]
        ),
        .testTarget(
            name: "NotificationTextTests",
            dependencies: ["NotificationText"]
        ),
        .testTarget(
            name: "EventHTTPTests",
            dependencies: ["EventHTTP", "NotificationService"]
        ),
        .testTarget(
            name: "NotificationServiceTests",
            dependencies: ["NotificationService", "NotificationText"]
        ),
    ]
)

// Settings applied in one place for every target.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny")
        ]
}
