package rt

import "testing"

func TestUniqueItemsComparesNumbersByValue(t *testing.T) {
	for text, want := range map[string]bool{
		"[1, 1.0]": false, "[0, -0]": false, "[1.0, 1e0]": false, "[100000000000000000000, 1e20]": false,
		"[0.5, 5e-1]": false, `[{"a": [1]}, {"a": [1.0]}]`: false, "[1e400, 2e400]": false,
		`[{"a": 1, "b": 2}, {"b": 2, "a": 1}]`: false, "[1, true]": true, `["1", 1]`: true, "[null, 0]": true, "[[1, 2], [2, 1]]": true, "[1, 1.5]": true,
	} {
		tree, err := Decode([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if got := unique(tree.([]any), 1); got != want {
			t.Errorf("%s: unique = %v", text, got)
		}
	}
}

func TestNumberKeyReducesEqualNumbersToOneText(t *testing.T) {
	for text, want := range map[string]string{
		"1": "1e0", "1.0": "1e0", "1e0": "1e0", "10E-1": "1e0", "-0": "0", "0.000": "0",
		"100": "1e2", "-2.50": "-25e-1", "1e99999999999999999999": "1e99999999999999999999",
	} {
		if got := NumberKey(text); got != want {
			t.Errorf("NumberKey(%q) = %q, want %q", text, got, want)
		}
	}
}
