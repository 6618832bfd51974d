package scenario

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// scalar is implemented by the value types that parse themselves from a YAML
// scalar; the decoder reports their errors at the scalar's position.
type scalar interface {
	parseScalar(s string) error
}

// Duration is a Go duration like 30s, 1m30s or 250ms.
type Duration time.Duration

func (d *Duration) parseScalar(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not a duration; write it like 30s, 1m30s or 250ms", s)
	}
	if v < 0 {
		return fmt.Errorf("%q: a duration must not be negative; write it like 30s", s)
	}
	*d = Duration(v)
	return nil
}

// D returns the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// Span is a length of event time: a Go duration like 90m or 72h, or days
// like 3d or 1.5d.
type Span time.Duration

func (d *Span) parseScalar(s string) error {
	t := strings.TrimSpace(s)
	var v time.Duration
	var err error
	if days, ok := strings.CutSuffix(t, "d"); ok {
		var n float64
		n, err = strconv.ParseFloat(days, 64)
		if n < 100_000 { // else out of range: refused below
			v = time.Duration(n * float64(24*time.Hour))
		}
	} else {
		v, err = time.ParseDuration(t)
	}
	if err != nil || v <= 0 {
		return fmt.Errorf("%q is not a span of event time; write it like 72h, 90m or 3d (days)", s)
	}
	*d = Span(v)
	return nil
}

// D returns the time.Duration.
func (d Span) D() time.Duration { return time.Duration(d) }

// Rate is operations per second: 2000, 2000/s, 120/m, 0.5/s.
type Rate float64

func (r *Rate) parseScalar(s string) error {
	v, err := ParseRate(s)
	if err != nil {
		return err
	}
	*r = Rate(v)
	return nil
}

// ParseRate parses a rate in operations per second: "2000", "2000/s",
// "120/m", "36000/h".
func ParseRate(s string) (float64, error) {
	num, unit, _ := strings.Cut(strings.TrimSpace(s), "/")
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a rate; write operations per second like 2000 or 2000/s (or 120/m)", s)
	}
	switch strings.TrimSpace(unit) {
	case "", "s":
	case "m":
		v /= 60
	case "h":
		v /= 3600
	default:
		return 0, fmt.Errorf("%q: the rate unit must be /s, /m or /h", s)
	}
	return v, nil
}

// Size is a byte count: 512, 512B, 1KiB, 4MiB, 1KB (1000).
type Size int64

var sizeUnits = []struct {
	suffix string
	mult   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1000_000}, {"GB", 1000_000_000}, {"B", 1}}

func (z *Size) parseScalar(s string) error {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*float64(mult) > math.MaxInt64/2 {
		return fmt.Errorf("%q is not a size; write it like 512B, 1KiB or 4MiB", s)
	}
	*z = Size(v * float64(mult))
	return nil
}

// Count is a whole number, optionally with a k (thousand) or M (million)
// suffix or _ separators: 20000, 20k, 1M, 1_000_000.
type Count int64

func (c *Count) parseScalar(s string) error {
	t := strings.ReplaceAll(strings.TrimSpace(s), "_", "")
	mult := 1.0
	switch {
	case strings.HasSuffix(t, "k"), strings.HasSuffix(t, "K"):
		t, mult = t[:len(t)-1], 1e3
	case strings.HasSuffix(t, "M"):
		t, mult = t[:len(t)-1], 1e6
	case strings.HasSuffix(t, "G"):
		t, mult = t[:len(t)-1], 1e9
	}
	v, err := strconv.ParseFloat(t, 64)
	n := v * mult
	if fix := separatorFix(s, true); err != nil && fix != "" {
		return errors.New(fix)
	}
	if err != nil || n < 0 || n != math.Trunc(n) || n > 1e15 {
		return fmt.Errorf("%q is not a count; write a whole number like 20000, 20k or 1M", s)
	}
	*c = Count(n)
	return nil
}

// UnmarshalText parses a count like 20k (for flags).
func (c *Count) UnmarshalText(b []byte) error { return c.parseScalar(string(b)) }

// Time is an RFC 3339 instant.
type Time struct{ time.Time }

func (t *Time) parseScalar(s string) error {
	v, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not an RFC 3339 time; write it like 2025-01-01T00:00:00Z", s)
	}
	t.Time = v.UTC()
	return nil
}

