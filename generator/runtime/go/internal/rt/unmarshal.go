package rt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// KindOf names the JSON kind of raw JSON text by its first byte.
func KindOf(data []byte) string {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return ""
	}
	switch trimmed[0] {
	case '"':
		return "string"
	case '[':
		return "array"
	case '{':
		return "object"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	if bytes.ContainsAny(trimmed, ".eE") {
		if f, err := strconv.ParseFloat(string(bytes.TrimSpace(trimmed)), 64); err == nil && f == math.Trunc(f) {
			return "integer"
		}
		return "number"
	}
	return "integer"
}

// PeekTag returns the string value of one key of a raw JSON object, or "".
func PeekTag(data []byte, key string) string {
	tag, _ := peekString(data, key)
	return tag
}

// PeekTagIsString reports whether data is a JSON object whose key holds a string (not null,
// which json.Unmarshal would read into a string as "").
func PeekTagIsString(data []byte, key string) bool {
	_, ok := peekString(data, key)
	return ok
}

// peekString is the string value of one key of a raw JSON object, and whether it is one.
func peekString(data []byte, key string) (string, bool) {
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return "", false
	}
	raw := bytes.TrimSpace(probe[key])
	var tag string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &tag) != nil {
		return "", false
	}
	return tag, true
}

// UnmarshalUnknown reads an open union's unknown variant as json.Unmarshal would, but with
// its numbers kept as written (json.Number), so that MarshalJSON writes them back unchanged.
func UnmarshalUnknown(data []byte, into *map[string]any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return err
	}
	*into = m
	return nil
}

// UnmarshalMismatch is the error a union or tuple returns for JSON of no variant's shape.
func UnmarshalMismatch(typeName string, data []byte) error {
	shown := string(data)
	if len(shown) > 40 {
		shown = shown[:40] + "..."
	}
	return fmt.Errorf("json: cannot unmarshal %s into %s", strings.TrimSpace(shown), typeName)
}
