package emulator

import (
	"net/http"
	"strings"

	"github.com/tablestress/tablestress/internal/keyorder"
)

// grant is what an authenticated SAS allows; a nil *grant is the account
// key's (Shared Key), which allows everything. Its methods are safe on nil.
type grant struct {
	account            bool
	services, resTypes string // account SAS: ss, srt
	perms              string // sp, with the stored access policy's
	table              string // service SAS: tn
	spk, srk, epk, erk string // service SAS: the key range
}

// Resource types of an account SAS (srt) as the Table service's
// operations need them (REST "Create an account SAS").
const (
	resService   = 's'
	resContainer = 'c' // tables
	resObject    = 'o' // entities
)

// access is what one operation needs of a SAS (REST "Create an account
// SAS", "Create a service SAS"): the resource type and account SAS
// permissions, the service SAS permissions ("" when a service SAS cannot
// do it: table and ACL operations), and the table.
type access struct {
	res     byte
	perms   string // account SAS permissions, every one needed
	tperms  string // service SAS permissions, every one needed
	table   string
	keyOnly bool // Get/Set Table ACL: the account key only
}

// accessOf is what a request's operation needs. Entity writes without
// If-Match are upserts, which need add and update; a transaction needs
// each operation's own (see batch).
func accessOf(r *http.Request, rt route) access {
	write := func() string {
		if reqHeader(r, "If-Match") == "" {
			return "au"
		}
		return "u"
	}
	switch rt.kind {
	case routeTables, routeTable:
		switch r.Method {
		case http.MethodPost:
			return access{res: resContainer, perms: "w"}
		case http.MethodDelete:
			return access{res: resContainer, perms: "d"}
		}
		return access{res: resContainer, perms: "l"}
	case routeEntities:
		if isACL(r) {
			return access{res: resContainer, table: rt.table, keyOnly: true}
		}
		if r.Method == http.MethodPost {
			return access{res: resObject, perms: "a", tperms: "a", table: rt.table}
		}
		return access{res: resObject, perms: "r", tperms: "r", table: rt.table}
	case routeService:
		if r.Method == http.MethodGet {
			return access{res: resService, perms: "r"}
		}
		return access{res: resService, perms: "w"}
	case routeEntity:
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			return access{res: resObject, perms: "r", tperms: "r", table: rt.table}
		case http.MethodDelete:
			return access{res: resObject, perms: "d", tperms: "d", table: rt.table}
		}
		p := write()
		return access{res: resObject, perms: p, tperms: p, table: rt.table}
	}
	return access{res: resObject} // $batch: checked per operation
}

// opAccess is what one operation of a transaction needs.
func opAccess(o batchOp) access {
	p := "u"
	switch {
	case o.kind == opInsert:
		p = "a"
	case o.kind == opDelete:
		p = "d"
	case o.ifMatch == "":
		p = "au"
	}
	return access{res: resObject, perms: p, tperms: p, table: o.table}
}

// allows checks an operation against the grant: AuthorizationServiceMismatch,
// AuthorizationResourceTypeMismatch and AuthorizationPermissionMismatch for
// an account SAS; AuthorizationFailure for a service SAS used on another
// table or for what only the account can do, then
// AuthorizationPermissionMismatch.
func (g *grant) allows(a access) *apiError {
	switch {
	case g == nil:
		return nil
	case a.keyOnly:
		return errSASFailure
	case g.account:
		if !strings.Contains(g.services, "t") {
			return errSASService
		}
		if !strings.ContainsRune(g.resTypes, rune(a.res)) {
			return errSASResourceType
		}
		if !hasAll(g.perms, a.perms) {
			return errSASPermission
		}
		return nil
	case a.tperms == "" && a.res != resObject, a.table != "" && !strings.EqualFold(a.table, g.table):
		return errSASFailure
	case !hasAll(g.perms, a.tperms):
		return errSASPermission
	}
	return nil
}

// allowsKeys checks an entity's keys against a service SAS's key range
// (spk, srk)..(epk, erk), both ends included, a missing RowKey bound
// leaving the partition open: AuthorizationFailure outside it.
func (g *grant) allowsKeys(pk, rk string) *apiError {
	if g == nil || g.inRange(pk, rk) {
		return nil
	}
	return errSASFailure
}

// limitsKeys reports whether the grant bounds the keys it reaches.
func (g *grant) limitsKeys() bool {
	return g != nil && !g.account && (g.spk != "" || g.epk != "")
}

// inRange reports whether (pk, rk) is within the grant's key range, in
// the table's key order (keyorder).
func (g *grant) inRange(pk, rk string) bool {
	if g == nil || g.account {
		return true
	}
	less := keyorder.Less
	if g.spk != "" && (less(pk, g.spk) || (pk == g.spk && g.srk != "" && less(rk, g.srk))) {
		return false
	}
	if g.epk != "" && (less(g.epk, pk) || (pk == g.epk && g.erk != "" && less(g.erk, rk))) {
		return false
	}
	return true
}

// hasAll reports whether have holds every letter of need.
func hasAll(have, need string) bool {
	for _, c := range need {
		if !strings.ContainsRune(have, c) {
			return false
		}
	}
	return true
}
