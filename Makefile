# One entry point for a fresh machine: `make run` starts the main job,
# `make test` passes the tests (about 10 minutes) and `make check-all` runs the
# thorough checks (sanitizers, fuzzing, the browser, deploy); each installs
# what it needs when it is missing. `.ci/run` is `make test` then `make check-all`.
SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=

.PHONY: deps jemalloc build release run test swift-test bench bench-rules clean check-openapi check-deploy

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
# As the deploy files run it: jemalloc preloaded (docs/adr/0009), and glibc
# malloc's per-thread cache for any build without it (docs/adr/0006).
MALLOC_TUNABLES ?= glibc.malloc.tcache_count=64
JEMALLOC ?= /usr/lib/$(shell uname -m)-linux-gnu/libjemalloc.so.2
run: build jemalloc
	LD_PRELOAD="$(JEMALLOC)" GLIBC_TUNABLES="$(MALLOC_TUNABLES)" \
	  "$$($(SWIFT) build $(SWIFT_BUILD_FLAGS) --show-bin-path)/notification-text" serve $(SERVE_FLAGS)

# jemalloc, the allocator the service is deployed with; apt-get only when missing.
jemalloc:
	@[ -e "$(JEMALLOC)" ] || { \
	  echo "installing libjemalloc2 with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjemalloc2 >/dev/null; }

# One debug build for everything in `make test`: the tests, and the
# executable that the CLI, oracle, fixture-runner, openapi, README and
# resilience checks run (`build` after it compiles nothing). The Python tools
# install meanwhile (pip waits on the network, the compiler on the cores).
# (Through SUBMAKE, not $(MAKE), so `make -n` prints this line rather than running it.)
SUBMAKE = $(MAKE)
.PHONY: swift-build-tests
swift-build-tests: deps
	@mkdir -p .build; $(SUBMAKE) --no-print-directory $(VENV)/.tools-installed >.build/venv.log 2>&1 & venv=$$!; \
	  echo "$(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS)"; \
	  $(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS); built=$$?; \
	  wait $$venv || { cat .build/venv.log; exit 1; }; [ $$built -eq 0 ]

swift-test: swift-build-tests
	$(SWIFT) test --skip-build $(SWIFT_BUILD_FLAGS)

# Python tools serve the checks only, never the service: pinned, in $(VENV)/.
VENV ?= .venv
PYTHON_TOOLS = openapi-spec-validator==0.9.0 schemathesis==4.32.5 babel==2.18.0 unicodedata2==17.0.0 regex==2026.11.19 selenium==4.51.0 wasmtime==50.0.1 pywebpush==2.5.0 firebase-admin==6.6.0

$(VENV)/.tools-installed: Makefile
	@python3 -c 'import ensurepip, venv' 2>/dev/null || { \
	  echo "installing python3-venv with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null; }
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check $(PYTHON_TOOLS)
	touch $@

# The localization tables (Sources/NotificationEngine/Localization/Generated/):
# CLDR data from babel, bidi classes of Unicode 17.0.0, and l10n/*.json built
# in; and the same CLDR and bidi tables as JSON for ports (test-fixtures/data/).
# `l10n-tables` rewrites them; `check-l10n-tables` fails when a checked-in
# table, Swift or JSON, is not what scripts/gen-l10n-tables.py writes today.
.PHONY: l10n-tables check-l10n-tables check-l10n-oracle
l10n-tables: $(VENV)/.tools-installed
	SWIFT="$(SWIFT)" $(VENV)/bin/python scripts/gen-l10n-tables.py

check-l10n-tables: $(VENV)/.tools-installed
	SWIFT="$(SWIFT)" $(VENV)/bin/python scripts/gen-l10n-tables.py --check

# The independent check (checks/l10n/oracle.py, babel as the oracle): the
# catalogs of l10n/ and every case of test-fixtures/l10n.json, then random
# compose requests in every locale through the debug binary's `compose`, with
# the default locale en and with ar (a fixed seed and a bounded count: 400
# requests, about 15 s).
L10N_ORACLE_COUNT ?= 300
L10N_ORACLE_SEED ?= 1
check-l10n-oracle: build $(VENV)/.tools-installed
	$(VENV)/bin/python checks/l10n/oracle.py --self-test
	$(VENV)/bin/python checks/l10n/oracle.py --cli "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text" \
	  --count $(L10N_ORACLE_COUNT) --seed $(L10N_ORACLE_SEED)
	$(VENV)/bin/python checks/l10n/oracle.py --cli "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text" \
	  --count $$(( $(L10N_ORACLE_COUNT) / 3 )) --seed $$(( $(L10N_ORACLE_SEED) + 1 )) --default-locale ar

# The push contract's oracle (checks/push/oracle.py, an independent reading of
# docs/spec/push.md): the declarative Web Push validator's self-test (it must
# fail each broken shape), every case of test-fixtures/push.json, with the
# full tier's notification from the debug binary's `compose`, then random
# hostile requests (half with a declarative Web Push payload) whose answers
# must fit, cut on grapheme boundaries, hide what their tier hides and equal
# the service's own (`compose --json-lines`), every Web Push payload
# encrypted by pywebpush into one 4,096-byte record, every FCM message built
# by firebase-admin as the service wrote it (a fixed seed; about 20 s
# in all; PUSH_ORACLE_COUNT=20000 takes about 6 minutes).
PUSH_ORACLE_COUNT ?= 200
.PHONY: check-push-oracle
check-push-oracle: build $(VENV)/.tools-installed
	$(VENV)/bin/python checks/push/oracle.py --self-test --random $(PUSH_ORACLE_COUNT) --seed 1 --encrypt --fcm \
	  --cli "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"

# Every code block of README.md run or compiled as written
# (checks/readme/readme_blocks.py): the commands against a service it starts,
# the library example's main.swift against the debug build's modules.
.PHONY: check-readme
check-readme: build python3
	python3 checks/readme/readme_blocks.py --build-path "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))" \
	  --doc docs/http-api.md --doc test-fixtures/README.md

# The answers docs/http-api.md and test-fixtures/README.md show, written anew
# from the debug build where they differ (a new answer member): generated,
# then checked by check-readme.
.PHONY: readme-answers
readme-answers: build python3
	python3 checks/readme/readme_blocks.py --build-path "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))" \
	  --doc docs/http-api.md --doc test-fixtures/README.md --write

# The Python fixture runner of test-fixtures/README.md, copied out of the
# README as written, against the debug build's service and `locale` command:
# every case of notification-body.json, compose.json, l10n.json and
# reject.json must pass (checks/fixtures/readme_runner.py; `--language
# javascript` runs the Node one the same way).
.PHONY: check-fixture-runners
check-fixture-runners: build python3 node
	python3 checks/fixtures/readme_runner.py \
	  --binary "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"
	node checks/fixtures/device_screen_test.mjs

# Validates openapi.yaml and checks a live server (127.0.0.1) against it.
check-openapi: build $(VENV)/.tools-installed
	scripts/check-openapi.sh "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"

# The relay of examples/relay/relay.py on the core (POST /relay, through HTTP;
# RELAY_CORE=host: the relay's WebAssembly module in process through the
# Python host, no service) in the device model (checks/relay/, docs/relay.md, docs/spec/screen.md)
# against the debug build's service: first the self-test (the core's answers
# broken as broken relays would break them, and broken apps: the checker must
# catch each), then every case of test-fixtures/scenarios.json, then
# RELAY_RANDOM_COUNT seeded random sequences in the realistic model (latency
# 0-2 s on every payload, offline periods, crashes at every step, duplicates,
# iOS's and Android's limits; 2-3 devices) with I1-I5, the badge, the tier
# and the language checked after every settled step, in two processes, the
# platforms' measured limits counted apart. A sequence makes about 36 calls
# of the core (an event, a loop, a push service's answer, a timer), so the
# service's debug build does most of the work: about 4 times the CPU of a
# relay that only composes, which is why check-relay runs 1,000 sequences
# (the whole target 1.8 minutes on a 2-core machine other builds shared;
# 2,000 took 4.4 to 4.6). check-relay-long runs RELAY_LONG_COUNT (10,000)
# sequences alone (20 minutes on that machine). Through the relay's module
# (RELAY_CORE=host: `make wasm` and the venv's wasmtime, no service) the
# same sequences give the same totals, 1,000 in 6.7 s and 10,000 in 108 s
# (the core is the -Osize module compiled by wasmtime, not a debug build).
# check-relay ends with examples/relay/relay_test.py: the example's own
# three sequences against fake push services (about 3 s).
RELAY_RANDOM_COUNT ?= 1000
RELAY_LONG_COUNT ?= 10000
RELAY_RANDOM_SEED ?= 1
RELAY_CORE ?= http
ifeq ($(RELAY_CORE),host)
RELAY_NEEDS = wasm $(VENV)/.tools-installed
RELAY_PYTHON = $(VENV)/bin/python
RELAY_DOOR = --core host
else
RELAY_NEEDS = build python3
RELAY_PYTHON = python3
RELAY_DOOR = --binary "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"
endif
.PHONY: check-relay check-relay-long
check-relay: $(RELAY_NEEDS)
	$(RELAY_PYTHON) checks/relay/check.py --self-test --scenarios --random $(RELAY_RANDOM_COUNT) \
	  --seed $(RELAY_RANDOM_SEED) $(RELAY_DOOR)
	$(RELAY_PYTHON) examples/relay/relay_test.py $(RELAY_DOOR)

check-relay-long: $(RELAY_NEEDS)
	$(RELAY_PYTHON) checks/relay/check.py --random $(RELAY_LONG_COUNT) --seed $(RELAY_RANDOM_SEED) $(RELAY_DOOR)


# The playground page (GET /) in headless Chromium driven by Selenium, against
# the debug build on 127.0.0.1 (checks/browser/playground_test.py); screenshots
# go to $(PLAYGROUND_SCREENSHOTS). Debian's chromium and chromedriver, through
# apt-get only when missing; the whole check is bounded by BROWSER_SECONDS.
.PHONY: check-browser chromium
BROWSER_SECONDS ?= 120
PLAYGROUND_SCREENSHOTS ?= .build/playground-screenshots
chromium:
	@{ command -v chromium && command -v chromedriver; } >/dev/null 2>&1 || { \
	  echo "installing chromium chromium-driver with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    chromium chromium-driver >/dev/null; }

check-browser: build chromium $(VENV)/.tools-installed
	$(VENV)/bin/python checks/browser/playground_test.py --seconds $(BROWSER_SECONDS) \
	  --screenshots $(PLAYGROUND_SCREENSHOTS) \
	  --binary "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"

# Formatting: the toolchain's swift-format with .swift-format; `make format` rewrites.
SWIFT_FORMAT_PATHS = Package.swift Plugins Sources Tests fuzz wasm
.PHONY: lint format
lint:
	$(SWIFT) format lint --strict --recursive $(SWIFT_FORMAT_PATHS)

format:
	$(SWIFT) format --in-place --recursive $(SWIFT_FORMAT_PATHS)

# VERSION, openapi.yaml, the kustomization's image tag, the Dockerfile's label
# and the binary's --version name one version (scripts/check-version.sh).
.PHONY: check-version
check-version: build
	scripts/check-version.sh "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"

# The engine and the library alone: import nothing but each other, build
# without the C target (scripts/check-library.sh; in `make check-all`: it
# compiles the engine once more, with swiftc alone).
.PHONY: check-library
check-library:
	SWIFTC="$(SWIFTC)" scripts/check-library.sh

# Raw memory in the engine, the adapter and the service only; strict memory
# safety on every other module (scripts/check-memory-fences.sh, docs/adr/0032).
.PHONY: check-fences
check-fences:
	SWIFT="$(SWIFT)" scripts/check-memory-fences.sh

# The quick suite (README: about 10 minutes on a fresh clone here): one debug
# build shared by the tests and every check of the binary, then the gate's
# release build. The thorough checks, each with a build of its own
# (sanitizers, fuzzing) or slow tools (the browser, deploy), are `check-all`;
# CI (.ci/run) runs `make test` then `make check-all`.
.PHONY: test check-all
test: lint check-fences swift-build-tests perf-release-background swift-test check-version check-readme check-l10n-tables check-l10n-oracle check-push-oracle check-fixture-runners check-relay check-openapi perf-release resilience-short perf-gate check-wasm

check-all: check-library check-browser check-wasm-browser check-deploy fuzz-short sanitize

# The performance gate (bench/perf_gate.py, bench/README.md "The performance
# gate"): instructions per operation under callgrind, in process
# (notification-bench) and per live request of every route (serve --threads 1
# as deployed), against bench/perf-thresholds.json; more than 3% over fails
# with the table. First its self-test: the same judging on doctored
# thresholds must fail. `make perf-baseline` rewrites the thresholds; a
# commit that moves one says why. About 1.5 minutes after the build.
# The build is the release build as deployed (deploy/Dockerfile), static
# Swift standard library, which check-deploy uses too, in a scratch path of
# its own (.build-release/): a build without --static-swift-stdlib in the same
# path recompiles every module and counts other instructions, and no SwiftPM
# command on .build/ waits for it. In `make test` it starts in the background
# once the debug build is done (perf-release-background) and compiles while
# the tests and checks leave a core idle; perf-release waits for it, builds
# whatever is left, and comes before the short resilience run, whose
# latencies want the cores.
.PHONY: perf-gate perf-baseline perf-release valgrind
valgrind:
	@command -v valgrind >/dev/null 2>&1 && command -v vgdb >/dev/null 2>&1 || { \
	  echo "installing valgrind with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }

RELEASE_SCRATCH_PATH = .build-release
PERF_BUILD_FLAGS = -c release --static-swift-stdlib --scratch-path $(RELEASE_SCRATCH_PATH) $(SWIFT_BUILD_FLAGS)
.PHONY: perf-release-background
perf-release-background: deps
	@mkdir -p $(RELEASE_SCRATCH_PATH); echo "$(SWIFT) build $(PERF_BUILD_FLAGS) (in the background)"; \
	  ( $(SWIFT) build $(PERF_BUILD_FLAGS) >$(RELEASE_SCRATCH_PATH)/background.log 2>&1; \
	    rm -f $(RELEASE_SCRATCH_PATH)/background.pid ) & echo $$! >$(RELEASE_SCRATCH_PATH)/background.pid

perf-release: deps
	@pid=$$(cat $(RELEASE_SCRATCH_PATH)/background.pid 2>/dev/null); \
	  if [ -n "$$pid" ] && kill -0 "$$pid" 2>/dev/null; then \
	    echo "waiting for the background release build ($(RELEASE_SCRATCH_PATH)/background.log)"; \
	    while kill -0 "$$pid" 2>/dev/null; do sleep 2; done; fi
	$(SWIFT) build $(PERF_BUILD_FLAGS)

PERF_GATE_FLAGS ?=
perf-gate: perf-release valgrind jemalloc python3
	python3 bench/perf_gate.py --self-test
	python3 bench/perf_gate.py --bin-path "$$($(SWIFT) build $(PERF_BUILD_FLAGS) --show-bin-path)" $(PERF_GATE_FLAGS)

perf-baseline: perf-release valgrind jemalloc python3
	python3 bench/perf_gate.py --baseline --bin-path "$$($(SWIFT) build $(PERF_BUILD_FLAGS) --show-bin-path)"

# deploy/: Kubernetes schemas, hadolint, systemd-analyze, the release binary's libraries.
check-deploy: deps
	SWIFT="$(SWIFT)" RELEASE_SCRATCH_PATH="$(RELEASE_SCRATCH_PATH)" deploy/check.sh

# Benchmarks, separate from `make test` and bounded (about 6 minutes): the
# renderer, the CLI, HTTP side by side with a C reference and a Python peer, a
# short soak. See bench/README.md for the knobs.
# The rules in process: median time per render and per compose.
bench-rules: release
	$(SWIFT) run -c release notification-bench

bench: deps
	SWIFT=$(SWIFT) bench/run.sh

# The Python port of docs/spec/body.md against the fixture and the Swift CLI.
.PHONY: oracle
oracle: deps
	SWIFT=$(SWIFT) bench/setup.sh
	.venv/bin/python bench/peer/diff_oracle.py --cli .build/release/notification-text

clean:
	rm -rf .build .build-release .build-fuzz .build-asan .build-tsan

.PHONY: fuzz fuzz-build fuzz-short sanitize sanitize-address sanitize-thread resilience resilience-short python3

# Fuzzing (fuzz/README.md): the libFuzzer targets fuzz/render and
# fuzz/compose, which Package.swift declares when NOTIFICATION_TEXT_FUZZ=1,
# built by SwiftPM with every module under -sanitize=fuzzer,address in
# .build-fuzz/ (release, testable for the targets' @testable imports);
# .build-fuzz/fuzz-<target> links to each.
SWIFTC ?= swiftc
FUZZ_SECONDS ?= 60
FUZZ_SHORT_SECONDS ?= 12
FUZZ_TARGETS := render compose
FUZZ_BUILD_FLAGS := -c release --sanitize=fuzzer --sanitize=address -Xswiftc -enable-testing \
  --scratch-path .build-fuzz $(SWIFT_BUILD_FLAGS)

fuzz-build: deps
	@for target in $(FUZZ_TARGETS); do \
	  echo "NOTIFICATION_TEXT_FUZZ=1 $(SWIFT) build $(FUZZ_BUILD_FLAGS) --product fuzz-$$target"; \
	  NOTIFICATION_TEXT_FUZZ=1 $(SWIFT) build $(FUZZ_BUILD_FLAGS) --product fuzz-$$target || exit 1; \
	  ln -sf "$$(NOTIFICATION_TEXT_FUZZ=1 $(SWIFT) build $(FUZZ_BUILD_FLAGS) --show-bin-path)/fuzz-$$target" \
	    .build-fuzz/fuzz-$$target; \
	done

fuzz: fuzz-build
	@for target in $(FUZZ_TARGETS); do fuzz/run.sh $$target $(FUZZ_SECONDS) || exit 1; done

# The short pass inside `make check-all`.
fuzz-short: fuzz-build
	@for target in $(FUZZ_TARGETS); do fuzz/run.sh $$target $(FUZZ_SHORT_SECONDS) || exit 1; done

# The test suite under AddressSanitizer and ThreadSanitizer, each in its own
# scratch path so neither invalidates the other's (or the plain) build cache.
sanitize: sanitize-address sanitize-thread

sanitize-address: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan $(SWIFT_BUILD_FLAGS)
	LSAN_OPTIONS="suppressions=$(CURDIR)/checks/sanitizers/lsan.supp $${LSAN_OPTIONS:-}" \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan $(SWIFT_BUILD_FLAGS)

sanitize-thread: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan $(SWIFT_BUILD_FLAGS)
	TSAN_OPTIONS="halt_on_error=1 $${TSAN_OPTIONS:-}" $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan $(SWIFT_BUILD_FLAGS)

# Resilience (checks/resilience/resilience.py, one scenario per file in
# checks/resilience/tests/): slow clients, SIGTERM under load, malformed
# requests, mid-body resets, framing, memory and a soak against a live server
# on 127.0.0.1. `make test` runs the short version against the debug build.
SOAK_SECONDS ?= 120

python3:
	@command -v python3 >/dev/null 2>&1 || { \
	  echo "installing python3 with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >/dev/null; }

# The long form runs the gate's release build (.build-release/, as deployed).
resilience: perf-release python3
	python3 checks/resilience/resilience.py --soak-seconds $(SOAK_SECONDS) \
	  --binary "$$($(SWIFT) build $(PERF_BUILD_FLAGS) --show-bin-path)/notification-text"

resilience-short: build python3
	python3 checks/resilience/resilience.py --quick \
	  --binary "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"

# The rules as a WebAssembly module (docs/wasm.md, ADR 0037): the engine
# (NotificationEngine, EnginePrimitives) and the module's exports (wasm/)
# compiled with the toolchain's Embedded Swift for wasm32-unknown-none-wasm
# and linked by its wasm-ld with wasi-libc's malloc and mem* (Debian's
# wasi-libc, through apt-get only when missing); nothing is fetched. The
# module imports nothing. Two modules from the one engine object: the
# browser's notification-text.wasm (body, compose, locale) and the relay's
# notification-text-relay.wasm (compose and the relay's core: wasm/ compiled
# again with -D RELAY_MODULE), each within the size targets (ADR 0041).
# `make wasm` leaves both and their two hosts, notification-text.mjs
# (browsers, Node) and notification_text.py (wasmtime), in $(WASM_DIR), and
# the modules in the hosts' packages.
WASM_DIR ?= .build/wasm
WASM_TOOLCHAIN ?= $(dir $(shell command -v $(SWIFTC) 2>/dev/null || echo /opt/swift/usr/bin/swiftc))
WASM_TARGET = wasm32-unknown-none-wasm
WASM_SYSROOT ?= /usr/lib/wasm32-wasi
# -Osize rather than -O: smaller by a tenth (ADR 0041); -O was 15% faster
# (docs/wasm.md). -msimd128: WebAssembly 2.0's 128-bit SIMD for
# the engine's SIMD16 scans (the JSON reader's, the renderer's), which are
# otherwise done lane by lane.
WASM_OPTIMIZE ?= -Osize
WASM_SWIFT_FLAGS = -target $(WASM_TARGET) -enable-experimental-feature Embedded -wmo $(WASM_OPTIMIZE) -Xcc -msimd128 \
  -parse-as-library \
  -package-name notification_text -Xfrontend -disable-stack-protector -I $(WASM_DIR)/modules
WASM_UNICODE_TABLES = $(WASM_TOOLCHAIN)../lib/swift/embedded/$(WASM_TARGET)/libswiftUnicodeDataTables.a
WASM_SOURCES := $(sort $(wildcard wasm/*.swift))
ENGINE_SOURCES := $(sort $(shell find Sources/NotificationEngine -name '*.swift' 2>/dev/null))
PRIMITIVES_SOURCES := $(sort $(shell find Sources/EnginePrimitives -name '*.swift' 2>/dev/null))
.PHONY: wasm wasi-libc node check-wasm check-wasm-browser playground-static

wasi-libc:
	@[ -e "$(WASM_SYSROOT)/libc.a" ] || { \
	  echo "installing wasi-libc with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wasi-libc >/dev/null; }

$(WASM_DIR)/modules/EnginePrimitives.o: $(PRIMITIVES_SOURCES)
	@mkdir -p $(WASM_DIR)/modules
	$(WASM_TOOLCHAIN)swiftc $(WASM_SWIFT_FLAGS) -module-name EnginePrimitives \
	  -emit-module -emit-module-path $(WASM_DIR)/modules/EnginePrimitives.swiftmodule -c $^ -o $@

$(WASM_DIR)/modules/NotificationEngine.o: $(ENGINE_SOURCES) $(WASM_DIR)/modules/EnginePrimitives.o
	$(WASM_TOOLCHAIN)swiftc $(WASM_SWIFT_FLAGS) -module-name NotificationEngine \
	  -emit-module -emit-module-path $(WASM_DIR)/modules/NotificationEngine.swiftmodule -c $(ENGINE_SOURCES) -o $@

$(WASM_DIR)/modules/NotificationWasm.o: $(WASM_SOURCES) $(WASM_DIR)/modules/NotificationEngine.o
	$(WASM_TOOLCHAIN)swiftc $(WASM_SWIFT_FLAGS) -module-name NotificationWasm -c $(WASM_SOURCES) -o $@

$(WASM_DIR)/modules/NotificationWasmRelay.o: $(WASM_SOURCES) $(WASM_DIR)/modules/NotificationEngine.o
	$(WASM_TOOLCHAIN)swiftc $(WASM_SWIFT_FLAGS) -D RELAY_MODULE -module-name NotificationWasm -c $(WASM_SOURCES) -o $@

$(WASM_DIR)/modules/runtime.o: wasm/runtime.c
	@mkdir -p $(WASM_DIR)/modules
	$(WASM_TOOLCHAIN)clang --target=$(WASM_TARGET) -Os -ffreestanding -nostdlib -c $< -o $@

# --gc-sections keeps what the exports reach; --compress-relocations writes
# each call's function index and each address in as few bytes as it needs
# (the objects pad them to 5 for the linker: 36 KB of the code); the memory
# grows from 2 pages (128 KiB) of stack as malloc asks.
WASM_LINK = $(WASM_TOOLCHAIN)wasm-ld --no-entry --gc-sections --compress-relocations --strip-all -z stack-size=131072 \
  -o $@ $^ $(WASM_UNICODE_TABLES) $(WASM_SYSROOT)/libc.a
WASM_COMMON_OBJECTS = $(addprefix $(WASM_DIR)/modules/,NotificationEngine.o EnginePrimitives.o runtime.o)
$(WASM_DIR)/notification-text.wasm: $(WASM_DIR)/modules/NotificationWasm.o $(WASM_COMMON_OBJECTS) | wasi-libc
	$(WASM_LINK)

$(WASM_DIR)/notification-text-relay.wasm: $(WASM_DIR)/modules/NotificationWasmRelay.o $(WASM_COMMON_OBJECTS) | wasi-libc
	$(WASM_LINK)

# The hosts: beside the module in $(WASM_DIR) (the fixture runners, the
# example worker and the static playground load them from there), and the
# module inside the two host packages, wasm/python (pip) and wasm/js (npm),
# which install from the repository once it is there (docs/adr/0040).
$(WASM_DIR)/notification-text.mjs $(WASM_DIR)/notification-text.d.ts: $(WASM_DIR)/%: wasm/js/%
	@mkdir -p $(WASM_DIR)
	cp $< $@

$(WASM_DIR)/notification_text.py: wasm/python/notification_text/__init__.py
	@mkdir -p $(WASM_DIR)
	cp $< $@

WASM_PACKAGED = $(foreach folder,wasm/python/notification_text wasm/js,\
  $(folder)/notification-text.wasm $(folder)/notification-text-relay.wasm)
wasm/python/notification_text/%.wasm: $(WASM_DIR)/%.wasm
	cp $< $@

wasm/js/%.wasm: $(WASM_DIR)/%.wasm
	cp $< $@

wasm: $(WASM_DIR)/notification-text.wasm $(WASM_DIR)/notification-text-relay.wasm $(WASM_DIR)/notification-text.mjs \
  $(WASM_DIR)/notification-text.d.ts $(WASM_DIR)/notification_text.py $(WASM_PACKAGED)
	@ls -l $(WASM_DIR)/notification-text.wasm $(WASM_DIR)/notification-text-relay.wasm

node:
	@command -v node >/dev/null 2>&1 || { \
	  echo "installing nodejs with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null; }

# npm installs the JS package in docs/wasm.md's lines, tsc checks its types
# (Debian's npm and node-typescript: no registry but Debian's is reached).
.PHONY: node-tools
node-tools: node
	@{ command -v npm && command -v tsc; } >/dev/null 2>&1 || { \
	  echo "installing npm node-typescript with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm node-typescript >/dev/null; }

# The modules' size targets first (checks/wasm/size.py: each at most 1 MB raw
# and 350 KB after gzip -9), then every code line of docs/wasm.md as written, in a
# fresh folder with a fresh venv and npm install, and the JS package's types
# under tsc (checks/wasm/doc_blocks.py), then
# test-fixtures/README.md's runners with its module lines (readme_runner.py
# --wasm), then every fixture case through the module in Node
# (notification-text.mjs) and Python (the wasm/python package on wasmtime),
# byte for byte the debug service's answer, the Python package's cache,
# nt_configure against the CLI's --app-name and --default-locale, 1,000
# requests that are not UTF-8, the relay's module (played relay lives covering
# every op, problems, mutations) identical to `relay --json-lines`, then random requests through
# both, identical to the command line (checks/wasm/check.py and the parts
# beside it).
# WASM_BODIES and WASM_COMPOSES set the random run.
WASM_BODIES ?= 5000
WASM_COMPOSES ?= 2000
WASM_INVALID_UTF8 ?= 1000
WASM_SEED ?= 1
WASM_MAX_RAW_BYTES ?= 1000000
WASM_MAX_GZIP_BYTES ?= 350000
check-wasm: wasm build node-tools $(VENV)/.tools-installed
	python3 checks/wasm/size.py $(WASM_DIR)/notification-text.wasm $(WASM_DIR)/notification-text-relay.wasm \
	  --max-raw-bytes $(WASM_MAX_RAW_BYTES) --max-gzip-bytes $(WASM_MAX_GZIP_BYTES)
	python3 checks/wasm/doc_blocks.py
	@for language in javascript python; do \
	  python3 checks/fixtures/readme_runner.py --wasm --language $$language --python $(VENV)/bin/python \
	    --binary "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text" || exit 1; done
	$(VENV)/bin/python checks/wasm/check.py --wasm-dir $(WASM_DIR) --bodies $(WASM_BODIES) --composes $(WASM_COMPOSES) \
	  --invalid-utf8 $(WASM_INVALID_UTF8) --seed $(WASM_SEED) --binary "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"

# examples/service-worker in headless Chromium (Debian's, Selenium as pinned):
# Web Push data messages delivered through the DevTools protocol, the
# notifications shown read back, each equal to the debug service's answer;
# then the static playground's answers on load (checks/wasm/service_worker_test.py;
# about 15 s). A browser check: it
# belongs with check-browser.
check-wasm-browser: wasm build playground-static chromium $(VENV)/.tools-installed
	$(VENV)/bin/python checks/wasm/service_worker_test.py --wasm-dir $(WASM_DIR) --seconds $(BROWSER_SECONDS) \
	  --playground $(PLAYGROUND_STATIC) \
	  --binary "$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/notification-text"

# The playground page without a server (examples/playground-static): the
# page's own files, the module and offline.mjs, which answers the page's
# POST /body and POST /compose with it; playground.json is the service's
# GET /playground.json for the default settings, written from l10n/ by
# settings.py (check-wasm-browser compares it with the service's): no build
# of the service is needed.
PLAYGROUND_STATIC ?= .build/playground-static
.PHONY: playground-static
playground-static: wasm
	@mkdir -p $(PLAYGROUND_STATIC)
	cp Sources/NotificationService/Resources/playground.js Sources/NotificationService/Resources/playground.css \
	  Sources/NotificationService/Resources/playground.svg examples/playground-static/offline.mjs \
	  $(WASM_DIR)/notification-text.mjs $(WASM_DIR)/notification-text.wasm $(PLAYGROUND_STATIC)/
	sed -e 's#"/playground\.\(svg\|css\|js\)"#"playground.\1"#' \
	  -e 's#<script src="playground.js" defer></script>#<script type="module" src="offline.mjs"></script>\n&#' \
	  Sources/NotificationService/Resources/index.html > $(PLAYGROUND_STATIC)/index.html
	python3 examples/playground-static/settings.py l10n > $(PLAYGROUND_STATIC)/playground.json
