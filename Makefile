# One entry point for a fresh machine: `make run` starts the main job and
# `make test` passes the tests; each installs what it needs when it is missing.
SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=

.PHONY: deps build release run test swift-test check-deploy bench clean

# libevent is the only C library; install it through apt-get only when missing.
deps:
	@pkg-config --exists libevent 2>/dev/null || { \
	  echo "installing libevent-dev with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libevent-dev pkg-config >/dev/null; }

build: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS)

run: build
	@printf 'Hello **world**, see [the docs](https://example.com) and `code`\n' | $(SWIFT) run -q notification-text render; echo

swift-test: deps
	$(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_BUILD_FLAGS)

test: swift-test check-deploy

# deploy/: Kubernetes schemas, hadolint, systemd-analyze, the release binary's libraries.
check-deploy: deps
	SWIFT="$(SWIFT)" deploy/check.sh

bench: release
	$(SWIFT) run -c release notification-bench

clean:
	rm -rf .build
