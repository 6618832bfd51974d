package table

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/tablestress/tablestress/internal/jsontext"
)

// ErrEntity is wrapped by the error of an entity refused before sending.
var ErrEntity = errors.New("table: bad entity")

// keyKind is what an entity holds under PartitionKey or RowKey.
type keyKind uint8

const (
	keyMissing keyKind = iota
	keyString
	keyOther
)

func kindOf(value []byte) keyKind {
	if len(value) > 0 && value[0] == '"' {
		return keyString
	}
	return keyOther
}

// checkEntity refuses what aztables would panic on before sending: text
// that is not a JSON object, and an object whose PartitionKey or RowKey is
// missing or not a string (aztables asserts both are strings). It scans the
// top-level members once and allocates nothing for the entities tablestress
// encodes; a member name with escapes is checked by decoding, as aztables
// will (encoding/json keeps the last of duplicate names, and so does this).
// For valid JSON it decides exactly as decoding would (the fuzz test checks
// it); invalid JSON it does not notice fails aztables' own decoding before
// anything is sent, which classify reports as not sent.
func checkEntity(entity []byte) error {
	m := jsontext.Members(entity)
	pk, rk := keyMissing, keyMissing
	for {
		name, value, ok := m.Next()
		if !ok {
			break
		}
		if bytes.IndexByte(name, '\\') >= 0 {
			return checkEntityDecoded(entity)
		}
		switch string(name) {
		case "PartitionKey":
			pk = kindOf(value)
		case "RowKey":
			rk = kindOf(value)
		}
	}
	if m.Bad() {
		return errNotObject
	}
	return keysError(pk, rk)
}

var (
	errNotObject = wrapf(ErrEntity, "the entity is not a JSON object")
	errNotJSON   = wrapf(ErrEntity, "the entity is not valid JSON")
)

// checkEntityDecoded is checkEntity by decoding, for escaped member names.
func checkEntityDecoded(entity []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(entity, &obj); err != nil || obj == nil {
		return errNotObject
	}
	pk, rk := keyMissing, keyMissing
	if v, ok := obj["PartitionKey"]; ok {
		pk = kindOf(v)
	}
	if v, ok := obj["RowKey"]; ok {
		rk = kindOf(v)
	}
	return keysError(pk, rk)
}

func keysError(pk, rk keyKind) error {
	switch {
	case pk == keyMissing:
		return wrapf(ErrEntity, "the entity has no PartitionKey")
	case rk == keyMissing:
		return wrapf(ErrEntity, "the entity has no RowKey")
	case pk != keyString:
		return wrapf(ErrEntity, "the entity's PartitionKey is not a string")
	case rk != keyString:
		return wrapf(ErrEntity, "the entity's RowKey is not a string")
	}
	return nil
}
