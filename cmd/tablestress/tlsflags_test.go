package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The TLS and trust flags refuse what cannot work with a usage error that
// names the flag: --entra without --tls (bearer tokens travel over HTTPS
// only), half of a certificate pair, a --ca-file that holds no
// certificate, a negative --partition-ru.
func TestTLSFlagsUsage(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "not.pem")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"emulator", "--listen", "127.0.0.1:0", "--entra"}, "--entra needs --tls"},
		{[]string{"emulator", "--listen", "127.0.0.1:0", "--tls", "--tls-cert", notPEM}, "--tls-cert and --tls-key go together"},
		{[]string{"emulator", "--listen", "127.0.0.1:0", "--tls-cert", notPEM, "--tls-key", notPEM}, "need --tls"},
		{[]string{"emulator", "--listen", "127.0.0.1:0", "--tls", "--tls-cert", notPEM, "--tls-key", notPEM}, "--tls-cert, --tls-key:"},
		{[]string{"run", "../../scenarios/quickstart.yaml", "--ca-file", notPEM}, "--ca-file: devcert: " + notPEM + " holds no PEM certificate"},
		{[]string{"run", "../../scenarios/quickstart.yaml", "--partition-ru", "-1"}, "--partition-ru must not be negative"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 saying %q", c.args, code, errs, c.want)
		}
	}
}
