package keygen

import (
	"sort"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// Builtin is a named key scheme from the catalogue, with the fields it needs.
// When a scenario uses a built-in scheme, each of its Fields that the
// population does not declare is added with the default given here; declared
// fields win, so a scenario can resize or skew them.
type Builtin struct {
	Spec    SchemeSpec
	Pattern string      // the pattern or anti-pattern it demonstrates
	Source  string      // where the pattern comes from: the Azure documentation page and section
	Fields  []FieldSpec // default fields the templates use
}

var (
	fDevice     = FieldSpec{Name: "device", Kind: "id", Count: 100, Prefix: "dev-", Width: 4}
	fTenant     = FieldSpec{Name: "tenant", Kind: "id", Count: 50, Prefix: "tenant-", Width: 3, Distribution: "zipf(1.1)"}
	fCustomer   = FieldSpec{Name: "customer", Kind: "id", Count: 10000, Prefix: "cust-", Width: 5}
	fOrder      = FieldSpec{Name: "order", Kind: "sequence", Start: 100000}
	fDepartment = FieldSpec{Name: "department", Kind: "choice", Values: []string{"Engineering", "Sales", "Marketing", "Finance", "Support"}, Weights: []float64{80, 8, 5, 4, 3}}
	fRegion     = FieldSpec{Name: "region", Kind: "choice", Values: []string{"eu-west", "eu-north", "us-east", "us-west", "asia-east"}}
	fCategory   = FieldSpec{Name: "category", Kind: "choice", Values: []string{"azure", "dotnet", "go", "storage", "design", "devops", "security", "data"}}
	fTag        = FieldSpec{Name: "tag", Kind: "choice", Values: []string{"tables", "partitions", "performance", "nosql", "howto", "patterns", "scaling", "testing", "cloud", "tips"}}
	fAuthor     = FieldSpec{Name: "author", Kind: "id", Count: 20, Prefix: "author-", Width: 2, Distribution: "zipf(1.0)"}
	fSlug       = FieldSpec{Name: "slug", Kind: "slug", Words: 3}
	fRace       = FieldSpec{Name: "race", Kind: "choice", Values: []string{"2011 New York City Marathon"}}
	fDistance   = FieldSpec{Name: "distance", Kind: "choice", Values: []string{"Full", "Half", "10km"}, Weights: []float64{50, 35, 15}}
	fBib        = FieldSpec{Name: "bib", Kind: "sequence", Start: 1, Width: 5}
	fRunner     = FieldSpec{Name: "runner", Kind: "choice", Values: []string{"John", "Maria", "Wei", "Aisha", "Lars", "Sofia", "Kenji", "Amara", "Diego", "Priya"}}
	fGender     = FieldSpec{Name: "gender", Kind: "choice", Values: []string{"M", "F"}}
	fAge        = FieldSpec{Name: "age", Kind: "int", Min: 18, Max: 80, Width: 3}
)

// Builtins is the scheme catalogue: every key pattern and anti-pattern of
// Azure's table design guidance, by name, each with its source.
var Builtins = []Builtin{
	{Spec: SchemeSpec{Name: "constant", Description: "one PartitionKey for every entity", PartitionKey: "Orders", RowKey: "{order}"},
		Pattern: "anti-pattern: hot partition, capped at " + textfit.Int(azure.PartitionEntitiesPerSec) + " entities/s", Source: `Azure Storage "Performance and scalability checklist for Table storage", "Hot partitions"`, Fields: []FieldSpec{fOrder}},
	{Spec: SchemeSpec{Name: "natural", Description: "natural grouping by department, skewed 80/8/5/4/3", PartitionKey: "{department}", RowKey: "emp-{i:07}"},
		Pattern: "natural grouping; the big group becomes a hot spot", Source: `Azure Storage "Performance and scalability checklist for Table storage", "Hot partitions"`, Fields: []FieldSpec{fDepartment}},
	{Spec: SchemeSpec{Name: "tenant", Description: "PartitionKey = tenant id, RowKey = entity GUID", PartitionKey: "{tenant}", RowKey: "{guid}"},
		Pattern: "multi-tenant isolation; skewed tenants are hot", Source: `Azure Storage "Performance and scalability checklist for Table storage", "Hot partitions"`, Fields: []FieldSpec{fTenant}},
	{Spec: SchemeSpec{Name: "tenant-month", Description: "tenant + month, newest first", PartitionKey: "{tenant}_{time:yyyy-MM}", RowKey: "{inverted_unix}_{guid}"},
		Pattern: "composite key bounding partition size", Source: `Azure Storage "Table design patterns", "Compound key pattern"`, Fields: []FieldSpec{fTenant}},
	{Spec: SchemeSpec{Name: "tenant-date", Description: "tenant + day composite", PartitionKey: "{tenant}_{time:yyyy-MM-dd}", RowKey: "{ticks}"},
		Pattern: "composite key, per-tenant daily partitions", Source: `Azure Storage "Table design patterns", "Compound key pattern"`, Fields: []FieldSpec{fTenant}},
	{Spec: SchemeSpec{Name: "device", Description: "PartitionKey = device, RowKey = inverted ticks (newest first)", PartitionKey: "{device}", RowKey: "{inverted_ticks}"},
		Pattern: "time series per device, latest-first reads", Source: `Azure Storage "Table design patterns", "Log tail pattern"`, Fields: []FieldSpec{fDevice}},
	{Spec: SchemeSpec{Name: "device-date", Description: "device + day, newest first", PartitionKey: "{device}_{time:yyyy-MM-dd}", RowKey: "{inverted_ticks}"},
		Pattern: "time series with bounded partitions", Source: `Azure Storage "Table design patterns", "Compound key pattern"`, Fields: []FieldSpec{fDevice}},
	{Spec: SchemeSpec{Name: "device-unix", Description: "device, RowKey = 9999999999 - unix seconds", PartitionKey: "{device}", RowKey: "{inverted_unix}"},
		Pattern: "inverted Unix timestamp RowKey; collides when a device writes twice in a second", Source: `Azure Storage "Table design patterns", "Log tail pattern"`, Fields: []FieldSpec{fDevice}},
	{Spec: SchemeSpec{Name: "device-guid", Description: "device, RowKey = random GUID", PartitionKey: "{device}", RowKey: "{guid}"},
		Pattern: "anti-pattern: GUID RowKey destroys ordering, so latest-N needs a partition scan", Source: `Azure Storage "Design for querying", "Sorting data in the Table service"`, Fields: []FieldSpec{fDevice}},
	{Spec: SchemeSpec{Name: "date", Description: "PartitionKey = day, RowKey = GUID", PartitionKey: "{time:yyyy-MM-dd}", RowKey: "{guid}"},
		Pattern: "event logs by day; today's partition takes every write", Source: `Azure Storage "Table design patterns", "Log data anti-pattern"`, Fields: nil},
	{Spec: SchemeSpec{Name: "hour", Description: "PartitionKey = hour, RowKey = unix + GUID", PartitionKey: "{time:yyyy-MM-dd-HH}", RowKey: "{unix}_{guid}"},
		Pattern: "event logs by hour for higher write rates", Source: `Azure Storage "Table design patterns", "Log data anti-pattern"`, Fields: nil},
	{Spec: SchemeSpec{Name: "minute", Description: "PartitionKey = minute, RowKey = GUID", PartitionKey: "{time:yyyy-MM-dd-HH-mm}", RowKey: "{guid}"},
		Pattern: "finest time bucket", Source: `Azure Storage "Table design patterns", "Log data anti-pattern"`, Fields: nil},
	{Spec: SchemeSpec{Name: "month", Description: "PartitionKey = month, RowKey = slug", PartitionKey: "{time:yyyy-MM}", RowKey: "{slug}"},
		Pattern: "blog posts by publish month, human-friendly RowKey", Source: `Azure Storage "Table design patterns", "Compound key pattern"`, Fields: []FieldSpec{fSlug}},
	{Spec: SchemeSpec{Name: "month-inverted", Description: "PartitionKey = month, RowKey = inverted ticks d19", PartitionKey: "{time:yyyy-MM}", RowKey: "{inverted_ticks}"},
		Pattern: "blog posts, latest first", Source: `Azure Storage "Table design patterns", "Log tail pattern"`, Fields: nil},
	{Spec: SchemeSpec{Name: "customer", Description: "PartitionKey = customer, RowKey = order id", PartitionKey: "{customer}", RowKey: "{order}"},
		Pattern: "e-commerce orders grouped by customer", Source: `Azure Storage "Design for querying"`, Fields: []FieldSpec{fCustomer, fOrder}},
	{Spec: SchemeSpec{Name: "customer-year", Description: "customer + year", PartitionKey: "{customer}_{time:yyyy}", RowKey: "{order}"},
		Pattern: "composite key bounding customer partitions", Source: `Azure Storage "Table design patterns", "Compound key pattern"`, Fields: []FieldSpec{fCustomer, fOrder}},
	{Spec: SchemeSpec{Name: "region-category", Description: "region + category composite", PartitionKey: "{region}_{category}", RowKey: "{guid}"},
		Pattern: "secondary dimension for very large groups", Source: `Azure Storage "Table design patterns", "Compound key pattern"`, Fields: []FieldSpec{fRegion, fCategory}},
	{Spec: SchemeSpec{Name: "hash-buckets", Description: "16 hash buckets of the order id", PartitionKey: "partition-{hash(order) % 16:03}", RowKey: "order-{order}"},
		Pattern: "hash distribution for maximum write throughput", Source: `Azure Storage "Table design patterns", "Prepend/append anti-pattern"`, Fields: []FieldSpec{fOrder}},
	{Spec: SchemeSpec{Name: "guid", Description: "a new GUID PartitionKey per entity", PartitionKey: "{guid}", RowKey: "0"},
		Pattern: "anti-pattern: one partition per row, no range queries, no batches", Source: `REST "Design a scalable partitioning strategy for Azure Table storage", "Partition sizing"`, Fields: nil},
	{Spec: SchemeSpec{Name: "append-only", Description: "zero-padded increasing PartitionKey", PartitionKey: "{i:010}", RowKey: "0"},
		Pattern: "anti-pattern: append-only keys land on one range partition server", Source: `REST "Design a scalable partitioning strategy for Azure Table storage", "Range partitions"; Azure Storage "Table design patterns", "Prepend/append anti-pattern"`, Fields: nil},
	{Spec: SchemeSpec{Name: "prepend-only", Description: "decreasing PartitionKey", PartitionKey: "{desc_seq}", RowKey: "0"},
		Pattern: "anti-pattern: prepend-only keys land on one range partition server", Source: `REST "Design a scalable partitioning strategy for Azure Table storage", "Range partitions"`, Fields: nil},
	{Spec: SchemeSpec{Name: "bib-age", Description: "race registrations: BIB: row and AGE: row in one entity group transaction",
		PartitionKey: "{race}__{distance}", RowKey: "BIB:{bib}__{runner}__{gender}__{age}", Rows: []string{"AGE:{age}__{bib}__{runner}__{gender}"}},
		Pattern: "secondary rows in the same partition for two dominant queries", Source: `REST "Design a scalable partitioning strategy for Azure Table storage", "Entity group transactions"; Azure Storage "Table design patterns", "Intra-partition secondary index pattern"`, Fields: []FieldSpec{fRace, fDistance, fBib, fRunner, fGender, fAge}},
	{Spec: SchemeSpec{Name: "blog-posts", Description: "posts by month + slug, with PostsByCategory/Tag/Author index tables",
		PartitionKey: "{time:yyyy-MM}", RowKey: "{slug}", Indexes: []IndexSpec{
			{Name: "PostsByCategory", PartitionKey: "{category}", RowKey: "{time:yyyy-MM-dd-HH-mm-ss}-{slug}"},
			{Name: "PostsByTag", PartitionKey: "{tag}", RowKey: "{time:yyyy-MM-dd-HH-mm-ss}-{slug}"},
			{Name: "PostsByAuthor", PartitionKey: "{author}", RowKey: "{time:yyyy-MM-dd-HH-mm-ss}-{slug}"},
		}},
		Pattern: "index tables instead of secondary indexes", Source: `Azure Storage "Table design patterns", "Index entities pattern"`, Fields: []FieldSpec{fSlug, fCategory, fTag, fAuthor}},
}

// LookupBuiltin returns the built-in scheme called name.
func LookupBuiltin(name string) (Builtin, bool) {
	for _, b := range Builtins {
		if b.Spec.Name == name {
			return b, true
		}
	}
	return Builtin{}, false
}

// BuiltinNames returns the catalogue's names, sorted.
func BuiltinNames() []string {
	out := make([]string, len(Builtins))
	for i, b := range Builtins {
		out[i] = b.Spec.Name
	}
	sort.Strings(out)
	return out
}

// WithBuiltinFields returns fields plus every default field of b that fields
// does not already declare.
func WithBuiltinFields(fields []FieldSpec, b Builtin) []FieldSpec {
	have := map[string]bool{}
	for _, f := range fields {
		have[f.Name] = true
	}
	out := append([]FieldSpec{}, fields...)
	for _, f := range b.Fields {
		if !have[f.Name] {
			out = append(out, f)
			have[f.Name] = true
		}
	}
	return out
}
