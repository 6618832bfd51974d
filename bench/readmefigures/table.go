package main

import (
	"fmt"
	"strings"
)

// Section is the heading of the page's section whose first table holds the
// figures.
const Section = "## Measured"

// Row is one row of the Measured table.
type Row struct {
	Line    int    // 1-based line of the page
	What    string // the what column: what the figure includes
	Figures []Figure
	Command string // the command column's code span
	// CPU is the processor the figures were measured on (the cpu column,
	// as thisCPU writes it): absolute times are judged on that CPU only.
	CPU string
}

// ParseTable finds the first table after the Section heading of a page
// (its file name is for errors) and parses its rows. The table must have the columns what, figure,
// command and cpu (in any order); a command is one code span; a pipe inside a
// cell is written \|. Every problem is reported with its line.
func ParseTable(name, page string) ([]Row, error) {
	lines := strings.Split(page, "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) != Section {
		i++
	}
	if i == len(lines) {
		return nil, fmt.Errorf("%s: no %q section", name, Section)
	}
	for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
		if strings.HasPrefix(lines[i], "#") {
			return nil, fmt.Errorf("%s:%d: the %q section has no table before this heading", name, i+1, Section)
		}
	}
	if i+1 >= len(lines) {
		return nil, fmt.Errorf("%s: the %q section has no table", name, Section)
	}
	col := map[string]int{}
	for k, h := range splitRow(lines[i]) {
		col[strings.ToLower(h)] = k
	}
	for _, c := range []string{"what", "figure", "command", "cpu"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%s:%d: the table has no %q column (want what, figure, command and cpu)", name, i+1, c)
		}
	}
	var rows []Row
	var errs []string
	for i += 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
		row, err := parseRow(name, splitRow(lines[i]), col, i+1)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		rows = append(rows, row)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: the %q table has no rows", name, Section)
	}
	return rows, nil
}

func parseRow(name string, cells []string, col map[string]int, line int) (Row, error) {
	need := max(col["what"], col["figure"], col["command"], col["cpu"])
	if len(cells) <= need {
		return Row{}, fmt.Errorf("%s:%d: %d cells, want at least %d", name, line, len(cells), need+1)
	}
	figs, err := ParseFigures(cells[col["figure"]])
	if err != nil {
		return Row{}, fmt.Errorf("%s:%d: %v", name, line, err)
	}
	cmd := cells[col["command"]]
	if strings.Count(cmd, "`") != 2 || !strings.HasPrefix(cmd, "`") || !strings.HasSuffix(cmd, "`") {
		return Row{}, fmt.Errorf("%s:%d: the command cell %q must be one code span, `like this`", name, line, cmd)
	}
	cmd = strings.TrimSpace(strings.Trim(cmd, "`"))
	if cmd == "" {
		return Row{}, fmt.Errorf("%s:%d: empty command", name, line)
	}
	cpu := cells[col["cpu"]]
	if cpu == "" {
		return Row{}, fmt.Errorf("%s:%d: the cpu cell is empty: name the processor the figures were measured on, as bench/readme-figures.sh prints it", name, line)
	}
	return Row{Line: line, What: cells[col["what"]], Figures: figs, Command: cmd, CPU: cpu}, nil
}

// splitRow splits a table row into its trimmed cells; \| is a pipe inside
// a cell.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var cur strings.Builder
	for k := 0; k < len(line); k++ {
		switch {
		case line[k] == '\\' && k+1 < len(line) && line[k+1] == '|':
			cur.WriteByte('|')
			k++
		case line[k] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[k])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}
