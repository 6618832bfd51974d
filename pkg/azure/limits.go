package azure

import "time"

// A page of a query's answer. Source: REST "Query Timeout and
// Pagination": "A query against the Table service may return a maximum of
// 1,000 items at one time and may execute for a maximum of five seconds";
// a page also ends where the query crosses a partition boundary, and "the
// total time allotted to the request for scheduling and processing the
// query is 30 seconds, including the five seconds for query execution".
// REST "Query operators supported for the Table service" (Take): a $top
// "greater than 1,000" is refused with 400 (Bad Request).
const (
	// PageRows is the most entities one page holds, and the largest $top.
	PageRows = 1000
	// PageExecution is the longest a query executes for one page.
	PageExecution = 5 * time.Second
	// QueryRequestTime is the longest one query request takes, scheduling
	// and the PageExecution included.
	QueryRequestTime = 30 * time.Second
)

// An entity group transaction. Source: Azure Storage "Scalability and
// performance targets for Table storage": "A transaction can include at
// most 100 entities and the payload must be less than 4 MiB in size. An
// entity group transaction can include an update to an entity only
// once."; REST "Performing entity group transactions" (one table, one
// PartitionKey).
const (
	// TransactionEntities is the most operations one transaction holds.
	TransactionEntities = 100
	// TransactionBytes is the largest transaction payload.
	TransactionBytes = 4 << 20
)

// An entity, its keys and properties. Source: REST "Understanding the
// Table service data model" and Azure Storage "Scalability and performance
// targets for Table storage".
const (
	// EntityBytes is the largest entity: "The combined size of all data
	// in an entity's properties can't exceed 1 MiB."
	EntityBytes = 1 << 20
	// Properties is the most properties an entity has, "including the
	// three system properties, PartitionKey, RowKey, and Timestamp".
	Properties = 255
	// SystemProperties are those three.
	SystemProperties = 3
	// PropertyNameChars is the longest property name: "Property names ...
	// can be up to 255 characters in length".
	PropertyNameChars = 255
	// StringBytes is the largest String value, "A UTF-16-encoded value.
	// String values can be up to 64 KiB in size": StringUnits UTF-16 code
	// units.
	StringBytes = 64 << 10
	// StringUnits is StringBytes in UTF-16 code units.
	StringUnits = StringBytes / 2
	// BinaryBytes is the largest Binary value, "An array of bytes up to 64
	// KiB in size".
	BinaryBytes = 64 << 10
	// KeyBytes is the largest PartitionKey or RowKey, "A string up to 1
	// KiB in size", counted as Azure stores strings, in UTF-16.
	KeyBytes = 1 << 10
	// KeyUnits is KeyBytes in UTF-16 code units: 512, a character outside
	// the basic plane taking two.
	KeyUnits = KeyBytes / 2
	// KeyForbidden are the characters "not allowed in values for the
	// PartitionKey and RowKey properties" besides the control characters
	// (U+0000 to U+001F and U+007F to U+009F, IsKeyControl).
	KeyForbidden = `/\#?`
)

// IsKeyControl reports whether r is a control character keys may not
// hold: "Control characters from U+0000 to U+001F ... from U+007F to
// U+009F" (REST "Understanding the Table service data model", "Characters
// disallowed in key fields").
func IsKeyControl(r rune) bool { return r <= 0x1f || (r >= 0x7f && r <= 0x9f) }
