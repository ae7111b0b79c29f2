package rt

// The input policy; the Python runtime states the same numbers and messages.
const (
	// MaxDepth is how deep any value may sit below the document root, typed or free-form (metadata).
	MaxDepth = 128
	// MaxErrors is how many problems a ValidationError lists; one last entry counts the rest.
	MaxErrors = 100
	// MaxIntDigits is the longest integer literal JSON text may hold.
	MaxIntDigits = 4300

	depthMessage     = "nesting deeper than 128 levels is not accepted"
	notUTF8Message   = "invalid JSON: the text is not valid UTF-8"
	bomMessage       = "invalid JSON: a byte order mark (BOM) is not accepted; send UTF-8 without one"
	surrogateMessage = "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"
	longIntMessage   = "invalid JSON: an integer literal has more than 4300 digits"
)
