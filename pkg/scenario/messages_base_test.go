package scenario

import "strings"

// messagesBase is a valid scenario using every kind of field, a scheme of
// its own with an index, a question, every operation's fields and a
// threshold: each message case changes one thing in it.
const messagesBase = `name: messages
seed: 7
population:
  entities: 1000
  start: 2025-01-01T00:00:00Z
  interval: 1s
  payload: 64B
  fields:
    device: {kind: id, count: 50, prefix: dev-, width: 3}
    kind: {kind: choice, values: [alert, digest], weights: [3, 1]}
    level: {kind: int, min: 0, max: 9}
    seq: {kind: sequence, start: 1, step: 1}
    token: {kind: guid}
    title: {kind: slug, words: 3}
schemes:
  - name: by-device
    partition_key: "{device}"
    row_key: "{inverted_ticks}"
    indexes:
      - {name: ByKind, partition_key: "{kind}", row_key: "{device}_{inverted_ticks}"}
questions:
  - {name: newest-of-device, known: [device], want: newest, limit: 10}
workload:
  duration: 10s
  workers: 8
  rate: 100/s
  timeout: 5s
  retry: fixed(100ms,3)
  distribution: zipf(0.99)
  mix:
    - {op: point_read, weight: 5, select: [kind]}
    - {op: range_query, rows: 20, from: entity, max_pages: 2}
    - {op: batch, size: 10, kind: insert}
    - {op: update}
    - {question: newest-of-device}
thresholds:
  - p99(point_read) < 50ms
`

// sub is messagesBase with old (which it must hold once) replaced by new.
func sub(old, new string) string {
	if strings.Count(messagesBase, old) != 1 {
		panic("the base scenario holds " + old + " not once")
	}
	return strings.Replace(messagesBase, old, new, 1)
}

// subs is messagesBase with each pair of old and new replaced, in turn.
func subs(pairs ...string) string {
	out := messagesBase
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.Count(out, pairs[i]) != 1 {
			panic("the base scenario holds " + pairs[i] + " not once")
		}
		out = strings.Replace(out, pairs[i], pairs[i+1], 1)
	}
	return out
}