// Distribution is a request or field distribution spec, checked by
// keygen.ParseDistribution, whose reason (like "the exponent must be in
// (0, 10]") is the error's.
type Distribution string

func (d *Distribution) parseScalar(s string) error {
	if _, err := keygen.ParseDistribution(s); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), keygen.ErrDistribution.Error()+": "))
	}
	*d = Distribution(strings.TrimSpace(s))
	return nil
}

// Retry is a retry strategy of REST "Design a scalable partitioning
// strategy for Azure Table storage", "Retry strategy": none, fixed(DELAY,
// N) or exponential(DEFAULT, MIN, MAX, N).
type Retry struct {
	Kind    string // "none", "fixed" or "exponential"
	Delay   time.Duration
	Min     time.Duration
	Max     time.Duration
	Retries int
}

// RetryForms lists the accepted spellings.
const RetryForms = "none, fixed(DELAY,N) like fixed(200ms,3), or exponential(DEFAULT,MIN,MAX,N) like exponential(1s,100ms,10s,5)"

func (r *Retry) parseScalar(s string) error {
	v, err := ParseRetry(s)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// ParseRetry parses a retry strategy: none (or empty), fixed(DELAY,N) or
// exponential(DEFAULT,MIN,MAX,N), durations >= 0 and MIN <= MAX, N retries
// from 0 to 1000. An error quotes s, says why and lists RetryForms.
func ParseRetry(s string) (Retry, error) {
	t := strings.TrimSpace(s)
	if t == "none" || t == "" {
		return Retry{Kind: "none"}, nil
	}
	r, why := parseRetryCall(t)
	if why != "" {
		return Retry{}, fmt.Errorf("%q is not a retry strategy (%s); use %s", s, why, RetryForms)
	}
	return r, nil
}

// parseRetryCall reads "name(arguments)", trimmed, as a fixed or
// exponential strategy, or says why it is not one.
func parseRetryCall(t string) (Retry, string) {
	open := strings.IndexByte(t, '(')
	if open < 0 || !strings.HasSuffix(t, ")") {
		return Retry{}, "expected name(arguments)"
	}
	name := strings.TrimSpace(t[:open])
	args := strings.Split(t[open+1:len(t)-1], ",")
	switch name {
	case "fixed":
		if len(args) != 2 {
			return Retry{}, "fixed takes a delay and a count"
		}
		d, n, err := retryArgs(args)
		if err != nil {
			return Retry{}, err.Error()
		}
		return Retry{Kind: "fixed", Delay: d[0], Retries: n}, ""
	case "exponential":
		if len(args) != 4 {
			return Retry{}, "exponential takes default, min and max backoffs and a count"
		}
		d, n, err := retryArgs(args)
		if err != nil {
			return Retry{}, err.Error()
		}
		if d[1] > d[2] {
			return Retry{}, "min backoff is above max backoff"
		}
		return Retry{Kind: "exponential", Delay: d[0], Min: d[1], Max: d[2], Retries: n}, ""
	}
	return Retry{}, fmt.Sprintf("unknown strategy %q", name)
}

// retryArgs reads a strategy's arguments: durations (>= 0), then a retry
// count between 0 and 1000, last. The first bad argument is the error.
func retryArgs(args []string) ([]time.Duration, int, error) {
	durs := make([]time.Duration, len(args)-1)
	for i, p := range args[:len(args)-1] {
		d, err := time.ParseDuration(strings.TrimSpace(p))
		if err != nil || d < 0 {
			return nil, 0, fmt.Errorf("%q is not a duration", strings.TrimSpace(p))
		}
		durs[i] = d
	}
	last := strings.TrimSpace(args[len(args)-1])
	n, err := strconv.Atoi(last)
	if err != nil || n < 0 || n > 1000 {
		return nil, 0, fmt.Errorf("%q is not a retry count between 0 and 1000", last)
	}
	return durs, n, nil
}

// String returns the spec that parses back to r.
func (r Retry) String() string {
	switch r.Kind {
	case "fixed":
		return fmt.Sprintf("fixed(%v,%d)", r.Delay, r.Retries)
	case "exponential":
		return fmt.Sprintf("exponential(%v,%v,%v,%d)", r.Delay, r.Min, r.Max, r.Retries)
	}
	return "none"
}
