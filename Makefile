# The test command of the README: Azurite from npm, then go test -race ./...
.PHONY: test build vet bench fuzz

test:
	./scripts/test.sh

# VERSION is what tablestress version prints: the commit (and tag, once
# there is one) git describe names, set with -ldflags so that a build with
# GOFLAGS=-buildvcs=false, which records no commit, still says it.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
BIN ?= bin/tablestress

build:
	go build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/tablestress

vet:
	go vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)

bench:
	go test -run '^$$' -bench . -benchmem ./...

fuzz:
	./scripts/fuzz.sh
