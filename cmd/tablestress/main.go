// Command tablestress is a partition stress-testing load generator for Azure
// Table Storage. See `tablestress --help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := execute(ctx, os.Args[1:], newEnv(os.Stdout, os.Stderr))
	stop()
	os.Exit(code)
}
