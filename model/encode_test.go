package model

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestEncodeIsMarshal checks that Encode writes Marshal's bytes for
// every example's model.json and for fabrics with empty, missing and
// omitted members.
func TestEncodeIsMarshal(t *testing.T) {
	var fabrics []*Fabric
	paths, _ := filepath.Glob("../golden/*/model.json")
	if len(paths) == 0 {
		t.Fatal("no golden model.json found")
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Unmarshal(data)
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
