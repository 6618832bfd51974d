package report

import (
	"html"
	"io"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// WriteHTMLPage writes a self-contained HTML page in the reports' style
// (their stylesheet, header and sections, no script, nothing fetched from
// the network): title in the header with sub under it, then what body
// writes into the page's main element. Body writes HTML: it escapes what
// it prints (html.EscapeString). The error is the first write's that
// failed.
func WriteHTMLPage(w io.Writer, title, sub string, body func(*textfit.Printer)) error {
	ew := &textfit.Printer{W: w}
	e := html.EscapeString
	ew.Printf("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	ew.Printf("<title>%s</title>\n<style>%s</style>\n</head><body>\n", e(title), reportCSS)
	ew.Printf("<header><h1>%s</h1><p>%s</p></header>\n<main>\n", e(title), e(sub))
	body(ew)
	ew.Printf("</main>\n</body></html>\n")
	return ew.Err
}
