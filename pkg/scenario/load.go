package scenario

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// Load reads and validates a scenario file. On failure it returns every
// problem found, each an *Error with the file, line and column.
func Load(path string) (*Scenario, []error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []error{fmt.Errorf("%w: %v", ErrInvalid, err)}
	}
	return Parse(path, data)
}

// Parse decodes and validates a scenario; file names it in errors.
func Parse(file string, data []byte) (*Scenario, []error) {
	s := &Scenario{File: file, pos: positions{}, quoted: map[string]bool{}}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, []error{syntaxError(file, data, err)}
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return nil, []error{&Error{File: file, Line: 1, Col: 1, Msg: "the file is empty; a scenario needs at least population, schemes and workload"}}
	}
	if bytes.Contains(data, []byte("\n---")) && moreDocuments(data) {
		return nil, []error{&Error{File: file, Line: 1, Col: 1, Msg: "the file holds several YAML documents; put one scenario per file"}}
	}
	d := &decoder{file: file, pos: s.pos, quoted: s.quoted}
	d.decode(root.Content[0], reflect.ValueOf(s).Elem(), "")
	s.applyDefaults()
	// Validate even after decoding errors, so one pass reports everything;
	// skip what a decoding error already explains.
	errs := d.errs
	for _, err := range s.Validate() {
		if !explained(d.errs, err) {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		SortErrors(errs)
		return nil, errs
	}
	return s, nil
}

// explained reports whether err concerns a path at or under one that already
// has a decoding error, or is a population field's error (which judges all
// its values at once) when one of its values has one.
func explained(decodeErrs []error, err error) bool {
	e, ok := err.(*Error)
	if !ok {
		return false
	}
	for _, de := range decodeErrs {
		d, ok := de.(*Error)
		if ok && d.Path != "" && (under(e.Path, d.Path) || strings.HasPrefix(e.Path, "population.fields.") && under(d.Path, e.Path)) {
			return true
		}
	}
	return false
}

// under reports whether path is at or under parent.
func under(path, parent string) bool {
	return path == parent || strings.HasPrefix(path, parent+".") || strings.HasPrefix(path, parent+"[")
}

func moreDocuments(data []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	n := 0
	for {
		var node yaml.Node
		if err := dec.Decode(&node); err != nil {
			break
		}
		n++
	}
	return n > 1
}

// DisplayName is the scenario's name, or its file name without extension.
func (s *Scenario) DisplayName() string {
	if s.Name != "" {
		return s.Name
	}
	if s.File != "" {
		return strings.TrimSuffix(filepath.Base(s.File), filepath.Ext(s.File))
	}
	return "scenario"
}
