package dsl

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// sharedFabric has three hosts from one dynamic block, each with a
// static NIC block and two NICs from a nested dynamic block.
const sharedFabric = `fabric "f" {}

dynamic "host" {
  for_each = ["a", "b", "c"]
  labels   = [host.value]
  content {
    os = "linux"
    nic "static" {
      model     = "ConnectX-5"
      interface = "eth9"
    }
    dynamic "nic" {
      for_each = [0, 1]
      labels   = [format("n%d", nic.value)]
      content {
        model     = "ConnectX-6 Dx"
        interface = format("eth%d", nic.value)
      }
    }
  }
}
`

// TestRangesShared checks that the instances of a dynamic block point
// at one copy of each range of its content (the decoded configuration
// of a large fabric holds millions), that the copy is the right place,
// and that the reference decoder gives the same places.
func TestRangesShared(t *testing.T) {
	dir := writeFabric(t, map[string]string{"f.hcl": sharedFabric})
	fast, ref, fd, rd := loadBoth(t, dir, Options{})
	if fd.HasErrors() || rd.HasErrors() {
		t.Fatalf("diagnostics: %v %v", fd, rd)
	}
	if d := cmp.Diff(ref, fast); d != "" {
		t.Errorf("Config differs (-reference +fast):\n%s", d)
	}
	h := fast.Hosts
	if len(h) != 3 || len(h[0].NICs) != 3 {
		t.Fatalf("decoded %d hosts, %d NICs in the first", len(h), len(h[0].NICs))
	}
	at := func(r Range) string {
		x := r.HCL()
		return fmt.Sprintf("%d:%d-%d:%d", x.Start.Line, x.Start.Column, x.End.Line, x.End.Column)
	}
	for _, c := range []struct {
		what   string
		ranges []Range
		want   string
	}{
		{"host label", []Range{h[0].LabelRange, h[1].LabelRange, h[2].LabelRange}, "5:15-5:25"},
		{"host block", []Range{h[0].DefRange, h[1].DefRange, h[2].DefRange}, "3:1-3:15"},
		{"host os", []Range{h[0].OSRange, h[1].OSRange, h[2].OSRange}, "7:10-7:17"},
		{"static nic", []Range{h[0].NICs[0].DefRange, h[2].NICs[0].DefRange}, "8:5-8:17"},
		{"static nic interface", []Range{h[0].NICs[0].InterfaceRange, h[2].NICs[0].InterfaceRange}, "10:19-10:25"},
		{"dynamic nic interface", []Range{h[0].NICs[1].InterfaceRange, h[0].NICs[2].InterfaceRange, h[2].NICs[2].InterfaceRange}, "17:21-17:47"},
		{"dynamic nic label", []Range{h[0].NICs[1].LabelRange, h[2].NICs[2].LabelRange}, "14:19-14:43"},
	} {
		for i, r := range c.ranges {
			if got := at(r); got != c.want {
				t.Errorf("%s %d is at %s, want %s", c.what, i, got, c.want)
			}
			if r != c.ranges[0] {
				t.Errorf("%s %d has its own copy of the range", c.what, i)
			}
		}
	}
	if !h[0].NICs[0].DriverRange.Empty() || h[0].NICs[0].DriverRange.HCL() != (hcl.Range{}) {
		t.Errorf("an attribute not written has the range %v", h[0].NICs[0].DriverRange)
	}
}

// TestRangeZero checks the zero Range and that Ptr gives a copy.
func TestRangeZero(t *testing.T) {
	if r := RangeOf(hcl.Range{}); !r.Empty() || r != (Range{}) {
		t.Errorf("RangeOf(zero) = %v, want the zero Range", r)
	}
	src := hcl.Range{Filename: "a.hcl", Start: hcl.Pos{Line: 2, Column: 3, Byte: 9}, End: hcl.Pos{Line: 2, Column: 5, Byte: 11}}
	r := RangeOf(src)
	p := r.Ptr()
	p.Filename = "changed.hcl"
	if r.HCL() != src || r.Empty() || !r.Equal(RangeOf(src)) {
		t.Errorf("range %v after changing its Ptr, want %v", r.HCL(), src)
	}
}

// TestDecodeBodyMirror checks DecodeBody against gohcl.DecodeBody into
// the same struct with hcl.Range fields, for a struct of another
// package's kind (as the compiler's tests decode).
func TestDecodeBodyMirror(t *testing.T) {
	type mine struct {
		Switches []Switch `hcl:"switch,block"`
		Link     *Link    `hcl:"link,block"`
	}
	type theirs struct {
		Switches []struct {
			Name       string    `hcl:"name,label"`
			Platform   string    `hcl:"platform"`
			Model      string    `hcl:"model"`
			Rest       hcl.Body  `hcl:",remain"`
			DefRange   hcl.Range `hcl:",def_range"`
			LabelRange hcl.Range `hcl:"name,label_range"`
			ModelRange hcl.Range `hcl:"model,attr_value_range"`
			Unwritten  hcl.Range `hcl:"os_version,attr_value_range"`
		} `hcl:"switch,block"`
		Link *struct {
			A           string    `hcl:"a"`
			B           string    `hcl:"b"`
			Length      float64   `hcl:"length"`
			LengthRange hcl.Range `hcl:"length,attr_value_range"`
		} `hcl:"link,block"`
	}
	src := `switch "s1" {
  platform = "onyx"
  model    = "SN2410"
  port "1/1" {
    speed = "25G"
  }
}
link {
  a      = "s1:1/1"
  b      = "h:n"
  length = 3
}
`
	f, diags := hclparse.NewParser().ParseHCL([]byte(src), "m.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got mine
	if diags := DecodeBody(f.Body, nil, &got); diags.HasErrors() {
		t.Fatal(diags)
	}
	var want theirs
	if diags := gohcl.DecodeBody(f.Body, nil, &want); diags.HasErrors() {
		t.Fatal(diags)
	}
	s, w := got.Switches[0], want.Switches[0]
	for _, c := range []struct {
		what string
		got  Range
		want hcl.Range
	}{
		{"switch block", s.DefRange, w.DefRange},
		{"switch label", s.LabelRange, w.LabelRange},
		{"model", s.ModelRange, w.ModelRange},
		{"os_version", s.OSVersionRange, w.Unwritten},
		{"length", got.Link.LengthRange, want.Link.LengthRange},
	} {
		if c.got.HCL() != c.want {
			t.Errorf("%s: DecodeBody gives %v, gohcl %v", c.what, c.got.HCL(), c.want)
		}
	}
	if s.Name != "s1" || s.Model != "SN2410" || len(s.Ports) != 1 || *s.Ports[0].Speed != "25G" || s.Ports[0].SpeedRange.Empty() || got.Link.Length != 3 {
		t.Errorf("decoded %+v, link %+v", s, got.Link)
	}
}
