package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var rootLong = azureText(`tablestress stress-tests Azure Table Storage partitions.

A scenario file (YAML) describes a population of entities, one or more key
schemes (PartitionKey/RowKey templates) and a workload. tablestress creates a
test table, seeds it, drives worker pools with point reads, range queries,
scans, inserts, updates, deletes and entity group transactions, and reports
throughput, throttling (503 ServerBusy, 500 OperationTimedOut, 504, 429) and
latency per partition, each partition's peak against Azure's {partition} entities/s
partition target.

Targets (--target or TABLESTRESS_TARGET): embedded (default: a Table service
with Azure's partition model, started in-process), azurite, a connection
string, UseDevelopmentStorage=true, an account URL
(https://ACCOUNT.table.core.windows.net, signed in with DefaultAzureCredential),
a SAS URL, or a Cosmos DB Table endpoint.

Start here:
  tablestress keys scenarios/hot-partition.yaml     analyse key schemes, no server
  tablestress run scenarios/quickstart.yaml         run on the embedded service
  tablestress compare scenarios/hot-partition.yaml  every scheme side by side
  tablestress advise scenarios/iot-skewed.yaml      propose a key scheme, prove it

Exit codes: 0 success, 1 runtime failure, 2 usage or invalid scenario,
99 thresholds failed.`)

// newRoot builds the command tree.
func newRoot(ctx context.Context, e *env) *cobra.Command {
	root := &cobra.Command{
		Use:           "tablestress",
		Short:         "Partition stress-testing load generator for Azure Table Storage",
		Long:          rootLong,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	_, root.Version = versionInfo(debug.ReadBuildInfo)
	root.PersistentFlags().BoolVar(&e.wide, "wide", false, "print every column and never wrap, whatever the terminal's width (COLUMNS, or the terminal's own)")
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetContext(ctx)
	root.SetFlagErrorFunc(flagError)
	helpWidth.Store(int64(e.columns(1, e.isTerminal)))
	root.SetUsageTemplate(strings.NewReplacer(".LocalFlags.FlagUsages", "flagUsages .LocalFlags",
		".InheritedFlags.FlagUsages", "flagUsages .InheritedFlags").Replace(root.UsageTemplate()))
	root.AddCommand(
		newValidateCmd(e),
		newKeysCmd(e),
		newSchemesCmd(e),
		newSchemaCmd(e),
		newVersionCmd(e),
	)
	for _, add := range extraCommands {
		root.AddCommand(add(e))
	}
	return root
}

// extraCommands are registered by the files that define further commands.
var extraCommands []func(*env) *cobra.Command

// execute runs the command line and returns the exit code, printing any
// error on stderr.
func execute(ctx context.Context, args []string, e *env) int {
	root := newRoot(ctx, e)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		code := codeOf(err)
		if code == exitFailure && isCobraUsage(err) {
			code = exitUsage
		}
		var ee *exitError
		if !errors.As(err, &ee) || !ee.silent {
			fmt.Fprintln(e.stderr, "tablestress:", message(err))
		}
		return code
	}
	return exitOK
}

// helpWidth is the width help text wraps its flags to (0: unlimited), set
// by newRoot from the terminal or COLUMNS.
var helpWidth atomic.Int64

func init() {
	cobra.AddTemplateFunc("flagUsages", func(fs *pflag.FlagSet) string {
		if w := int(helpWidth.Load()); w > 0 {
			return fs.FlagUsagesWrapped(w - 1)
		}
		return fs.FlagUsages()
	})
}
