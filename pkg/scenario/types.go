package scenario

// Scenario is one scenario file: the entity population, the key schemes to
// run it through, the workload, and the pass/fail thresholds.
//
// Struct tags: yaml names the key; doc is the description shown by
// `tablestress schema` and in errors; enum lists the allowed values.
type Scenario struct {
	// File is the path the scenario was read from ("" for in-memory input).
	File string `yaml:"-"`

	Name        string      `yaml:"name" doc:"Short name of the scenario, used in reports."`
	Description string      `yaml:"description" doc:"What the scenario demonstrates and the expected outcome."`
	Seed        uint64      `yaml:"seed" doc:"Seed of the entity stream and of the request generators (default 1). Same seed, same keys, same operations."`
	Population  Population  `yaml:"population" doc:"The entities: how many are seeded, their fields, event time and payload."`
	Schemes     []Scheme    `yaml:"schemes" doc:"Key schemes (PartitionKey/RowKey designs) to run the same entity stream through. run uses the first (or --scheme), compare runs them all."`
	Questions   []Question  `yaml:"questions" doc:"The application's read questions, by the fields it knows, independent of any scheme: each scheme answers them with the cheapest plan an application could use (point read, one range, a fan-out over hash or time buckets, an index table, or a scan). Put them in the workload mix with op: question."`
	Workload    Workload    `yaml:"workload" doc:"The operations, their mix, rate and duration."`
	Thresholds  []Threshold `yaml:"thresholds" doc:"Pass/fail conditions checked at the end, like 'p99(point_read) < 20ms' or 'throttle_rate < 1%', or {expr: ..., abort_on_fail: true} to stop the run as soon as one fails. Exit code 99 when one fails."`
	Embedded    Embedded    `yaml:"embedded" doc:"Settings of the embedded Table service, used when the target is embedded."`

	pos      positions
	quoted   map[string]bool
	warnings []string
}

// Threshold is one pass/fail condition: a plain string in the file, or a
// mapping with abort_on_fail.
type Threshold struct {
	Expr        string `yaml:"expr" doc:"The condition, like 'p99(point_read) < 20ms'."`
	AbortOnFail bool   `yaml:"abort_on_fail" doc:"Evaluate every second during the run and stop it as soon as the condition fails."`
}

// Exprs returns the threshold expressions.
func (s *Scenario) Exprs() []string {
	out := make([]string, len(s.Thresholds))
	for i, t := range s.Thresholds {
		out[i] = t.Expr
	}
	return out
}

// Population declares the entity stream (see package keygen).
type Population struct {
	Entities Count    `yaml:"entities" doc:"Entities written by the seed phase before the workload starts (e.g. 20000, 50k, 1M)."`
	Start    Time     `yaml:"start" doc:"Event time of entity 0, RFC 3339 (default 2025-01-01T00:00:00Z)."`
	Interval Duration `yaml:"interval" doc:"How far the event time advances from one entity to the next (default 1s). Makes date-keyed designs hot the way they are in Azure."`
	Payload  Size     `yaml:"payload" doc:"Filler bytes per entity in Data properties (default 512B; e.g. 1KiB)."`
	Fields   Fields   `yaml:"fields" doc:"Named fields and how each entity's value is drawn."`
}

// Field declares one field; which members apply depends on Kind.
type Field struct {
	Name         string       `yaml:"-"`
	Kind         string       `yaml:"kind" doc:"How values are drawn." enum:"choice,id,int,sequence,guid,slug"`
	Values       []string     `yaml:"values" doc:"choice: the possible values."`
	Weights      []float64    `yaml:"weights" doc:"choice: relative weight of each value (default equal)."`
	Count        Count        `yaml:"count" doc:"id: how many distinct ids exist (e.g. 200, 50k, 1M); with a lifetime, how many are live at once."`
	Distribution Distribution `yaml:"distribution" doc:"id: how ids are drawn: uniform, zipf(S), hotspot(HOT,OPS), sequential..."`
	Prefix       string       `yaml:"prefix" doc:"id: text before the number, like dev-."`
	Width        int          `yaml:"width" doc:"id, int, sequence: zero-pad the number to this many digits (an id with a lifetime: 10 unless given)."`
	Lifetime     *Lifetime    `yaml:"lifetime" doc:"id: keys that are born and retire (a parcel scanned 10 times over 3 days, an order created, updated and closed): give two of count (keys live at once), lifetime.span and lifetime.entities; the third follows from population.interval. Each entity takes one of the keys live when it is written, evenly."`
	Min          int64        `yaml:"min" doc:"int: smallest value."`
	Max          int64        `yaml:"max" doc:"int: largest value."`
	Start        int64        `yaml:"start" doc:"sequence: value of entity 0."`
	Step         int64        `yaml:"step" doc:"sequence: increment per entity (default 1)."`
	Words        int          `yaml:"words" doc:"slug: number of words (default 3)."`
}

