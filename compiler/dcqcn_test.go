package compiler

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// dcqcnBlock is a qos block with a dcqcn block of the given lines, to
// append to minimalFabric (its qos line is line 32).
func dcqcnBlock(lines string) string {
	return "qos {\n  dcqcn {\n" + lines + "  }\n}\n"
}

// TestDCQCNLowers: the written parameters land once, in model.QoS.DCQCN,
// in the table's order whatever the order written, with their places.
func TestDCQCNLowers(t *testing.T) {
	f, src := mustLower(t, edit(dcqcnBlock("    rpg_min_rate    = 1000\n    rpg_min_dec_fac = 25\n")))
	want := []model.DCQCNParam{{Name: "rpg_min_dec_fac", Value: 25}, {Name: "rpg_min_rate", Value: 1000}}
	if d := cmp.Diff(want, f.QoS.DCQCN); d != "" {
		t.Errorf("QoS.DCQCN (-want +got):\n%s", d)
	}
	sp, ok := src.Get(Key("qos", "dcqcn", "rpg_min_rate"))
	if !ok || sp.Range().Start.Line != 34 {
		t.Errorf("source of qos/dcqcn/rpg_min_rate = %v, %v; want line 34", sp.Range(), ok)
	}
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			if !n.TakesDCQCNParams() {
				t.Errorf("NIC %s:%s (%s) does not take the DCQCN parameters", h.Name, n.Name, n.Model)
			}
		}
	}
}

// TestDCQCNWithoutBlock: a fabric without a dcqcn block sets none, and
// its model.json has no dcqcn key (omitempty).
func TestDCQCNWithoutBlock(t *testing.T) {
	f, _ := mustLower(t, edit(""))
	if f.QoS.DCQCN != nil {
		t.Errorf("QoS.DCQCN = %v, want nil", f.QoS.DCQCN)
	}
}

// TestDCQCNRangeErrors: each out-of-range value is an error at it that
// says the range, its unit and source, and the firmware default.
func TestDCQCNRangeErrors(t *testing.T) {
	cases := []struct {
		name, lines string
		want        []string
	}{
		{"percent above 100", "    rpg_min_dec_fac = 150\n", []string{
			`34:23: DCQCN parameter out of range: dcqcn rpg_min_dec_fac = 150 is out of range; it takes 1-100 % (NVIDIA "DCQCN CC Parameters" (DOCA SDK documentation; ConnectX-4 and later)). Write a value in that range, or remove it to keep the firmware's 50.`,
		}},
		{"alpha period 0", "    dce_tcp_rtt = 0\n", []string{
			`34:19: DCQCN parameter out of range: dcqcn dce_tcp_rtt = 0 is out of range; it takes 1-131071 µs (NVIDIA "DCQCN CC Parameters" (DOCA SDK documentation; ConnectX-4 and later)). Write a value in that range, or remove it to keep the firmware's 1.`,
		}},
		{"alpha above 1023", "    dce_tcp_g = 1024\n", []string{
			`34:17: DCQCN parameter out of range: dcqcn dce_tcp_g = 1024 is out of range; it takes 0-1023 fixed point, 10 fraction bits (1024 = 1) (NVIDIA "DCQCN CC Parameters" (DOCA SDK documentation; ConnectX-4 and later)). Write a value in that range, or remove it to keep the firmware's 1019.`,
		}},
		{"negative rate", "    rpg_min_rate = -1\n", []string{
			`34:20: DCQCN parameter out of range: dcqcn rpg_min_rate = -1 is out of range; it takes 1 Mb/s to the NIC's line rate (NVIDIA "DCQCN CC Parameters" (DOCA SDK documentation; ConnectX-4 and later)). Write a value in that range, or remove it to keep the firmware's 1.`,
		}},
		{"rate above the line rate", "    rpg_min_rate = 200000\n", []string{
			`34:20: DCQCN rate above the line rate: dcqcn rpg_min_rate = 200000 Mb/s is above the 100000 Mb/s line rate of host "gpu01" NIC "roce0"; it takes 1 Mb/s to the NIC's line rate (NVIDIA "DCQCN CC Parameters" (DOCA SDK documentation; ConnectX-4 and later)). Write at most 100000.`,
			`  note 19:3: NIC gpu01:roce0`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, _, got := lowerSrc(t, edit(dcqcnBlock(tc.lines)))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
			if len(f.QoS.DCQCN) != 0 && tc.name != "rate above the line rate" {
				t.Errorf("QoS.DCQCN = %v, want the bad value left out", f.QoS.DCQCN)
			}
		})
	}
}

// TestDCQCNRateAtLineRate: a rate equal to the line rate is accepted.
func TestDCQCNRateAtLineRate(t *testing.T) {
	f, _ := mustLower(t, edit(dcqcnBlock("    rate_to_set_on_first_cnp = 100000\n")))
	if want := []model.DCQCNParam{{Name: "rate_to_set_on_first_cnp", Value: 100000}}; !slices.Equal(want, f.QoS.DCQCN) {
		t.Errorf("QoS.DCQCN = %v, want %v", f.QoS.DCQCN, want)
	}
}

// TestDCQCNSpecsMatchBlock: the dcqcn block takes exactly the parameters
// of model.DCQCNSpecs, in the same order.
func TestDCQCNSpecsMatchBlock(t *testing.T) {
	var specs []string
	for _, s := range model.DCQCNSpecs {
		specs = append(specs, s.Name)
	}
	if d := cmp.Diff(specs, dsl.DCQCNNames()); d != "" {
		t.Errorf("dcqcn block names (-model.DCQCNSpecs +dsl.DCQCN):\n%s", d)
	}
}
