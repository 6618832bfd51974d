// Command bareclient is the Azure SDK for Go alone, the one client of
// bench/client-overhead.sh (the baseline tablestress is compared with) and
// bench/server-cpu.sh (the client every server is measured with): 32
// goroutines (by default) calling GetEntity (-op read) over the entities a
// scenario seeded, or AddEntity (-op insert) with the scenario's entities
// under RowKeys never used before, as fast as the service answers, with a
// connection pool sized to them, sent on it directly, and no retries. It
// computes every key before it measures, then prints one JSON line: the
// operations done and the CPU time (user + system) this process used
// while doing them, and with -server-pid the CPU time that process (the
// server, on this machine) used over the same loop. With -canned there is
// no service: every request is answered by the embedded service's answer
// to the first one, recorded once, so the figures are the SDK's alone
// (building, signing, sending, reading and decoding each request and
// answer): the ceiling a client of the SDK cannot pass on this machine.
//
//	bareclient -conn CONNSTR -table T -scenario bench/scenarios/point-read-1k.yaml -duration 10s
//	bareclient -canned -workers 8 -scenario bench/scenarios/point-read-1k.yaml -duration 10s
//	bareclient -conn CONNSTR -table T2 -scenario bench/scenarios/point-read-1k.yaml -op insert -server-pid 1234
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

func main() {
	conn := flag.String("conn", "", "connection string of the service")
	tableName := flag.String("table", "", "table to read (seeded with the scenario's entities) or to insert into (created when missing)")
	scen := flag.String("scenario", "", "the scenario whose population and first scheme make the keys and entities")
	op := flag.String("op", "read", "read (GetEntity) or insert (AddEntity)")
	workers := flag.Int("workers", 32, "goroutines calling the SDK")
	duration := flag.Duration("duration", 10*time.Second, "how long to measure")
	serverPID := flag.Int("server-pid", 0, "process whose CPU time over the measured loop to report too (0: none)")
	cannedMode := flag.Bool("canned", false, "no service: every request is answered with the embedded service's answer to the first one, recorded once (the SDK alone); -conn is then unused")
	flag.Parse()
	if *op != "read" && *op != "insert" {
		fmt.Fprintf(os.Stderr, "bareclient: -op %q: want read or insert\n", *op)
		os.Exit(2)
	}
	if *cannedMode && *tableName == "" {
		*tableName = "canned"
	}
	if err := run(*conn, *tableName, *scen, *op, *workers, *duration, *serverPID, *cannedMode); err != nil {
		fmt.Fprintln(os.Stderr, "bareclient:", err)
		os.Exit(1)
	}
}

// result is what bareclient prints.
type result struct {
	Op       string  `json:"op"`
	Ops      int64   `json:"ops"`
	Errors   int64   `json:"errors"`
	Seconds  float64 `json:"seconds"`
	CPUMs    float64 `json:"cpu_ms"`
	CPUPerOp float64 `json:"cpu_us_per_op"`
	// The server's CPU time over the loop, with -server-pid.
	ServerCPUMs    float64 `json:"server_cpu_ms,omitempty"`
	ServerCPUPerOp float64 `json:"server_cpu_us_per_op,omitempty"`
}

func run(conn, tableName, scen, op string, workers int, duration time.Duration, serverPID int, cannedMode bool) error {
	src, err := loadSource(scen)
	if err != nil {
		return err
	}
	client, err := newClient(conn, tableName, src, op, workers, cannedMode)
	if err != nil {
		return err
	}
	call, err := prepare(client, src, op)
	if err != nil {
		return err
	}
	var ops, errs atomic.Int64
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	server0, err := processCPU(serverPID)
	if err != nil {
		return err
	}
	cpu0 := cpuTime()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			do := call(w)
			for ctx.Err() == nil {
				if do() != nil {
					errs.Add(1)
				}
				ops.Add(1)
			}
		})
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	cpu := (cpuTime() - cpu0).Seconds() * 1000
	server1, err := processCPU(serverPID)
	if err != nil {
		return err
	}
	n := ops.Load()
	res := result{Op: op, Ops: n, Errors: errs.Load(), Seconds: secs, CPUMs: cpu, CPUPerOp: cpu * 1000 / float64(max(n, 1))}
	if serverPID != 0 {
		res.ServerCPUMs = (server1 - server0).Seconds() * 1000
		res.ServerCPUPerOp = res.ServerCPUMs * 1000 / float64(max(n, 1))
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// newClient is the SDK's client of the table: of the service conn names,
// over a connection pool sized to the workers, or answered by a canned
// answer (cannedClient).
func newClient(conn, tableName string, src *source, op string, workers int, cannedMode bool) (*aztables.Client, error) {
	if cannedMode {
		return cannedClient(src, tableName, op)
	}
	idle := workers + 8
	tr := &http.Transport{DialContext: (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		MaxIdleConns: 2 * idle, MaxIdleConnsPerHost: idle, IdleConnTimeout: 90 * time.Second}
	svc, err := aztables.NewServiceClientFromConnectionString(conn, &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: transport{tr}, Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		return nil, err
	}
	return svc.NewClient(tableName), nil
}

// transport sends the SDK's requests on the pool directly, as tablestress
// does (no http.Client around it): the leanest way to use the SDK, so the
// comparison counts what tablestress adds, not a difference of plumbing.
type transport struct{ *http.Transport }

func (t transport) Do(req *http.Request) (*http.Response, error) { return t.RoundTrip(req) }

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
