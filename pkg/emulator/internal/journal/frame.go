package journal

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// A frame is one request's records, written whole or not at all:
//
//	length  4 bytes, little-endian: the payload's length
//	crc     4 bytes, little-endian: CRC-32C (Castagnoli) of the payload
//	payload the records (record.go)
//
// A log and a snapshot are frames end to end. A frame whose header or
// payload the file ends within, or whose checksum does not match, is
// where the readable file ends: the process died writing it.

const (
	headerLen = 8
	// maxPayload bounds a frame: a transaction's 4 MiB body is far less as
	// records, and a snapshot's frames hold at most snapshotFrame bytes of
	// entities and one entity of at most a few MiB.
	maxPayload = 64 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errTorn is a frame that is incomplete or fails its checksum.
var errTorn = errors.New("journal: a torn or damaged frame")

// appendFrame appends a frame of payload to dst.
func appendFrame(dst, payload []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
	dst = binary.LittleEndian.AppendUint32(dst, crc32.Checksum(payload, castagnoli))
	return append(dst, payload...)
}

// frameReader reads frames from a file, counting the bytes of the whole
// frames it returned.
type frameReader struct {
	r    *bufio.Reader
	good int64 // bytes of whole, valid frames read
	buf  []byte
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 1<<20)}
}

// next returns the next frame's payload, valid until the next call;
// io.EOF at the end of the file after a whole frame, errTorn for a frame
// cut short or damaged, or the read's error.
func (fr *frameReader) next() ([]byte, error) {
	var h [headerLen]byte
	n, err := io.ReadFull(fr.r, h[:])
	if err == io.EOF {
		return nil, io.EOF
	}
	if err == io.ErrUnexpectedEOF || err == nil && n < headerLen {
		return nil, errTorn
	}
	if err != nil {
		return nil, err
	}
	size := binary.LittleEndian.Uint32(h[:4])
	if size > maxPayload {
		return nil, errTorn
	}
	if cap(fr.buf) < int(size) {
		fr.buf = make([]byte, size)
	}
	p := fr.buf[:size]
	if _, err := io.ReadFull(fr.r, p); err == io.ErrUnexpectedEOF || err == io.EOF {
		return nil, errTorn
	} else if err != nil {
		return nil, err
	}
	if crc32.Checksum(p, castagnoli) != binary.LittleEndian.Uint32(h[4:]) {
		return nil, errTorn
	}
	fr.good += int64(headerLen) + int64(size)
	return p, nil
}
