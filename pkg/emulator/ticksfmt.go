package emulator

// Entity times in 100 ns ticks (entity.ts) that appendTime writes: the
// years 0 to 9999, as timeLayout does with four digits.
const (
	ticksPerSecond = 10_000_000
	year0Ticks     = -62167219200 * ticksPerSecond // 0000-01-01T00:00:00Z
	year10000Ticks = 253402300800 * ticksPerSecond // 10000-01-01T00:00:00Z
)

// appendTicks appends the time ts (100 ns ticks since the Unix epoch, as
// entity.ts) as timeLayout writes it, 2006-01-02T15:04:05.0000000Z, with
// colon between hours, minutes and seconds (an ETag writes %3A). It is
// time.Time.AppendFormat's answer at a fraction of its cost (a point read
// writes its entity's time three times: the Timestamp, the odata.etag and
// the ETag header); years outside 0 to 9999 go through AppendFormat.
func appendTicks(dst []byte, ts int64, colon string) []byte {
	if ts < year0Ticks || ts >= year10000Ticks {
		var tb [40]byte
		return appendColons(dst, ticksTime(ts).AppendFormat(tb[:0], timeLayout), colon)
	}
	sec, frac := ts/ticksPerSecond, ts%ticksPerSecond
	if frac < 0 {
		sec, frac = sec-1, frac+ticksPerSecond
	}
	return appendTime(dst, sec, frac*100, 7, colon)
}
