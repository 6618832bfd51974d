package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/tablestress/tablestress/pkg/emulator"
)

// azuriteFlags are the options of Azurite's azurite-table that a Table
// user sets (Azurite 3.37, src/table/TableEnvironment.ts), so a compose
// file, a CI script or a test fixture written for it starts tablestress
// emulator unchanged but for the command. Each does what it does there, or
// the emulator says once at start-up how it differs.
type azuriteFlags struct {
	host, location, debug, cert, key, pwd, oauth string
	port, keepAlive                              int
	inMemory, loose, skipVersion, pathStyle      bool
	silent, noTelemetry                          bool
}

// register adds the options to f, with Azurite's short forms.
func (a *azuriteFlags) register(f *pflag.FlagSet) {
	f.StringVar(&a.host, "tableHost", "127.0.0.1", "Azurite's: the address to listen on (a non-loopback one, like 0.0.0.0, listens beyond this machine as Azurite does)")
	f.IntVar(&a.port, "tablePort", 10002, "Azurite's: the port to listen on (0: a free one)")
	f.StringVarP(&a.location, "location", "l", "", "Azurite's: keep tables, entities, policies and service properties in this directory (under tablestress-table/), over restarts")
	f.BoolVar(&a.inMemory, "inMemoryPersistence", false, "Azurite's: keep everything in memory (the default without --location)")
	f.BoolVarP(&a.loose, "loose", "L", false, "Azurite's: ignore unsupported headers and parameters (the emulator always does)")
	f.BoolVar(&a.skipVersion, "skipApiVersionCheck", false, "Azurite's: serve any x-ms-version (also AZURITE_SKIP_API_VERSION_CHECK=true)")
	f.BoolVar(&a.pathStyle, "disableProductStyleUrl", false, "Azurite's: take the account from the path alone, never from the host (ACCOUNT.table.localhost)")
	f.IntVar(&a.keepAlive, "tableKeepAliveTimeout", 0, "Azurite's: close a kept-alive connection idle this many seconds (0: two minutes; Azurite's default is 5)")
	f.BoolVarP(&a.silent, "silent", "s", false, "Azurite's: no access log on the console (the emulator prints none)")
	f.StringVarP(&a.debug, "debug", "d", "", "Azurite's: write a line per request (time, method, path, status, duration) to this file")
	f.StringVar(&a.cert, "cert", "", "Azurite's: serve HTTPS with this certificate: a PEM file with --key, or a .pfx with --pwd")
	f.StringVar(&a.key, "key", "", "Azurite's: the PEM private key of --cert")
	f.StringVar(&a.pwd, "pwd", "", "Azurite's: the password of the .pfx --cert")
	f.StringVar(&a.oauth, "oauth", "", `Azurite's: "basic" accepts bearer tokens over HTTPS (here: of the emulator's own token authority, as --entra)`)
	f.BoolVar(&a.noTelemetry, "disableTelemetry", false, "Azurite's: the emulator collects no telemetry, with or without it")
}

