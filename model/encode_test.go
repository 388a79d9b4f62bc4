package model

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestEncodeIsMarshal checks that Encode writes Marshal's bytes for
// every example's model.json and for fabrics with empty, missing and
// omitted members.
func TestEncodeIsMarshal(t *testing.T) {
	var fabrics []*Fabric
	for _, g := range goldenModels(t) {
		f, err := Unmarshal(g.data)
		if err != nil {
			t.Fatal(err)
		}
		fabrics = append(fabrics, f)
	}
	fabrics = append(fabrics,
		&Fabric{Name: "empty"},
		&Fabric{Name: "<&>", Description: "a \"b\" <c>", VLANs: []VLAN{}, Switches: []Switch{{Name: "s"}},
			Accepted: []AcceptedWarning{{Warning: "w", Reason: "r", Count: 2}}})
	for _, f := range fabrics {
		want, err := Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := Encode(&got, f); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: Encode differs from Marshal (%d bytes, want %d)", f.Name, got.Len(), len(want))
		}
	}
}

// indentCases are compact JSON texts with what could trip an indenter:
// punctuation and escapes inside strings, empty and nested containers.
var indentCases = []string{
	`{}`, `[]`, `{"a":{}}`, `{"a":[]}`, `[[],[[]],{}]`, `{"a":1,"b":[1,2,{"c":null}],"d":{"e":true}}`,
	`"plain"`, `3.5e-7`, `null`, `{"k:v":"x,y","q":"a\"b","s":"\\","t":"\\\"","u":"{[]}"}`,
	`["\u2028","\u003c&\u003e","é",""]`, `{"":""}`, `[{"a":[{"b":[]}]},{}]`,
}

// TestIndentIsJSONIndent compares indent with json.Indent, under the
// prefixes the encoder uses.
func TestIndentIsJSONIndent(t *testing.T) {
	for _, src := range indentCases {
		for _, prefix := range []string{"", "  ", "    "} {
			sameIndent(t, []byte(src), prefix)
		}
	}
}

// sameIndent fails t when indent and json.Indent lay src out
// differently.
func sameIndent(t *testing.T, src []byte, prefix string) {
	t.Helper()
	var want bytes.Buffer
	if err := json.Indent(&want, src, prefix, "  "); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if got := indent(nil, src, prefix, "  "); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("%s with prefix %q:\ngot  %s\nwant %s", src, prefix, got, want.Bytes())
	}
}

// FuzzIndent compares indent with json.Indent on any valid JSON, made
// compact as encoding/json writes it.
func FuzzIndent(f *testing.F) {
	for _, s := range indentCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(s)) != nil {
			return
		}
		sameIndent(t, compact.Bytes(), "    ")
	})
}

// BenchmarkEncode and BenchmarkMarshal write the largest golden model;
// Marshal, encoding/json's indentation, is the baseline for Encode's.
func BenchmarkEncode(b *testing.B) {
	f := largestGolden(b)
	for b.Loop() {
		if err := Encode(io.Discard, f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	f := largestGolden(b)
	for b.Loop() {
		if _, err := Marshal(f); err != nil {
			b.Fatal(err)
		}
	}
}

// goldenModel is one example's golden model.json.
type goldenModel struct {
	example string
	data    []byte
}

// goldenModels reads every example's golden model.json.
func goldenModels(t testing.TB) []goldenModel {
	t.Helper()
	paths, _ := filepath.Glob("../golden/*/model.json")
	if len(paths) == 0 {
		t.Fatal("no golden model.json found")
	}
	var out []goldenModel
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, goldenModel{example: filepath.Base(filepath.Dir(p)), data: data})
	}
	return out
}

// largestGolden is the fabric of the largest golden model.json.
func largestGolden(b *testing.B) *Fabric {
	var largest []byte
	for _, g := range goldenModels(b) {
		if len(g.data) > len(largest) {
			largest = g.data
		}
	}
	f, err := Unmarshal(largest)
	if err != nil {
		b.Fatal(err)
	}
	return f
}
