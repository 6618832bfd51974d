package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

func init() { extraCommands = append(extraCommands, newEmulatorCmd) }

// emulatorFlags are tablestress emulator's flags.
type emulatorFlags struct {
	listen, modelSpec, faultSpec, cpuProfile string
	remote, entra                            bool
	tls                                      tlsFlags
	az                                       azuriteFlags
}

func newEmulatorCmd(e *env) *cobra.Command {
	var o emulatorFlags
	cmd := &cobra.Command{
		Use:   "emulator",
		Short: "Run the embedded Table service on its own: Azurite that throttles like Azure",
		Long: azureText(`emulator serves the Azure Table REST API for the development account
devstoreaccount1 (with its well-known key) until interrupted, so any tool or SDK
can use it. Unlike Azurite it models Azure's partition scalability targets:
{partition} entities/s per partition and {account} requests/s per account answered with
503 ServerBusy or 500 OperationTimedOut, append-only and prepend-only keys
sharing one range partition, load balancing that takes moved partitions offline
for a few seconds; queries are charged for every entity they visit, and each
answer takes about as long as Azure's (azure,latency=off answers at once).
--model cosmos,ru=10000 imitates the Cosmos DB Table API instead (429 when a
table's request units run out, x-ms-request-charge on every answer).
--model off turns all that off; --faults injects failures.

--tls serves HTTPS with a certificate of an authority generated for the
run, whose certificate it writes out (--tls-ca) for clients to trust;
--tls-cert and --tls-key serve a certificate of yours. --entra (with --tls)
also starts a local Microsoft Entra ID token authority on a free loopback
port and accepts its bearer tokens as Azure Storage does: it prints the
environment of two development identities for DefaultAzureCredential, a
Storage Table Data Contributor (with a workload identity token file) and a
Storage Table Data Reader.

Server-side counters per table, partition and status are at
GET /_tablestress/stats (POST /_tablestress/reset zeroes them).

Model: `) + model.Forms + `
Faults: ` + faults.Forms,
		Example: `  tablestress emulator --listen 127.0.0.1:10002
  tablestress emulator --model azure,balance=30s --faults 503=1%,latency=2ms
  tablestress emulator --tls --entra --tls-ca ca.pem`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.serve(cmd, e) },
	}
	f := cmd.Flags()
	f.StringVar(&o.listen, "listen", "127.0.0.1:10002", "address to listen on (loopback unless --allow-remote)")
	f.StringVar(&o.modelSpec, "model", "azure", "service model: azure, cosmos or off, or with overrides like cosmos,ru=10000")
	f.StringVar(&o.faultSpec, "faults", "", "fault injection, like 503=1%,latency=2ms (default: none)")
	f.BoolVar(&o.remote, "allow-remote", false, "allow listening on a non-loopback address")
	f.BoolVar(&o.tls.on, "tls", false, "serve HTTPS, with a generated certificate (see --tls-ca) or --tls-cert and --tls-key")
	f.StringVar(&o.tls.cert, "tls-cert", "", "with --tls: the PEM certificate (chain) to serve instead of a generated one")
	f.StringVar(&o.tls.key, "tls-key", "", "with --tls-cert: its PEM private key")
	f.StringVar(&o.tls.caOut, "tls-ca", "", "with --tls: write the generated certificate authority's certificate here for clients to trust (default: a file in a temporary directory, removed at exit)")
	f.BoolVar(&o.entra, "entra", false, "with --tls: start a local Microsoft Entra ID token authority and accept its bearer tokens, with two development identities (a contributor and a reader)")
	// For profiling the service under load (bench/server-cpu.sh's
	// EMULATOR_FLAGS): not a user's flag.
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the service to this file when it stops")
	_ = f.MarkHidden("cpuprofile")
	o.az.register(f)
	return cmd
}

// serve runs the service the flags describe until the command's context
// ends.
func (o *emulatorFlags) serve(cmd *cobra.Command, e *env) error {
	applyGC(e.getenv, true)
	mc, fc, err := parseServiceFlags(o.modelSpec, o.faultSpec)
	if err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(o.cpuProfile)
	if err != nil {
		return usageError("--cpuprofile: %v", err)
	}
	defer stopProfile()
	cfg := emulator.Config{Model: mc, Faults: fc}
	notes, err := o.applyAzurite(cmd.Flags().Changed, e.getenv, &cfg)
	if err != nil {
		return err
	}
	if o.entra && !o.tls.on {
		return usageError("--entra needs --tls: Azure Storage takes bearer tokens over HTTPS only, and the SDKs send them over nothing else")
	}
	logf, err := openDebugLog(o.az.debug)
	if err != nil {
		return err
	}
	if logf != nil {
		defer logf.Close()
		cfg.Log = logf
	}
	t, err := setupTLS(o.listen, o.tls, o.entra)
	if err != nil {
		return err
	}
	defer t.cleanup()
	cfg.AllowRemote, cfg.TLS = o.remote, t.config
	var le *localEntra
	if o.entra {
		if le, err = startEntra(t, emulator.DevAccount); err != nil {
			return err
		}
		defer le.close()
		cfg.Entra = le.validator
	}
	in, err := emulator.Start(o.listen, cfg)
	if err != nil {
		return startError(err)
	}
	fmt.Fprintf(e.stdout, "tablestress emulator listening on %s\nmodel: %s\nfaults: %s\n", in.URL(), mc, fc)
	printStarted(e, in, notes, t.caPath, le)
	<-cmd.Context().Done()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return in.Close(ctx)
}

// printStarted prints what a client of the started service needs, after
// its address: the data it holds, its connection strings, the notes of
// the flags, the certificate authority to trust and the Entra ID
// settings (le, nil without --entra).
func printStarted(e *env, in *emulator.Instance, notes []string, caPath string, le *localEntra) {
	// The development account's key is public and documented: the
	// connection string is printed whole, to be pasted as it is.
	printData(e, in)
	for _, c := range in.PrintableConnectionStrings() {
		fmt.Fprintf(e.stdout, "connection string: %s\n", c)
	}
	for _, n := range notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	if caPath != "" {
		fmt.Fprintf(e.stdout, "certificate authority: %s (trust it: --ca-file or TABLESTRESS_CA_FILE for tablestress, SSL_CERT_FILE for Go and OpenSSL, REQUESTS_CA_BUNDLE for Python, NODE_EXTRA_CA_CERTS for Node.js)\n", caPath)
	}
	if le != nil {
		for _, l := range le.lines(caPath) {
			fmt.Fprintln(e.stdout, l)
		}
	}
}

// startCPUProfile starts writing a CPU profile to path ("": none) and
// returns what stops it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
