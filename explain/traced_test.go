package explain

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// explainLine explains the first line of path in the example dir that
// contains text, as WriteText prints it.
func explainLine(t *testing.T, dir, path, text string) string {
	t.Helper()
	return explainLineIn(t, filepath.Join("..", "examples", dir), path, text)
}

// explainLineIn is explainLine for the fabric in folder dir.
func explainLineIn(t *testing.T, dir, path, text string) string {
	t.Helper()
	b, set := load(t, dir)
	f, ok := files(set)[path]
	if !ok {
		t.Fatalf("no %s", path)
	}
	for i, line := range splitLines(f.Data) {
		if strings.Contains(line, text) {
			ex, err := b.Line(path, f, i+1)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := WriteText(&out, ex); err != nil {
				t.Fatal(err)
			}
			return out.String()
		}
	}
	t.Fatalf("%s has no line with %q", path, text)
	return ""
}

// A value computed by an expression (links.hcl's length =
// link.value.length) is "computed at" its range, not written there; a
// literal is written there; a NIC attribute left to its default says
// which value the default is.
func TestExplainComputedAndDefault(t *testing.T) {
	out := explainLine(t, "multivendor-clos", "leaf1/leaf1.nvue.sh", "port-buffer 95232")
	for _, want := range []string{
		"cable length      1 m dac   computed at ../examples/multivendor-clos/links.hcl:7:14\n",
		"speed             100G      ../examples/multivendor-clos/switches.hcl:61:17\n",
		"lossless MTU      4,096 B   ../examples/multivendor-clos/fabric.hcl:20:3\n",
		"small packets     100 %     ../examples/multivendor-clos/fabric.hcl:20:3 (not written there: the block holding it); default: the worst case, every packet small\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("headroom explanation lacks %q:\n%s", want, out)
		}
	}
	out = explainLine(t, "multivendor-clos", "gpu01/gpu01.linux.sh", "roce_cm \"$ifc\" 'RoCE v2'")
	want := "  roce_mode  default v2 (not written; ../examples/multivendor-clos/hosts.hcl:11:5 is the block holding it)\n"
	if !strings.Contains(out, want) {
		t.Errorf("roce_mode explanation lacks %q:\n%s", want, out)
	}
}

// The headroom of a switch that sizes it itself (Onyx traffic pools) is
// explained as not configured.
func TestExplainHeadroomNotConfigured(t *testing.T) {
	out := explainLine(t, "multivendor-clos", "leaf3/leaf3.onyx.cli", "# ethernet 1/6 pg3")
	want := "    configured: no: Onyx sizes each port's headroom itself in traffic-pool mode, MLNX-OS 3.6.5000 and later; these are fabricc's computed values, for comparison; after a recable check the switch's own headroom, on the switch: show buffers details interfaces ethernet 1/6\n"
	if !strings.Contains(out, want) {
		t.Errorf("lacks %q:\n%s", want, out)
	}
	if out := explainLine(t, "multivendor-clos", "leaf1/leaf1.nvue.sh", "port-buffer 95232"); strings.Contains(out, "configured:") {
		t.Errorf("a Cumulus port's headroom says configured:\n%s", out)
	}
}

// A derived OpenConfig leaf shows its step, not only the model's value:
// the interface mtu is the port MTU plus the Ethernet header, a strict
// input's weight is its traffic class, a WRR input's its bandwidth.
func TestExplainOpenConfigDerivedLeaves(t *testing.T) {
	tests := []struct{ line, want string }{
		{`"mtu": 9230`, "from switch leaf1, port swp1: MTU 9216 (cumulus IP MTU) + 14 (Ethernet header) = 9230, " +
			"the frame without FCS that OpenConfig's interface mtu counts (openconfig-interfaces.yang, leaf mtu: " +
			"1514 bytes on an Ethernet interface for IP MTU 1500)\n  mtu  ../examples/tutorial/fabric.hcl:25:13\n"},
		{`"weight": "6"`, `from ETS of class "cnp" (traffic class 6): strict, so OpenConfig weight = traffic class 6 ` +
			"(openconfig-qos-elements.yang, leaf weight: for priority schedulers, higher values indicate higher priority)\n"},
		{`"weight": "50"`, `from ETS of class "default" (traffic class 0): WRR 50 %, so OpenConfig weight = bandwidth 50 ` +
			"(openconfig-qos-elements.yang, leaf weight: for weighted round-robin schedulers, the weight of the input)\n"},
	}
	for _, tt := range tests {
		got := explainLine(t, "tutorial", "leaf1/leaf1.openconfig.json", tt.line)
		if !strings.Contains(got, tt.want) {
			t.Errorf("explain of %s:\n%s\nwant it to contain:\n%s", tt.line, got, tt.want)
		}
	}
}
