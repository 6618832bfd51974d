package emulator

import "net/http"

// serviceVersions are the versions of the Azure Storage REST API a
// request may name in x-ms-version (REST "Versioning for the Azure
// Storage services"; the list is Azurite 3.37.0's ValidAPIVersions,
// table/utils/constants.js, which follows the service's releases). The
// SDKs send 2019-02-02 (aztables, @azure/data-tables, azure-data-tables,
// Azure.Data.Tables, which also offers 2020-12-06) and 2017-04-17
// (azure-cosmosdb-table).
var serviceVersions = map[string]bool{
	"2026-06-06": true, "2026-04-06": true, "2026-02-06": true, "2025-11-05": true, "2025-07-05": true,
	"2025-05-05": true, "2025-01-05": true, "2024-11-04": true, "2024-08-04": true, "2024-05-04": true,
	"2024-02-04": true, "2023-11-03": true, "2023-08-03": true, "2023-01-03": true, "2022-11-02": true,
	"2021-12-02": true, "2021-10-04": true, "2021-08-06": true, "2021-06-08": true, "2021-04-10": true,
	"2021-02-12": true, "2020-12-06": true, "2020-10-02": true, "2020-08-04": true, "2020-06-12": true,
	"2020-04-08": true, "2020-02-10": true, "2019-12-12": true, "2019-10-10": true, "2019-07-07": true,
	"2019-02-02": true, "2018-11-09": true, "2018-03-28": true, "2017-11-09": true, "2017-07-29": true,
	"2017-04-17": true, "2016-05-31": true, "2015-12-11": true, "2015-07-08": true, "2015-04-05": true,
	"2015-02-21": true, "2014-02-14": true, "2013-08-15": true, "2012-02-12": true, "2011-08-18": true,
	"2009-09-19": true, "2009-07-17": true, "2009-04-14": true,
}

// errVersion refuses an x-ms-version that names no version of the
// service (REST "Common REST API error codes": InvalidHeaderValue).
var errVersion = &apiError{400, "InvalidHeaderValue", "The value for one of the HTTP headers is not in the correct format: x-ms-version names no version of the service."}

// checkVersion refuses a request whose x-ms-version names no version of
// the service; a request without the header is served.
func checkVersion(r *http.Request) *apiError {
	if v := reqHeader(r, "X-Ms-Version"); v != "" && v != "2019-02-02" && !serviceVersions[v] {
		return errVersion
	}
	return nil
}
