package dsl

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPanicInOperationHasNoStackTrace: cty panics computing 1/0 % 1 and
// words the panic with a Go stack trace; the user gets the operation's
// error without it. Found by FuzzNativeSame (testdata/fuzz).
func TestPanicInOperationHasNoStackTrace(t *testing.T) {
	for _, tc := range []struct{ expr, summary, detail string }{
		{"1/0 % 1", "Operation failed", "Error during operation: the expression library failed on it (runtime error: invalid memory address or nil pointer dereference); " +
			"its % fails this way on an infinite number, which a division by zero gives."},
		{"log(1/0, 1/0)", "Error in function call", `Call to function "log" failed: the expression library failed on it (Float.SetFloat64(NaN)); ` +
			"it fails this way on an infinite or not-a-number value, which a division by zero gives."},
	} {
		path := filepath.Join(t.TempDir(), "f.hcl")
		if err := os.WriteFile(path, []byte("fabric \"f\" {\n  description = format(\"%v\", "+tc.expr+")\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, diags := Load(path, Options{})
		if len(diags) != 1 || diags[0].Summary != tc.summary || diags[0].Detail != tc.detail {
			t.Errorf("%s: got %v, want one diagnostic %q: %q", tc.expr, diags, tc.summary, tc.detail)
		}
	}
}
