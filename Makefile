# The test commands of the README: make test, every test a contributor runs
# often (Azurite from npm, then go test -race ./... but the long tests);
# make test-long, the long tests (the proofs at depth, the SDKs, Chromium).
.PHONY: test test-long build vet bench fuzz

test:
	./scripts/test.sh

test-long:
	./scripts/test.sh --long

build:
	go build -o bin/tablestress ./cmd/tablestress

vet:
	go vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)

bench:
	go test -run '^$$' -bench . -benchmem ./...

fuzz:
	./scripts/fuzz.sh
