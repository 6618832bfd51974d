package main

import (
	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/scenario"
)

func newSchemaCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of scenario files (for editor completion)",
		Long: `schema prints a JSON Schema (draft 2020-12) of the scenario format. Save it and
point your editor at it, e.g. with the YAML language server:

  tablestress schema > tablestress.schema.json
  # first line of a scenario:
  # yaml-language-server: $schema=./tablestress.schema.json`,
		Example: `  tablestress schema > tablestress.schema.json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			data, err := scenario.JSONSchema()
			if err != nil {
				return err
			}
			_, err = e.stdout.Write(append(data, '\n'))
			return err
		},
	}
}
