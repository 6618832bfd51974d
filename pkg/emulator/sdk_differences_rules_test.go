package emulator

// Where Azurite 3.37.0 differs from Azure in the steps on the rules its
// own table suites encode (tools/sdk-js/wide_rules.mjs), and what Azure
// does. docs/conformance.md states each rule (R20–R28) with its source.
const (
	causeSASBesideHeader = "Azurite accepts a request whose Shared Key Lite header fails when a SAS beside it passes, as its raw REST " +
		"suites send them; Azure authenticates a request by its Authorization header (with a SAS in the URL, Azure still refused " +
		"a header it could not read: 400 InvalidAuthenticationInfo, quoted in iothub-explorer issue #58), which must carry a " +
		"date and be signed over the path requested (REST \"Authorize with Shared Key\")"
	causeTypedNull = "Azurite refuses a null with a type annotation (400 InvalidInput); Azure stores no null: \"Specifying a property " +
		"with a null value is equivalent to omitting that property in the request\" (REST \"Merge Entity\", \"Update Entity\"), " +
		"whatever its annotation (azure-storage-net issue #548, from the REST API); the JavaScript SDK sends Infinity and an " +
		"invalid Date as typed nulls"
	causeAnnotationStored = "Azurite stores annotations (X@term), OData members (odata.*) and names that an @ begins or ends as " +
		"properties; Azure reads JSON Light: an annotation and an odata.* member are no property, and a name that an @ begins " +
		"or ends annotates nothing and is no C# identifier, 400 PropertyNameInvalid (REST \"Payload format for Table service " +
		"operations\", \"Understanding the Table service data model\"; OData .NET Libraries 5.x TryParsePropertyAnnotation)"
	causeNullLiteral = "Azurite matches the entities that lack the property to `G eq null`; Azure refuses the null literal with 400 InvalidInput, \"One of the " +
		"request inputs is not valid.\" (Azure's answer to `myCol eq null`, quoted in Azurite issue #2471)"
)

func init() { azuriteDifferences = append(azuriteDifferences, ruleDifferences...) }

// ruleDifferences are the steps of wide_rules.mjs where Azurite answers
// otherwise than Azure.
var ruleDifferences = []difference{
	{"js", "SAS and a Shared Key Lite signed without a date", `{"status":403}`, `{"status":200}`, causeSASBesideHeader},
	{"js", "SAS and a Shared Key Lite signed over another path", `{"status":403}`, `{"status":200}`, causeSASBesideHeader},
	{"js", "raw insert of a typed null", `{"status":204}`, `{"status":400,"code":"InvalidInput"}`, causeTypedNull},
	{"js", "read a typed null", `{"partitionKey":"string:n","rowKey":"string:1"}`, `{"error":{"status":404,"code":"ResourceNotFound"}}`, causeTypedNull},
	{"js", "insert of the SDK's Double Infinity", `"ok"`, `{"error":{"status":400,"code":"InvalidInput"}}`, causeTypedNull},
	{"js", "insert of the SDK's invalid Date", `"ok"`, `{"error":{"status":400,"code":"InvalidInput"}}`, causeTypedNull},
	{"js", "read what the SDK sent for Infinity and an invalid Date", `[{"partitionKey":"string:n","rowKey":"string:6"},{"partitionKey":"string:n","rowKey":"string:7"}]`,
		`[{"status":404,"code":"ResourceNotFound"},{"status":404,"code":"ResourceNotFound"}]`, causeTypedNull},
	{"js", "read a custom annotation", `{"X":"number:2","partitionKey":"string:n","rowKey":"string:2"}`,
		`{"X":"number:2","X@custom.term":"number:1","partitionKey":"string:n","rowKey":"string:2"}`, causeAnnotationStored},
	{"js", "read an odata member", `{"Y":"number:3","partitionKey":"string:n","rowKey":"string:3"}`,
		`{"Y":"number:3","odata.foo":"number:1","partitionKey":"string:n","rowKey":"string:3"}`, causeAnnotationStored},
	{"js", "raw insert of a name an @ begins", `{"status":400,"code":"PropertyNameInvalid"}`, `{"status":204}`, causeAnnotationStored},
	{"js", "raw insert of a name an @ ends", `{"status":400,"code":"PropertyNameInvalid"}`, `{"status":204}`, causeAnnotationStored},
	{"js", "filter with the null literal", `{"error":{"status":400,"code":"InvalidInput"}}`, `["g/4"]`, causeNullLiteral},
	{"js", "filter Guid gt", `["g/3"]`, `["g/2","g/3"]`, causeGuidLiteral},
}
