// Command soakwatch samples a soak run (bench/soak.sh) at a steady period
// until the client exits, printing one line per sample: the client's
// resident memory, live heap (as of its last collection), goroutines and
// heap objects (live or not yet swept; read from its Prometheus
// endpoint, tablestress run --metrics-addr), the server's resident memory
// (the embedded service's or Azurite's process), and the rows the run's
// table holds (a scan selecting RowKey), so that memory that grows with
// the stored data can be told apart from memory that creeps. The first
// sample comes -first after the start (after the seed phase); the minute
// column counts from the start.
//
//	soakwatch -client-pid 123 -metrics 127.0.0.1:9464 -server-pid 456 -conn CONNSTR -table T -every 1m
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/workload"
)

func main() {
	clientPID := flag.Int("client-pid", 0, "the tablestress run process")
	metrics := flag.String("metrics", "", "the run's --metrics-addr (host:port)")
	serverPID := flag.Int("server-pid", 0, "the server's process (the embedded service or Azurite)")
	conn := flag.String("conn", "", "connection string of the service, to count the table's rows")
	name := flag.String("table", "", "the run's table (--table)")
	every := flag.Duration("every", time.Minute, "time between samples")
	first := flag.Duration("first", 30*time.Second, "time before the first sample (the seed phase)")
	flag.Parse()
	if *clientPID == 0 || *metrics == "" || *serverPID == 0 || *conn == "" || *name == "" {
		fmt.Fprintln(os.Stderr, "soakwatch: -client-pid, -metrics, -server-pid, -conn and -table are required")
		os.Exit(2)
	}
	tg, err := table.ParseTarget(*conn)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soakwatch: -conn:", err)
		os.Exit(2)
	}
	svc, err := table.Open(tg, table.Options{Workers: 1, Timeout: time.Minute})
	if err != nil {
		fmt.Fprintln(os.Stderr, "soakwatch:", err)
		os.Exit(1)
	}
	defer svc.Close()
	fmt.Println("minute  client-rss-MiB  live-heap-MiB  goroutines  heap-objects  server-rss-MiB  rows")
	start := time.Now()
	for alive(*clientPID) && time.Since(start) < *first {
		time.Sleep(time.Second)
	}
	for alive(*clientPID) {
		s, err := take(context.Background(), *clientPID, *serverPID, *metrics, svc.Table(*name))
		if err == nil {
			fmt.Printf("%6.1f  %14.1f  %13.1f  %10.0f  %12.0f  %14.1f  %d\n", time.Since(start).Minutes(),
				s.clientRSS/(1<<20), s.liveHeap/(1<<20), s.goroutines, s.heapObjects, s.serverRSS/(1<<20), s.rows)
		} else if alive(*clientPID) {
			fmt.Fprintln(os.Stderr, "soakwatch:", err)
		}
		deadline := time.Now().Add(*every)
		for alive(*clientPID) && time.Now().Before(deadline) {
			time.Sleep(time.Second)
		}
	}
}

// alive reports whether process pid exists.
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// sample is one line of the output.
type sample struct {
	clientRSS, serverRSS    float64 // bytes
	liveHeap                float64 // bytes, as of the client's last collection
	goroutines, heapObjects float64 // heap objects count garbage not yet swept
	rows                    int64
}

// take reads one sample.
func take(ctx context.Context, clientPID, serverPID int, metrics string, tb *table.Table) (sample, error) {
	var s sample
	var err error
	if s.clientRSS, err = rss(clientPID); err != nil {
		return s, err
	}
	if s.serverRSS, err = rss(serverPID); err != nil {
		return s, err
	}
	m, err := scrape(ctx, "http://"+metrics+"/metrics", "go_goroutines", "go_memstats_heap_objects", "go_gc_heap_live_bytes")
	if err != nil {
		return s, err
	}
	s.goroutines, s.heapObjects, s.liveHeap = m["go_goroutines"], m["go_memstats_heap_objects"], m["go_gc_heap_live_bytes"]
	s.rows, err = workload.CountRows(ctx, workload.TableStore{Table: tb}, clock.Wall{})
	return s, err
}
