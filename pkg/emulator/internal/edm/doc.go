// Package edm writes and reads the forms of the Table service's Entity
// Data Model values that the embedded service stores and answers with:
// times in 100 ns ticks (an entity's Timestamp and ETag, Edm.DateTime
// values, which are UTC: AppendUTC), GUIDs (Edm.Guid, read in every form
// .NET reads: ParseGUID), and Doubles as the service writes them in JSON
// (AppendDouble). Each writer has its reader of the
// canonical form it writes (CompactTime, CompactGUID), which the store
// uses to hold a value compactly only when writing it back gives the
// client's bytes.
//
// It imports the standard library only: no package of the service
// (store, filter, the REST service) and nothing of HTTP.
package edm
