# The test command of the README: Azurite from npm, then go test -race ./...
.PHONY: test build vet bench fuzz

test:
	./scripts/test.sh

build:
	go build -o bin/tablestress ./cmd/tablestress

vet:
	go vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)

bench:
	go test -run '^$$' -bench . -benchmem ./...

fuzz:
	./scripts/fuzz.sh
