package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/textfit"
)

func newSchemesCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "schemes",
		Short: "List the built-in key schemes with an example key",
		Long: `schemes lists the catalogue of built-in key schemes: every PartitionKey/RowKey
pattern and anti-pattern of Azure Table design guidance, with its templates,
what it demonstrates and an example key. Use one in a scenario with
"- builtin: NAME".`,
		Example: `  tablestress schemes
  tablestress schemes --wide | grep anti-pattern`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t := &textfit.Table{Cols: []textfit.Column{{Header: "NAME"}, {Header: "PARTITIONKEY"}, {Header: "ROWKEY"},
				{Header: "EXAMPLE"}, {Header: "PATTERN", Wrap: true}}}
			for _, b := range keygen.Builtins {
				ex, err := exampleKeys(b)
				if err != nil {
					return err
				}
				rk := b.Spec.RowKey
				if len(b.Spec.Rows) > 0 {
					rk += " + " + fmt.Sprint(len(b.Spec.Rows)) + " secondary row(s)"
				}
				if len(b.Spec.Indexes) > 0 {
					rk += fmt.Sprintf(" + %d index table(s)", len(b.Spec.Indexes))
				}
				pattern := textfit.Cell{Text: b.Pattern}
				if strings.HasPrefix(b.Pattern, "anti-pattern") {
					pattern.Color = textfit.Yellow
				}
				t.Cells(textfit.Cell{Text: b.Spec.Name}, textfit.Cell{Text: b.Spec.PartitionKey}, textfit.Cell{Text: rk}, textfit.Cell{Text: ex}, pattern)
			}
			_, err := t.Render(e.stdout, e.style())
			return err
		},
	}
}

// exampleKeys renders entity 42 of a default population under b.
func exampleKeys(b keygen.Builtin) (string, error) {
	pop, err := keygen.NewPopulation(keygen.PopulationSpec{Seed: 1, Start: time.Date(2025, 2, 4, 9, 30, 0, 0, time.UTC),
		Interval: time.Second, Fields: keygen.WithBuiltinFields(nil, b)})
	if err != nil {
		return "", err
	}
	s, err := keygen.CompileScheme(pop, b.Spec)
	if err != nil {
		return "", err
	}
	var ent keygen.Entity
	var k keygen.Keys
	pop.Entity(42, &ent)
	s.Keys(&ent, &k)
	return fmt.Sprintf("%s | %s", k.PK, k.RK), nil
}