// applyAzurite sets o and cfg from the Azurite options given (changed
// says which were) and AZURITE_ACCOUNTS, and returns what to say at
// start-up of how the emulator differs, or a usage error.
func (o *emulatorFlags) applyAzurite(changed func(string) bool, getenv func(string) string, cfg *emulator.Config) ([]string, error) {
	a := &o.az
	var notes []string
	if changed("tableHost") || changed("tablePort") {
		if changed("listen") {
			return nil, usageError("--listen and --tableHost/--tablePort both say where to listen: give one or the other")
		}
		o.listen = net.JoinHostPort(a.host, fmt.Sprint(a.port))
		if ip := net.ParseIP(a.host); changed("tableHost") && a.host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			o.remote = true
			notes = append(notes, fmt.Sprintf("--tableHost %s: listening beyond this machine, as Azurite does; the development account's key is public, so serve a private network only", a.host))
		}
	}
	if a.inMemory && a.location != "" {
		// Azurite's own words (TableEnvironment.inMemoryPersistence).
		return nil, usageError("The --inMemoryPersistence option is not supported when the --location option is set.")
	}
	cfg.Location = a.location
	if a.location == "" && !a.inMemory {
		notes = append(notes, "data: in memory, lost at exit (no --location given: Azurite would keep it in the current directory; give --location DIR to keep it)")
	}
	if a.loose {
		notes = append(notes, "--loose: the emulator always ignores the headers and query parameters it does not use")
	}
	cfg.PathStyleOnly = a.pathStyle
	if a.keepAlive < 0 {
		return nil, usageError("--tableKeepAliveTimeout takes seconds, 0 or more, not %d", a.keepAlive)
	}
	cfg.IdleTimeout = time.Duration(a.keepAlive) * time.Second
	cfg.SkipVersionCheck = a.skipVersion || getenv("AZURITE_SKIP_API_VERSION_CHECK") == "true"
	if err := o.applyAzuriteTLS(&notes); err != nil {
		return nil, err
	}
	if env := getenv("AZURITE_ACCOUNTS"); env != "" {
		accts, err := emulator.ParseAccounts(env)
		if err != nil {
			return nil, usageError("AZURITE_ACCOUNTS: %v", err)
		}
		cfg.Accounts = accts
	}
	return notes, nil
}

// applyAzuriteTLS maps --cert, --key, --pwd and --oauth onto --tls,
// --tls-cert, --tls-key and --entra.
func (o *emulatorFlags) applyAzuriteTLS(notes *[]string) error {
	a := &o.az
	switch {
	case a.cert == "" && (a.key != "" || a.pwd != ""):
		return usageError("--key and --pwd go with --cert: the certificate to serve HTTPS with")
	case a.cert != "" && a.key == "" && a.pwd == "":
		// Azurite then serves plain HTTP without a word.
		return usageError("--cert needs --key (its PEM private key) or --pwd (the password of a .pfx file)")
	case a.cert != "" && (o.tls.cert != "" || o.tls.key != ""):
		return usageError("--cert and --tls-cert both give the certificate: give one or the other")
	case a.cert != "" && a.key != "":
		o.tls.on, o.tls.cert, o.tls.key = true, a.cert, a.key
	case a.cert != "":
		o.tls.on, o.tls.pfx, o.tls.pwd = true, a.cert, a.pwd
	}
	switch a.oauth {
	case "":
	case "basic":
		if !o.tls.on {
			return usageError("--oauth basic needs HTTPS (--cert with --key or --pwd, or --tls): bearer tokens travel over HTTPS only")
		}
		o.entra = true
		*notes = append(*notes, "--oauth basic: bearer tokens are accepted from the emulator's own token authority (below), their signatures checked; Azurite's basic level checks a token's issuer and audience only, so a token of login.microsoftonline.com is refused here")
	default:
		return usageError("--oauth takes basic (Azurite's only level), not %q", a.oauth)
	}
	return nil
}

// openDebugLog opens --debug's file for appending, making its directory
// as Azurite does; nil without --debug.
func openDebugLog(path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, usageError("--debug: %v", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, usageError("--debug: %v", err)
	}
	return f, nil
}

// startError is the command's error for a service that did not start: a
// usage error naming the flag at fault (--location, --listen, or
// AZURITE_ACCOUNTS' keys), a runtime failure otherwise.
func startError(err error) error {
	switch {
	case errors.Is(err, emulator.ErrNotLoopback):
		return usageError("--listen: %v", err)
	case errors.Is(err, emulator.ErrConfig):
		return usageError("%v", err)
	}
	return usageError("--listen: %v", err)
}

// printData says where the service keeps its data and what it loaded.
func printData(e *env, in *emulator.Instance) {
	for _, s := range in.Servers() {
		r := s.Recovered()
		if r.Dir == "" {
			continue
		}
		line := fmt.Sprintf("data: %s: %d tables, %d entities loaded in %.2f s", r.Dir, r.Tables, r.Entities, r.Took.Seconds())
		if r.Dropped > 0 {
			line += fmt.Sprintf(" (cut %d bytes of writes the last process died recording, which it never answered)", r.Dropped)
		}
		fmt.Fprintln(e.stdout, line)
	}
}
