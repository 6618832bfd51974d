// Command tablestress is a partition stress-testing load generator for Azure
// Table Storage. See `tablestress --help`.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	soft, stopSoft := context.WithCancel(context.Background())
	hard, stopHard := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 3)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		// First signal: stop starting work, finish in-flight operations,
		// write the partial report, clean up. Second: cancel in-flight
		// requests too. Third: leave at once.
		for n := 1; ; n++ {
			<-sigs
			switch n {
			case 1:
				fmt.Fprintln(os.Stderr, "\ntablestress: stopping: finishing in-flight operations (press Ctrl-C again to cancel them)")
				stopSoft()
			case 2:
				fmt.Fprintln(os.Stderr, "\ntablestress: canceling in-flight operations")
				stopHard()
			default:
				os.Exit(exitFailure)
			}
		}
	}()
	e := newEnv(os.Stdout, os.Stderr)
	e.hard = hard
	code := execute(soft, os.Args[1:], e)
	stopSoft()
	stopHard()
	os.Exit(code)
}
