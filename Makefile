# The test commands of the README: make test, every test a contributor runs
# often (Azurite from npm, then go test -race ./... but the long tests);
# make test-long, the long tests (the proofs at depth, the SDKs, Chromium).
.PHONY: test test-long build vet bench fuzz

test:
	./scripts/test.sh

test-long:
	./scripts/test.sh --long

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
