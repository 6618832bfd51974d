package azure

import (
	"github.com/tablestress/tablestress/internal/testenv"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// figures are the numbers whose meaning lives in this package: a
// partition's 2,000 entities/s, an account's 20,000 requests/s and a
// page's 1,000 entities.
var figures = map[float64]bool{PartitionEntitiesPerSec: true, AccountRequestsPerSec: true, PageRows: true}

// inProse finds one of the figures written in a string: 2000, 2,000,
// 20000, 20,000, 1000 or 1,000, not part of a longer number.
var inProse = regexp.MustCompile(`(^|[^0-9.,])(2,?000|20,?000|1,?000)($|[^0-9,]|,[^0-9])`)

// otherMeaning are the literals 2000, 20000 and 1000 of the module that
// mean something else, each with what it means, by the file they are in
// and the line's text (trimmed). A literal with one of this package's
// meanings must be its constant instead; a new literal with another
// meaning is added here with its reason.
var otherMeaning = map[string]map[string]string{
	"bench/bareclient/main.go": {
		"cpu := (cpuTime() - cpu0).Seconds() * 1000": "milliseconds in a second",
		"res := result{Op: op, Ops: n, Errors: errs.Load(), Seconds: secs, CPUMs: cpu, CPUPerOp: cpu * 1000 / float64(max(n, 1))}": "milliseconds in a second",
		"res.ServerCPUMs = (server1 - server0).Seconds() * 1000":                                                                   "milliseconds in a second",
		"res.ServerCPUPerOp = res.ServerCPUMs * 1000 / float64(max(n, 1))":                                                         "milliseconds in a second",
	},
	"bench/readmefigures/figure.go": {
		"\"KB\": {Count, 1e3, \"bytes\"}, \"KiB\": {Count, 1 << 10, \"bytes\"},":                "the SI prefix k (micro to nano): a thousand",
		"\"ns\": {Time, 1, \"ns\"}, \"µs\": {Time, 1e3, \"ns\"}, \"μs\": {Time, 1e3, \"ns\"},":  "the SI prefix k (micro to nano): a thousand",
		"\"us\": {Time, 1e3, \"ns\"}, \"ms\": {Time, 1e6, \"ns\"}, \"s\": {Time, 1e9, \"ns\"},": "the SI prefix k (micro to nano): a thousand",
		"case v >= 1000:": "the size from which numbers are written with thousands separators",
	},
	"cmd/tablestress/advise_text.go": {
		"func pctOf(f float64) string { return textfit.Float(math.Round(f*1000)/10) + \"%\" }": "rounds a share to a tenth of a percent",
	},
	"cmd/tablestress/gc.go": {
		"const maxGCPercent = 2000": "the highest GOGC percentage accepted",
	},
	"cmd/tablestress/keysquestions.go": {
		"case f < 1000:": "the size from which numbers are written with thousands separators",
	},
	"cmd/tablestress/runflags.go": {
		"fs.StringVar(&f.rate, \"rate\", \"\", \"open loop at this many operations/s (e.g. 2000 or 2000/s), overriding workload.rate; 0 for closed loop\")": "an example of a rate",
	},
	"pkg/emulator/accesslog.go": {
		"b = append(strconv.AppendFloat(b, float64(now.Sub(start).Microseconds())/1000, 'f', 3, 64), \"ms\\n\"...)": "microseconds in a millisecond",
	},
	"pkg/emulator/internal/journal/checkpoint.go": {
		"snapshotEntities = 1000": "the entities a snapshot writes under one read lock of a table",
	},
	"pkg/advise/proofjudge.go": {
		"func pct(f float64) string { return textfit.Float(math.Round(f*1000)/10) + \"%\" }": "rounds a share to a tenth of a percent",
	},
	"pkg/advise/proofwindow.go": {
		"const windowSamples = 1000": "the moments a proof window is sampled at",
	},
	"pkg/judge/poisson.go": {
		"const maxGrid = 2000": "the Poisson sums' largest grid",
	},
	"pkg/judge/poissonmath.go": {
		"if k > 2000 && mean < float64(k)/2 {": "the count above which the Poisson sums take the normal approximation",
	},
	"pkg/metrics/interval.go": {
		"func usToMs(us int64) float64 { return float64(us) / 1000 }": "microseconds in a millisecond",
	},
	"pkg/percent/percent.go": {
		"return 0, fmt.Errorf(\"%w: %q has a comma: a percentage takes a decimal point and no thousands separators, like 1.5%% or 1000%%\", ErrSyntax, v)": "an example of a percentage",
	},
	"pkg/report/advice.go": {
		"busy := t.OpsPerSec * t.Latency.P90 / 1000": "milliseconds in a second",
	},
	"pkg/report/build.go": {
		"func usMs(us int64) float64 { return float64(us) / 1000 }": "microseconds in a millisecond",
	},
	"pkg/report/clientlimit.go": {
		"func pctOf(f float64) string { return trimFloat(math.Round(f*1000)/10) + \"%\" }":                                                      "rounds a share to a tenth of a percent",
		"need := int(math.Ceil(2 * l.OfferedOpsPerSec * t.Latency.P90 / 1000))":                                                                 "milliseconds in a second",
		"num(int64(r.Run.Workers)), rate(l.OfferedOpsPerSec), ms(t.Latency.P90), num(int64(math.Ceil(l.OfferedOpsPerSec*t.Latency.P90/1000))),": "milliseconds in a second",
	},
	"pkg/report/format.go": {
		"case f >= 1000:": "the size from which numbers are written with thousands separators",
	},
	"pkg/report/junit_cases.go": {
		"return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)": "rounds seconds to the millisecond",
	},
	"pkg/scenario/decode.go": {
		"d.numberError(n, path, \"%q is not a whole number; write one like 20 or 20000\", text)": "an example of a count",
	},
	"pkg/scenario/defaults.go": {
		"DefaultOpenWorkers  = 1000": "the open loop's default most workers",
	},
	"pkg/scenario/numbers.go": {
		"case n >= 1000 && n%100 == 0:": "the k suffix of a count: a thousand",
		"forms = append(forms, strconv.FormatFloat(float64(n)/1e3, 'f', -1, 64)+\"k\")": "the k suffix of a count: a thousand",
	},
	"pkg/scenario/schema.go": {
		"{\"type\": \"string\", \"pattern\": `^[0-9.]+\\s*(/\\s*[smh])?$`}}, \"examples\": []any{2000, \"2000/s\", \"120/m\"}},": "an example of a rate",
		"{\"type\": \"string\", \"pattern\": `^[0-9_.]+[kKMG]?$`}}, \"examples\": []any{20000, \"20k\", \"1M\"}},":               "an example of a count",
	},
	"pkg/scenario/types.go": {
		"Entities Count    `yaml:\"entities\" doc:\"Entities written by the seed phase before the workload starts (e.g. 20000, 50k, 1M).\"`":                                                                                                                                 "an example of a count",
		"Rate             Rate         `yaml:\"rate\" doc:\"Open loop: operations started per second (e.g. 2000 or 2000/s), whatever the latency. Late starts are measured from the scheduled time and starts that cannot happen are counted as dropped.\"`":                 "an example of a rate",
		"Rows         int          `yaml:\"rows\" doc:\"range_query: rows to read from the picked entity's RowKey on, 1 to 1000 (one page; default 50 when left out); with across_partitions, entities to span.\"`":                                                          "azure.PageRows in a struct tag, which cannot read a constant: scenario's TestRowsDocIsOnePage holds it to azure.PageRows",
		"Workers          int          `yaml:\"workers\" doc:\"Concurrent workers. Without rate they run flat out (closed loop; default 16); with rate they bound concurrency (open loop; default 1,000: the loop adds workers as its operations need them, up to this).\"`": "the open loop's default most workers, scenario.DefaultOpenWorkers",
	},
	"pkg/scenario/values.go": {
		"if err != nil || n < 0 || n > 1000 {": "the most retries a strategy takes",
		"return 0, fmt.Errorf(\"%q is not a rate; write operations per second like 2000 or 2000/s (or 120/m)\", s)": "an example of a rate",
		"return fmt.Errorf(\"%q is not a count; write a whole number like 20000, 20k or 1M\", s)":                   "an example of a count",
		"return nil, 0, fmt.Errorf(\"%q is not a retry count between 0 and 1000\", last)":                           "the most retries a strategy takes",
		"t, mult = t[:len(t)-1], 1e3": "the k suffix of a count: a thousand",
		"}{{\"KiB\", 1 << 10}, {\"MiB\", 1 << 20}, {\"GiB\", 1 << 30}, {\"KB\", 1000}, {\"MB\", 1000_000}, {\"GB\", 1000_000_000}, {\"B\", 1}}": "the SI kilobyte",
	},
	"pkg/textfit/num.go": {
		"case math.Abs(f) >= 1000:": "the size from which numbers are written with thousands separators",
	},
	"pkg/threshold/threshold.go": {
		"return \"\", fmt.Errorf(\"%q: a comma only separates thousands (2,000); write a decimal point: %s\", text, strings.ReplaceAll(text, \",\", \".\"))": "an example of a thousands separator",
		"return 0, fmt.Errorf(\"%q is not a number; write one like 20ms, 1%% or 2000\", text)":                                                               "an example of a number",
		"}{{\"ms\", 1}, {\"us\", 0.001}, {\"µs\", 0.001}, {\"s\", 1000}} {":                                                                                  "milliseconds in a second",
	},
	"pkg/workload/seed.go": {
		"const seedChunk = 20_000": "entities a seed producer claims at a time",
	},
}

// TestFiguresLiveHere fails when a literal 2000, 20000 or 1000 (as a
// number, or written in a string) appears in the module's non-test Go
// code outside this package, unless otherMeaning lists it with its other
// meaning: Azure's partition, account and page figures are read from
// here.
func TestFiguresLiveHere(t *testing.T) {
	root := testenv.ModuleRoot(t)
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "pkg/azure" || strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		for _, hit := range literals(t, path) {
			key := rel + ": " + hit
			if why, ok := otherMeaning[rel][hit]; ok && why != "" {
				seen[key] = true
				continue
			}
			t.Errorf("%s: a figure of Azure's written as a literal: read it from pkg/azure, or list it in otherMeaning with its other meaning", key)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for file, lines := range otherMeaning {
		for line := range lines {
			if !seen[file+": "+line] {
				t.Errorf("otherMeaning lists %s: %q, which is no longer in the code: remove it", file, line)
			}
		}
	}
}

// literals returns the trimmed source lines of path holding a figure as a
// number literal or in a string literal.
func literals(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || !holdsFigure(lit) {
			return true
		}
		out = append(out, strings.TrimSpace(lines[fset.Position(lit.Pos()).Line-1]))
		return true
	})
	return out
}

// holdsFigure reports whether a literal is one of the figures: a number
// equal to one, or a string naming one.
func holdsFigure(lit *ast.BasicLit) bool {
	switch lit.Kind {
	case token.INT, token.FLOAT:
		v, err := strconv.ParseFloat(strings.ReplaceAll(lit.Value, "_", ""), 64)
		if err != nil {
			if n, err := strconv.ParseInt(strings.ReplaceAll(lit.Value, "_", ""), 0, 64); err == nil {
				v = float64(n)
			}
		}
		return figures[v]
	case token.STRING:
		return inProse.MatchString(lit.Value)
	}
	return false
}
