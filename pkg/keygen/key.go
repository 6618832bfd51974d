package keygen

import (
	"fmt"
	"unicode/utf8"
)

// MaxKeyBytes is Azure's limit for a PartitionKey or RowKey (1 KiB).
const MaxKeyBytes = 1024

// AzuriteMaxKeyChars is Azurite's stricter limit (512 characters).
const AzuriteMaxKeyChars = 512

// KeyError describes why a generated key is invalid.
type KeyError struct {
	Key    string
	Reason string
}

func (e *KeyError) Error() string { return fmt.Sprintf("key %q: %s", clip(e.Key, 80), e.Reason) }

// Unwrap makes every KeyError match ErrKey.
func (e *KeyError) Unwrap() error { return ErrKey }

// ValidateKey checks a PartitionKey or RowKey against Azure's rules: valid
// UTF-8, at most 1 KiB, none of / \ # ?, no control characters
// (U+0000–U+001F, U+007F–U+009F). It also refuses the single quote, which
// OData filters must escape and which tablestress therefore never generates.
func ValidateKey(k []byte) error {
	if len(k) > MaxKeyBytes {
		return &KeyError{string(k), fmt.Sprintf("%d bytes is over Azure's 1 KiB key limit", len(k))}
	}
	for i := 0; i < len(k); {
		r, size := utf8.DecodeRune(k[i:])
		if r == utf8.RuneError && size <= 1 {
			return &KeyError{string(k), fmt.Sprintf("invalid UTF-8 at byte %d", i)}
		}
		switch {
		case r == '/' || r == '\\' || r == '#' || r == '?':
			return &KeyError{string(k), fmt.Sprintf("%q is not allowed in keys (Azure forbids / \\ # ?)", r)}
		case r == '\'':
			return &KeyError{string(k), "the single quote is not allowed in generated keys (it must be escaped in every OData filter)"}
		case r <= 0x1f || (r >= 0x7f && r <= 0x9f):
			return &KeyError{string(k), fmt.Sprintf("control character U+%04X is not allowed in keys", r)}
		}
		i += size
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
