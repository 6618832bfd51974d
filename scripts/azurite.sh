# azurite.sh is sourced by the scripts that need Azurite: azurite_start
# installs the pinned Azurite (tools/azurite/package-lock.json) when needed,
# starts azurite-table in memory on a free loopback port, waits until it
# listens, exports TABLESTRESS_AZURITE (its connection string, with the
# documented development account key) and stops it when the shell exits.
# Requires: root, the repository's top directory; Node and npm.

# free_port prints a loopback TCP port nobody listens on.
free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# wait_listening PORT PID LOG waits up to 10 s for PORT to accept, failing
# with LOG's contents if PID exits first.
wait_listening() {
  local port=$1 pid=$2 log=$3
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$(basename "$0"): the process on port $port exited before listening:" >&2
      cat "$log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "$(basename "$0"): nothing listens on 127.0.0.1:$port after 10 s" >&2
  return 1
}

# devstore_conn PORT prints the connection string of the development account
# devstoreaccount1 at 127.0.0.1:PORT. The key is the public, documented
# development storage key every emulator accepts, not a secret.
devstore_conn() {
  local key='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
  echo "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$key;TableEndpoint=http://127.0.0.1:$1/devstoreaccount1;"
}

azurite_start() {
  local azdir="$root/tools/azurite"
  if [ ! -x "$azdir/node_modules/.bin/azurite-table" ] || [ "$azdir/package-lock.json" -nt "$azdir/node_modules/.package-lock.json" ]; then
    echo "$(basename "$0"): installing Azurite from tools/azurite/package-lock.json"
    npm ci --prefix "$azdir" --no-audit --no-fund --loglevel=error
  fi
  azport=$(free_port)
  azlog=$(mktemp -t azurite.XXXXXX.log)
  "$azdir/node_modules/.bin/azurite-table" --inMemoryPersistence --tableHost 127.0.0.1 \
    --tablePort "$azport" --skipApiVersionCheck >"$azlog" 2>&1 &
  azpid=$!
  trap azurite_stop EXIT
  trap 'exit 130' INT TERM
  wait_listening "$azport" "$azpid" "$azlog"
  echo "$(basename "$0"): azurite-table listening on 127.0.0.1:$azport"
  export TABLESTRESS_AZURITE
  TABLESTRESS_AZURITE=$(devstore_conn "$azport")
}

azurite_stop() {
  kill "$azpid" 2>/dev/null || true
  wait "$azpid" 2>/dev/null || true
  rm -f "$azlog"
}
