package model

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		spec string
		edit func(c *Config) // applied to Default()
	}{
		{"azure", func(*Config) {}},
		{"", func(*Config) {}},                                                     // empty: the default
		{"off", func(c *Config) { c.Enabled = false }},                             // model disabled
		{" azure , partition = 500 ", func(c *Config) { c.PartitionTarget = 500 }}, // spaces ignored
		{"azure,partition=2000,account=20000", func(*Config) {}},                   // the defaults, spelled out
		{"azure,account=5e4,range=100.5,servers=4,server=7000", func(c *Config) {
			c.AccountTarget, c.RangeTarget, c.Servers, c.ServerTarget = 50000, 100.5, 4, 7000
		}},
		{"azure,ingress=60,egress=0.5", func(c *Config) { c.IngressGbps, c.EgressGbps = 60, 0.5 }}, // Gbps
		{"azure,balance=10s,offline=0s,burst=250ms", func(c *Config) {
			c.BalanceDelay, c.MoveOffline, c.Burst = 10*time.Second, 0, 250*time.Millisecond
		}},
		{"azure,timeouts=25%", func(c *Config) { c.TimeoutShare = 0.25 }},  // percentage
		{"azure,timeouts=0.05", func(c *Config) { c.TimeoutShare = 0.05 }}, // fraction
		{"azure,timeouts=0%", func(c *Config) { c.TimeoutShare = 0 }},      // all 503
		{"off,partition=10", func(c *Config) { c.Enabled, c.PartitionTarget = false, 10 }},
		{"azure,latency=off", func(c *Config) { c.Latency.On = false }}, // today's behaviour: no service time
		{"azure,read=2ms,write=4ms,entity=10us,kib=1us,queue=0", func(c *Config) {
			c.Latency.Read, c.Latency.Write, c.Latency.Entity, c.Latency.KiB, c.Latency.Queue = 2*time.Millisecond, 4*time.Millisecond, 10*time.Microsecond, time.Microsecond, 0
		}},
		{"cosmos", func(c *Config) { *c = CosmosDefault() }},
		{"cosmos,ru=10000", func(c *Config) { *c = CosmosDefault(); c.Cosmos.RU = 10000 }},
		{"cosmos,ru=40000,physical=8,logical_ru=5000,logical_size=512MB,queue=50%", func(c *Config) {
			*c = CosmosDefault()
			c.Cosmos.RU, c.Cosmos.Partitions, c.Cosmos.LogicalRU, c.Cosmos.LogicalBytes, c.Latency.Queue = 40000, 8, 5000, 512<<20, 0.5
		}},
		{"cosmos,physical_ru=5000,ru=10000,latency=off", func(c *Config) {
			*c = CosmosDefault()
			c.Cosmos.PartitionRU, c.Cosmos.RU, c.Latency.On = 5000, 10000, false
		}},
	}
	for _, tt := range tests {
		want := Default()
		tt.edit(&want)
		got, err := Parse(tt.spec)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tt.spec, got, err, want)
			continue
		}
		if again, err := Parse(got.String()); err != nil || again != got {
			t.Errorf("Parse(%q).String() = %q does not parse back: %+v, %v", tt.spec, got.String(), again, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"fast", `model: "fast": start with azure, cosmos or off`},
		{"partition=500", `"partition=500": start with azure, cosmos or off`},
		{",partition=500", "start with azure, cosmos or off"},
		{"azure,partition", `"partition": not key=value; keys are partition, account`},
		{"azure,partition=-1", `"partition=-1": partition must be a positive number per second up to 1e12, like partition=2000`},
		{"azure,partition=abc", "partition must be a positive number"},
		{"azure,account=NaN", "account must be a positive number"},
		{"azure,range=+Inf", "range must be a positive number"},
		{"azure,server=1e13", "server must be a positive number per second up to 1e12"},
		{"azure,ingress=0", `"ingress=0": ingress must be a positive number of gigabits per second up to 1e12, like ingress=25`},
		{"azure,egress=fast", "egress must be a positive number of gigabits per second"},
		{"cosmos,egress=1", "egress belongs to azure, not cosmos"},
		{"azure,servers=2.5", "servers must be a whole number from 1 to 4096"},
		{"azure,servers=0", "servers must be a whole number from 1 to 4096"},
		{"azure,balance=soon", "balance must be a duration from 0s to 24h"},
		{"azure,offline=-1s", "offline must be a duration"},
		{"azure,burst=48h", "burst must be a duration from 0s to 24h"},
		{"azure,timeouts=150%", "timeouts must be a percentage like 10% or a fraction like 0.1"},
		{"azure,timeouts=2", "timeouts must be a percentage"},
		{"azure,color=red", `unknown key "color"; keys are partition, account, ingress, egress, range, servers, server, balance, offline, timeouts, burst`},
		{"azure,partition=5,partition=6", "partition is given twice"},
		{"azure,,partition=5", "empty item between commas"},
		{"Azure", "start with azure, cosmos or off"},
		{"azure,latency=maybe", "latency must be on or off"},
		{"azure,read=fast", "read must be a duration from 0s to 24h, like read=5ms"},
		{"azure,queue=-1", "queue must be the utilisation of a partition at its target"},
		{"azure,queue=120%", "queue must be the utilisation"},
		{"azure,ru=1000", `ru belongs to cosmos, not azure; azure takes partition, account`},
		{"cosmos,partition=500", `partition belongs to azure, not cosmos; cosmos takes ru, physical`},
		{"cosmos,ru=0", "ru must be a positive number of RU per second"},
		{"cosmos,physical=0", "physical must be a whole number from 1 to 1024"},
		{"cosmos,ru=40000,physical=2", "physical must be at least ru/physical_ru"},
		{"cosmos,logical_size=20", "logical_size must be a size from 1KB to 1TB, like 20GB"},
		{"cosmos,logical_size=2TB", "logical_size must be a size from 1KB to 1TB"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.spec)
		var se *SpecError
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrConfig) || !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want an ErrConfig saying %q", tt.spec, err, tt.want)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		c    Config
		want string
	}{
		{Default(), "azure"},
		{Off(), "off"},
		{func() Config { c := Default(); c.PartitionTarget, c.BalanceDelay = 500, 5*time.Second; return c }(), "azure,partition=500,balance=5s"},
		{func() Config { c := Default(); c.TimeoutShare = 0.07; return c }(), "azure,timeouts=7%"}, // not 7.000000000000001%
		{func() Config { c := Default(); c.TimeoutShare = 0.5; return c }(), "azure,timeouts=50%"},
		{func() Config { c := Default(); c.Latency.On = false; return c }(), "azure,latency=off"},
		{func() Config { c := Default(); c.IngressGbps, c.EgressGbps = 60, 200; return c }(), "azure,ingress=60,egress=200"},
		{CosmosDefault(), "cosmos"},
		{func() Config { c := CosmosDefault(); c.Cosmos.RU, c.Cosmos.LogicalBytes = 4000, 1<<20; return c }(), "cosmos,ru=4000,logical_size=1MB"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
		if back, err := Parse(tt.want); err != nil || back != tt.c {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tt.want, back, err, tt.c)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"azure", "off", "azure,partition=2000,balance=1s", "azure,timeouts=7%,servers=3",
		"off,burst=1.5ms,offline=0s", "azure,range=0x1p4", "azure,account=1e12", "cosmos,ru=10000,physical=3",
		"azure,latency=off,read=1ms,queue=0.25", "cosmos,logical_size=1.5KB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		c, err := Parse(spec)
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("%q: error %v does not wrap ErrConfig", spec, err)
			}
			return
		}
		again, err := Parse(c.String())
		if err != nil || again != c {
			t.Fatalf("%q: %q parses back to %+v (%v), want %+v", spec, c.String(), again, err, c)
		}
		New(c, newClock().now).Admit(Request{Table: "t", Partition: "p", Entities: 1})
	})
}
