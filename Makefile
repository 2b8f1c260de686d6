# One entry point for a fresh machine: `make run` starts the main job and
# `make test` passes the tests; each installs what it needs when it is missing.
SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=

.PHONY: deps build release run test swift-test bench clean

# libevent is the only C library; install it through apt-get only when missing.
deps:
	@pkg-config --exists libevent 2>/dev/null || { \
	  echo "installing libevent-dev with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libevent-dev pkg-config >/dev/null; }

build: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS)

# The service on 127.0.0.1:8080 (the defaults) until Ctrl-C; settings come
# from NOTIFICATION_TEXT_* variables or SERVE_FLAGS, e.g. SERVE_FLAGS='--port 9090'.
SERVE_FLAGS ?=
run: build
	"$$($(SWIFT) build $(SWIFT_BUILD_FLAGS) --show-bin-path)/notification-text" serve $(SERVE_FLAGS)

swift-test: deps
	$(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_BUILD_FLAGS)

test: swift-test

bench: release
	$(SWIFT) run -c release notification-bench

clean:
	rm -rf .build
