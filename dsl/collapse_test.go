package dsl

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// at is a range of test.hcl from byte a to b on line 1.
func at(a, b int) *hcl.Range {
	return &hcl.Range{Filename: "test.hcl", Start: hcl.Pos{Line: 1, Column: a + 1, Byte: a}, End: hcl.Pos{Line: 1, Column: b + 1, Byte: b}}
}

// diag is an error with an optional instance.
func diag(summary, detail string, r *hcl.Range, instance string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: r}
	if instance != "" {
		SetInstance(d, instance)
	}
	return d
}

func TestCollapse(t *testing.T) {
	//                0         1         2         3
	//                0123456789012345678901234567890123456
	src := []byte(`mtu = var.mtu; x = var.mtu; y = 9300`)
	files := map[string]*hcl.File{"test.hcl": {Bytes: src}}
	tests := []struct {
		name string
		in   hcl.Diagnostics
		want []string // summary: detail | related
	}{
		{"alone", hcl.Diagnostics{diag("A", "a.", at(32, 36), "x")}, []string{"A: a."}},
		{"one place, three instances", hcl.Diagnostics{
			diag("MTU", "gpu1 has 9500.", at(32, 36), "gpu1"), diag("MTU", "gpu2 has 9500.", at(32, 36), "gpu2"),
			diag("Other", "o.", at(32, 36), ""), diag("MTU", "gpu3 has 9500.", at(32, 36), "gpu3"),
		}, []string{
			"MTU: gpu1 has 9500. One mistake, reported once for 3 instances of this block (a dynamic block, for_each or port range): gpu1, gpu2, gpu3.",
			"Other: o.",
		}},
		{"one place, names quoted in parts", hcl.Diagnostics{
			diag("Speed", `nic "roce0" of host "a" has no speed.`, at(32, 36), "a:roce0"), diag("Speed", `nic "roce0" of host "b" has no speed.`, at(32, 36), "b:roce0"),
		}, []string{
			`Speed: nic "roce0" of host "a" has no speed. One mistake, reported once for 2 instances of this block (a dynamic block, for_each or port range): a:roce0, b:roce0.`,
		}},
		{"one place, two values", hcl.Diagnostics{
			diag("Len", "length -1 is out of range.", at(32, 36), "a - l1"), diag("Len", "length 0 is out of range.", at(32, 36), "a - l2"),
		}, []string{
			"Len: length -1 is out of range. Reported once for 2 instances of this block (a dynamic block, for_each or port range), the text above for the first: a - l1, a - l2.",
		}},
		{"two values, unnamed", hcl.Diagnostics{diag("U", "u1.", at(32, 36), ""), diag("U", "u2.", at(32, 36), "")},
			[]string{"U: u1. Reported once for 2 instances of this block (a dynamic block, for_each or port range), the text above for the first."}},
		{"one variable, two values", hcl.Diagnostics{diag("Bad", "9300 on EOS.", at(6, 13), "s1"), diag("Bad", "9300 on Onyx.", at(19, 26), "s2")},
			[]string{"Bad: 9300 on EOS. Reported once for 2 places that use var.mtu, the text above for the first: s1, s2. | the same value is used here 1:20"}},
		{"instances unnamed", hcl.Diagnostics{diag("U", "u.", at(32, 36), ""), diag("U", "u.", at(32, 36), "")},
			[]string{"U: u. One mistake, reported once for 2 instances of this block (a dynamic block, for_each or port range)."}},
		{"one variable, two places", hcl.Diagnostics{diag("Bad", "9300.", at(6, 13), "s1"), diag("Bad", "9300.", at(19, 26), "s2")},
			[]string{"Bad: 9300. One mistake, reported once for 2 places that use var.mtu: s1, s2. | the same value is used here 1:20"}},
		{"detail without a full stop", hcl.Diagnostics{diag("T", "a number is required", at(32, 36), ""), diag("T", "a number is required", at(32, 36), "")},
			[]string{"T: a number is required. One mistake, reported once for 2 instances of this block (a dynamic block, for_each or port range)."}},
		{"no place", hcl.Diagnostics{diag("N", "n.", nil, ""), diag("N", "n.", nil, "")}, []string{"N: n.", "N: n."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Collapse(tt.in, files) {
				line := d.Summary + ": " + d.Detail
				for _, r := range RelatedOf(d) {
					line += " | " + r.Label + " " + Position(r.Range)[len("test.hcl:"):]
				}
				got = append(got, line)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestCollapseNamesLoneInstance: an error that stands alone names its
// instance when its line stands for many (inside a dynamic block or a
// port range), and only then.
func TestCollapseNamesLoneInstance(t *testing.T) {
	src := `dynamic "link" {
  for_each = local.cables
  content {
    length = link.value
  }
}
link {
  length = 0
}
switch "leaf1" {
  port "swp1-4" {
    mtu = 1
  }
  port "swp5" {
    mtu = 2
  }
  dynamic "port" {
    for_each = range(6, 9)
    labels   = [format("swp%d", port.value)]
    content {
      mtu = 3
    }
  }
}
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "test.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	files := map[string]*hcl.File{"test.hcl": f}
	// place is the range of the first occurrence of text in src.
	place := func(text string) *hcl.Range {
		i := strings.Index(src, text)
		if i < 0 {
			t.Fatalf("%q not in the source", text)
		}
		r, _ := hclsyntax.ParseExpression([]byte(src[i:i+len(text)]), "test.hcl", hcl.Pos{Line: 1, Column: 1, Byte: i})
		rng := r.Range()
		return &rng
	}
	tests := []struct {
		name string
		in   *hcl.Diagnostic
		want string
	}{
		{"dynamic block", diag("Len", "length 0.", place("link.value"), "leaf1:swp2 - gpu2:roce0"),
			"length 0. Reported for leaf1:swp2 - gpu2:roce0, one instance of this block (a dynamic block, for_each or port range)."},
		{"nested dynamic block", diag("MTU", "mtu 3.", place("3\n"), "leaf1:swp7"),
			"mtu 3. Reported for leaf1:swp7, one instance of this block (a dynamic block, for_each or port range)."},
		{"port range", diag("MTU", "mtu 1.", place("1\n"), "leaf1:swp3"),
			"mtu 1. Reported for leaf1:swp3, one instance of this block (a dynamic block, for_each or port range)."},
		{"detail names it", diag("Len", "leaf1:swp2 - gpu2:roce0 is 0 m long.", place("link.value"), "leaf1:swp2 - gpu2:roce0"),
			"leaf1:swp2 - gpu2:roce0 is 0 m long."},
		{"literal block", diag("Len", "length 0.", place("0\n"), "leaf1:swp1 - gpu1:roce0"), "length 0."},
		{"one port", diag("MTU", "mtu 2.", place("2\n"), "leaf1:swp5"), "mtu 2."},
		{"no instance", diag("Len", "length 0.", place("link.value"), ""), "length 0."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Collapse(hcl.Diagnostics{tt.in}, files)
			if len(got) != 1 || got[0].Detail != tt.want {
				t.Errorf("got %v, want one diagnostic with detail %q", got, tt.want)
			}
			if got[0] != tt.in && tt.in.Detail == tt.want {
				t.Errorf("a diagnostic left as it was should be returned as it is")
			}
		})
	}
	if tt := tests[0]; tt.in.Detail != "length 0." {
		t.Errorf("Collapse changed its argument's detail to %q", tt.in.Detail)
	}
}

// TestCollapseForExpression checks the words for one mistake repeated by
// the iterations of a for expression in locals, which has no instances,
// and for one inside a dynamic block.
func TestCollapseForExpression(t *testing.T) {
	src := `locals {
  x = [for i in range(3) : i + var.nope]
}
dynamic "vlan" {
  for_each = [1, 2]
  labels   = ["v"]
  content { id = 1 + var.nope }
}
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "test.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	files := map[string]*hcl.File{"test.hcl": f}
	// rangeOf is the range of the n-th (from 0) text in src, on one line.
	rangeOf := func(text string, n int) *hcl.Range {
		at := 0
		for ; n >= 0; n-- {
			at += strings.Index(src[at:], text) + 1
		}
		at--
		line := strings.Count(src[:at], "\n") + 1
		col := at - strings.LastIndex(src[:at], "\n")
		return &hcl.Range{Filename: "test.hcl", Start: hcl.Pos{Line: line, Column: col, Byte: at}, End: hcl.Pos{Line: line, Column: col + len(text), Byte: at + len(text)}}
	}
	inFor := rangeOf("i + var.nope", 0)
	inDynamic := rangeOf("1 + var.nope", 0)
	got := Collapse(hcl.Diagnostics{
		diag("U", "u.", inFor, ""), diag("U", "u.", inFor, ""), diag("U", "u.", inFor, ""),
		diag("V", "v.", inDynamic, ""), diag("V", "v.", inDynamic, ""),
	}, files)
	want := []string{
		"U: u. One mistake, reported once for 3 iterations of a for expression.",
		"V: v. One mistake, reported once for 2 instances of this block (a dynamic block, for_each or port range).",
	}
	var lines []string
	for _, d := range got {
		lines = append(lines, d.Summary+": "+d.Detail)
	}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestCollapseNamesEvaluationInstances checks that an error HCL reports
// while evaluating inside nested dynamic blocks names the instances it
// affects, by their labels, or by key for a block without labels.
func TestCollapseNamesEvaluationInstances(t *testing.T) {
	dir := writeFabric(t, map[string]string{"a.hcl": `fabric "f" {}
dynamic "host" {
  for_each = { gpu1 = 1, gpu2 = 2 }
  labels   = [host.key]
  content {
    os = "linux"
    dynamic "nic" {
      for_each = [0, 1]
      labels   = [format("rail%d", nic.value)]
      content {
        model     = "ConnectX-7"
        interface = "ens1"
        addresses = [cidrhost("10.0.0.0/30", host.value * 4 + nic.value)]
      }
    }
  }
}
dynamic "link" {
  for_each = { "a-b" = 1 }
  content {
    a      = "s:swp1"
    b      = "t:swp1"
    length = cidrhost("10.0.0.0/30", 9)
  }
}
`})
	_, files, diags := Load(dir, Options{})
	var got []string
	// The fast decoder evaluates instances on several goroutines: the
	// diagnostics come in any order, and are written sorted.
	for _, d := range SortDiagnostics(Collapse(diags, files)) {
		got = append(got, d.Detail)
	}
	want := []string{
		`Invalid value for "hostnum" parameter: prefix 10.0.0.0/30 has 4 addresses; host number must be from -4 to 3. One mistake, reported once for 4 instances of this block (a dynamic block, for_each or port range): gpu1:rail0, gpu1:rail1, gpu2:rail0, gpu2:rail1.`,
		`Invalid value for "hostnum" parameter: prefix 10.0.0.0/30 has 4 addresses; host number must be from -4 to 3. Reported for a-b, one instance of this block (a dynamic block, for_each or port range).`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestCollapseCountsInstancesOnce: one instance reported twice (a cable
// too long at each end of a switch-to-switch link) counts once.
func TestCollapseCountsInstancesOnce(t *testing.T) {
	var g hcl.Diagnostics
	for _, link := range []string{"a:1 - b:1", "a:1 - b:1", "a:2 - c:1", "a:2 - c:1"} {
		g = append(g, diag("Too long", "Link is 3000 m.", at(0, 4), link))
	}
	got := Collapse(g, nil)
	if len(got) != 1 || !strings.HasSuffix(got[0].Detail, "reported once for 2 instances of this block (a dynamic block, for_each or port range): a:1 - b:1, a:2 - c:1.") {
		t.Errorf("got %d diagnostics: %v", len(got), got)
	}
}

// TestJSONInstances: --json lists every instance a collapsed
// diagnostic stands for, not the five its detail names, and none when
// some are unnamed.
func TestJSONInstances(t *testing.T) {
	src := []byte(`mtu = var.mtu; x = var.mtu; y = 9300`)
	files := map[string]*hcl.File{"test.hcl": {Bytes: src}}
	var in hcl.Diagnostics
	var want []string
	for i := 0; i < 8; i++ {
		name := "gpu" + string(rune('0'+i))
		want = append(want, name)
		in = append(in, diag("MTU", "9500.", at(32, 36), name), diag("MTU", "9500.", at(32, 36), name)) // a name twice is listed once
	}
	in = append(in, diag("U", "u.", at(0, 3), ""), diag("U", "u.", at(0, 3), "s1"), diag("A", "a.", at(6, 13), "alone"))
	rep := NewJSONReport(Collapse(in, files))
	got := map[string][]string{}
	for _, d := range rep.Diagnostics {
		got[d.Summary] = d.Instances
	}
	if d := cmp.Diff(map[string][]string{"MTU": want, "U": nil, "A": {"alone"}}, got); d != "" {
		t.Errorf("instances (-want +got):\n%s", d)
	}
	var b strings.Builder
	if err := WriteJSON(&b, Collapse(in, files)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"instances": [`) || !strings.Contains(b.String(), `"gpu7"`) {
		t.Errorf("the JSON has no instances array with gpu7:\n%s", b.String())
	}
}
