package main

import (
	"fmt"
	"os"
	"strings"
)

// NotRecorded is the cpu cell of a row measured before the page named
// the processor: its absolute times are judged nowhere until it is
// measured again.
const NotRecorded = "not recorded"

// thisCPU names this machine's processor as the page's cpu column does:
// the model name go test prints on its cpu: line, with the family and
// model numbers, which tell apart processors sold under one name ("AMD
// EPYC (family 26, model 2)"); "" where /proc/cpuinfo says nothing.
func thisCPU() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	return cpuOf(string(b))
}

// cpuOf names the first processor of a /proc/cpuinfo.
func cpuOf(cpuinfo string) string {
	fields := map[string]string{}
	for _, l := range strings.Split(cpuinfo, "\n") {
		if strings.TrimSpace(l) == "" && len(fields) > 0 {
			break // the first processor's block ends
		}
		k, v, ok := strings.Cut(l, ":")
		if k = strings.TrimSpace(k); ok {
			if _, seen := fields[k]; !seen {
				fields[k] = strings.TrimSpace(v)
			}
		}
	}
	name := fields["model name"]
	if name == "" {
		return ""
	}
	if fam, model := fields["cpu family"], fields["model"]; fam != "" && model != "" {
		return fmt.Sprintf("%s (family %s, model %s)", name, fam, model)
	}
	return name
}

// absolute reports whether a figure is a time, which depends on the
// processor, rather than a ratio of two times measured in one run, a size
// or an allocation count, which do not.
func absolute(f Figure) bool { return f.Kind == Time && !strings.HasPrefix(f.Metric, "×") }
