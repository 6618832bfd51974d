package table

import (
	"math"
	"net/http"
	"strconv"
	"strings"
)

// ChargeHeader is where Cosmos DB says what a request cost, in request
// units (a decimal), on every answer, refusals included.
const ChargeHeader = "x-ms-request-charge"

// VisitedHeader is where the embedded Table service says how many rows a
// query page visited, matched or not: what its model charged the page.
// Azure, Cosmos DB and Azurite send no such header.
const VisitedHeader = "x-tablestress-rows-visited"

// read takes the answer's charge and rows visited from its header, h
// being as net/http keeps it (canonical names).
func (c *call) read(h http.Header) {
	c.charge, c.charged = requestCharge(h["X-Ms-Request-Charge"])
	c.visited, c.visitedSent = rowsVisited(h["X-Tablestress-Rows-Visited"])
}

// measured copies the answer's charge and rows visited into res; a nil c
// (no request was sent) does nothing.
func (c *call) measured(res *Result) {
	if c == nil {
		return
	}
	if c.charged {
		res.Charge, res.Charged = c.charge, true
	}
	if c.visitedSent {
		res.Visited, res.VisitedSent = c.visited, true
	}
}

// requestCharge reads ChargeHeader's values: the request units an answer
// cost (a decimal, as Cosmos DB sends it), and whether it was there and
// readable (finite, not negative).
func requestCharge(v []string) (float64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	ru, err := strconv.ParseFloat(strings.TrimSpace(v[0]), 64)
	if err != nil || ru < 0 || math.IsInf(ru, 0) || math.IsNaN(ru) {
		return 0, false
	}
	return ru, true
}

// rowsVisited reads VisitedHeader's values: a count of rows, and whether
// it was there and readable (not negative).
func rowsVisited(v []string) (int, bool) {
	if len(v) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(v[0]))
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}
