#!/usr/bin/env bash
# accounting.sh is the long version of the accounting test: OPS operations
# (default 1,000,000) against the embedded service with injected 503, 500
# OperationTimedOut, 504, 429, dropped connections and latency, open and
# closed loop, with and without retries; client and server counts per
# partition and status must be equal.
#   bench/accounting.sh
#   OPS=200000 bench/accounting.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TABLESTRESS_SOAK_OPS=${OPS:-1000000} go test -count=1 -timeout 4h -run TestAccountingSoak -v ./pkg/workload
