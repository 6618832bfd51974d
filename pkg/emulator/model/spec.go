package model

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/percent"
)

// String returns the spec of c: "azure", "cosmos" or "off" followed by the
// values that differ from that kind's defaults, in a fixed order. For any
// Config that Parse returned, Parse(c.String()) returns c again.
func (c Config) String() string {
	w := specWriter{}
	d := Default()
	switch {
	case !c.Enabled:
		w.b.WriteString("off")
		d = Off()
	case c.Kind == Cosmos:
		w.b.WriteString("cosmos")
		d = CosmosDefault()
	default:
		w.b.WriteString("azure")
	}
	if c.Kind == Cosmos && c.Enabled {
		w.cosmos(c.Cosmos, d.Cosmos)
	} else {
		w.azure(c, d)
	}
	w.dur("burst", c.Burst, d.Burst)
	l, dl := c.Latency, d.Latency
	if l.On != dl.On {
		w.b.WriteString(",latency=" + map[bool]string{true: "on", false: "off"}[l.On])
	}
	w.dur("read", l.Read, dl.Read)
	w.dur("write", l.Write, dl.Write)
	w.dur("entity", l.Entity, dl.Entity)
	w.dur("kib", l.KiB, dl.KiB)
	if l.Queue != dl.Queue {
		w.b.WriteString(",queue=" + percent.FormatShare(l.Queue))
	}
	return w.b.String()
}

// specWriter writes a spec's parameters that differ from their defaults.
type specWriter struct{ b strings.Builder }

func (w *specWriter) num(k string, v, def float64) {
	if v != def && !math.IsNaN(v) {
		w.b.WriteString("," + k + "=" + strconv.FormatFloat(v, 'g', -1, 64))
	}
}

func (w *specWriter) dur(k string, v, def time.Duration) {
	if v != def {
		w.b.WriteString("," + k + "=" + v.String())
	}
}

// cosmos writes the Cosmos DB parameters of cc that differ from dc's.
func (w *specWriter) cosmos(cc, dc CosmosConfig) {
	w.num("ru", cc.RU, dc.RU)
	if cc.Partitions != dc.Partitions {
		w.b.WriteString(",physical=" + strconv.Itoa(cc.Partitions))
	}
	w.num("physical_ru", cc.PartitionRU, dc.PartitionRU)
	w.num("logical_ru", cc.LogicalRU, dc.LogicalRU)
	if cc.LogicalBytes != dc.LogicalBytes {
		w.b.WriteString(",logical_size=" + strings.ReplaceAll(formatBytes(cc.LogicalBytes), " ", ""))
	}
}

// azure writes the Azure Storage parameters of c that differ from d's.
func (w *specWriter) azure(c, d Config) {
	w.num("partition", c.PartitionTarget, d.PartitionTarget)
	w.num("account", c.AccountTarget, d.AccountTarget)
	w.num("ingress", c.IngressGbps, d.IngressGbps)
	w.num("egress", c.EgressGbps, d.EgressGbps)
	w.num("range", c.RangeTarget, d.RangeTarget)
	if c.Servers != d.Servers {
		w.b.WriteString(",servers=" + strconv.Itoa(c.Servers))
	}
	w.num("server", c.ServerTarget, d.ServerTarget)
	w.dur("balance", c.BalanceDelay, d.BalanceDelay)
	w.dur("offline", c.MoveOffline, d.MoveOffline)
	if c.TimeoutShare != d.TimeoutShare {
		w.b.WriteString(",timeouts=" + percent.FormatShare(c.TimeoutShare))
	}
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
