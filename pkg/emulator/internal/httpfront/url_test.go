package httpfront

import (
	"fmt"
	"net/url"
	"reflect"
	"testing"
)

// TestRequestURLAsParseRequestURI: requestURL makes of a request target
// what url.ParseRequestURI makes of it, on its fast path and off it, and
// fails where it fails.
func TestRequestURLAsParseRequestURI(t *testing.T) {
	targets := []string{
		"/devstoreaccount1/Tables",
		"/devstoreaccount1/Tables?",
		"/devstoreaccount1/Tables('t1')",
		"/devstoreaccount1/t(PartitionKey='p',RowKey='r')",
		"/devstoreaccount1/t(PartitionKey='a%20b',RowKey='c%27%27d')",
		"/devstoreaccount1/t()?$filter=PartitionKey%20eq%20'p'&$top=5",
		"/devstoreaccount1/t()?$filter=PartitionKey eq 'p'",
		"/devstoreaccount1/t?comp=acl",
		"/devstoreaccount1/?restype=service&comp=properties",
		"/devstoreaccount1/$batch",
		"/a!b*c[d]e",
		"/a!b*c",
		"/t(x)'y'",
		"/a b",
		"/a\tb",
		"/é",
		"/a#frag",
		"/a?b#c",
		"/a?b?c",
		"/a;b=c@d:e,f+g&h~i",
		"//double",
		"/a/../b",
		"*",
		"",
		"relative/path",
		"http://host/abs?x=1",
		"/%zz",
		"/%2F",
		"/a%",
		"/x?%zz",
	}
	for _, uri := range targets {
		if msg := requestURLDiffers(uri); msg != "" {
			t.Error(msg)
		}
	}
}

// requestURLDiffers is how requestURL's answer for uri differs from
// url.ParseRequestURI's (URL, EscapedPath, or failing), "" when it does
// not.
func requestURLDiffers(uri string) string {
	want, werr := url.ParseRequestURI(uri)
	var got url.URL
	ok := requestURL(&got, uri)
	switch {
	case ok != (werr == nil):
		return fmt.Sprintf("%q: ok %v, ParseRequestURI's error %v", uri, ok, werr)
	case ok && !reflect.DeepEqual(got, *want):
		return fmt.Sprintf("%q: %#v, want %#v", uri, got, *want)
	case ok && got.EscapedPath() != want.EscapedPath():
		return fmt.Sprintf("%q: EscapedPath %q, want %q", uri, got.EscapedPath(), want.EscapedPath())
	}
	return ""
}

// FuzzRequestURL holds requestURL to url.ParseRequestURI on any target.
func FuzzRequestURL(f *testing.F) {
	for _, s := range []string{"/a/t(PartitionKey='p',RowKey='r')", "/a?b=c", "/a!b", "/%41", "*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		if msg := requestURLDiffers(uri); msg != "" {
			t.Fatal(msg)
		}
	})
}
