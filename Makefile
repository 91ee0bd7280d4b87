# The two commands of the README: `make run` starts ubqd in the foreground on the default
# settings; `make test` runs every test. Both install what a fresh Debian machine lacks.
SWIFT ?= swift
BUILD_FLAGS ?=

PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin

.PHONY: run test build bootstrap bench bench-sync bench-live fuzz install uninstall man clean

run: bootstrap
	$(SWIFT) build $(BUILD_FLAGS) --product ubqd
	$(SWIFT) build $(BUILD_FLAGS) --product ubq
	.build/debug/ubqd

test: bootstrap
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	SWIFT=$(SWIFT) scripts/test.sh $(BUILD_FLAGS)

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
	bin=$$(SWIFT=$(SWIFT) scripts/build-release.sh) && Benchmarks/live/watch_load.py --bin "$$bin"

# libFuzzer + AddressSanitizer over the keyed-archive decoder and the predicate parser,
# FUZZ_SECONDS each (CI: a short smoke run, which also keeps the harnesses building).
# Findings land in FUZZ_WORK's crashes/ (see each Fuzz/*/run.sh).
FUZZ_SECONDS ?= 60
fuzz:
	Fuzz/ArchiveFuzz/run.sh $(FUZZ_SECONDS)
	Fuzz/PredicateFuzz/run.sh $(FUZZ_SECONDS)

# Release ubqd and ubq in BINDIR (~/.local/bin), the user unit, completions for bash, zsh
# and fish, the manual pages (scripts/install.sh says where). PREFIX, BINDIR and DESTDIR
# can be set: `make install PREFIX=/opt/ubiquity`.
install: bootstrap
	bin=$$(SWIFT=$(SWIFT) scripts/build-release.sh) && \
		PREFIX="$(PREFIX)" BINDIR="$(BINDIR)" DESTDIR="$(DESTDIR)" scripts/install.sh install --bin-from "$$bin"

# Removes what `make install` put in place (same PREFIX/BINDIR/DESTDIR), nothing else.
uninstall:
	PREFIX="$(PREFIX)" BINDIR="$(BINDIR)" DESTDIR="$(DESTDIR)" scripts/install.sh uninstall

# Regenerates docs/man/ubq.1 and ubqd.1 with swift-argument-parser's generate-manual plugin
# (a test says when they no longer match the programs' help).
man: bootstrap
	$(SWIFT) build $(BUILD_FLAGS) --product ubq
	$(SWIFT) build $(BUILD_FLAGS) --product ubqd
	$(SWIFT) package $(BUILD_FLAGS) generate-manual --configuration debug
	scripts/man-pages.sh update .build/plugins/GenerateManual/outputs .build/debug

clean:
	rm -rf .build
