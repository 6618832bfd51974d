package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/keygen"
)

func newSchemesCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "schemes",
		Short: "List the built-in key schemes with an example key",
		Long: `schemes lists the catalogue of built-in key schemes: every PartitionKey/RowKey
pattern and anti-pattern of Azure Table design guidance, with its templates,
what it demonstrates and an example key. Use one in a scenario with
"- builtin: NAME".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tPARTITIONKEY\tROWKEY\tEXAMPLE\tPATTERN")
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
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", b.Spec.Name, b.Spec.PartitionKey, rk, ex, b.Pattern)
			}
			return w.Flush()
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
