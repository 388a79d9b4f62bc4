package plan

import (
	"bytes"
	"testing"
)

// TestPlanHeadroomMode: qos headroom mode "platform" is a fabric-wide
// change, and on a Cumulus switch says who sizes the headroom and
// reprograms the buffer of every lossless port, whose port-buffer and
// thresholds are unset (rcum #10); the model's headroom numbers do not
// move, so no port or pool line appears.
func TestPlanHeadroomMode(t *testing.T) {
	base := baseHCL(t)
	head := edit(t, base, "qos {\n  profile = \"nvidia-roce\"\n}", "qos {\n  profile = \"nvidia-roce\"\n\n  headroom {\n    mode = \"platform\"\n  }\n}")
	p := Compare(compileHCL(t, base), compileHCL(t, head))
	var b bytes.Buffer
	if err := WriteText(&b, p); err != nil {
		t.Fatal(err)
	}
	want := `Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change; 1 switch with disruptive changes.

fabric-wide
  qos: headroom mode computed -> platform

leaf1 (switch)
  headroom fabricc -> switchd
  impact: reprograms the buffer (priority-group or queue reservations change on 2 ports (swp1, swp2), pool sizes stay): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
