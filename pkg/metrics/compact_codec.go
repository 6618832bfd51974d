package metrics

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// ErrMalformedHistogram is returned when an encoded histogram cannot be
// decoded.
var ErrMalformedHistogram = errors.New("metrics: malformed histogram")

// Encode returns the histogram in a compact text form, unpadded standard
// base64 of its binary form (appendBinary). DecodeCompact reverses it
// exactly.
func (c *Compact) Encode() string {
	return base64.RawStdEncoding.EncodeToString(c.appendBinary(make([]byte, 0, 8+4*len(c.idx))))
}

// appendBinary appends the histogram's binary form to buf: uvarints of the
// sub-bucket bits, the exact maximum, the number of used buckets, then per
// bucket the index delta from the previous bucket (the first from 0) and
// the count.
func (c *Compact) appendBinary(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, uint64(c.b()))
	buf = binary.AppendUvarint(buf, uint64(c.max))
	buf = binary.AppendUvarint(buf, uint64(len(c.idx)))
	prev := uint16(0)
	for k, i := range c.idx {
		buf = binary.AppendUvarint(buf, uint64(i-prev))
		buf = binary.AppendUvarint(buf, uint64(c.cnt[k]))
		prev = i
	}
	return buf
}

// DecodeCompact parses the form Encode writes. Errors wrap
// ErrMalformedHistogram and say what was wrong.
func DecodeCompact(s string) (*Compact, error) {
	buf, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: not unpadded base64: %v", ErrMalformedHistogram, err)
	}
	return decodeBinary(buf)
}

// decodeBinary parses the form appendBinary writes, checking every field.
func decodeBinary(buf []byte) (*Compact, error) {
	r := uvarintReader{buf: buf}
	b, mx, n := r.next(), r.next(), r.next()
	if r.err != nil {
		return nil, fmt.Errorf("%w: truncated header", ErrMalformedHistogram)
	}
	if b < 1 || b > HDRBits {
		return nil, fmt.Errorf("%w: %d sub-bucket bits, want 1 to %d", ErrMalformedHistogram, b, HDRBits)
	}
	if mx > math.MaxInt64 {
		return nil, fmt.Errorf("%w: maximum %d out of range", ErrMalformedHistogram, mx)
	}
	c := NewCompact(int(b))
	if n > uint64(c.maxIndex()) || n > uint64(len(buf)) {
		return nil, fmt.Errorf("%w: %d buckets, more than the histogram can hold", ErrMalformedHistogram, n)
	}
	c.idx, c.cnt = make([]uint16, 0, n), make([]uint32, 0, n)
	idx := uint64(0)
	for k := uint64(0); k < n; k++ {
		d, cnt := r.next(), r.next()
		if r.err != nil {
			return nil, fmt.Errorf("%w: truncated at bucket %d of %d", ErrMalformedHistogram, k, n)
		}
		if (k > 0 && d == 0) || d >= uint64(c.maxIndex()) || idx+d >= uint64(c.maxIndex()) {
			return nil, fmt.Errorf("%w: bucket %d: index not ascending or beyond %d", ErrMalformedHistogram, k, c.maxIndex())
		}
		if cnt == 0 || cnt > math.MaxUint32 {
			return nil, fmt.Errorf("%w: bucket %d: count %d, want 1 to %d", ErrMalformedHistogram, k, cnt, uint32(math.MaxUint32))
		}
		idx += d
		c.idx, c.cnt = append(c.idx, uint16(idx)), append(c.cnt, uint32(cnt))
		c.total += int64(cnt)
	}
	if len(r.buf) > 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrMalformedHistogram, len(r.buf))
	}
	if n == 0 && mx != 0 || n > 0 && c.index(int64(mx)) != c.idx[n-1] {
		return nil, fmt.Errorf("%w: maximum %d is not in the top bucket", ErrMalformedHistogram, mx)
	}
	c.max = int64(mx)
	return c, nil
}

// uvarintReader reads uvarints until the first error.
type uvarintReader struct {
	buf []byte
	err error
}

func (r *uvarintReader) next() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.err = ErrMalformedHistogram
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

// MarshalJSON encodes the histogram as a JSON string of its Encode form.
func (c *Compact) MarshalJSON() ([]byte, error) { return json.Marshal(c.Encode()) }

// UnmarshalJSON decodes a JSON string written by MarshalJSON.
func (c *Compact) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("%w: want a JSON string: %v", ErrMalformedHistogram, err)
	}
	d, err := DecodeCompact(s)
	if err != nil {
		return err
	}
	*c = *d
	return nil
}
