# The two commands of the README: `make run` starts ubqd in the foreground on the default
# settings; `make test` runs every test. Both install what a fresh Debian machine lacks.
SWIFT ?= swift
BUILD_FLAGS ?=

.PHONY: run test build bootstrap bench bench-sync bench-live clean

run: bootstrap
	$(SWIFT) build $(BUILD_FLAGS) --product ubqd
	$(SWIFT) build $(BUILD_FLAGS) --product ubq
	.build/debug/ubqd

test: bootstrap
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	$(SWIFT) test $(BUILD_FLAGS) --skip-build

build: bootstrap
	$(SWIFT) build $(BUILD_FLAGS)

bootstrap:
	@scripts/bootstrap.sh

bench: bootstrap
	Benchmarks/run.sh

bench-sync: bootstrap
	Benchmarks/sync/run.sh

# Live queries under load: 50 `ubq ls --watch` clients while 10,000 files change (release build).
bench-live: bootstrap
	$(SWIFT) build -c release --scratch-path .build-release --product ubqd
	$(SWIFT) build -c release --scratch-path .build-release --product ubq
	Benchmarks/live/watch_load.py --bin .build-release/release

clean:
	rm -rf .build
