package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/internal/pipenet"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/session"
)

// runBubbled executes a command line whose embedded service is served over
// in-memory connections: inside a synctest bubble the run and the service
// share the bubble's fake clock, so what the model decides is exact
// whatever this machine's load.
func runBubbled(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runBubbledEnv(t, nil, args...)
}

// runBubbledEnv is runBubbled with the environment variables vars.
func runBubbledEnv(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	// GOGC set: the process keeps the test's collector settings, and no
	// tuner goroutine outlives the bubble.
	getenv := func(k string) string {
		if k == "GOGC" {
			return "100"
		}
		return vars[k]
	}
	e := &env{stdout: &out, stderr: &errb, getenv: getenv, stdin: strings.NewReader(""), hard: context.Background()}
	e.embed = func(cfg emulator.Config) (*session.Embedded, error) { return bubbledService(t, cfg) }
	code := execute(context.Background(), args, e)
	return code, out.String(), errb.String()
}

// bubbledService serves an embedded service of cfg over a pipenet
// listener.
func bubbledService(t *testing.T, cfg emulator.Config) (*session.Embedded, error) {
	srv, err := emulator.New(cfg)
	if err != nil {
		return nil, err
	}
	l := pipenet.Listen()
	hs := &http.Server{Handler: srv}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l) }()
	stop := func() {
		hs.Close()
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			t.Error(err)
		}
	}
	conn := "DefaultEndpointsProtocol=http;AccountName=" + emulator.DevAccount + ";AccountKey=" + emulator.DevKey +
		";TableEndpoint=http://127.0.0.1:10002/" + emulator.DevAccount + ";"
	return &session.Embedded{Server: srv, Conn: conn, Dial: l.Dial, Stop: stop}, nil
}
