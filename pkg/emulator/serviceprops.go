package emulator

import (
	"encoding/xml"
	"strconv"
	"strings"
)

// The Table service's properties: Storage Analytics logging, hour and
// minute metrics, and CORS rules (REST "Set Table Service Properties",
// "Get Table Service Properties"). They are kept as they were set, each
// element as the request gave it, and written back in the same form; an
// element a Set request leaves out keeps its value ("If an element ... is
// not specified in the request body, the existing settings for that
// functionality are preserved"), and a Cors element, even empty, replaces
// every rule.

// serviceProperties is the StorageServiceProperties document. Booleans
// and numbers are kept as their text (read leniently: the legacy Python
// SDK writes True and False), checked by check; elements of other
// services (DeleteRetentionPolicy, StaticWebsite) are ignored.
type serviceProperties struct {
	XMLName       xml.Name    `xml:"StorageServiceProperties"`
	Logging       *loggingXML `xml:"Logging"`
	HourMetrics   *metricsXML `xml:"HourMetrics"`
	MinuteMetrics *metricsXML `xml:"MinuteMetrics"`
	Cors          *corsXML    `xml:"Cors"`
	Default       *string     `xml:"DefaultServiceVersion,omitempty"`
}

type loggingXML struct {
	Version   string        `xml:"Version"`
	Delete    string        `xml:"Delete"`
	Read      string        `xml:"Read"`
	Write     string        `xml:"Write"`
	Retention *retentionXML `xml:"RetentionPolicy"`
}

type metricsXML struct {
	Version     string        `xml:"Version"`
	Enabled     string        `xml:"Enabled"`
	IncludeAPIs *string       `xml:"IncludeAPIs"`
	Retention   *retentionXML `xml:"RetentionPolicy"`
}

type retentionXML struct {
	Enabled string  `xml:"Enabled"`
	Days    *string `xml:"Days"`
}

type corsXML struct {
	Rules []corsRuleXML `xml:"CorsRule"`
}

// corsRuleXML is one CORS rule: comma-separated lists, as they were set.
type corsRuleXML struct {
	AllowedOrigins  string `xml:"AllowedOrigins"`
	AllowedMethods  string `xml:"AllowedMethods"`
	AllowedHeaders  string `xml:"AllowedHeaders"`
	ExposedHeaders  string `xml:"ExposedHeaders"`
	MaxAgeInSeconds string `xml:"MaxAgeInSeconds"`
}

// defaultServiceProperties are an account's properties before any Set:
// logging and metrics off, no CORS rule (inferred: the REST reference
// gives no defaults).
func defaultServiceProperties() *serviceProperties {
	off := func() *metricsXML {
		return &metricsXML{Version: "1.0", Enabled: "false", Retention: &retentionXML{Enabled: "false"}}
	}
	return &serviceProperties{
		Logging:     &loggingXML{Version: "1.0", Delete: "false", Read: "false", Write: "false", Retention: &retentionXML{Enabled: "false"}},
		HourMetrics: off(), MinuteMetrics: off(), Cors: &corsXML{},
	}
}

// merged returns p with the elements set overlaid, as a Set request
// changes them.
func (p serviceProperties) merged(set *serviceProperties) *serviceProperties {
	if set.Logging != nil {
		p.Logging = set.Logging
	}
	if set.HourMetrics != nil {
		p.HourMetrics = set.HourMetrics
	}
	if set.MinuteMetrics != nil {
		p.MinuteMetrics = set.MinuteMetrics
	}
	if set.Cors != nil {
		p.Cors = set.Cors
	}
	if set.Default != nil {
		p.Default = set.Default
	}
	return &p
}

// Refusals of a Set Table Service Properties body (REST "Common REST API
// error codes"): more than five CORS rules is InvalidXmlDocument (Azure's
// answer as azure-storage-net's tests record it, Azurite issue #345), and
// so is a retention of more than 365 days (Azure's answer to aztables'
// TestRetentionTooLong, recorded in azure-sdk-assets'
// go/data/aztables recordings: 400 InvalidXmlDocument, "XML specified is
// not syntactically valid."); another value out of its range
// InvalidXmlNodeValue.
var (
	errTooManyCorsRules = &apiError{400, "InvalidXmlDocument", "XML specified is not syntactically valid: at most five CORS rules are allowed."}
	errXMLNodeValue     = &apiError{400, "InvalidXmlNodeValue", "The value for one of the XML nodes is not in the correct format."}
)

// check validates a Set body: Booleans, retention days of 1 to 365 when
// retention is enabled, and the CORS rules (checkCorsRule).
func (p *serviceProperties) check() *apiError {
	if p.Cors != nil && len(p.Cors.Rules) > maxCorsRules {
		return errTooManyCorsRules
	}
	var bools []string
	var retentions []*retentionXML
	if l := p.Logging; l != nil {
		bools, retentions = append(bools, l.Delete, l.Read, l.Write), append(retentions, l.Retention)
	}
	for _, m := range []*metricsXML{p.HourMetrics, p.MinuteMetrics} {
		if m != nil {
			bools, retentions = append(bools, m.Enabled), append(retentions, m.Retention)
			if m.IncludeAPIs != nil {
				bools = append(bools, *m.IncludeAPIs)
			}
		}
	}
	for _, r := range retentions {
		if r == nil {
			return errXMLNodeValue // RetentionPolicy is required
		}
		bools = append(bools, r.Enabled)
		if on, _ := xmlBool(r.Enabled); on {
			if aerr := checkDays(r.Days); aerr != nil {
				return aerr
			}
		}
	}
	for _, b := range bools {
		if _, ok := xmlBool(b); !ok {
			return errXMLNodeValue
		}
	}
	if p.Cors != nil {
		for _, r := range p.Cors.Rules {
			if !validCorsRule(r) {
				return errXMLNodeValue
			}
		}
	}
	return nil
}

// xmlBool reads a Boolean element: true or false in any case.
func xmlBool(s string) (value, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// checkDays checks an enabled retention policy's Days: a number of 1 to
// 365 ("Days: the minimum value is 1 day and the maximum value is 365");
// a number outside is InvalidXmlDocument (as Azure answers 366), no
// number InvalidXmlNodeValue.
func checkDays(days *string) *apiError {
	if days == nil {
		return errXMLNodeValue
	}
	n, err := strconv.Atoi(strings.TrimSpace(*days))
	switch {
	case err != nil:
		return errXMLNodeValue
	case n < 1 || n > 365:
		return errInvalidXML
	}
	return nil
}

// document is the Get Table Service Properties answer.
func (p *serviceProperties) document() []byte {
	body, _ := xml.Marshal(p)
	return append([]byte(xml.Header[:len(xml.Header)-1]), body...)
}
