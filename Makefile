# One entry point for a fresh machine: `make run` starts the main job and
# `make test` passes the tests; each installs what it needs when it is missing.
SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=

.PHONY: deps build release run test swift-test bench oracle clean

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

test: swift-test

# Benchmarks, separate from `make test` and bounded (about 5 minutes): the
# renderer, the CLI, HTTP side by side with a C reference and a Python peer, a
# short soak. See bench/README.md for the knobs.
bench: deps
	SWIFT=$(SWIFT) bench/run.sh

# The Python port of body-rules.md against the fixtures and the Swift CLI.
oracle: deps
	SWIFT=$(SWIFT) bench/setup.sh
	.venv/bin/python bench/peer/diff_oracle.py --cli .build/release/notification-text

clean:
	rm -rf .build
