package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/outcome"
)

// instants spread over the clock: whole seconds, fractions, before 1970,
// and far ahead.
var instants = []time.Time{
	time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	time.Date(2026, 1, 2, 3, 4, 5, 123456700, time.UTC),
	time.Date(1999, 12, 31, 23, 59, 59, 999999900, time.UTC),
	time.Date(1969, 7, 20, 20, 17, 40, 100, time.UTC),
	time.Date(2200, 2, 29, 0, 0, 0, 500, time.UTC),
	time.Date(2026, 6, 1, 12, 0, 0, 0, time.FixedZone("CEST", 2*3600)),
}

func TestRequestIDFormat(t *testing.T) {
	for _, now := range instants {
		want := fmt.Sprintf("%08x-0000-0000-0000-%012x", uint32(now.UnixNano()>>20), now.UnixNano()&0xffffffffffff)
		if got := requestID(now); got != want {
			t.Errorf("%v: %q, want %q", now, got, want)
		}
	}
}

// TestETagRendering writes ETags as Azure derives them from the
// timestamp, in headers and in JSON.
func TestETagRendering(t *testing.T) {
	if got, want := string(edm.AppendETag(nil, store.NewEntity("p", "r", nil, instants[1], store.NewNames()).Ticks())), `W/"datetime'2026-01-02T03%3A04%3A05.1234567Z'"`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	for _, now := range instants {
		e := store.NewEntity("p", "r", nil, now, store.NewNames())
		want := `W/"datetime'` + strings.ReplaceAll(e.Time().Format(edm.TimeLayout), ":", "%3A") + `'"`
		if got := e.ETag(); got != want {
			t.Errorf("%v: %q, want %q", now, got, want)
		}
		v := view{meta: minimalMetadata}
		if got, want := string(v.appendEntity(nil, e, false)), `"odata.etag":`+string(jsontext.AppendString(nil, want))+","; !strings.Contains(got, want) {
			t.Errorf("%v: %s, want %s in it", now, got, want)
		}
	}
}

func TestStatusKeyAsOutcome(t *testing.T) {
	for _, tt := range []struct {
		status int
		code   string
	}{{200, ""}, {201, ""}, {202, ""}, {204, ""}, {206, ""}, {404, "ResourceNotFound"}, {503, "ServerBusy"}, {200, "X"}} {
		if got, want := statusKey(tt.status, tt.code), outcome.New(tt.status, tt.code).Key(); got != want {
			t.Errorf("%d %q: %q, want %q", tt.status, tt.code, got, want)
		}
	}
}

// TestDateHeader: every answer carries a Date, net/http's from the system
// clock, or the service's own clock's when it has one.
func TestDateHeader(t *testing.T) {
	for _, clock := range []func() time.Time{nil, fixedNow} {
		in := startServer(t, Config{Model: model.Off(), Now: clock})
		wc := wireClient{in, &http.Client{}}
		before := time.Now().Truncate(time.Second)
		code, h, _ := wc.do(t, http.MethodPost, "/Tables", []byte(`{"TableName":"dated"}`), "")
		date, err := http.ParseTime(h.Get("Date"))
		switch {
		case code != http.StatusCreated || err != nil:
			t.Errorf("%d, Date %q: %v", code, h.Get("Date"), err)
		case clock != nil && !date.Equal(fixedNow()):
			t.Errorf("Date %v on a clock at %v", date, fixedNow())
		case clock == nil && (date.Before(before) || date.After(time.Now())):
			t.Errorf("Date %v, not between %v and now", date, before)
		}
	}
}
