package emulator

// appendTicks appends the time ts (100 ns ticks since the Unix epoch, as
// entity.ts) as timeLayout writes it, 2006-01-02T15:04:05.0000000Z, with
// colon between hours, minutes and seconds (an ETag writes %3A). It is
// time.Time.AppendFormat's answer at a fraction of its cost (a point read
// writes its entity's time three times: the Timestamp, the odata.etag and
// the ETag header); years outside 0 to 9999 go through AppendFormat.
func appendTicks(dst []byte, ts int64, colon string) []byte {
	t := ticksTime(ts)
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		var tb [40]byte
		for _, c := range t.AppendFormat(tb[:0], timeLayout) {
			if c == ':' {
				dst = append(dst, colon...)
			} else {
				dst = append(dst, c)
			}
		}
		return dst
	}
	h, mi, s := t.Clock()
	dst = appendDigits(dst, y, 4)
	dst = appendDigits(append(dst, '-'), int(mo), 2)
	dst = appendDigits(append(dst, '-'), d, 2)
	dst = appendDigits(append(dst, 'T'), h, 2)
	dst = appendDigits(append(dst, colon...), mi, 2)
	dst = appendDigits(append(dst, colon...), s, 2)
	dst = appendDigits(append(dst, '.'), t.Nanosecond()/100, 7)
	return append(dst, 'Z')
}
