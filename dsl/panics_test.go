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
	path := filepath.Join(t.TempDir(), "f.hcl")
	if err := os.WriteFile(path, []byte("fabric \"f\" {\n  description = format(\"%v\", 1/0 % 1)\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, diags := Load(path, Options{})
	want := "Error during operation: the expression library failed on it (runtime error: invalid memory address or nil pointer dereference); " +
		"its % fails this way on an infinite number, which a division by zero gives."
	if len(diags) != 1 || diags[0].Summary != "Operation failed" || diags[0].Detail != want {
		t.Fatalf("got %v, want one diagnostic %q", diags, want)
	}
}
