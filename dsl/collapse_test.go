package dsl

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
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
		{"instances unnamed", hcl.Diagnostics{diag("U", "u.", at(32, 36), ""), diag("U", "u.", at(32, 36), "")},
			[]string{"U: u. One mistake, reported once for 2 instances of this block (a dynamic block, for_each or port range)."}},
		{"one variable, two places", hcl.Diagnostics{diag("Bad", "9300.", at(6, 13), "s1"), diag("Bad", "9300.", at(19, 26), "s2")},
			[]string{"Bad: 9300. One mistake, reported once for 2 places that use var.mtu: s1, s2. | the same value is used here 1:20"}},
		{"no place", hcl.Diagnostics{diag("N", "n.", nil, ""), diag("N", "n.", nil, "")}, []string{"N: n.", "N: n."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Collapse(tt.in, files) {
				line := d.Summary + ": " + d.Detail
				for _, r := range RelatedOf(d) {
					line += " | " + r.Label + " " + position(r.Range)[len("test.hcl:"):]
				}
				got = append(got, line)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
