package emulator

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator/internal/journal"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/outcome"
)

// What keeping the data in a directory costs tablestress emulator, side
// by side with memory (bench/persistence.sh prints the ratios): inserts
// and point reads through aztables over loopback from parallel clients
// (the writes' journal groups them: -cpu sets how many), and a restart
// holding 1,000,000 entities.

func locationConfig(b *testing.B, durable bool) Config {
	cfg := Config{Model: model.Off()}
	if durable {
		cfg.Location = b.TempDir()
	}
	return cfg
}

func BenchmarkLocationInsert(b *testing.B) {
	for _, durable := range []bool{false, true} {
		b.Run(map[bool]string{false: "memory", true: "location"}[durable], func(b *testing.B) {
			in := startServer(b, locationConfig(b, durable))
			tc := azClient(b, socketReached(in), DevKey).NewClient("bench")
			if _, err := tc.CreateTable(context.Background(), nil); err != nil {
				b.Fatal(err)
			}
			body := strings.Repeat("x", 256)
			var next atomic.Int64
			b.SetParallelism(8)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := next.Add(1)
					e := []byte(fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"%d","Data":%q}`, i%100, i, body))
					if _, err := tc.AddEntity(context.Background(), e, nil); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

func BenchmarkLocationPointRead(b *testing.B) {
	for _, durable := range []bool{false, true} {
		b.Run(map[bool]string{false: "memory", true: "location"}[durable], func(b *testing.B) {
			in := startServer(b, locationConfig(b, durable))
			load(b, in.Server, "bench", 10_000)
			tc := azClient(b, socketReached(in), DevKey).NewClient("bench")
			var next atomic.Int64
			b.SetParallelism(8)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := next.Add(1) % 10_000
					if _, err := tc.GetEntity(context.Background(), fmt.Sprintf("p%d", (i/100)%100), fmt.Sprint(i), nil); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// load writes n entities of 256 bytes into a new table of s through its
// journal when it has one (Server.Load: transactions of 100), from four
// goroutines.
func load(b *testing.B, s *Server, table string, n int) {
	b.Helper()
	var c *journal.Commit
	if !s.store.CreateThen(table, func(t *store.Table) {
		if s.journal != nil {
			c = s.journal.Created(t)
		}
	}) || c.Wait() != nil {
		b.Fatalf("table %s not created", table)
	}
	data := strings.Repeat("x", 256)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for first := w * 100; first < n; first += 400 {
				ents := make([][]byte, 0, 100)
				for i := first; i < min(first+100, n); i++ {
					ents = append(ents, []byte(fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"%d","Data":%q}`, (first/100)%100, i, data)))
				}
				if o, msg := s.Load(context.Background(), table, ents); o.Class != outcome.OK {
					b.Errorf("load: %v %s", o, msg)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkLocationRestart1M is how long a service takes to load a
// directory holding 1,000,000 entities of 256 bytes (its snapshot and
// log), ready to serve: its s/op.
func BenchmarkLocationRestart1M(b *testing.B) {
	cfg := locationConfig(b, true)
	s, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	load(b, s, "bench", 1_000_000)
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		s, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if r := s.Recovered(); r.Entities != 1_000_000 {
			b.Fatalf("loaded %+v", r)
		}
		b.ReportMetric(float64(s.Recovered().Read)/(1<<20), "MiB-read")
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}
