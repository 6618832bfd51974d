package emulator

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// member is one name and value of a JSON object, the value as its raw
// JSON: a slice of the scanned input.
type member struct {
	name string
	raw  []byte
	key  uint64 // prefixOf(name): orders most pairs of names without reading them
}

// jsonObject is what encoding/json makes of a JSON object decoded into a
// map[string]json.RawMessage, without the map and the reflection: the
// members sorted by name, each name once (the last of duplicates, as the
// map keeps), the values slices of the input.
type jsonObject struct {
	members []member
	list    *[]member // members' array, from objPool
}

// maxNesting is how deep encoding/json lets arrays and objects nest.
const maxNesting = 10000

// scanObject reads an entity body as json.Unmarshal into a
// map[string]json.RawMessage would: false where that fails (not JSON, or
// JSON that is not an object), an empty object for null (which leaves the
// map nil). Names are decoded as encoding/json decodes strings.
//
// The object's list comes from a pool: release it once its members are
// no longer used.
func scanObject(b []byte) (jsonObject, bool) {
	sc := objScanner{b: b}
	sc.space()
	if sc.i < len(b) && b[sc.i] == 'n' {
		if !sc.literal("null") {
			return jsonObject{}, false
		}
		sc.space()
		return jsonObject{}, sc.i == len(b)
	}
	if sc.i >= len(b) || b[sc.i] != '{' {
		return jsonObject{}, false // not JSON, or JSON that is not an object
	}
	o := jsonObject{list: objPool.Get().(*[]member)}
	members := (*o.list)[:0]
	ok := sc.object(1, &members)
	*o.list = members
	sc.space()
	if !ok || sc.i != len(b) {
		o.release()
		return jsonObject{}, false
	}
	sortMembers(members)
	out := members[:0]
	for k, m := range members {
		if k+1 < len(members) && members[k+1].name == m.name {
			continue // a later duplicate replaces it
		}
		out = append(out, m)
	}
	o.members = out
	return o, true
}

// objPool recycles the member lists of scanObject, 16 members to begin
// with: an entity's properties, annotations and keys, mostly.
var objPool = sync.Pool{New: func() any { l := make([]member, 0, 16); return &l }}

// release returns o's list to the pool; o is not used after. The values
// read from it stay valid: they are slices of the body, not of the list.
func (o jsonObject) release() {
	if o.list == nil || cap(*o.list) > 1024 {
		return
	}
	clear((*o.list)[:cap(*o.list)]) // no reference to a body outlives its request
	*o.list = (*o.list)[:0]
	objPool.Put(o.list)
}

// get returns the value of the member named a+b.
func (o jsonObject) get(a, b string) ([]byte, bool) {
	k, found := slices.BinarySearchFunc(o.members, a, func(m member, _ string) int { return compareConcat(m.name, a, b) })
	if !found {
		return nil, false
	}
	return o.members[k].raw, true
}

// after is get(o.members[k].name, suffix) for a suffix not empty, found by
// looking on from k: the members named name+anything follow name in
// order, so the one named name+suffix is among them, usually the first.
func (o jsonObject) after(k int, suffix string) ([]byte, bool) {
	name := o.members[k].name
	for _, m := range o.members[k+1:] {
		if !strings.HasPrefix(m.name, name) {
			break
		}
		switch c := compareConcat(m.name, name, suffix); {
		case c == 0:
			return m.raw, true
		case c > 0:
			return nil, false
		}
	}
	return nil, false
}

// compareConcat compares s with a+b without building a+b.
func compareConcat(s, a, b string) int {
	n := min(len(s), len(a))
	if c := strings.Compare(s[:n], a[:n]); c != 0 || len(s) < len(a) {
		if c == 0 {
			return -1
		}
		return c
	}
	return strings.Compare(s[len(a):], b)
}

// objScanner validates JSON as encoding/json's scanner does (RFC 8259;
// bytes of 0x80 and up are allowed in strings, valid UTF-8 or not) and
// splits the top-level object into members.
type objScanner struct {
	b []byte
	i int
}

