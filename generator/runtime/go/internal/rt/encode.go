package rt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// unencodable stands in a tree for a Go value that has no JSON form (e.g. a channel or NaN).
type unencodable struct{ err error }

// Encode writes a tree as JSON text (no HTML escaping; keys in tree order),
// without recursion, so any depth is written.
func Encode(tree any) ([]byte, error) {
	var b bytes.Buffer
	type open struct {
		list []any
		obj  *Object
		next int
	}
	var stack []open
	value := tree
	for {
		switch x := value.(type) {
		case []any:
			b.WriteByte('[')
			stack = append(stack, open{list: x})
		case *Object:
			b.WriteByte('{')
			stack = append(stack, open{obj: x})
		default:
			if err := encodeScalar(&b, value); err != nil {
				return nil, err
			}
		}
		for found := false; !found; {
			if len(stack) == 0 {
				return b.Bytes(), nil
			}
			top := &stack[len(stack)-1]
			switch {
			case top.obj != nil && top.next < len(top.obj.keys):
				if top.next > 0 {
					b.WriteByte(',')
				}
				key := top.obj.keys[top.next]
				encodeString(&b, key)
				b.WriteByte(':')
				value, found = top.obj.vals[top.next], true
			case top.obj == nil && top.next < len(top.list):
				if top.next > 0 {
					b.WriteByte(',')
				}
				value, found = top.list[top.next], true
			case top.obj != nil:
				b.WriteByte('}')
				stack = stack[:len(stack)-1]
				continue
			default:
				b.WriteByte(']')
				stack = stack[:len(stack)-1]
				continue
			}
			top.next++
		}
	}
}

func encodeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}

func encodeScalar(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		encodeString(b, x)
	case json.Number:
		b.WriteString(string(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("json: unsupported value: %v", x)
		}
		out, _ := json.Marshal(x)
		b.Write(out)
	case unencodable:
		return x.err
	default:
		return fmt.Errorf("json: unsupported tree value of type %T", v)
	}
	return nil
}
