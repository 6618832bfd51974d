package store

import (
	"errors"
	"strings"
	"time"

	"github.com/tablestress/tablestress/internal/jsontext"
)

// propsOf reads an entity body's properties as the service's request
// parsing hands them to the store: in name order, without the keys, the
// Timestamp, odata.* members and null values, each with its @odata.type
// annotation, and a Double sent as a string of digits ("2", as the
// JavaScript SDK sends a whole Double) as the number. It does not check
// Azure's rules (names, types, sizes): the store keeps any properties.
func propsOf(body string) ([]Prop, error) {
	o, ok := jsontext.ScanObject([]byte(body))
	defer o.Release()
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	var props []Prop
	for k, m := range o.Members {
		if m.Name == "PartitionKey" || m.Name == "RowKey" || m.Name == "Timestamp" ||
			strings.HasPrefix(m.Name, "odata.") || strings.Contains(m.Name, "@") || string(m.Raw) == "null" {
			continue
		}
		p := Prop{Name: m.Name, Raw: m.Raw}
		if t, ok := o.After(k, "@odata.type"); ok {
			if p.Type, ok = jsontext.StringValue(t); !ok {
				return nil, errors.New("a type annotation is not a string")
			}
		}
		if s, ok := jsontext.Unquote(p.Raw); ok && p.Type == "Edm.Double" && s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
			p.Raw = []byte(s)
		}
		props = append(props, p)
	}
	return props, nil
}

// The limits the codec's tests store values at (Azure's: the REST
// service enforces them).
const (
	maxStringUnits = 32 << 10
	maxBinaryBytes = 64 << 10
	maxKeyBytes    = 1024
)

// instants spread over the clock: whole seconds, fractions, before 1970,
// after 2038, and in a zone other than UTC.
var instants = []time.Time{
	time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	time.Date(2026, 1, 2, 3, 4, 5, 123456700, time.UTC),
	time.Date(1999, 12, 31, 23, 59, 59, 999999900, time.UTC),
	time.Date(1969, 7, 20, 20, 17, 40, 100, time.UTC),
	time.Date(2200, 2, 29, 0, 0, 0, 500, time.UTC),
	time.Date(2026, 6, 1, 12, 0, 0, 0, time.FixedZone("CEST", 2*3600)),
}
