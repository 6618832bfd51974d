package main

import (
	"strings"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// azureText writes Azure's figures into a help text, from pkg/azure:
// {partition} is a partition's target in entities/s, {account} an
// account's in requests/s, each with thousands separators.
func azureText(s string) string { return azureFigures.Replace(s) }

var azureFigures = strings.NewReplacer(
	"{partition}", textfit.Int(azure.PartitionEntitiesPerSec),
	"{account}", textfit.Int(azure.AccountRequestsPerSec),
)
