package rt

import (
	"strconv"
	"strings"
)

// ErrorDetail is one problem: where (a JSON pointer into the input) and what.
type ErrorDetail struct {
	// Path is a JSON pointer, e.g. "/conversation/conversation/1/speaker".
	Path string `json:"path"`
	// Message is the spec's message for the failed check.
	Message string `json:"message"`
	// Keyword is the check that failed, e.g. "required" or a rule kind such as "member_of".
	Keyword string `json:"keyword"`
}

func (e ErrorDetail) String() string {
	if e.Path == "" {
		return "/: " + e.Message
	}
	return e.Path + ": " + e.Message
}

// ValidationError lists every problem found, in document order.
//
// Error() is the first problem's message alone, the text a fail-fast
// validator reports; Detail() lists them all with their pointers.
type ValidationError struct {
	// Errors holds every problem, in document order; never empty.
	Errors []ErrorDetail
}

func (e *ValidationError) Error() string {
	return e.Errors[0].Message
}

// Detail lists every problem, one "pointer: message" per line.
func (e *ValidationError) Detail() string {
	lines := make([]string, len(e.Errors))
	for i, d := range e.Errors {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// MoreMessage is the last entry of a capped error list.
func MoreMessage(count int) string {
	return "... and " + strconv.Itoa(count) + " more problems"
}

// inputError is a problem with JSON text itself, reported like any other problem.
func inputError(message string) *ValidationError {
	return &ValidationError{Errors: []ErrorDetail{{Message: message, Keyword: "json"}}}
}
