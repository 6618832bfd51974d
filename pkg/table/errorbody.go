package table

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	"github.com/tablestress/tablestress/internal/jsontext"
)

// responseBody is the body of an error answer; azcore has read and kept it.
func responseBody(resp *http.Response) []byte {
	if resp == nil || resp.Body == nil {
		return nil
	}
	b, _ := runtime.Payload(resp)
	return b
}

// errorDetail reads the error code and the first line of the message of
// an error body, without decoding it whole: JSON {"odata.error":{"code":..,
// "message":{"value":..}}} (Table Storage, Azurite), {"error":{..}} or a
// bare {"code":..,"message":..} (Cosmos DB), or XML <error><code>..</code>
// <message>..</message></error> (any namespace prefix). Empty strings when
// the body holds no such thing.
func errorDetail(body []byte) (code, msg string) {
	i := jsontext.SkipSpace(body, 0)
	switch {
	case i < len(body) && body[i] == '{':
		return jsonErrorDetail(body)
	case i < len(body) && body[i] == '<':
		return xmlErrorDetail(body)
	}
	return "", ""
}

func jsonErrorDetail(body []byte) (code, msg string) {
	obj := body
	m := jsontext.Members(body)
	for {
		n, v, ok := m.Next()
		if !ok {
			break
		}
		if (string(n) == "odata.error" || string(n) == "error") && len(v) > 0 && v[0] == '{' {
			obj = v
		}
	}
	m = jsontext.Members(obj)
	for {
		n, v, ok := m.Next()
		if !ok {
			break
		}
		switch {
		case string(n) == "code" && kindOf(v) == keyString:
			code, _ = jsontext.Decode(v)
		case string(n) == "message" && kindOf(v) == keyString:
			msg = firstLineJSON(v)
		case string(n) == "message" && len(v) > 0 && v[0] == '{':
			vm := jsontext.Members(v)
			for {
				vn, vv, ok := vm.Next()
				if !ok {
					break
				}
				if string(vn) == "value" && kindOf(vv) == keyString {
					msg = firstLineJSON(vv)
				}
			}
		}
	}
	return code, msg
}

// firstLineJSON decodes the first line of a raw JSON string: up to its
// first \n or \r escape (the rest is RequestId and Time).
func firstLineJSON(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	for j := 0; j < len(inner); j++ {
		if inner[j] != '\\' || j+1 >= len(inner) {
			continue
		}
		if inner[j+1] == 'n' || inner[j+1] == 'r' {
			inner = inner[:j]
			break
		}
		j++
	}
	if bytes.IndexByte(inner, '\\') < 0 {
		return oneLine(string(inner), "")
	}
	s, _ := jsontext.Decode(append(append([]byte{'"'}, inner...), '"'))
	return oneLine(s, "")
}

func xmlErrorDetail(body []byte) (code, msg string) {
	code = strings.TrimSpace(string(xmlText(body, "code")))
	msg = oneLine(xmlUnescape(string(xmlText(body, "message"))), "")
	return code, msg
}

// xmlText returns the text of the first element with local name local
// (any namespace prefix, any attributes), nil when there is none.
func xmlText(body []byte, local string) []byte {
	for pos := 0; pos < len(body); {
		i := bytes.IndexByte(body[pos:], '<')
		if i < 0 {
			return nil
		}
		start := pos + i + 1
		end := start
		for end < len(body) && body[end] != '>' && body[end] != ' ' && body[end] != '/' {
			end++
		}
		name := body[start:end]
		if k := bytes.IndexByte(name, ':'); k >= 0 {
			name = name[k+1:]
		}
		pos = end
		if string(name) != local {
			continue
		}
		gt := bytes.IndexByte(body[end:], '>')
		if gt < 0 {
			return nil
		}
		text := body[end+gt+1:]
		if lt := bytes.IndexByte(text, '<'); lt >= 0 {
			text = text[:lt]
		}
		return text
	}
	return nil
}

var xmlEntities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&")

func xmlUnescape(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	return xmlEntities.Replace(s)
}

// oneLine keeps the first line of s, trimmed and at most 200 bytes (cut
// on a rune boundary); fallback when that is empty.
func oneLine(s, fallback string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return fallback
	}
	if len(s) > 200 {
		cut := 200
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// authDetail reads an error answer's AuthenticationErrorDetail: the XML
// element Azure Storage's errors carry (<AuthenticationErrorDetail>…), a
// JSON member of that name (any case), or an "AuthenticationErrorDetail:"
// line of the message (as the embedded service writes it in the Table
// service's JSON errors). "" when there is none.
func authDetail(body []byte) string {
	const name = "authenticationerrordetail"
	lower := bytes.ToLower(body)
	i := bytes.Index(lower, []byte(name))
	if i < 0 {
		return ""
	}
	rest := body[i+len(name):]
	switch {
	case len(rest) > 0 && rest[0] == '>': // XML
		if end := bytes.IndexByte(rest, '<'); end > 0 {
			return oneLine(xmlUnescape(string(rest[1:end])), "")
		}
	case bytes.HasPrefix(rest, []byte(`":`)): // a JSON member
		j := jsontext.SkipSpace(rest, 2)
		var s string
		if j < len(rest) && rest[j] == '"' && json.NewDecoder(bytes.NewReader(rest[j:])).Decode(&s) == nil {
			return oneLine(s, "")
		}
	case len(rest) > 0 && rest[0] == ':': // a line of a JSON string
		end := 1
		for end < len(rest) && rest[end] != '"' && !(rest[end] == '\\' && end+1 < len(rest) && (rest[end+1] == 'n' || rest[end+1] == 'r')) {
			if rest[end] == '\\' {
				end++
			}
			end++
		}
		s, _ := jsontext.Decode(append(append([]byte{'"'}, rest[1:min(end, len(rest))]...), '"'))
		return oneLine(s, "")
	}
	return ""
}
