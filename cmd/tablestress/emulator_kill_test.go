package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// startEmulatorProcess starts the tablestress binary's emulator as a
// process of its own and returns it with its connection string once it
// listens.
func startEmulatorProcess(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd, stdout, stderr := startUntilOut(t, bin, append([]string{"emulator", "--model", "off"}, args...)...)
	for _, l := range strings.Split(stdout.String(), "\n") {
		if c, ok := strings.CutPrefix(l, "connection string: "); ok {
			return cmd, c
		}
	}
	cmd.Process.Kill()
	t.Fatalf("no connection string:\n%s%s", stdout.String(), stderr.String())
	return nil, ""
}

// startUntilOut starts the binary and waits (up to a minute) until its
// stdout has a connection string.
func startUntilOut(t *testing.T, bin string, args ...string) (*exec.Cmd, *syncBuffer, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(stdout.String(), "connection string: ") {
			return cmd, stdout, stderr
		}
	}
	cmd.Process.Kill()
	t.Fatalf("the emulator did not start:\n%s%s", stdout.String(), stderr.String())
	return nil, nil, nil
}

// acked is what a writer was told it wrote: each entity's ETag, and
// whether a later write of it was in flight when the process died.
type acked struct {
	mu       sync.Mutex
	etag     map[string]azcore.ETag
	inFlight map[string]bool
}

// writeLoad has workers insert, then update, entities until ctx ends,
// recording every answer the service gave (a worker's entities are its
// own, written one at a time, so the last answer is the entity's state
// unless a write was in flight).
func writeLoad(ctx context.Context, tc *aztables.Client, workers int, a *acked) {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				rk := fmt.Sprintf("w%02d-%05d", w, i/2)
				body, _ := json.Marshal(map[string]any{"PartitionKey": fmt.Sprintf("p%d", w%4), "RowKey": rk, "N": i, "Pad": strings.Repeat("x", 200)})
				key := fmt.Sprintf("p%d/%s", w%4, rk)
				a.mu.Lock()
				a.inFlight[key] = true
				a.mu.Unlock()
				var etag azcore.ETag
				var err error
				if i%2 == 0 {
					var r aztables.AddEntityResponse
					r, err = tc.AddEntity(ctx, body, nil)
					etag = r.ETag
				} else {
					var r aztables.UpsertEntityResponse
					r, err = tc.UpsertEntity(ctx, body, &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeReplace})
					etag = r.ETag
				}
				if err != nil {
					return // the process died: this write's fate is unknown
				}
				a.mu.Lock()
				a.etag[key], a.inFlight[key] = etag, false
				a.mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// kill -9 during a write load loses no write the service acknowledged: a
// client outside the process counts what it was told was written, kills
// the process with SIGKILL mid-load, starts it again on the same
// --location, and finds every acknowledged entity there with the ETag it
// was answered (or a later one, for an entity whose next write was in
// flight).
func TestKillLosesNoAcknowledgedWrite(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	cmd, conn := startEmulatorProcess(t, bin, "--tablePort", "0", "--location", dir)
	opts := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}}
	svc, err := aztables.NewServiceClientFromConnectionString(conn, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateTable(context.Background(), "Killed", nil); err != nil {
		t.Fatal(err)
	}
	a := &acked{etag: map[string]azcore.ETag{}, inFlight: map[string]bool{}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	loaded := make(chan struct{})
	go func() { writeLoad(ctx, svc.NewClient("Killed"), 16, a); close(loaded) }()
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	<-loaded
	cancel()
	if len(a.etag) < 50 {
		t.Fatalf("only %d entities acknowledged before the kill: the load did not run", len(a.etag))
	}

	cmd2, conn2 := startEmulatorProcess(t, bin, "--tablePort", "0", "--location", dir)
	defer func() { cmd2.Process.Signal(syscall.SIGTERM); cmd2.Wait() }()
	svc2, _ := aztables.NewServiceClientFromConnectionString(conn2, opts)
	stored := map[string]azcore.ETag{}
	p := svc2.NewClient("Killed").NewListEntitiesPager(&aztables.ListEntitiesOptions{Select: to("PartitionKey,RowKey")})
	for p.More() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Entities {
			var v struct {
				PK   string      `json:"PartitionKey"`
				RK   string      `json:"RowKey"`
				ETag azcore.ETag `json:"odata.etag"`
			}
			json.Unmarshal(e, &v)
			stored[v.PK+"/"+v.RK] = v.ETag
		}
	}
	lost := 0
	for key, etag := range a.etag {
		got, ok := stored[key]
		switch {
		case !ok:
			lost++
			t.Errorf("%s: acknowledged with %s, gone after the restart", key, etag)
		case got != etag && !a.inFlight[key]:
			t.Errorf("%s: ETag %s after the restart, %s as acknowledged", key, got, etag)
		}
	}
	t.Logf("%d entities acknowledged before SIGKILL, %d stored after the restart, %d lost", len(a.etag), len(stored), lost)
}

func to(s string) *string { return &s }