// Lifetime is an id field's keys' life: each key is born, receives
// entities while it lives, and retires.
type Lifetime struct {
	Span     Span    `yaml:"span" doc:"The event time a key lives from its birth to its retirement, like 72h or 3d."`
	Entities float64 `yaml:"entities" doc:"The entities a key receives over its life, on average (at least 1), like 10."`
}

// Scheme is one key scheme: a built-in by name, or templates.
type Scheme struct {
	Name         string   `yaml:"name" doc:"Name of the scheme in reports; defaults to the built-in's name."`
	Builtin      string   `yaml:"builtin" doc:"Use a scheme of the catalogue (tablestress schemes lists them); its fields are added to the population unless declared."`
	Description  string   `yaml:"description" doc:"What the scheme is."`
	PartitionKey string   `yaml:"partition_key" doc:"PartitionKey template, like '{device}_{time:yyyy-MM-dd}'."`
	RowKey       string   `yaml:"row_key" doc:"RowKey template, like '{inverted_ticks}'."`
	Rows         []string `yaml:"rows" doc:"Secondary RowKey templates: extra rows of the same entity in the same partition, written with the main row in one entity group transaction (e.g. 'AGE:{age:03}__{bib}')."`
	Indexes      []Index  `yaml:"indexes" doc:"Index tables (e.g. PostsByCategory): a row per entity pointing at the main row."`
}

// Index is one index table of a scheme.
type Index struct {
	Name         string  `yaml:"name" doc:"Index table name suffix, like PostsByCategory."`
	PartitionKey string  `yaml:"partition_key" doc:"PartitionKey template of the index rows."`
	RowKey       string  `yaml:"row_key" doc:"RowKey template of the index rows."`
	Carries      Carries `yaml:"carries" doc:"What the index rows carry besides the pointer to the main row: all (a copy of the entity) or a list of fields. A question that selects only what they carry reads the index alone, with no point read back to the main table, and may filter on what they carry."`
}

// Question is one of the application's read questions. The values of the
// known fields come from an existing entity picked by the request
// distribution.
type Question struct {
	Name   string   `yaml:"name" doc:"The question's name, for the mix (question: NAME), reports and thresholds (p99(question:NAME) < 50ms)."`
	Known  []string `yaml:"known" doc:"The fields the application knows when it asks (declared fields, or time for the event time), like [device] or [device, time]; their values are an existing entity's, picked by the request distribution."`
	Want   string   `yaml:"want" doc:"What it wants back: one (the entity the known fields identify), newest or oldest (first, up to limit), or all (every entity with the known values)." enum:"one,newest,oldest,all"`
	Limit  int      `yaml:"limit" doc:"newest, oldest: at most this many entities (default: all of them, in order)."`
	Window string   `yaml:"window" doc:"newest, oldest, all: only entities whose event time is in the current minute, hour, day, month or year, or within a duration (like 1h) up to now (the newest entity's event time, as a dashboard asks); with anchor: picked, the picked entity's."`
	Anchor string   `yaml:"anchor" doc:"Where a window ends: now (the newest entity's event time when the question is asked, the default) or picked (the picked entity's event time: that order's day)." enum:"now,picked"`
	Select []string `yaml:"select" doc:"The fields the application reads from the answer (default: the whole entity); an index table that carries them answers without a point read back to the main table."`
	Pick   Picks    `yaml:"pick" doc:"newest, oldest, all: known fields whose value is drawn by a law of its own instead of from the picked entity, like {user: uniform} (every user asks equally often, however many entities each has)."`
}

