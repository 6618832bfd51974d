#!/usr/bin/env bash
# test.sh runs the whole test suite: it installs the pinned Azurite (tools/azurite),
# starts azurite-table in memory on a free loopback port, runs `go test -race ./...`
# with TABLESTRESS_AZURITE set to that instance's connection string, and stops
# Azurite however the tests end. Extra arguments are passed to `go test`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The HTML report is tested in headless Chromium (Debian's chromium package).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test.sh: installing Debian's chromium for the HTML report test"
    (apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 ||
      (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1)) ||
      echo "test.sh: could not install chromium; the browser test will say so" >&2
  else
    echo "test.sh: chromium is not installed and cannot be installed here; the browser test will skip outside CI" >&2
  fi
fi

# shellcheck source=scripts/azurite.sh
. "$root/scripts/azurite.sh"
azurite_start

go vet ./...
go test -race -count=1 -timeout 45m "$@" ./...
