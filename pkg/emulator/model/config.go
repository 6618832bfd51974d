package model

import (
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
)

// Kind is the service a model imitates.
type Kind uint8

// The services the model knows.
const (
	// Azure is Azure Table Storage: entities per second per partition,
	// partition servers, range partitions, load balancing.
	Azure Kind = iota
	// Cosmos is the Azure Cosmos DB for Table API: request units per
	// second, provisioned per table and split over physical partitions
	// (cosmos.go).
	Cosmos
)

// String returns the spec's name of the kind: "azure" or "cosmos".
func (k Kind) String() string {
	if k == Cosmos {
		return "cosmos"
	}
	return "azure"
}

// Config holds the model's parameters. Default gives Azure's documented
// targets; Parse reads them from a spec. Every target is per second.
type Config struct {
	// Enabled turns the model on. When off, Admit allows every request,
	// Charge does nothing and requests take no modelled time.
	Enabled bool

	// Kind is the service imitated: Azure Table Storage (the targets
	// below) or the Cosmos DB Table API (the Cosmos field).
	Kind Kind

	// Latency is the service-time model: how long each request takes
	// (latency.go). Its defaults depend on Kind.
	Latency Latency

	// Cosmos holds the Cosmos DB Table API's parameters, used when Kind is
	// Cosmos (cosmos_config.go).
	Cosmos CosmosConfig

	// PartitionTarget is the entities per second one partition (one
	// PartitionKey of one table) serves: azure.PartitionEntitiesPerSec,
	// where its source is.
	PartitionTarget float64

	// AccountTarget is the requests per second of the storage account:
	// azure.AccountRequestsPerSec, where its source is, and what counts
	// as a request (an entity group transaction once, each page of a
	// query once).
	AccountTarget float64

	// IngressGbps and EgressGbps are the account's bandwidth in gigabits
	// per second: every request body it receives counts toward the
	// ingress, every answer's body it sends toward the egress
	// (bandwidth.go). azure.AccountIngressGbps and azure.AccountEgressGbps,
	// where their source is; the judge holds its figures to the same.
	IngressGbps, EgressGbps float64

	// RangeTarget is the entities per second of each end range partition of
	// a table: the first serves every insert of a new PartitionKey below all
	// existing ones (prepend-only), the last every insert above them
	// (append-only). Source: REST "Design a scalable partitioning strategy
	// for Azure Table storage" (the partitioning guide), "Range
	// partitions": "the overall
	// throughput of your insert requests is limited by a single partition
	// server". Default: the partition target.
	RangeTarget float64

	// Servers is the number of partition servers partitions are placed on,
	// by hash of table and PartitionKey. Azure publishes no figure: a model
	// assumption (default 16), large enough that a few hot partitions
	// rarely share a server.
	Servers int

	// ServerTarget is the entities per second one partition server serves
	// across all its partitions. Azure publishes no figure (the
	// partitioning guide only
	// says a server "might become too hot"): a model assumption, default
	// 10,000, i.e. five partitions at their target.
	ServerTarget float64

	// BalanceDelay is how long a partition, a server or an end range must
	// stay over its target before load balancing acts. Source: the
	// partitioning guide, "Load balancing": "the system waits a few minutes before beginning the
	// load-balancing process". Default 2m; tests use seconds.
	BalanceDelay time.Duration

	// MoveOffline is how long what load balancing moved stays offline,
	// every request to it answered 503 ServerBusy. Source: the partitioning
	// guide, "Load balancing": "the partition becomes offline for a few seconds".
	// Default 3s.
	MoveOffline time.Duration

	// TimeoutShare is the share (0..1) of throttling refusals answered 500
	// OperationTimedOut instead of 503 ServerBusy. Source: the partitioning
	// guide, "Retry strategy" (hot nodes give "Server Busy or Timeout errors") and Azure's
	// throttling error codes. Default 0.1; the choice of 10% is a model
	// assumption.
	TimeoutShare float64

	// Burst is how much of a second's target a bucket holds when full,
	// default 100ms; a bucket holds at least 100 entities (one full entity
	// group transaction, azure.TransactionEntities). A model parameter: it bounds the busiest
	// one-second interval a client measures at target·(1 + Burst/1s).
	Burst time.Duration
}

