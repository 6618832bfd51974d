package emulator

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// Azure's entity limits, from the azure constants, where their sources
// are (the error codes are those of REST "Table service error codes").
const (
	// maxEntityBytes is the largest entity, measured as entitySize does.
	maxEntityBytes = azure.EntityBytes
	// maxProperties is the most properties an entity has besides its
	// three system properties.
	maxProperties = azure.Properties - azure.SystemProperties
	// maxPropertyName is the longest property name.
	maxPropertyName = azure.PropertyNameChars
	// maxStringUnits is the longest String value in UTF-16 code units.
	maxStringUnits = azure.StringUnits
	// maxBinaryBytes is the largest Binary value.
	maxBinaryBytes = azure.BinaryBytes
	// maxKeyUnits is the longest PartitionKey or RowKey in UTF-16 code
	// units, whatever their UTF-8 length (400 CJK characters are 800
	// bytes of UTF-16 and 1,200 of UTF-8).
	maxKeyUnits = azure.KeyUnits
	// maxRequestBytes is the largest request body the service reads (the
	// largest transaction); anything larger is 413 RequestBodyTooLarge.
	maxRequestBytes = azure.TransactionBytes
)

// Refusals of entities over a limit (REST "Table service error codes").
var (
	errEntityTooLarge     = &apiError{400, "EntityTooLarge", "The entity is larger than the maximum allowed size (1MB)."}
	errTooManyProperties  = &apiError{400, "TooManyProperties", "The entity contains more properties than allowed. Each entity can include up to 252 properties to store data. Each entity also has 3 system properties."}
	errPropertyNameLong   = &apiError{400, "PropertyNameTooLong", "The property name exceeds the maximum allowed length (255)."}
	errPropertyNameBad    = &apiError{400, "PropertyNameInvalid", "The property name is invalid."}
	errKeyTooLarge        = &apiError{400, "KeyValueTooLarge", "The PartitionKey or RowKey is larger than 1 KiB: more than 512 UTF-16 code units."}
	errPropertyValueLarge = &apiError{400, "PropertyValueTooLarge", "The property value exceeds the maximum allowed size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be 32K or less."}
)

// utf16Len is the length of s in UTF-16 code units, the unit Azure
// measures strings in.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// checkPropertyName refuses a name longer than 255 characters
// (PropertyNameTooLong) or not a C# identifier (PropertyNameInvalid).
func checkPropertyName(n string) *apiError {
	if utf16Len(n) > maxPropertyName {
		return errPropertyNameLong
	}
	if !validPropertyName(n) {
		return errPropertyNameBad
	}
	return nil
}

// checkValueSize refuses a String over 32,768 UTF-16 units or a Binary
// over 64 KiB; p's value was checked against its type already. A value
// whose JSON is short enough cannot be over either limit, and is not
// decoded.
func checkValueSize(p store.Prop) *apiError {
	if len(p.Raw) <= maxStringUnits+2 { // a UTF-16 unit takes at least one byte of JSON
		return nil
	}
	s, isString := jsontext.Unquote(p.Raw)
	switch {
	case !isString:
	case p.Type == "" || p.Type == "Edm.String":
		if utf16Len(s) > maxStringUnits {
			return errPropertyValueLarge
		}
	case p.Type == "Edm.Binary":
		if base64.StdEncoding.DecodedLen(len(s)) > maxBinaryBytes {
			if b, _ := base64.StdEncoding.DecodeString(s); len(b) > maxBinaryBytes {
				return errPropertyValueLarge
			}
		}
	}
	return nil
}

// entitySize is the size Azure charges an entity against its 1 MiB, by
// the Azure Storage team's published formula ("How the size of an entity
// is calculated"): 4 bytes, plus 2 bytes per character of the two keys,
// plus for each property 8 bytes, 2 per character of its name, and its
// value's size — a String 4 bytes plus 2 per UTF-16 unit, a Binary 4
// plus its bytes, a Guid 16, an Int64, Double or DateTime 8, an Int32 4,
// a Boolean 1. With exact false it is an upper bound computed without
// decoding a value: a string's UTF-16 units are at most its bytes.
func entitySize(pk, rk string, props []store.Prop, exact bool) int {
	units := utf16Len
	if !exact {
		units = func(s string) int { return len(s) }
	}
	n := 4 + 2*(len(pk)+len(rk))
	if exact {
		n = 4 + 2*units(pk+rk)
	}
	for _, p := range props {
		n += 8 + 2*units(p.Name) + valueSize(p, exact)
	}
	return n
}

// valueSize is one value's share of entitySize; a value without a type
// annotation has the type its JSON implies.
func valueSize(p store.Prop, exact bool) int {
	isString := len(p.Raw) > 0 && p.Raw[0] == '"'
	str := func() (string, int) {
		if !exact {
			return "", len(p.Raw) // its JSON: at least as many bytes as UTF-16 units
		}
		s, _ := jsontext.Unquote(p.Raw)
		return s, utf16Len(s)
	}
	switch p.Type {
	case "Edm.String":
		_, n := str()
		return 4 + 2*n
	case "":
		switch {
		case isString:
			_, n := str()
			return 4 + 2*n
		case string(p.Raw) == "true" || string(p.Raw) == "false":
			return 1
		}
		if _, err := strconv.ParseInt(string(p.Raw), 10, 32); err == nil {
			return 4
		}
	case "Edm.Binary":
		if !exact {
			return 4 + base64.StdEncoding.DecodedLen(len(p.Raw))
		}
		s, _ := jsontext.Unquote(p.Raw)
		return 4 + base64.StdEncoding.DecodedLen(len(s)) - strings.Count(s[max(0, len(s)-2):], "=")
	case "Edm.Guid":
		return 16
	case "Edm.Int32":
		return 4
	case "Edm.Boolean":
		return 1
	}
	return 8 // Int64, Double, DateTime
}

// checkEntity refuses an entity over 1 MiB (EntityTooLarge). The exact
// size is computed only for an entity whose bound is over the limit.
func checkEntity(pk, rk string, props []store.Prop) *apiError {
	if entitySize(pk, rk, props, false) > maxEntityBytes && entitySize(pk, rk, props, true) > maxEntityBytes {
		return errEntityTooLarge
	}
	return nil
}

// checkKeys checks an entity's PartitionKey and RowKey against Azure's
// rules (checkKey).
func checkKeys(pk, rk string) *apiError {
	if e := checkKey(pk); e != nil {
		return e
	}
	return checkKey(rk)
}

// checkKey checks a PartitionKey or RowKey: none of / \ # ? or a control
// character (U+0000 to U+001F, U+007F to U+009F), InvalidInput; at most
// 512 UTF-16 code units (1 KiB), KeyValueTooLarge.
func checkKey(k string) *apiError {
	units := 0
	for _, c := range k {
		if c == '/' || c == '\\' || c == '#' || c == '?' || c <= 0x1f || (c >= 0x7f && c <= 0x9f) {
			return errBadKey
		}
		units++
		if c > 0xffff { // a surrogate pair
			units++
		}
	}
	if units > maxKeyUnits {
		return errKeyTooLarge
	}
	return nil
}
