// Package jsontext reads and writes JSON text without encoding/json's
// reflection, for the paths that handle every request: it writes JSON
// string literals (AppendString, the one writer of escapes in the
// module), reads an object's members as encoding/json would
// (ScanObject, which validates as json.Unmarshal does), iterates the
// members of text already known to be JSON without validating it
// (Members), and decodes string values (Decode, Unquote).
//
// It is shared by every package that needs it: the entity bodies the
// load generator writes (keygen), the answers its client reads (table),
// and the embedded service's requests and stored entities
// (pkg/emulator/...). It imports the standard library only, and must not
// import any package of this module.
package jsontext
