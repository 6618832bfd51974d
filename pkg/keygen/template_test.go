package keygen

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestTicksMatchDotNet(t *testing.T) {
	// new DateTime(2025, 2, 4, 0, 0, 0, DateTimeKind.Utc).Ticks in .NET.
	if got := Ticks(time.Date(2025, 2, 4, 0, 0, 0, 0, time.UTC)); got != 638742240000000000 {
		t.Errorf("Ticks(2025-02-04) = %d, want 638742240000000000", got)
	}
	// DateTime.MaxValue is 9999-12-31T23:59:59.9999999.
	if got := Ticks(time.Date(9999, 12, 31, 23, 59, 59, 999999900, time.UTC)); got != MaxTicks {
		t.Errorf("Ticks(DateTime.MaxValue) = %d, want %d", got, MaxTicks)
	}
}

func TestTemplateRendering(t *testing.T) {
	p := mustPop(t,
		FieldSpec{Name: "device", Kind: "id", Count: 100, Prefix: "dev-", Width: 4, Distribution: "sequential"},
		FieldSpec{Name: "order", Kind: "sequence", Start: 100000},
		FieldSpec{Name: "tenant", Kind: "choice", Values: []string{"Contoso"}},
	)
	var e Entity
	p.Entity(42, &e) // event time 2025-02-04T00:00:04.2Z, device 42, order 100042
	unix := int64(1738627204)
	tests := []struct {
		tmpl, want string
	}{
		{"{device}", "dev-0042"},                                  // id default: prefix + width
		{"{device:06}", "dev-000042"},                             // numeric format keeps the prefix
		{"{order}", "100042"},                                     // sequence
		{"{order:d8}", "00100042"},                                // .NET style width
		{"{order:x}", "186ca"},                                    // hex
		{"{tenant:lower}_{tenant:upper}", "contoso_CONTOSO"},      // case formats
		{"{time:yyyy-MM-dd}", "2025-02-04"},                       // .NET layout
		{"{time:2006-01}", "2025-02"},                             // Go layout
		{"{time:hour}", "2025-02-04T00"},                          // shortcut
		{"{time:yyyy-MM-dd-HH-mm-ss}-x", "2025-02-04-00-00-04-x"}, // index-table RowKey style
		{"{i}", "42"},
		{"{i:010}", "0000000042"},    // append-only
		{"{desc_seq}", "9999999957"}, // prepend-only
		{"{unix}", "1738627204"},
		{"{inverted_unix}", "8261372795"},           // 9999999999 - unix
		{"{ticks}", "0638742240042000000"},          // d19
		{"{inverted_ticks}", "2516636735957999999"}, // MaxTicks - ticks
		{"{order % 10}", "2"},
		{"{order % 1000:04}", "0042"},
		{"{{literal}}-{i}", "{literal}-42"}, // escaped braces
		{"Orders", "Orders"},                // constant
		{"{ time : yyyy }", "2025"},         // spaces around the name
	}
	_ = unix
	for _, tt := range tests {
		tmpl, err := p.Compile(tt.tmpl)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.tmpl, err)
			continue
		}
		if got := tmpl.Render(&e); got != tt.want {
			t.Errorf("%q rendered %q, want %q", tt.tmpl, got, tt.want)
		}
	}
}

func TestHashBucketsAreUniform(t *testing.T) {
	p := mustPop(t, fOrder)
	tmpl, err := p.Compile("partition-{hash(order) % 16:03}")
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int64, 16)
	var e Entity
	for i := int64(0); i < 64_000; i++ {
		p.Entity(i, &e)
		k := tmpl.Render(&e)
		var b int
		if _, err := fmtSscanf(k, &b); err != nil || b < 0 || b > 15 {
			t.Fatalf("bad bucket key %q", k)
		}
		counts[b]++
	}
	chiSquare(t, "hash buckets", counts, uniformProbs(16))
}

func fmtSscanf(k string, b *int) (int, error) {
	n := 0
	for _, c := range strings.TrimPrefix(k, "partition-") {
		if c < '0' || c > '9' {
			return 0, errors.New("not a number")
		}
		n = n*10 + int(c-'0')
	}
	*b = n
	return 1, nil
}