// Workload is the run phase.
type Workload struct {
	Duration         Duration     `yaml:"duration" doc:"How long the measured run lasts (default 30s), after the warm-up."`
	MaxOperations    Count        `yaml:"max_operations" doc:"Stop after this many operations (0: no limit); whichever of duration and max_operations comes first."`
	Warmup           Duration     `yaml:"warmup" doc:"Run this long before measuring; excluded from every figure (default 0s)."`
	Workers          int          `yaml:"workers" doc:"Concurrent workers. Without rate they run flat out (closed loop; default 16); with rate they bound concurrency (open loop; default 1,000: the loop adds workers as its operations need them, up to this)."`
	Rate             Rate         `yaml:"rate" doc:"Open loop: operations started per second (e.g. 2000 or 2000/s), whatever the latency. Late starts are measured from the scheduled time and starts that cannot happen are counted as dropped."`
	Stages           []Stage      `yaml:"stages" doc:"Open loop ramps: each stage moves the rate linearly to its target over its duration. Replaces duration."`
	Distribution     Distribution `yaml:"distribution" doc:"Which existing entity an operation picks (entities, by index, not partitions): uniform (default), zipf(S), hotspot(HOT,OPS) (the share OPS of the picks to the first HOT of the entities), latest(S), sequential, single(I)."`
	TargetPartitions []string     `yaml:"target_partitions" doc:"Pin reads, updates, deletes and inserts to these PartitionKeys (step 3 of the stress-test procedure: target one partition)."`
	Retry            Retry        `yaml:"retry" doc:"Retry strategy for throttling and timeouts: none, fixed(DELAY,N), exponential(DEFAULT,MIN,MAX,N). Every attempt is counted."`
	Timeout          Duration     `yaml:"timeout" doc:"Per-request timeout (default 10s)."`
	Mix              []Operation  `yaml:"mix" doc:"The operations and their weights."`
}

// Stage is one leg of an open-loop rate profile.
type Stage struct {
	Duration Duration `yaml:"duration" doc:"How long the stage lasts."`
	Rate     Rate     `yaml:"rate" doc:"Rate reached at the end of the stage (linear ramp from the previous stage's)."`
}

// Operation is one entry of the mix.
type Operation struct {
	Op           string       `yaml:"op" doc:"The operation (question: ask one of the scenario's questions; the default when question is given)." enum:"point_read,range_query,partition_scan,table_scan,insert,upsert_merge,upsert_replace,update,delete,batch,question"`
	Question     string       `yaml:"question" doc:"question: the name of the question to ask, as each scheme's plan answers it."`
	Weight       float64      `yaml:"weight" doc:"Relative share of the mix (default 1)."`
	Distribution Distribution `yaml:"distribution" doc:"Overrides the workload's request distribution for this operation."`
	Select       []string     `yaml:"select" doc:"point_read, range_query, partition_scan, table_scan: project these properties ($select)."`
	Rows         int          `yaml:"rows" doc:"range_query: rows to read from the picked entity's RowKey on, 1 to 1000 (one page; default 50 when left out); with across_partitions, entities to span."`
	From         string       `yaml:"from" doc:"range_query: start at the picked entity's RowKey (entity, default) or at the start of its partition (start: the newest N with inverted keys)." enum:"entity,start"`
	Across       bool         `yaml:"across_partitions" doc:"range_query: a PartitionKey range from the picked entity's PartitionKey to that of the entity rows later, instead of a RowKey range."`
	Index        string       `yaml:"index" doc:"range_query, partition_scan: query this index table of the scheme instead of the main table."`
	Filter       string       `yaml:"filter" doc:"table_scan, partition_scan, range_query: an OData filter on non-key properties, like \"department eq 'Sales'\" (with the keys' bounds for a scan or range: the rows it iterates to find the matches are what the query costs)."`
	MaxPages     int          `yaml:"max_pages" doc:"partition_scan, table_scan, range_query: stop after this many pages (default 10; 0 = all)."`
	Size         int          `yaml:"size" doc:"batch: entities per entity group transaction (1-100, default 50)."`
	Kind         string       `yaml:"kind" doc:"batch: insert, upsert_merge, upsert_replace or mixed (all three in turn)." enum:"insert,upsert_merge,upsert_replace,mixed"`
	ETag         *bool        `yaml:"etag" doc:"update: read the entity first and update with its ETag, counting 412 conflicts (default true); false updates with If-Match *."`
}

// Embedded configures the embedded Table service when it is the target.
type Embedded struct {
	Model  string `yaml:"model" doc:"Service model: azure (default), cosmos, off, or with overrides like 'azure,balance=20s' or 'cosmos,ru=10000'."`
	Faults string `yaml:"faults" doc:"Fault injection, like '503=1%,latency=2ms'."`
	// Models are the models compare runs every scheme under, side by side
	// (--models overrides them); run uses Model.
	Models []string `yaml:"models" doc:"compare: run every scheme under each of these models, side by side, like [azure, 'cosmos,ru=10000'] (--models overrides)."`
}
