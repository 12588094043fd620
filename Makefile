# cdp-skill: the two commands of the README are `make demo` and `make test`.
GO      ?= go
BIN     := bin/cdp-skill
SUDO    := $(if $(filter 0,$(shell id -u)),,sudo)
CHROME  := $(shell command -v chromium || command -v chromium-browser || command -v google-chrome || command -v google-chrome-stable)

.PHONY: demo test build deps vet cross bench fuzz

# deps installs Chromium with apt-get when no Chrome/Chromium is on PATH
# (elsewhere: install Chrome or Chromium yourself, or set CHROME_PATH).
deps:
ifeq ($(CHROME)$(CHROME_PATH),)
	@echo "Installing Chromium with apt-get…"
	$(SUDO) apt-get install -y chromium || { $(SUDO) apt-get update && $(SUDO) apt-get install -y chromium; }
endif

# build links a static binary (CGO_ENABLED=0): nothing needs cgo (Go's own
# DNS resolver reads /etc/hosts for localhost), and without the dynamic
# loader every command's process starts about 0.6 ms sooner. -s -w (no
# symbol table or DWARF; panics still name functions, files and lines)
# saves about 0.07 ms more; -trimpath saved nothing.
build:
	CGO_ENABLED=0 $(GO) build -ldflags='-s -w' -o $(BIN) ./cmd/cdp-skill

# demo serves the embedded demo site on loopback and runs examples/demo.star
# against it, printing the JSON result.
demo: deps build
	./$(BIN) demo

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# cross builds the binary for Windows and macOS (amd64 and arm64): the
# platform-specific files sit behind build tags, and this keeps them so.
CROSS := windows/amd64 windows/arm64 darwin/amd64 darwin/arm64
cross:
	for p in $(CROSS); do GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/cdp-skill || { echo "cross build for $$p failed"; exit 1; }; done

# test runs vet, the gofmt check, the cross builds and every test against a real headless
# Chromium (tests fail, never skip, when CI=true and Chromium is missing).
test: deps vet cross
	$(GO) test -count=1 -timeout 30m ./...

bench: deps build
	$(GO) test -run '^$$' -bench . -benchtime 20x ./...

# fuzz runs each fuzz target of the language front for a few seconds (their
# seed corpora also run in every plain go test).
FUZZTIME ?= 5s
fuzz:
	for f in FuzzParseRequest FuzzDecodeJSON FuzzCheck; do $(GO) test ./lang -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) || exit 1; done
