package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/report"
)

func init() { extraCommands = append(extraCommands, newReportCmd) }

func newReportCmd(e *env) *cobra.Command {
	var format, html, csv, junit string
	cmd := &cobra.Command{
		Use:   "report FILE.json",
		Short: "Re-render a saved report or comparison (text, JSON, CSV, HTML)",
		Long: `report reads a tablestress.report/v1 or tablestress.compare/v1 JSON document
written with --out and renders it again: as the text summary (or the comparison
table), as JSON, or as the per-partition CSV; --html writes the HTML report
and --junit the JUnit XML test results (the run's --junit, with the host
given as localhost: a saved report does not say where it ran).`,
		Example: `  tablestress report report.json
  tablestress report compare.json --format csv > partitions.csv
  tablestress report report.json --html report.html
  tablestress report compare.json --junit results.xml`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("report needs exactly one JSON report file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			doc, err := loadReportFile(args[0])
			if err != nil {
				return err
			}
			if err := renderReport(e, doc, format); err != nil {
				return err
			}
			reps := doc.Reports()
			f := &runFlags{html: html, csv: csv}
			emitted := emitFiles
			if doc.Compare != nil {
				emitted = func(f *runFlags, _ ...*report.Report) error { return emitCompare(f, doc.Compare) }
			}
			if err := emitted(f, reps...); err != nil || junit == "" {
				return err
			}
			return writeFile(junit, func(w *os.File) error {
				return report.WriteJUnit(w, reps, report.JUnitOptions{Hostname: "localhost"})
			})
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, json, csv (partitions) or questions-csv")
	cmd.Flags().StringVar(&html, "html", "", "also write the HTML report to this file")
	cmd.Flags().StringVar(&csv, "csv", "", "also write the per-partition CSV to this file")
	cmd.Flags().StringVar(&junit, "junit", "", "also write the JUnit XML test results to this file (each run a suite, each threshold a test case)")
	return cmd
}

// renderReport prints a saved report or comparison on stdout in the
// format --format names.
func renderReport(e *env, doc report.Document, format string) error {
	reps := doc.Reports()
	switch format {
	case "text":
		if doc.Compare != nil {
			return report.WriteCompareDoc(e.stdout, doc.Compare, e.style())
		}
		return report.WriteTextStyle(e.stdout, reps[0], e.style())
	case "json":
		var v any = doc.Report
		if doc.Compare != nil {
			v = doc.Compare
		}
		return report.WriteJSON(e.stdout, v)
	case "csv":
		return report.WriteCSV(e.stdout, reps...)
	case "questions-csv":
		return report.WriteQuestionsCSV(e.stdout, reps...)
	}
	return usageError("--format must be text, json, csv or questions-csv")
}

// readReport reads a saved report or comparison; errors name the file.
func loadReportFile(path string) (report.Document, error) {
	if _, err := os.Stat(path); err != nil {
		return report.Document{}, usageError("%v", fileError(path, err))
	}
	doc, err := report.ReadFile(path)
	if err != nil {
		return report.Document{}, usageError("%s: %s", path, message(err))
	}
	return doc, nil
}
