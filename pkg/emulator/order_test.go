package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// utf16Keys are keys in Azure's order, by UTF-16 code units: the
// characters outside the basic plane (surrogate pairs, D800–DBFF first)
// sit between U+D7FF and U+E000, where UTF-8's byte order puts them
// last.
var utf16Keys = []string{"a", "\uD7FF", "\U00010437", "\U0001F642", "\U00024B62", "\uE000", "\uFFEE"}

// keysOf runs a query to its end, $top at a time, following the
// continuations, and returns the PartitionKey/RowKey of every entity.
func keysOf(t *testing.T, s *Server, filter string, top int) []string {
	t.Helper()
	q := "$top=" + strconv.Itoa(top)
	if filter != "" {
		q += "&$filter=" + url.QueryEscape(filter)
	}
	var out []string
	for cont, pages := "", 0; ; pages++ {
		w := do(t, s, signed(s, http.MethodGet, "/o()", q+cont, nil), http.StatusOK)
		var page struct {
			Value []struct{ PartitionKey, RowKey string }
		}
		if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Value {
			out = append(out, e.PartitionKey+"/"+e.RowKey)
		}
		npk, nrk := w.Header().Get("x-ms-continuation-NextPartitionKey"), w.Header().Get("x-ms-continuation-NextRowKey")
		if npk == "" || pages > 100 {
			return out
		}
		cont = "&NextPartitionKey=" + url.QueryEscape(npk) + "&NextRowKey=" + url.QueryEscape(nrk)
	}
}

// TestKeyOrderIsUTF16 holds R21: the service answers, pages, continues
// and bounds ranges of keys in UTF-16 code unit order, for PartitionKeys
// and for the RowKeys of one partition alike.
func TestKeyOrderIsUTF16(t *testing.T) {
	s := newServer(t)
	s.store.Create("o")
	tb := s.store.Table("o")
	put := func(pk, rk string) {
		tb.Put(store.NewEntity(pk, rk, nil, fixedNow(), tb.Names()))
	}
	var byPK, byRK []string
	for _, k := range slices.Backward(utf16Keys) { // stored out of order
		put(k, "r")
		put("p", k)
	}
	for _, k := range utf16Keys {
		byPK = append(byPK, k+"/r")
		byRK = append(byRK, "p/"+k)
	}
	// "p" sorts after "a" and before U+D7FF: its rows come second.
	all := append(append([]string{byPK[0]}, byRK...), byPK[1:]...)
	for _, tt := range []struct {
		filter string
		want   []string
	}{
		{"", all},
		{"PartitionKey gt '\U0001F642'", byPK[4:]},
		{"PartitionKey lt '\uFFFF' and PartitionKey ge '\uD7FF'", byPK[1:]},
		{"PartitionKey ge '\U00010437' and PartitionKey lt '\uE000'", byPK[2:5]},
		{"PartitionKey eq 'p' and RowKey gt '\uD7FF' and RowKey le '\U00024B62'", byRK[2:5]},
		{"RowKey lt '\uE000'", append(append([]string{byPK[0]}, byRK[:5]...), byPK[1:]...)},
	} {
		for _, top := range []int{1, 3, 9} {
			if got := keysOf(t, s, tt.filter, top); !slices.Equal(got, tt.want) {
				t.Errorf("$filter=%+q, $top=%d:\n got %+q\nwant %+q", tt.filter, top, got, tt.want)
			}
		}
	}
}

// TestSASKeyRangeInUTF16Order holds R21 for a service SAS's key range:
// spk..epk bound keys in the table's order.
func TestSASKeyRangeInUTF16Order(t *testing.T) {
	g := &grant{spk: "\U0001F642", epk: "\uE000"}
	for _, k := range utf16Keys {
		want := k == "\U0001F642" || k == "\U00024B62" || k == "\uE000"
		if got := g.inRange(k, "r"); got != want {
			t.Errorf("(%+q, r) in the range %+q..%+q: %v, want %v", k, g.spk, g.epk, got, want)
		}
	}
}
