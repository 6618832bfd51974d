#!/usr/bin/env bash
# test.sh runs the whole test suite: it installs the pinned Azurite (tools/azurite),
# starts azurite-table in memory on a free loopback port, runs `go test -race ./...`
# with TABLESTRESS_AZURITE set to that instance's connection string, and stops
# Azurite however the tests end. Extra arguments are passed to `go test`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

azdir="$root/tools/azurite"
if [ ! -x "$azdir/node_modules/.bin/azurite-table" ] || [ "$azdir/package-lock.json" -nt "$azdir/node_modules/.package-lock.json" ]; then
  echo "test.sh: installing Azurite from tools/azurite/package-lock.json"
  npm ci --prefix "$azdir" --no-audit --no-fund --loglevel=error
fi

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

port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
log=$(mktemp -t azurite.XXXXXX.log)
"$azdir/node_modules/.bin/azurite-table" --inMemoryPersistence --tableHost 127.0.0.1 \
  --tablePort "$port" --skipApiVersionCheck >"$log" 2>&1 &
azpid=$!
cleanup() {
  kill "$azpid" 2>/dev/null || true
  wait "$azpid" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT INT TERM

for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  if ! kill -0 "$azpid" 2>/dev/null; then
    echo "test.sh: azurite-table exited before listening:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done
echo "test.sh: azurite-table listening on 127.0.0.1:$port"

key='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
export TABLESTRESS_AZURITE="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$key;TableEndpoint=http://127.0.0.1:$port/devstoreaccount1;"

go vet ./...
go test -race -count=1 -timeout 45m "$@" ./...