func TestTemplateErrors(t *testing.T) {
	p := mustPop(t, fOrder, fDepartment)
	tests := []struct {
		tmpl   string
		offset int
		want   string
	}{
		{"{nope}", 0, `"nope" is not a field`},
		{"a{order", 1, "unclosed '{'"},
		{"a}b", 1, "unmatched '}'"},
		{"x{hash(order)}", 1, "needs a modulus"},
		{"{hash(order % 3}", 0, "hash needs one field"},
		{"{order % 0}", 0, "whole number >= 1"},
		{"{department % 4}", 0, "not numeric"},
		{"{order:abc}", 0, "not a number format"},
		{"{department:06}", 0, "not a format for a text value"},
		{"{time:abc}", 0, "no date or time element"},
		{"{}", 0, "empty placeholder"},
	}
	for _, tt := range tests {
		_, err := p.Compile(tt.tmpl)
		var te *TemplateError
		if !errors.As(err, &te) {
			t.Errorf("Compile(%q) = %v, want a TemplateError", tt.tmpl, err)
			continue
		}
		if te.Offset != tt.offset || !strings.Contains(te.Msg, tt.want) || !errors.Is(err, ErrTemplate) {
			t.Errorf("Compile(%q) = offset %d %q, want offset %d and %q", tt.tmpl, te.Offset, te.Msg, tt.offset, tt.want)
		}
	}
}

