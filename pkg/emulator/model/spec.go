package model

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/share"
)

// String returns the spec of c: "azure", "cosmos" or "off" followed by the
// values that differ from that kind's defaults, in a fixed order. For any
// Config that Parse returned, Parse(c.String()) returns c again.
func (c Config) String() string {
	var b strings.Builder
	d := Default()
	switch {
	case !c.Enabled:
		b.WriteString("off")
		d = Off()
	case c.Kind == Cosmos:
		b.WriteString("cosmos")
		d = CosmosDefault()
	default:
		b.WriteString("azure")
	}
	num := func(k string, v, def float64) {
		if v != def && !math.IsNaN(v) {
			b.WriteString("," + k + "=" + strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	dur := func(k string, v, def time.Duration) {
		if v != def {
			b.WriteString("," + k + "=" + v.String())
		}
	}
	if c.Kind == Cosmos && c.Enabled {
		cc, dc := c.Cosmos, d.Cosmos
		num("ru", cc.RU, dc.RU)
		if cc.Partitions != dc.Partitions {
			b.WriteString(",physical=" + strconv.Itoa(cc.Partitions))
		}
		num("physical_ru", cc.PartitionRU, dc.PartitionRU)
		num("logical_ru", cc.LogicalRU, dc.LogicalRU)
		if cc.LogicalBytes != dc.LogicalBytes {
			b.WriteString(",logical_size=" + strings.ReplaceAll(formatBytes(cc.LogicalBytes), " ", ""))
		}
	} else {
		num("partition", c.PartitionTarget, d.PartitionTarget)
		num("account", c.AccountTarget, d.AccountTarget)
		num("range", c.RangeTarget, d.RangeTarget)
		if c.Servers != d.Servers {
			b.WriteString(",servers=" + strconv.Itoa(c.Servers))
		}
		num("server", c.ServerTarget, d.ServerTarget)
		dur("balance", c.BalanceDelay, d.BalanceDelay)
		dur("offline", c.MoveOffline, d.MoveOffline)
		if c.TimeoutShare != d.TimeoutShare {
			b.WriteString(",timeouts=" + share.Format(c.TimeoutShare))
		}
	}
	dur("burst", c.Burst, d.Burst)
	l, dl := c.Latency, d.Latency
	if l.On != dl.On {
		b.WriteString(",latency=" + map[bool]string{true: "on", false: "off"}[l.On])
	}
	dur("read", l.Read, dl.Read)
	dur("write", l.Write, dl.Write)
	dur("entity", l.Entity, dl.Entity)
	dur("kib", l.KiB, dl.KiB)
	if l.Queue != dl.Queue {
		b.WriteString(",queue=" + share.Format(l.Queue))
	}
	return b.String()
}

// The units of a byte size, largest first (1024-based, written as Cosmos
// DB writes its limits: "20 GB").
var byteUnits = []struct {
	name string
	n    int64
}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}}

// parseBytes reads a size like 20GB, 512MB, 64KB or 100B (1024-based),
// from 1KB to 1TB.
func parseBytes(v string) (int64, bool) {
	v = strings.ToUpper(strings.TrimSpace(v))
	for _, u := range byteUnits {
		if num, ok := strings.CutSuffix(v, u.name); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			n := f * float64(u.n)
			if err != nil || !(n >= 1<<10 && n <= 1<<40) || n != math.Trunc(n) {
				return 0, false
			}
			return int64(n), true
		}
	}
	return 0, false
}

// formatBytes writes a size in the largest unit that divides it: 20 GB.
func formatBytes(n int64) string {
	for _, u := range byteUnits {
		if n >= u.n && n%u.n == 0 {
			return strconv.FormatInt(n/u.n, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}
