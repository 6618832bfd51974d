package table

import (
	"errors"
	"net/url"
	"strings"
)

// transportCause describes an error that got no HTTP answer in one line,
// without the request URL (which may carry a SAS signature) and with any
// URL or signature left in the text redacted.
func transportCause(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return oneLine(scrub(err.Error(), nil), "no answer")
}

// scrub redacts what may be secret in an error text: URLs (http://… up to
// the next space becomes <url>), sig= values, and the given secrets.
func scrub(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, "<redacted>")
		}
	}
	for _, scheme := range [...]string{"https://", "http://"} {
		for {
			i := strings.Index(s, scheme)
			if i < 0 {
				break
			}
			end := strings.IndexAny(s[i:], " \t\r\n\"'")
			if end < 0 {
				end = len(s) - i
			}
			s = s[:i] + "<url>" + s[i+end:]
		}
	}
	for from := 0; ; {
		i := strings.Index(s[from:], "sig=")
		if i < 0 {
			break
		}
		i += from + len("sig=")
		end := strings.IndexAny(s[i:], "& \t\r\n\"'")
		if end < 0 {
			end = len(s) - i
		}
		s = s[:i] + "<redacted>" + s[i+end:]
		from = i + len("<redacted>")
	}
	return s
}
