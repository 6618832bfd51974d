package keygen

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tablestress/tablestress/pkg/azure"
)

// KeyError describes why a generated key is invalid.
type KeyError struct {
	Key    string
	Reason string
}

func (e *KeyError) Error() string { return fmt.Sprintf("key %q: %s", clip(e.Key, 80), e.Reason) }

// Unwrap makes every KeyError match ErrKey.
func (e *KeyError) Unwrap() error { return ErrKey }

// ValidateKey checks a PartitionKey or RowKey against Azure's rules: valid
// UTF-8, at most 1 KiB (azure.KeyUnits UTF-16 code units, as Azurite counts
// them too, and as the embedded service's checkKey refuses a longer key
// with KeyValueTooLarge), none of / \ # ?,
// no control characters (U+0000–U+001F, U+007F–U+009F). It also refuses
// the single quote, which OData filters must escape and which tablestress
// therefore never generates.
func ValidateKey(k []byte) error {
	units := 0
	for i := 0; i < len(k); {
		r, size := utf8.DecodeRune(k[i:])
		if r == utf8.RuneError && size <= 1 {
			return &KeyError{string(k), fmt.Sprintf("invalid UTF-8 at byte %d", i)}
		}
		switch {
		case strings.ContainsRune(azure.KeyForbidden, r):
			return &KeyError{string(k), fmt.Sprintf("%q is not allowed in keys (Azure forbids / \\ # ?): use another separator, like _ or -", r)}
		case r == '\'':
			return &KeyError{string(k), "the single quote is not allowed in generated keys (it must be escaped in every OData filter): use another character"}
		case azure.IsKeyControl(r):
			return &KeyError{string(k), fmt.Sprintf("control character U+%04X is not allowed in keys: remove it", r)}
		}
		units += utf16.RuneLen(r)
		i += size
	}
	if units > azure.KeyUnits {
		return &KeyError{string(k), fmt.Sprintf("%d UTF-16 code units is over Azure's 1 KiB key limit (%d units): shorten the key", units, azure.KeyUnits)}
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
