# One entry point for a fresh machine: `make run` starts the main job and
# `make test` passes the tests; each installs what it needs when it is missing.
SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=

.PHONY: deps build release run test swift-test bench clean openapi-embed check-openapi check-deploy

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

# Python tools serve the checks only, never the service: pinned, in $(VENV)/.
VENV ?= .venv
PYTHON_TOOLS = openapi-spec-validator==0.9.0 schemathesis==4.32.5

$(VENV)/.tools-installed: Makefile
	@python3 -c 'import ensurepip, venv' 2>/dev/null || { \
	  echo "installing python3-venv with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null; }
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check $(PYTHON_TOOLS)
	touch $@

# Regenerates the embedded copy of openapi.yaml served at GET /openapi.yaml.
openapi-embed:
	scripts/embed-openapi.sh

# Validates openapi.yaml and checks a live server (127.0.0.1) against it.
check-openapi: build $(VENV)/.tools-installed
	scripts/check-openapi.sh "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"

test: swift-test check-openapi check-deploy

# deploy/: Kubernetes schemas, hadolint, systemd-analyze, the release binary's libraries.
check-deploy: deps
	SWIFT="$(SWIFT)" deploy/check.sh

bench: release
	$(SWIFT) run -c release notification-bench

clean:
	rm -rf .build
