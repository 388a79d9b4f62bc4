package model

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// decodeCases are inputs on which Decode and Unmarshal must agree: the
// shapes fabricc writes, and the ones a hand-edited or hostile
// model.json may hold.
var decodeCases = []string{
	`{"name":"a","switches":[{"name":"s1"},{"name":"s2"}],"hosts":[],"links":null}`,
	`{}`,
	`null`,
	` {"name":"a"} `,
	`{"switches":[]}`,
	`{"switches":null,"hosts":[{"name":"h"}]}`,
	`{"unknown":[1,2,{"x":3}],"name":"a"}`,
	// A repeated member: the second replaces the first, decoded over its
	// elements in place (the first element keeps its model, the second
	// its hardware).
	`{"switches":[{"name":"a","model":"m"},{"name":"b","hardware":{"asic":"x"}}],"switches":[{"name":"c"}],"switches":[{"name":"d"},{"name":"e"}]}`,
	`{"switches":[{"name":"a"}],"switches":[],"switches":[{"platform":"eos"}]}`,
	`{"switches":[{"name":"a"}],"switches":null,"switches":[{"platform":"eos"}]}`,
	// Names match case folded, as Unmarshal matches them.
	`{"Switches":[{"name":"a"}],"switches":[{"platform":"eos"}],"SWITCHES":[{"os_version":"1"}]}`,
	`{"qos":{"profile":"p"},"qos":{"roce_class":"r"}}`,
	`{"switches":[null,{"name":"b"}]}`,
	`{"name":"\u00e9\n\"x\"","description":"<b>&"}`,
	// Refused by both.
	``,
	`{`,
	`{"name":"a"`,
	`{"name":"a"}x`,
	`{"name":"a"} {}`,
	`{"switches":[{"name":"a"},]}`,
	`{"switches":{}}`,
	`{"switches":"s"}`,
	`{"switches":[1]}`,
	`{"hosts":[{"name":5}]}`,
	`{"name":1}`,
	`[]`,
	`"fabric"`,
	`5`,
	`true`,
	`{"links":[{"a":{"device":"x"}}`,
}

// TestDecodeIsUnmarshal checks that Decode gives Unmarshal's fabric for
// every example's model.json and every case above, and refuses what it
// refuses.
func TestDecodeIsUnmarshal(t *testing.T) {
	for _, g := range goldenModels(t) {
		t.Run(g.example, func(t *testing.T) { sameAsUnmarshal(t, g.data) })
	}
	for _, c := range decodeCases {
		t.Run(c, func(t *testing.T) { sameAsUnmarshal(t, []byte(c)) })
	}
}

// TestDecodeReadsAsItGoes checks that Decode reads its input as a
// stream: a reader that fails after the first switch fails the decode
// with that reader's error, not a syntax error at the end.
func TestDecodeReadsAsItGoes(t *testing.T) {
	gone := errors.New("disk gone")
	r := io.MultiReader(strings.NewReader(`{"switches":[{"name":"a"},`), iotest.ErrReader(gone))
	if _, err := Decode(r); !errors.Is(err, gone) {
		t.Fatalf("got %v, want the reader's error", err)
	}
}

// FuzzDecodeIsUnmarshal compares Decode with Unmarshal on any input.
func FuzzDecodeIsUnmarshal(f *testing.F) {
	for _, c := range decodeCases {
		f.Add(c)
	}
	if data, err := os.ReadFile("../golden/homelab-40g/model.json"); err == nil {
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, s string) { sameAsUnmarshal(t, []byte(s)) })
}

// sameAsUnmarshal fails t unless Decode and Unmarshal both refuse data
// or give the same fabric.
func sameAsUnmarshal(t *testing.T, data []byte) {
	t.Helper()
	want, wantErr := Unmarshal(data)
	got, err := Decode(bytes.NewReader(data))
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("Decode error %v, Unmarshal error %v", err, wantErr)
	}
	if err != nil {
		return
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Decode differs from Unmarshal (-Unmarshal +Decode):\n%s", d)
	}
}
