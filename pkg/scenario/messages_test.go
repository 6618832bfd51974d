package scenario

import (
	"strings"
	"testing"
)

// messageCase is a scenario with one mistake, the field its message must
// name (its path; "" for a YAML syntax error, which names its line and
// column), and the words of the message that say what to write instead.
type messageCase struct {
	src, path, fix string
}

// messageCases make every message the scenario schema can produce: the
// YAML, decoding, each value type, validation of the population, the
// schemes and their templates, the keys, the questions, the workload and
// the thresholds.
var messageCases = []messageCase{
	// YAML syntax: at the line and column of the problem.
	{sub("device: {kind: id, count: 50, prefix: dev-, width: 3}", "device: {kind: id, count: 50, prefix: dev-, width: 3"), "", "end the mapping with }"},
	{sub("values: [alert, digest]", "values: [alert, digest"), "", "end the list with ]"},
	{sub("  interval: 1s", " interval: 1s"), "", "indent it like the keys beside it"},
	{sub("    - {op: update}", "    op: update"), "", "start it with '- '"},
	{sub("  workers: 8", "\tworkers: 8"), "", "indent with spaces"},
	{sub("name: messages", "name: a: b"), "", `quote the value that holds it, like key: "a: b"`},
	{sub("name: messages", "name: messages\nstray"), "", "add the colon, or quote the text"},
	{sub("name: messages", `name: "messages`), "", "the quote opened here is not closed on its line: close it"},
	{messagesBase + "description: \"open\n", "", "the quote opened here is not closed"},
	{"", "", "a scenario needs at least population, schemes and workload"},
	{messagesBase + "---\nname: two\n", "", "put one scenario per file"},
	// Decoding: the shapes of values.
	{sub("name: messages", "name: [a, b]"), "name", "expected a single value (like"},
	{sub("  entities: 1000", "  entities: {n: 1}"), "population.entities", "expected a single value (like"},
	{sub("  - p99(point_read) < 50ms", "  p99: 50ms"), "thresholds", "expected a list (- item lines or [a, b])"},
	{sub("  workers: 8", "  workers: eight"), "workload.workers", "write one like 20 or 20000"},
	{sub("seed: 7", "seed: -7"), "seed", "write one like 42"},
	{sub("{op: point_read, weight: 5,", "{op: point_read, weight: heavy,"), "workload.mix[0].weight", "write one like 2 or 0.5"},
	{sub("    - {op: range_query, rows: 20, from: entity, max_pages: 2}", "    - {op: range_query, rows: 20, from: entity, max_pages: 2, across_partitions: yes}"), "workload.mix[1].across_partitions", "write true or false"},
	{messagesBase + "embedded: off\n", "embedded", "expected a mapping with keys such as faults, model, models"},
	{sub("  workers: 8", "  workers: 8\n  workers: 9"), "workload.workers", "keep one"},
	{sub("  workers: 8", "  wrokers: 8"), "workload.wrokers", `did you mean "workers"?`},
	{sub("  workers: 8", "  colour: red"), "workload.colour", "known fields: "},
	{sub("{op: update}", "{op: update, distribution: hotspot(0.2,0.8)}"), "workload.mix[3].distribution", `quote it: distribution: "hotspot(0.2,0.8)"`},
	{sub("  fields:\n    device: {kind: id, count: 50, prefix: dev-, width: 3}\n", "  fields: [device]\n  other:\n    device: {kind: id, count: 50, prefix: dev-, width: 3}\n"), "population.fields", "like fields: {device: {kind: id, count: 50}}"},
	{sub("    token: {kind: guid}", "    token: {kind: guid}\n    token: {kind: slug}"), "population.fields.token", "rename or remove one"},
	// Thousands separators, and the k and M of counts.
	{sub("count: 50,", "count: 200,000,"), "population.fields.device.count", "write 200000, 200_000 or 200k"},
	{sub("  entities: 1000", "  entities: 1,500,000"), "population.entities", "write 1500000, 1_500_000 or 1.5M"},
	{sub("  workers: 8", "  workers: 1,000"), "workload.workers", "write 1000 or 1_000"},
	{sub("{kind: int, min: 0, max: 9}", "{kind: int, min: 0, max: 10,000}"), "population.fields.level.max", "write 10000 or 10_000"},
	// Value types.
	{sub("  duration: 10s", "  duration: 10 secs"), "workload.duration", "write it like 30s, 1m30s or 250ms"},
	{sub("  duration: 10s", "  duration: -10s"), "workload.duration", "write it like 30s"},
	{sub("  rate: 100/s", "  rate: fast"), "workload.rate", "write operations per second like 2000 or 2000/s"},
	{sub("  rate: 100/s", "  rate: 100/d"), "workload.rate", "the rate unit must be /s, /m or /h"},
	{sub("  payload: 64B", "  payload: 64 bytes"), "population.payload", "write it like 512B, 1KiB or 4MiB"},
	{sub("  entities: 1000", "  entities: lots"), "population.entities", "write a whole number like 20000, 20k or 1M"},
	{sub("  start: 2025-01-01T00:00:00Z", "  start: 1 Jan 2025"), "population.start", "write it like 2025-01-01T00:00:00Z"},
	{sub("  retry: fixed(100ms,3)", "  retry: sometimes"), "workload.retry", "use none, fixed(DELAY,N)"},
	{sub("  retry: fixed(100ms,3)", "  retry: fixed(soon,3)"), "workload.retry", "like fixed(200ms,3)"},
	{sub("  retry: fixed(100ms,3)", "  retry: fixed(100ms,3000)"), "workload.retry", "retry count between 0 and 1000"},
	{sub("  retry: fixed(100ms,3)", "  retry: fixed(100ms)"), "workload.retry", "fixed takes a delay and a count"},
	{sub("  retry: fixed(100ms,3)", "  retry: exponential(1s,2s)"), "workload.retry", "exponential takes default, min and max backoffs and a count"},
	{sub("  retry: fixed(100ms,3)", "  retry: exponential(1s,10s,2s,3)"), "workload.retry", "min backoff is above max backoff"},
	{sub("  retry: fixed(100ms,3)", "  retry: linear(1s,3)"), "workload.retry", "unknown strategy"},
	// Distributions (keygen).
	{sub("  distribution: zipf(0.99)", "  distribution: zipf(x)"), "workload.distribution", "like zipf(0.99)"},
	{sub("  distribution: zipf(0.99)", "  distribution: gaussian"), "workload.distribution", "use one of uniform, zipf"},
	{sub("  distribution: zipf(0.99)", "  distribution: uniform(3)"), "workload.distribution", "uniform takes no arguments"},
	{sub("  distribution: zipf(0.99)", "  distribution: zipf(0)"), "workload.distribution", "like zipf(0.99) or zipf(1.2)"},
	{sub("  distribution: zipf(0.99)", "  distribution: \"hotspot(2,0.8)\""), "workload.distribution", "like hotspot(0.2,0.8)"},
	{sub("  distribution: zipf(0.99)", "  distribution: single(-1)"), "workload.distribution", "single(I) needs a whole entity index I >= 0"},
	{sub("  distribution: zipf(0.99)", "  distribution: zipf(0.99"), "workload.distribution", "close it: zipf(0.99)"},
	// Fields (keygen).
	{sub("    token: {kind: guid}", "    9lives: {kind: guid}"), "population.fields.9lives", "start with a letter or _"},
	{sub("    token: {kind: guid}", "    time: {kind: guid}"), "population.fields.time", "rename it"},
	{sub("prefix: dev-, width: 3}", "prefix: dev-, width: 40}"), "population.fields.device", "width must be between 0 and 30"},
	{sub("{kind: int, min: 0, max: 9}", "{kind: int, min: 9, max: 0}"), "population.fields.level", "make max at least min"},
	{sub("{kind: slug, words: 3}", "{kind: slug, words: 9}"), "population.fields.title", "words must be between 1 and 8"},
	{sub("{kind: guid}", "{}"), "population.fields.token", "kind is missing; use one of choice"},
	// A lifetime: two of count, span and entities, on an id.
	{sub("{kind: guid}", "{kind: guid, lifetime: {entities: 3}}"), "population.fields.token.lifetime", "applies to an id field (kind: id)"},
	{sub("{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, count: 50, prefix: dev-, lifetime: {span: 1h, entities: 3}}"), "population.fields.device.lifetime", "takes two of count"},
	{sub("{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, count: 50, distribution: zipf, lifetime: {entities: 3}}"), "population.fields.device.distribution", "remove distribution"},
	{subs("  interval: 1s", "  interval: 0s", "{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, count: 5, lifetime: {entities: 3}}"), "population.fields.device.lifetime", "needs population.interval > 0"},
	{sub("{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, count: 50, lifetime: {entities: 0.5}}"), "population.fields.device.lifetime.entities", "at least 1 entity on average"},
	{sub("{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, lifetime: {span: 1s, entities: 3}}"), "population.fields.device.lifetime", "lengthen the span or lower entities"},
	{sub("{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, count: 50, lifetime: {span: 10s}}"), "population.fields.device.lifetime", "lower count or lengthen the span"},
	{sub("{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, count: 1, lifetime: {entities: 1e19}}"), "population.fields.device.lifetime", "more than a population holds"},
	{sub("{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, lifetime: {span: 3 days, entities: 3}}"), "population.fields.device.lifetime.span", "write it like 72h, 90m or 3d"},
	{subs("{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, count: 50, lifetime: {entities: 3}}", "want: newest, limit: 10}", "want: newest, limit: 10, pick: {device: latest}}"), "questions[0].pick.device", "live keys evenly, so write {device: uniform}"},
	{sub("{kind: guid}", "{kind: uuid}"), "population.fields.token", "use one of choice"},
	{sub("values: [alert, digest], weights: [3, 1]", "weights: [3, 1]"), "population.fields.kind", "like values: [red, green, blue]"},
	{sub("weights: [3, 1]", "weights: [3]"), "population.fields.kind", "give one weight per value"},
	{sub("weights: [3, 1]", "weights: [3, -1]"), "population.fields.kind", "must be >= 0"},
	{sub("weights: [3, 1]", "weights: [0, 0]"), "population.fields.kind", "at least one must be positive"},
	{sub("count: 50,", "count: 0,"), "population.fields.device", "an id needs count >= 1"},
	{sub("{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, count: 50, distribution: zipf(0)}"), "population.fields.device.distribution", "like zipf(0.99)"},
	{sub("  payload: 64B", "  payload: 2MiB"), "population.payload", "the payload is at most"},
	// Schemes and their templates (keygen).
	{sub("schemes:\n  - name: by-device\n    partition_key: \"{device}\"\n    row_key: \"{inverted_ticks}\"\n    indexes:\n      - {name: ByKind, partition_key: \"{kind}\", row_key: \"{device}_{inverted_ticks}\"}\n", "schemes: []\n"), "schemes", "like '- builtin: device-date'"},
	{sub("  - name: by-device\n", "  - description: mine\n"), "schemes[0]", "add name:"},
	{sub("questions:\n", "  - name: by-device\n    partition_key: \"{kind}\"\n    row_key: \"{seq}\"\nquestions:\n"), "schemes[1].name", "give each scheme its own name"},
	{sub("  - name: by-device\n", "  - name: by-device\n    builtin: nosuch\n"), "schemes[0].builtin", "built-ins are append-only"},
	{sub("  - name: by-device\n", "  - name: by-device\n    builtin: device-date\n"), "schemes[0].builtin", "remove partition_key/row_key/rows/indexes, or drop builtin"},
	{sub("    row_key: \"{inverted_ticks}\"\n", ""), "schemes[0]", "a scheme needs builtin, or both partition_key and row_key"},
	{sub(`partition_key: "{device}"`, `partition_key: "{device}}"`), "schemes[0].partition_key", "write }} for a literal brace"},
	{sub(`partition_key: "{device}"`, `partition_key: "{device"`), "schemes[0].partition_key", "write {{ for a literal brace"},
	{sub(`partition_key: "{device}"`, `partition_key: "{hash(device) % 0}"`), "schemes[0].partition_key", "like % 16"},
	{sub(`partition_key: "{device}"`, `partition_key: "{hash(device % 4}"`), "schemes[0].partition_key", "like hash(order)"},
	{sub(`partition_key: "{device}"`, `partition_key: "{hash(device)}"`), "schemes[0].partition_key", "like {hash(device) % 16}"},
	{sub(`partition_key: "{device}"`, `partition_key: "{}"`), "schemes[0].partition_key", "name a field or built-in: device"},
	{sub(`partition_key: "{device}"`, `partition_key: "{kind % 4}"`), "schemes[0].partition_key", "use {hash(kind) % 4} to bucket it"},
	{sub(`partition_key: "{device}"`, `partition_key: "{level % 4:zz}"`), "schemes[0].partition_key", "use 03, d3 or x4"},
	{sub(`partition_key: "{device}"`, `partition_key: "{devise}"`), "schemes[0].partition_key", "declared fields and built-ins are: device"},
	{sub(`partition_key: "{device}"`, `partition_key: "{level:zz}"`), "schemes[0].partition_key", "use 06, d6 or x8"},
	{sub(`partition_key: "{device}"`, `partition_key: "{kind:title}"`), "schemes[0].partition_key", "use lower or upper"},
	{sub(`partition_key: "{device}"`, `partition_key: "{time:zz}"`), "schemes[0].partition_key", "like 2006-01-02, a .NET format like yyyy-MM-dd"},
	{sub(`partition_key: "{device}"`, `partition_key: "{device}/{kind}"`), "schemes[0].partition_key", "use another separator, like _ or -"},
	{sub(`partition_key: "{device}"`, `partition_key: "it's"`), "schemes[0].partition_key", "use another character"},
	{sub(`partition_key: "{device}"`, `partition_key: "a\u0001b"`), "schemes[0].partition_key", "remove it"},
	{sub(`partition_key: "{device}"`, `partition_key: "`+strings.Repeat("x", 600)+`"`), "schemes[0].partition_key", "shorten the key"},
	{sub(`partition_key: "{device}"`, `partition_key: "`+strings.Repeat("{token}", 20)+`"`), "schemes[0].partition_key", "shorten the key"},
	{sub("{name: ByKind,", "{name: by-kind,"), "schemes[0].indexes[0].name", "starting with a letter"},
	{sub("      - {name: ByKind, partition_key: \"{kind}\", row_key: \"{device}_{inverted_ticks}\"}\n", "      - {name: ByKind, partition_key: \"{kind}\", row_key: \"{device}_{inverted_ticks}\"}\n      - {name: ByKind, partition_key: \"{level}\", row_key: \"{seq}\"}\n"), "schemes[0].indexes[1].name", "give each index its own name"},
	{sub("    - {op: batch, size: 10, kind: insert}", "    - {op: batch, size: 90, kind: insert}\n"+"    - {op: range_query, index: ByLevel}"), "workload.mix[3].index", "its indexes: ByKind"},
	{subs("  - name: by-device\n", "  - description: mine\n", "{op: update}", "{op: range_query, index: ByLevel}"), "workload.mix[3].index", "the unnamed schemes[0] has no index table \"ByLevel\"; its indexes: ByKind"},
	// What an index carries.
	{sub(`row_key: "{device}_{inverted_ticks}"}`, `row_key: "{device}_{inverted_ticks}", carries: some}`), "schemes[0].indexes[0].carries", "write all (a copy of the entity) or a list of the fields"},
	{sub(`row_key: "{device}_{inverted_ticks}"}`, `row_key: "{device}_{inverted_ticks}", carries: [colour]}`), "schemes[0].indexes[0].carries", "or write carries: all"},
	{sub(`row_key: "{device}_{inverted_ticks}"}`, `row_key: "{device}_{inverted_ticks}", carries: [level, level]}`), "schemes[0].indexes[0].carries", "list it once"},
	{sub("values: [alert, digest]", "values: [alert, di/gest]"), "schemes[0].indexes[0].partition_key", `can generate "di/gest": '/' is not allowed in keys (Azure forbids / \ # ?): use another separator`},
	// Questions.
	{sub("questions:\n  - {name: newest-of-device,", "questions:\n  - {name: newest-of-device, known: [kind], want: all}\n  - {name: newest-of-device,"), "questions[1].name", "give each question its own name"},
	{sub("want: newest, limit: 10}", "limit: 10}"), "questions[0]", "a question needs want: one, newest, oldest or all"},
	{sub("{name: newest-of-device,", "{name: \"newest of device\","), "questions[0].name", "a question's name is 1-64 letters"},
	{sub("known: [device], want", "known: [device, device], want"), "questions[0].known[1]", "list it once"},
	{sub("known: [device], want", "known: [devise], want"), "questions[0].known[0]", "a declared field (device"},
	// What a question picks by a field's own law, and selects.
	{sub("want: newest, limit: 10}", "want: newest, limit: 10, pick: uniform}"), "questions[0].pick", "write it like pick: {user: uniform}"},
	{sub("want: newest, limit: 10}", "want: newest, limit: 10, pick: {device: uniform, device: zipf(1)}}"), "questions[0].pick.device", "keep one"},
	{sub("known: [device], want: newest, limit: 10}", "known: [device, token], want: one, pick: {device: uniform}}"), "questions[0].pick.device", "remove pick, or want newest, oldest or all"},
	{sub("want: newest, limit: 10}", "want: newest, limit: 10, pick: {kind: uniform}}"), "questions[0].pick.kind", "a pick draws the value of a field the application knows"},
	{sub("known: [device], want: newest, limit: 10}", "known: [token], want: all, pick: {token: uniform}}"), "questions[0].pick.token", "pick an id, choice, int or bool field"},
	{sub("want: newest, limit: 10}", "want: newest, limit: 10, select: [kind, kind]}"), "questions[0].select[1]", "list it once"},
	{sub("want: newest, limit: 10}", "want: newest, limit: 10, select: [colour]}"), "questions[0].select[0]", "select a declared field"},
	{sub("want: newest, limit: 10}", "want: latest, limit: 10}"), "questions[0].want", "use one (the entity the known fields identify), newest, oldest or all"},
	{sub("want: newest, limit: 10}", "want: all, limit: 10}"), "questions[0].limit", "remove limit, or want newest or oldest"},
	{sub("want: newest, limit: 10}", "want: newest, limit: 200000}"), "questions[0].limit", "use 1 to 100000"},
	{sub("want: newest, limit: 10}", "want: one}"), "questions[0].known", "ask for newest with limit: 1"},
	{sub("known: [device], want: newest, limit: 10}", "known: [token], want: one, window: day}"), "questions[0].window", "remove window"},
	{sub("known: [device], want: newest, limit: 10}", "known: [device, time], want: all, window: day}"), "questions[0].window", "remove window"},
	{sub("want: newest, limit: 10}", "want: newest, limit: 10, window: fortnight}"), "questions[0].window", "use minute, hour, day, month or year"},
	{sub("want: newest, limit: 10}", "want: newest, limit: 10, anchor: picked}"), "questions[0].anchor", "add a window, or remove anchor"},
	{sub("want: newest, limit: 10}", "want: newest, limit: 10, window: day, anchor: then}"), "questions[0].anchor", "use now (the newest event time, the default) or picked"},
	{sub("    - {question: newest-of-device}", "    - {op: question}"), "workload.mix[4]", "op question needs question: NAME"},
	{sub("    - {question: newest-of-device}", "    - {question: newest-of-devise}"), "workload.mix[4].question", `did you mean "newest-of-device"?`},
	// The workload.
	{sub("  mix:\n    - {op: point_read, weight: 5, select: [kind]}\n    - {op: range_query, rows: 20, from: entity, max_pages: 2}\n    - {op: batch, size: 10, kind: insert}\n    - {op: update}\n    - {question: newest-of-device}\n", "  mix: []\n"), "workload", "like '- op: point_read'"},
	{subs("  entities: 1000", "  entities: 0", "    - {op: batch, size: 10, kind: insert}\n", ""), "population.entities", "set entities > 0"},
	{sub("  duration: 10s", "  duration: 0s"), "workload.duration", "a duration > 0 (like 30s), stages, or max_operations"},
	{sub("  workers: 8", "  workers: 0"), "workload.workers", "use between 1 and 10000"},
	{sub("  timeout: 5s", "  timeout: 0s"), "workload.timeout", "like 10s"},
	{sub("  rate: 100/s", "  rate: 100/s\n  stages: [{duration: 0s, rate: 5}]"), "workload.stages[0].duration", "like 30s"},
	{sub("  rate: 100/s", "  rate: 100/s\n  stages: [{duration: 5s, rate: 5}]"), "workload.duration", "leave duration out"},
	{sub("  rate: 100/s", "  rate: 0\n  stages: [{duration: 10s, rate: 5}]"), "workload.rate", "leave rate out to start from 0"},
	{sub("  retry: fixed(100ms,3)", "  retry: fixed(100ms,3)\n  target_partitions: [\"a#b\"]"), "workload.target_partitions[0]", "use another separator"},
	{sub("{op: update}", "{op: scan}"), "workload.mix[3].op", "use one of point_read, range_query"},
	{sub("{op: update}", "{op: update, rows: 5}"), "workload.mix[3].rows", "remove it"},
	{sub("{op: update}", "{op: update, weight: 0}"), "workload.mix[3].weight", "like weight: 1"},
	{sub("rows: 20, from", "rows: 5000, from"), "workload.mix[1].rows", "use between 1 and 1000"},
	{sub("from: entity,", "from: middle,"), "workload.mix[1].from", "use entity (from the picked entity's RowKey) or start"},
	{sub("max_pages: 2}", "max_pages: -1}"), "workload.mix[1].max_pages", "0 reads every page"},
	{sub("{op: batch, size: 10, kind: insert}", "{op: batch, size: 200, kind: insert}"), "workload.mix[2].size", "an entity group transaction holds 1 to 100"},
	{sub("{op: batch, size: 10, kind: insert}", "{op: batch, size: 10, kind: delete}"), "workload.mix[2].kind", "use insert, upsert_merge, upsert_replace or mixed"},
	{sub("select: [kind]}", "select: [\"not ok\"]}"), "workload.mix[0].select[0]", "starts with a letter or _"},
	{subs("    row_key: \"{inverted_ticks}\"\n", "    row_key: \"{inverted_ticks}\"\n    rows: [\"A{seq}\", \"B{seq}\"]\n", "size: 10,", "size: 40,"), "workload.mix[2].size", "use size: 33 at most"},
	{subs("  payload: 64B", "  payload: 512KiB", "size: 10,", "size: 20,"), "workload.mix[2].size", "use size: 7 at most"},
	// Thresholds.
	{sub("  - p99(point_read) < 50ms", "  - \" \""), "thresholds[0]", "write it like 'p99(point_read) < 20ms'"},
	{sub("  - p99(point_read) < 50ms", "  - p99(point_read) < 50"), "thresholds[0]", "like 20ms"},
	{sub("  - p99(point_read) < 50ms", "  - throttle_rate < 1"), "thresholds[0]", "1 needs a % sign: 1%"},
	{sub("  - p99(point_read) < 50ms", "  - p99(point_read) fast"), "thresholds[0]", "write it like 'p99(point_read) < 20ms'"},
	{sub("  - p99(point_read) < 50ms", "  - p99(point_read < 50ms"), "thresholds[0]", "write it like p99(point_read) < 20ms"},
	{sub("  - p99(point_read) < 50ms", "  - p98(point_read) < 50ms"), "thresholds[0]", "metrics are "},
	{sub("  - p99(point_read) < 50ms", "  - max_partition_peak(insert) < 2000"), "thresholds[0]", "write it without the operation, like max_partition_peak < 2000"},
	{sub("  - p99(point_read) < 50ms", "  - p99(scan) < 50ms"), "thresholds[0]", "operations are point_read"},
	{sub("  - p99(point_read) < 50ms", "  - p99(point_read) < 1,5ms"), "thresholds[0]", "a comma only separates thousands (2,000); write a decimal point: 1.5"},
	{sub("  - p99(point_read) < 50ms", "  - ops > many"), "thresholds[0]", "write one like 20ms, 1% or 2000"},
}

// Every message a scenario can get names its field (or, for YAML syntax,
// its line and column) and says what to write instead: each case's
// mistake gets a message at its field with its fix, and no case's
// message lacks a field.
func TestEveryMessageNamesTheFieldAndTheFix(t *testing.T) {
	for i, c := range messageCases {
		_, errs := Parse("m.yaml", []byte(c.src))
		found := false
		for _, err := range errs {
			e, ok := err.(*Error)
			if !ok {
				t.Errorf("case %d: %v is not a located error", i, err)
				continue
			}
			if e.Path == "" && !fileLevel(e.Msg) {
				t.Errorf("case %d: %s names no field", i, e)
			}
			found = found || e.Path == c.path && strings.Contains(e.Msg, c.fix)
		}
		if !found {
			t.Errorf("case %d: no message at %q saying %q; got:\n%s", i, c.path, c.fix, joinErrs(errs))
		}
	}
}

// fileLevel reports whether msg is about the file rather than a field: its
// YAML, or its being empty or several documents.
func fileLevel(msg string) bool {
	return strings.HasPrefix(msg, "YAML syntax") || strings.Contains(msg, "the file")
}
