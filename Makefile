# cdp-skill: the two commands of the README are `make demo` and `make test`.
GO      ?= go
BIN     := bin/cdp-skill
SUDO    := $(if $(filter 0,$(shell id -u)),,sudo)
CHROME  := $(shell command -v chromium || command -v chromium-browser || command -v google-chrome || command -v google-chrome-stable)
NPM     := $(shell command -v npm)

.PHONY: demo test build deps npm vet deadcode cross bench fuzz fuzz-ci

# deps installs Chromium with apt-get when no Chrome/Chromium is on PATH
# (elsewhere: install Chrome or Chromium yourself, or set CHROME_PATH).
# The package lists are updated first: a fresh machine's lists can name an
# older Chromium than the one the tests' accessibility expectations were
# proven against (TestAccnameFixturesAgreeWithChromium).
deps:
ifeq ($(CHROME)$(CHROME_PATH),)
	@echo "Installing Chromium with apt-get…"
	$(SUDO) apt-get update && $(SUDO) apt-get install -y chromium
endif

# npm installs Node.js and npm with apt-get when npm is missing: the
# real-widget corpus (runtime/corpus) installs its pinned UI libraries with
# npm ci (elsewhere: install Node.js yourself).
npm:
ifeq ($(NPM),)
	@echo "Installing Node.js and npm with apt-get…"
	$(SUDO) apt-get install -y nodejs npm || { $(SUDO) apt-get update && $(SUDO) apt-get install -y nodejs npm; }
endif

# build links a static binary (CGO_ENABLED=0): nothing needs cgo (Go's own
# DNS resolver reads /etc/hosts for localhost), and without the dynamic
# loader every command's process starts about 0.6 ms sooner. -s -w (no
# symbol table or DWARF; panics still name functions, files and lines)
# saves about 0.07 ms more; -trimpath saved nothing.
# cdp-skill-mcp (the MCP server, with the official Go SDK) is built next to
# cdp-skill, which runs it for `cdp-skill mcp`; the SDK stays out of every
# other command's start-up.
build:
	CGO_ENABLED=0 $(GO) build -ldflags='-s -w' -o $(BIN) ./cmd/cdp-skill
	CGO_ENABLED=0 $(GO) build -ldflags='-s -w' -o $(BIN)-mcp ./cmd/cdp-skill-mcp

# demo serves the embedded demo site on loopback and runs examples/demo.star
# against it, printing the JSON result.
demo: deps build
	./$(BIN) demo

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# deadcode fails on a production function that no command reaches
# (golang.org/x/tools' deadcode from the module proxy, built once and
# cached by go run): delete it, or move a helper only tests use into a
# _test.go file. The test-support packages are reached from tests only, so
# their findings are left out.
DEADCODE    := golang.org/x/tools/cmd/deadcode@v0.52.0
TESTSUPPORT := browser/browsertest|browser/cdpconn/inspect.go|internal/pooltest|internal/npmcache
deadcode:
	@out=$$($(GO) run $(DEADCODE) -test=false ./...) || exit 1; \
	out=$$(printf '%s\n' "$$out" | grep -Ev '^($(TESTSUPPORT))/' | grep . || true); \
	test -z "$$out" || { echo "unreachable production functions (delete them, or move a helper only tests use into a _test.go file):"; echo "$$out"; exit 1; }

# cross builds the binaries for Windows and macOS (amd64 and arm64): the
# platform-specific files sit behind build tags, and this keeps them so.
CROSS := windows/amd64 windows/arm64 darwin/amd64 darwin/arm64
cross:
	for p in $(CROSS); do for m in cdp-skill cdp-skill-mcp; do GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/$$m || { echo "cross build of $$m for $$p failed"; exit 1; }; done; done

# test runs vet, the gofmt check, deadcode, the cross builds and every test against a
# real headless Chromium (tests fail, never skip, when CI=true and Chromium
# or npm is missing). The browser-pool tests install browserless (pinned in
# internal/pooltest/testdata) with npm ci into ~/.cache/cdp-skill/browserless
# once (about 580 MB, a minute or two); later runs reuse it.
test: deps npm vet deadcode cross fuzz-ci
	$(GO) test -count=1 -timeout 30m ./...

bench: deps build
	$(GO) test -run '^$$' -bench . -benchtime 20x ./...

# fuzz runs each fuzz target of the language front for a few seconds (their
# seed corpora also run in every plain go test).
FUZZTIME ?= 5s
fuzz:
	for f in FuzzParseRequest FuzzDecodeJSON FuzzCheck; do $(GO) test ./lang -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) || exit 1; done
	$(GO) test ./runtime -run '^$$' -fuzz '^FuzzRunRecipe$$' -fuzztime $(FUZZTIME) -parallel 2

# fuzz-ci, part of make test, fuzzes the JSON frontend (FuzzParseRequest)
# and whole recipe runs without Chrome (FuzzRunRecipe) for CI_FUZZTIME
# each (plus an instrumented build of each package, cached after the first
# run).
CI_FUZZTIME ?= 20s
fuzz-ci:
	$(GO) test ./lang -run '^$$' -fuzz '^FuzzParseRequest$$' -fuzztime $(CI_FUZZTIME) -parallel 2
	$(GO) test ./runtime -run '^$$' -fuzz '^FuzzRunRecipe$$' -fuzztime $(CI_FUZZTIME) -parallel 2
