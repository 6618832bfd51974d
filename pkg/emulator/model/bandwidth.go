package model

import "github.com/tablestress/tablestress/pkg/azure"

// The account's bandwidth (Azure only; Cosmos DB publishes no such
// target): "The ingress limit refers to all data that is sent to a
// storage account. The egress limit refers to all data that is received
// from a storage account" (Azure Storage "Scalability and performance
// targets for standard storage accounts", "Scale targets for standard
// storage accounts"; azure.AccountIngressGbps, azure.AccountEgressGbps).
// Over either, Azure answers 503 ServerBusy with "Ingress is over the
// account limit." or "Egress is over the account limit." (REST "Common
// REST API error codes").
//
// Each is a token bucket of bytes like the account's request bucket: the
// same GCRA form, one atomic word, refilled at the target and holding
// Config.Burst of it when full (0.1 s by default: 312.5 MB of ingress and
// 625 MB of egress at the default targets). Azure publishes no burst: the
// bucket's size is the model's assumption, the same as every other
// bucket's, so a client counting one-second intervals sees at most the
// target plus the burst (plus the answers in flight, for the egress) in
// its busiest second and the target in steady state.
//
// What is metered is the bytes of the HTTP bodies, as the service reads
// and writes them: a request's body (an entity's JSON, a transaction's
// multipart body: a write's Request.Bytes) and a served answer's body (an
// entity, a query page, ChargeEgress). Headers are not counted: a model assumption,
// and the judge weighs the rows alone too ("each row as the run sends
// it").
//
//   - Ingress is taken up front: a request is admitted when its body's
//     bytes are in the bucket (min(body, capacity), as a transaction larger
//     than the capacity passes a full bucket), and its bytes are taken when
//     the account admits it, before a partition decides, as its request
//     counts toward the account target whatever the partition says: it
//     reached the service.
//   - Egress is known only once the answer is written, like a query page's
//     entities: a request is admitted while the egress bucket is not in
//     debt, and ChargeEgress bills the answer afterwards, possibly into
//     debt, refusing later requests until it refills. A refused request's
//     answer (an error's few hundred bytes) is not billed.

// bandwidthLimits returns the limits of the ingress and egress buckets
// of cfg, in bytes.
func bandwidthLimits(cfg Config) (in, out limit) {
	return newLimit(azure.BytesPerSec(cfg.IngressGbps), cfg.Burst), newLimit(azure.BytesPerSec(cfg.EgressGbps), cfg.Burst)
}

// admitBandwidth decides request r against the account's egress and
// ingress at now: the egress bucket must not be in debt, and the ingress
// bucket must hold its body's bytes, which it then takes. ok is false
// with the refusal when either is over.
func (m *Model) admitBandwidth(r Request, now int64) (d Decision, ok bool) {
	if !m.egress.allows(m.egressLimit, now, 0) {
		return m.refusals.throttle(byEgress), false
	}
	if !m.ingress.take(m.ingressLimit, now, float64(r.body())) {
		return m.refusals.throttle(byIngress), false
	}
	return Decision{}, true
}

// ChargeEgress bills the body of an answer the model admitted, n bytes,
// to the account's egress, after it was written (its size is not known
// before): the bucket may go into debt, refusing later requests until it
// refills. It does nothing when the model is off or paused, under Cosmos
// DB, or for n ≤ 0. Safe for concurrent use.
func (m *Model) ChargeEgress(n int) {
	if n <= 0 || !m.Active() || m.cfg.Kind == Cosmos {
		return
	}
	m.egress.charge(m.egressLimit, m.clock(), float64(n))
}

// body is the bytes r sends the service: a write's entities (Bytes), none
// for a read or a query page.
func (r Request) body() int {
	if !r.Op.writes() {
		return 0
	}
	return max(r.Bytes, 0)
}
