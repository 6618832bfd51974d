// Command bareclient is the baseline of bench/client-overhead.sh: the
// Azure SDK for Go alone, 32 goroutines (by default) calling GetEntity as
// fast as the service answers, with a connection pool sized to them, sent
// on it directly, and no retries, over the entities a scenario seeded. It computes every key before
// it measures, then prints one JSON line: the operations done and the CPU
// time (user + system) this process used while doing them.
//
//	bareclient -conn CONNSTR -table T -scenario bench/scenarios/point-read-1k.yaml -duration 10s
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
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

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/scenario"
)

func main() {
	conn := flag.String("conn", "", "connection string of the service")
	tableName := flag.String("table", "", "table to read, seeded with the scenario's entities")
	scen := flag.String("scenario", "", "the scenario that seeded the table (its population and first scheme)")
	workers := flag.Int("workers", 32, "goroutines calling GetEntity")
	duration := flag.Duration("duration", 10*time.Second, "how long to measure")
	flag.Parse()
	if err := run(*conn, *tableName, *scen, *workers, *duration); err != nil {
		fmt.Fprintln(os.Stderr, "bareclient:", err)
		os.Exit(1)
	}
}

// result is what bareclient prints.
type result struct {
	Ops      int64   `json:"ops"`
	Errors   int64   `json:"errors"`
	Seconds  float64 `json:"seconds"`
	CPUMs    float64 `json:"cpu_ms"`
	CPUPerOp float64 `json:"cpu_us_per_op"`
}

func run(conn, tableName, scen string, workers int, duration time.Duration) error {
	keys, err := scenarioKeys(scen)
	if err != nil {
		return err
	}
	idle := workers + 8
	tr := &http.Transport{DialContext: (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		MaxIdleConns: 2 * idle, MaxIdleConnsPerHost: idle, IdleConnTimeout: 90 * time.Second}
	svc, err := aztables.NewServiceClientFromConnectionString(conn, &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: transport{tr}, Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		return err
	}
	client := svc.NewClient(tableName)
	if _, err := client.GetEntity(context.Background(), keys[0][0], keys[0][1], nil); err != nil {
		return fmt.Errorf("the table does not hold the scenario's entities: %w", err)
	}
	var ops, errs atomic.Int64
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	cpu0 := cpuTime()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for ctx.Err() == nil {
				k := keys[r.IntN(len(keys))]
				if _, err := client.GetEntity(context.Background(), k[0], k[1], nil); err != nil {
					errs.Add(1)
				}
				ops.Add(1)
			}
		})
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	cpu := (cpuTime() - cpu0).Seconds() * 1000
	n := ops.Load()
	return json.NewEncoder(os.Stdout).Encode(result{Ops: n, Errors: errs.Load(), Seconds: secs, CPUMs: cpu, CPUPerOp: cpu * 1000 / float64(max(n, 1))})
}

// transport sends the SDK's requests on the pool directly, as tablestress
// does (no http.Client around it): the leanest way to use the SDK, so the
// comparison counts what tablestress adds, not a difference of plumbing.
type transport struct{ *http.Transport }

func (t transport) Do(req *http.Request) (*http.Response, error) { return t.RoundTrip(req) }

// scenarioKeys returns the (PartitionKey, RowKey) of every seeded entity of
// the scenario's first scheme.
func scenarioKeys(path string) ([][2]string, error) {
	s, errs := scenario.Load(path)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	pop, schemes, err := s.Compile()
	if err != nil {
		return nil, err
	}
	n := int64(s.Population.Entities)
	keys := make([][2]string, n)
	var ent keygen.Entity
	var k keygen.Keys
	for i := range n {
		pop.Entity(i, &ent)
		schemes[0].Keys(&ent, &k)
		keys[i] = [2]string{string(k.PK), string(k.RK)}
	}
	return keys, nil
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