// The defaults, each documented on its Config field.
const (
	defaultPartitionTarget = azure.PartitionEntitiesPerSec
	defaultAccountTarget   = azure.AccountRequestsPerSec
	defaultIngressGbps     = azure.AccountIngressGbps
	defaultEgressGbps      = azure.AccountEgressGbps
	defaultServers         = 16
	defaultServerTarget    = 10000
	defaultBalanceDelay    = 2 * time.Minute
	defaultMoveOffline     = 3 * time.Second
	defaultTimeoutShare    = 0.1
	defaultBurst           = 100 * time.Millisecond
	// minBurstTokens is the smallest bucket capacity: one entity group
	// transaction of the most operations it may hold.
	minBurstTokens = azure.TransactionEntities
	// maxServers bounds Servers: load balancing scans every server.
	maxServers = 4096
	// maxTarget bounds the per-second targets Parse accepts.
	maxTarget = 1e12
)

// Default returns Azure's documented targets (and the model's documented
// assumptions where Azure publishes none), with the model on, service time
// included.
func Default() Config {
	return Config{
		Enabled:         true,
		Kind:            Azure,
		Latency:         AzureLatency(),
		Cosmos:          DefaultCosmos(),
		PartitionTarget: defaultPartitionTarget,
		AccountTarget:   defaultAccountTarget,
		IngressGbps:     defaultIngressGbps,
		EgressGbps:      defaultEgressGbps,
		RangeTarget:     defaultPartitionTarget,
		Servers:         defaultServers,
		ServerTarget:    defaultServerTarget,
		BalanceDelay:    defaultBalanceDelay,
		MoveOffline:     defaultMoveOffline,
		TimeoutShare:    defaultTimeoutShare,
		Burst:           defaultBurst,
	}
}

// CosmosDefault returns the Cosmos DB Table API model with its documented
// figures (see CosmosConfig), the model on, service time included.
func CosmosDefault() Config {
	c := Default()
	c.Kind, c.Latency = Cosmos, CosmosLatency()
	return c
}

// Off returns Default with the model disabled: Admit allows everything,
// Charge does nothing and no request takes modelled time.
func Off() Config {
	c := Default()
	c.Enabled = false
	return c
}

// normalized returns c with every unusable value (zero, negative, NaN or
// out of range, as a hand-built Config may hold) replaced by its default,
// so that New never fails and never divides by zero.
func (c Config) normalized() Config {
	d := Default()
	clampRate(&c.PartitionTarget, d.PartitionTarget)
	clampRate(&c.AccountTarget, d.AccountTarget)
	clampRate(&c.IngressGbps, d.IngressGbps)
	clampRate(&c.EgressGbps, d.EgressGbps)
	clampRate(&c.RangeTarget, d.RangeTarget)
	clampRate(&c.ServerTarget, d.ServerTarget)
	if c.Servers < 1 || c.Servers > maxServers {
		c.Servers = d.Servers
	}
	c.BalanceDelay = max(c.BalanceDelay, 0)
	c.MoveOffline = max(c.MoveOffline, 0)
	c.Burst = max(c.Burst, 0)
	if !(c.TimeoutShare >= 0) {
		c.TimeoutShare = 0
	}
	c.TimeoutShare = min(c.TimeoutShare, 1)
	if c.Kind > Cosmos {
		c.Kind = Azure
	}
	c.Latency = c.Latency.normalized()
	c.Cosmos = c.Cosmos.normalized()
	return c
}

// clampRate replaces a per-second rate that is not positive and finite by
// def, and bounds it by maxTarget.
func clampRate(v *float64, def float64) {
	if !(*v > 0) || math.IsInf(*v, 0) {
		*v = def
	}
	*v = min(*v, maxTarget)
}