func TestValidateKey(t *testing.T) {
	tests := []struct {
		key  string
		want string // "" = valid
	}{
		{"dev-0042_2025-02-04", ""},
		{"2011 New York City Marathon__Full", ""}, // spaces are fine
		{"BIB:01234__John__M__55", ""},            // colons are fine
		{"ünïcödé", ""},
		{"a/b", "not allowed"},
		{`a\b`, "not allowed"},
		{"a#b", "not allowed"},
		{"a?b", "not allowed"},
		{"O'Brien", "single quote"},
		{"tab\there", "control character U+0009"},
		{"del\x7f", "control character U+007F"},
		{"c1\u0085", "control character U+0085"},
		{"bad\xffutf8", "invalid UTF-8"},
		{strings.Repeat("k", 512), ""},                               // 1 KiB of UTF-16
		{strings.Repeat("k", 513), "over Azure's 1 KiB"},             // 513 units
		{strings.Repeat("日", 400), ""},                               // 800 bytes of UTF-16, 1,200 of UTF-8
		{strings.Repeat("\U0001F600", 256), ""},                      // 256 surrogate pairs: 512 units
		{strings.Repeat("\U0001F600", 257), "514 UTF-16 code units"}, // over
	}
	for _, tt := range tests {
		err := ValidateKey([]byte(tt.key))
		if tt.want == "" {
			if err != nil {
				t.Errorf("ValidateKey(%q) = %v, want valid", tt.key, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrKey) {
			t.Errorf("ValidateKey(%q) = %v, want %q", clip(tt.key, 20), err, tt.want)
		}
	}
}

func TestSchemeRejectsForbiddenCharacters(t *testing.T) {
	p := mustPop(t, FieldSpec{Name: "path", Kind: "choice", Values: []string{"ok", "a/b"}})
	tests := []struct {
		spec  SchemeSpec
		field string
	}{
		{SchemeSpec{Name: "s", PartitionKey: "{path}", RowKey: "{i}"}, "partition_key"},               // a choice value has '/'
		{SchemeSpec{Name: "s", PartitionKey: "p", RowKey: "{time:2006/01/02}"}, "row_key"},            // the layout writes '/'
		{SchemeSpec{Name: "s", PartitionKey: "p", RowKey: "{i}", Rows: []string{"a#{i}"}}, "rows[0]"}, // literal '#'
		{SchemeSpec{Name: "s", PartitionKey: "p", RowKey: "{i}", Indexes: []IndexSpec{{Name: "ByX", PartitionKey: "?", RowKey: "{i}"}}}, "indexes[0].partition_key"},
		{SchemeSpec{Name: "s", PartitionKey: "p", RowKey: "{i}", Indexes: []IndexSpec{{Name: "By-X", PartitionKey: "x", RowKey: "{i}"}}}, "indexes[0].name"},
	}
	for _, tt := range tests {
		_, err := CompileScheme(p, tt.spec)
		var se *SchemeError
		if !errors.As(err, &se) || se.Field != tt.field {
			t.Errorf("%+v: got %v, want a SchemeError on %s", tt.spec, err, tt.field)
		}
	}
}

func TestCheckFindsLongKeysAndCollisions(t *testing.T) {
	p := mustPop(t, FieldSpec{Name: "w", Kind: "choice", Values: []string{strings.Repeat("x", 300)}})
	s, err := CompileScheme(p, SchemeSpec{Name: "long", PartitionKey: "{w}{w}", RowKey: "{i}"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(p, 10); err == nil || !strings.Contains(err.Error(), "600 UTF-16 code units is over Azure's 1 KiB") {
		t.Errorf("600-unit keys: %v, want a 1 KiB error", err)
	}
	s, _ = CompileScheme(p, SchemeSpec{Name: "dup", PartitionKey: "p", RowKey: "{i % 10}"})
	res, err := s.Check(p, 100)
	if err != nil {
		t.Fatal(err)
	}
	if res.Collisions != 90 || !strings.Contains(res.CollisionExample, "entities 0 and 10") {
		t.Errorf("collisions = %d (%q), want 90 starting with entities 0 and 10", res.Collisions, res.CollisionExample)
	}
}

func TestBuiltinsCompileAndCheck(t *testing.T) {
	for _, b := range Builtins {
		p, err := NewPopulation(PopulationSpec{Seed: 1, Start: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
			Interval: 100 * time.Millisecond, Fields: WithBuiltinFields(nil, b)})
		if err != nil {
			t.Errorf("%s: %v", b.Spec.Name, err)
			continue
		}
		s, err := CompileScheme(p, b.Spec)
		if err != nil {
			t.Errorf("%s: %v", b.Spec.Name, err)
			continue
		}
		res, err := s.Check(p, 20_000)
		if err != nil {
			t.Errorf("%s: %v", b.Spec.Name, err)
			continue
		}
		// device-unix is the seed's inverted-Unix-seconds RowKey: at ten
		// entities a second over 100 devices it must collide; nothing else may.
		if wantCollide := b.Spec.Name == "device-unix"; (res.Collisions > 0) != wantCollide {
			t.Errorf("%s: %d collisions (%s)", b.Spec.Name, res.Collisions, res.CollisionExample)
		}
		if b.Pattern == "" || b.Source == "" || b.Spec.Description == "" {
			t.Errorf("%s: catalogue entry lacks pattern, source or description", b.Spec.Name)
		}
	}
}

func TestSecondaryRowsAndIndexes(t *testing.T) {
	b, _ := LookupBuiltin("bib-age")
	p := mustPop(t, WithBuiltinFields(nil, b)...)
	s, err := CompileScheme(p, b.Spec)
	if err != nil {
		t.Fatal(err)
	}
	var e Entity
	var k Keys
	p.Entity(1233, &e) // bib 1234
	s.Keys(&e, &k)
	if !strings.HasPrefix(string(k.RK), "BIB:01234__") || len(k.Rows) != 1 || !strings.HasPrefix(string(k.Rows[0]), "AGE:0") || !strings.Contains(string(k.Rows[0]), "__01234__") {
		t.Errorf("bib-age keys: RK %q rows %q", k.RK, k.Rows)
	}
	if s.RowsPerEntity() != 2 {
		t.Errorf("RowsPerEntity = %d", s.RowsPerEntity())
	}
	b, _ = LookupBuiltin("blog-posts")
	p = mustPop(t, WithBuiltinFields(nil, b)...)
	s, _ = CompileScheme(p, b.Spec)
	p.Entity(5, &e)
	s.Keys(&e, &k)
	if len(k.Index) != 3 || !strings.HasSuffix(string(k.Index[0].RK), string(k.RK)) {
		t.Errorf("blog index keys %q, main RowKey %q", k.Index, k.RK)
	}
	body := AppendIndexJSON(nil, &e, k.Index[0].PK, k.Index[0].RK, k.PK, k.RK)
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil || m["MainRowKey"] != string(k.RK) {
		t.Errorf("index row %s: %v", body, err)
	}
}

func FuzzCompileTemplate(f *testing.F) {
	for _, s := range []string{"{device}_{time:yyyy-MM-dd}", "{hash(order) % 16:03}", "{{x}}", "{", "}", "{order % 3:x4}", "{tenant:upper}"} {
		f.Add(s)
	}
	p := mustPop(f, fDevice, fOrder, fTenant, fSlug)
	f.Fuzz(func(t *testing.T, src string) {
		tmpl, err := p.Compile(src)
		if err != nil {
			var te *TemplateError
			if !errors.As(err, &te) || te.Offset < 0 || te.Offset > len(src) {
				t.Fatalf("Compile(%q) returned %v", src, err)
			}
			return
		}
		var e Entity
		for _, i := range []int64{0, 1, 99999} {
			p.Entity(i, &e)
			tmpl.Render(&e)
		}
	})
}
