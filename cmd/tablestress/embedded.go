package main

import (
	"github.com/tablestress/tablestress/pkg/scenario"
)

// startEmbedded starts the embedded Table service for a run and returns its
// connection string and a stop function.
var startEmbedded = func(s *scenario.Scenario, f *runFlags) (string, func(), error) {
	return "", nil, usageError("the embedded service is not available in this build; use --target azurite or a connection string")
}
