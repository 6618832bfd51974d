package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrFormat is returned for files that are not tablestress reports.
var ErrFormat = errors.New("report: not a tablestress report")

// WriteJSON writes v (a *Report or *Compare) as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Document is a report file: exactly one of Report and Compare is set.
type Document struct {
	Report  *Report
	Compare *Compare
}

// Reports returns the reports of the document.
func (d Document) Reports() []*Report {
	if d.Compare != nil {
		return d.Compare.Runs
	}
	return []*Report{d.Report}
}

// ReadFile reads a report or compare document.
func ReadFile(path string) (Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Document{}, err
	}
	return Decode(data)
}

// Decode parses a report or compare document by its schema field.
func Decode(data []byte) (Document, error) {
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Document{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	switch head.Schema {
	case SchemaReport:
		var r Report
		if err := dec.Decode(&r); err != nil {
			return Document{}, fmt.Errorf("%w: %v", ErrFormat, err)
		}
		return Document{Report: &r}, nil
	case SchemaCompare:
		var c Compare
		if err := dec.Decode(&c); err != nil {
			return Document{}, fmt.Errorf("%w: %v", ErrFormat, err)
		}
		return Document{Compare: &c}, nil
	}
	return Document{}, fmt.Errorf("%w: schema %q, want %s or %s", ErrFormat, head.Schema, SchemaReport, SchemaCompare)
}
