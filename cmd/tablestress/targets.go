package main

import "github.com/spf13/cobra"

func init() { extraCommands = append(extraCommands, newTargetsTopic) }

// newTargetsTopic is the help topic "tablestress help targets": every form
// --target (or TABLESTRESS_TARGET) takes.
func newTargetsTopic(*env) *cobra.Command {
	return &cobra.Command{
		Use:   "targets",
		Short: "The forms --target and TABLESTRESS_TARGET take",
		Long: `A target is where a run sends its requests: --target, or the environment
variable TABLESTRESS_TARGET when --target is not given.

  embedded (the default)
      tablestress's own Table service, started in-process on a free loopback
      port; it throttles the way Azure does (see tablestress emulator --help).
  azurite
      Azurite's development account devstoreaccount1 at 127.0.0.1:10002.
  UseDevelopmentStorage=true
      the same, as the storage emulator's shortcut
      (DevelopmentStorageProxyUri=http://HOST is honoured).
  a connection string
      AccountName=NAME;AccountKey=KEY;TableEndpoint=https://... or with
      EndpointSuffix=core.windows.net, or TableEndpoint=...;SharedAccessSignature=...
  https://ACCOUNT.table.core.windows.net
      an account URL, signed in with DefaultAzureCredential (az login, a
      managed identity, workload identity, environment variables).
  https://127.0.0.1:PORT/devstoreaccount1
      the same against tablestress emulator --tls --entra on this machine:
      set the environment it prints and trust its certificate (--ca-file).
  https://ACCOUNT.table.core.windows.net/?sv=...&sig=...
      a SAS URL.
  https://ACCOUNT.table.cosmos.azure.com, or its connection string
      the Cosmos DB Table API (429 throttling, x-ms-retry-after-ms honoured).

A target that is not on this machine prints the plan and asks before loading
it; --yes skips the question. Keys, SAS signatures and tokens never appear in
output, errors or reports.

Examples:
  tablestress run scenarios/quickstart.yaml --target azurite
  TABLESTRESS_TARGET="$CONNECTION_STRING" tablestress run my.yaml --yes`,
	}
}
