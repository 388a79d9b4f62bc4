# fabricc build, test and demo targets. `make demo` and `make test` are the
# two entry points; see README.md.

GO      ?= go
# The full commit hash, "+dirty" when the work tree has changes or
# untracked files (the mark Go's own vcs.modified stamp gives), the same
# in a shallow CI clone, a full clone and a git worktree.
VERSION ?= $(shell rev=$$(git rev-parse HEAD 2>/dev/null) && { test -z "$$(git status --porcelain 2>/dev/null)" && echo $$rev || echo $$rev+dirty; } || echo dev)
LDFLAGS := -X main.version=$(VERSION)
BIN     := bin/fabricc
DEMO    ?= examples/multivendor-clos
OUT     ?= out
LAB     ?= lab

.PHONY: all build test golden bench bench-go pgo lint demo clean fuzz

all: build

# CGO_ENABLED=0: a static binary (os/user and net in pure Go, no glibc),
# which runs in a scratch, distroless or Alpine container. The -race
# targets of test need cgo and keep it.
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/fabricc

# gofmt must list nothing and go.mod/go.sum must be tidy (go mod tidy
# -diff prints what tidy would change and fails); then vet, every test,
# the push fault matrix (every injected fault, kill -9 and SIGTERM at
# every stage of a push, on each platform; it prints its counts), and
# the race detector over the concurrent parts (push engine, simulators,
# inventory, the HCL front end's tests that decode and evaluate on
# several goroutines, the compiler's lowering of switches beside hosts
# and its checks and physics, which run on both cores, over the example
# and benchmark fabrics, and the build's rebuilds, which keep devices
# from the previous build and recycle rendered buffers on every core).
test:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }
	$(GO) vet ./...
	@# Every package builds on the other systems too (the *_other.go files).
	GOOS=windows $(GO) build ./... && GOOS=darwin $(GO) build ./...
	$(GO) test ./...
	FABRICC_FAULT_MATRIX=1 $(GO) test -count=1 -run '^TestFaultMatrix$$' -v ./cmd/fabricc
	$(GO) test -race ./push/... ./sim/... ./inventory/...
	$(GO) test -race -run 'TestFastDecode|TestParallelForSame|TestNativeSameFabrics|TestParseErrorsInFileOrder' ./dsl
	$(GO) test -race -run 'TestSourcesDisjoint|TestChecks|TestRange|TestLower' ./compiler ./internal/cores
	$(GO) test -race -run 'TestRebuildKeepsOnlyWhatIsVouchedFor|TestBuildIncremental|TestViewRendersAsFabric|TestRenderSwitchesIsRender' ./artifacts

# Rewrite golden/ from the current build of every example; review the diff.
golden:
	$(GO) test ./cmd/fabricc -run 'TestGolden' -update
	@git status --short golden

# Run every fuzz target for FUZZTIME each (default 10s). A crash is saved
# by go test under the package's testdata/fuzz/<Target>/, where every
# later `go test` runs it as a regular test; fix it and commit the file.
FUZZTIME ?= 10s
FUZZ_TARGETS := \
	./dsl:FuzzLoad ./dsl:FuzzLoadWithVariables ./dsl:FuzzExpression ./dsl:FuzzNativeSame ./dsl:FuzzNativeFunctions ./dsl:FuzzExpandPorts ./model:FuzzIndent \
	./artifacts:FuzzBuild ./inventory:FuzzParse ./targets/cumulus:FuzzPatchTextIsYAMLv3 \
	./push/verify:FuzzParseOnyx ./push/verify:FuzzApplyOnyxPFC ./push/verify:FuzzParseEOS \
	./push/verify:FuzzParseEOSJSON ./push/verify:FuzzParseNVUE

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$pkg $$name for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

# The benchmark table (bench/README.md): validate, build, the disk's
# floor, a Jinja2 peer, an incremental rebuild and pushes to simulated
# switches, on the generated fabric at 64 and 512 switches; BENCH_LARGE=1
# adds 4,096 switches. Installs Debian's python3-jinja2 for the peer.
bench: build
	$(GO) build -o bin/floor ./bench/floor
	@/usr/bin/python3 -c 'import jinja2' 2>/dev/null || { apt-get update -qq && apt-get install -y -qq python3-jinja2; }
	$(GO) run ./bench/run -fabricc $(BIN) -floor bin/floor

# Regenerate cmd/fabricc/default.pgo, the CPU profile of two 4,096-switch
# builds from which `go build` optimises fabricc (bench/pgo.sh). It writes
# about 11 GB into TMPDIR; `make pgo TMPDIR=/dev/shm` keeps that off the
# disk where the tmpfs has room for it.
pgo:
	GO=$(GO) bench/pgo.sh

# The Go micro-benchmarks of the packages.
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# gofmt and vet, plus shellcheck over the rendered shell scripts when it is installed.
lint:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	@if command -v shellcheck >/dev/null 2>&1; then \
		scripts="$$(find golden -name '*.sh' 2>/dev/null)"; \
		if [ -n "$$scripts" ]; then echo "shellcheck $$(echo $$scripts | wc -w) scripts"; shellcheck $$scripts; fi; \
	else echo "shellcheck not installed; skipping the shell script check"; fi

# Build the demo fabric into $(OUT)/ and summarise the manifest, then run
# the push story against simulated switches on 127.0.0.1 (no network):
# dry run, push, a second push that changes nothing, verify; then stop.
# The lab (inventory, known_hosts, passwords) lives in $(LAB)/, beside the
# build: fabricc build replaces only a folder that holds nothing but a
# build, so a second `make demo` works.
demo: build
	./$(BIN) validate $(DEMO)
	./$(BIN) build $(DEMO) -o $(OUT)
	@echo "artifacts in $(OUT)/:"
	@cd $(OUT) && find . -type f | sort | sed 's|^\./|  |'
	@echo "documents: $(OUT)/fabric.md (overview, topology, cabling, buffer budgets, warnings);"
	@echo "           $(OUT)/<device>/<device>.md per device, $(OUT)/<switch>/<switch>.buffer.svg per switch"
	./$(BIN) lab $(DEMO) --dir $(LAB) --run-push

clean:
	rm -rf bin $(OUT) $(LAB)

# Regenerate the OpenConfig Go structs (targets/openconfig/oc/oc.go) with
# ygot's generator from the OpenConfig public YANG models
# (github.com/openconfig/public), checked out at ../shared/yang beside the repo.
.PHONY: generate-oc
generate-oc:
	$(GO) generate ./targets/openconfig/oc
