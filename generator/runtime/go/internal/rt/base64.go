package rt

import (
	"encoding/base64"
	"regexp"
)

// base64Text is standard base64 with padding, the form the exported schema states.
var base64Text = regexp.MustCompile(`^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`)

// Base64 checks base64 text and returns the decoded bytes.
func Base64(msgs Msgs) Parser[[]byte] {
	return func(v any, c *Context) ([]byte, bool) {
		s, ok := v.(string)
		if !ok {
			c.Error(msgs["type"], "type", v)
			return nil, false
		}
		out, ok := base64Value(s)
		if !ok {
			c.Error(msgs["contentEncoding"], "contentEncoding", s)
		}
		return out, ok
	}
}

// base64Value decodes standard padded base64 text; false (and nil) for any other text.
func base64Value(s string) ([]byte, bool) {
	out, err := base64.StdEncoding.DecodeString(s)
	if !base64Text.MatchString(s) || err != nil {
		return nil, false
	}
	return out, true
}

// TreeBytes encodes bytes as standard padded base64 text (nil bytes are none: "").
func TreeBytes(b []byte) any {
	return base64.StdEncoding.EncodeToString(b)
}

// TreeNullBytes is TreeBytes where null is a value of the type: nil bytes are null.
func TreeNullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return TreeBytes(b)
}