func (sc *objScanner) space() {
	for sc.i < len(sc.b) {
		switch sc.b[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// object reads the object at sc.i, nested depth deep (the top level is 1),
// appending its members to into when it is not nil.
func (sc *objScanner) object(depth int, into *[]member) bool {
	if depth > maxNesting {
		return false
	}
	sc.i++ // '{'
	sc.space()
	if sc.i < len(sc.b) && sc.b[sc.i] == '}' {
		sc.i++
		return true
	}
	for {
		start := sc.i
		escaped, ok := sc.str()
		if !ok {
			return false
		}
		nameRaw := sc.b[start:sc.i]
		sc.space()
		if sc.i >= len(sc.b) || sc.b[sc.i] != ':' {
			return false
		}
		sc.i++
		sc.space()
		vstart := sc.i
		if !sc.value(depth) {
			return false
		}
		if into != nil {
			name, ok := decodeName(nameRaw, escaped)
			if !ok {
				return false
			}
			*into = append(*into, member{name: name, raw: sc.b[vstart:sc.i], key: prefixOf(name)})
		}
		if more, ok := sc.next('}'); !more {
			return ok
		}
	}
}

// next reads what follows an element of a container: a comma, when more
// follow, or the container's closing byte.
func (sc *objScanner) next(closing byte) (more, ok bool) {
	sc.space()
	if sc.i >= len(sc.b) {
		return false, false
	}
	switch sc.b[sc.i] {
	case ',':
		sc.i++
		sc.space()
		return true, true
	case closing:
		sc.i++
		return false, true
	}
	return false, false
}

// decodeName is a member name's value: the bytes between the quotes when
// they are plain ASCII, else what encoding/json makes of the string
// (escapes decoded, invalid UTF-8 replaced).
func decodeName(raw []byte, escaped bool) (string, bool) {
	inner := raw[1 : len(raw)-1]
	if !escaped && !hasHighBit(inner) {
		return memberNames.get(inner), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

func hasHighBit(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// value reads the value at sc.i, inside containers depth deep.
func (sc *objScanner) value(depth int) bool {
	if sc.i >= len(sc.b) {
		return false
	}
	switch c := sc.b[sc.i]; {
	case c == '"':
		_, ok := sc.str()
		return ok
	case c == '{':
		return sc.object(depth+1, nil)
	case c == '[':
		return sc.array(depth + 1)
	case c == 't':
		return sc.literal("true")
	case c == 'f':
		return sc.literal("false")
	case c == 'n':
		return sc.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return sc.number()
	}
	return false
}

func (sc *objScanner) array(depth int) bool {
	if depth > maxNesting {
		return false
	}
	sc.i++ // '['
	sc.space()
	if sc.i < len(sc.b) && sc.b[sc.i] == ']' {
		sc.i++
		return true
	}
	for {
		if !sc.value(depth) {
			return false
		}
		if more, ok := sc.next(']'); !more {
			return ok
		}
	}
}

func (sc *objScanner) literal(word string) bool {
	if string(sc.b[sc.i:min(len(sc.b), sc.i+len(word))]) != word {
		return false
	}
	sc.i += len(word)
	return true
}

// str reads the string at sc.i and reports whether it holds escapes.
func (sc *objScanner) str() (escaped, ok bool) {
	if sc.i >= len(sc.b) || sc.b[sc.i] != '"' {
		return false, false
	}
	i := sc.i + 1
	for i < len(sc.b) {
		i += plainPrefix(sc.b[i:])
		if i >= len(sc.b) {
			break
		}
		switch c := sc.b[i]; {
		case c == '"':
			sc.i = i + 1
			return escaped, true
		case c < 0x20:
			return false, false
		}
		escaped = true
		if i+1 >= len(sc.b) {
			return false, false
		}
		switch sc.b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(sc.b) {
				return false, false
			}
			for _, h := range sc.b[i+2 : i+6] {
				if !isHex(h) {
					return false, false
				}
			}
			i += 6
		default:
			return false, false
		}
	}
	return false, false
}

// plainByte tells the bytes a JSON string holds as they are: all but the
// quote, the backslash and the control characters.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (sc *objScanner) number() bool {
	b, i := sc.b, sc.i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		if i+1 >= len(b) || !isDigit(b[i+1]) {
			return false
		}
		i = digits(b, i+1)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return false
		}
		i = digits(b, i)
	}
	sc.i = i
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits returns the index after the run of digits at b[i].
func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

// stringValue is what json.Unmarshal makes of a valid JSON value decoded
// into a string: the string's value, "" for null (which leaves it as it
// was), false for any other kind of value.
func stringValue(raw []byte) (string, bool) {
	if string(raw) == "null" {
		return "", true
	}
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 && !hasHighBit(inner) {
		return string(inner), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// edmTypes are the names of the Edm types, which type annotations carry.
var edmTypes = [...]string{"Edm.String", "Edm.Int64", "Edm.DateTime", "Edm.Int32", "Edm.Double", "Edm.Boolean", "Edm.Guid", "Edm.Binary"}

// typeValue is stringValue for a type annotation's value: an Edm type's
// name is not copied out of raw.
func typeValue(raw []byte) (string, bool) {
	if len(raw) > 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		for _, t := range edmTypes {
			if string(raw[1:len(raw)-1]) == t {
				return t, true
			}
		}
	}
	return stringValue(raw)
}

// memberNames interns the names of body members: the bodies of a workload
// carry the same few names over and over, read without allocating once
// seen.
var memberNames internTable

// maxInterned bounds an internTable: past it, names are allocated each
// time (bodies whose names never repeat fill it once and for all).
const maxInterned = 1024

// internTable is a set of strings read without a lock: a map replaced,
// copied, whenever a string is added. Safe for concurrent use.
type internTable struct {
	m  atomic.Pointer[map[string]string]
	mu sync.Mutex // serialises additions
}

// get returns b as a string, the same one every time once interned.
func (t *internTable) get(b []byte) string {
	if m := t.m.Load(); m != nil {
		if s, ok := (*m)[string(b)]; ok {
			return s
		}
	}
	s := string(b)
	if t.mu.TryLock() { // when another is adding, this one is not kept
		old := t.m.Load()
		if old == nil || len(*old) < maxInterned {
			m := make(map[string]string, 1+len(ptrMap(old)))
			for k, v := range ptrMap(old) {
				m[k] = v
			}
			m[s] = s
			t.m.Store(&m)
		}
		t.mu.Unlock()
	}
	return s
}

// ptrMap is *m, or nil.
func ptrMap(m *map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	return *m
}

// sortMembers sorts members by name, stably (duplicates keep their order).
// An entity's few members are sorted by insertion, comparing the names'
// first 8 bytes as one number; many, by slices.SortStableFunc.
func sortMembers(members []member) {
	if len(members) > 24 {
		slices.SortStableFunc(members, func(a, b member) int { return strings.Compare(a.name, b.name) })
		return
	}
	for i := 1; i < len(members); i++ {
		m := members[i]
		j := i
		for ; j > 0 && memberLess(&m, &members[j-1]); j-- {
			members[j] = members[j-1]
		}
		members[j] = m
	}
}

// memberLess orders members by name.
func memberLess(a, b *member) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.name < b.name
}
