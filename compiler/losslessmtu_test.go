package compiler

import (
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// TestLosslessMTUPerPort: without a written lossless_mtu each lossless
// port takes the RoCE path MTU of the NICs it receives from (h1 MTU 9000:
// 4096; h2 MTU 1500: 1024), an inter-switch port the largest of the
// fabric's, a port without a link 4096; a written value is used as is,
// and either is clamped to the port's largest frame (port MTU 1500 +
// 14 B Ethernet header = 1514 B).
func TestLosslessMTUPerPort(t *testing.T) {
	type pg struct {
		port string
		mtu  int
		from string
	}
	for _, tc := range []struct {
		name    string
		policy  model.HeadroomPolicy
		portMTU int // of leaf1 1/50, 0 to keep 9216
		want    []pg
	}{
		{"not written", model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100}, 0, []pg{
			{"1/1", 4096, "not written: the RoCE path MTU of h1:roce0 (MTU 9000)"},
			{"1/2", 1024, "not written: the RoCE path MTU of h2:roce0 (MTU 1500)"},
			{"1/49", 4096, "not written: the largest RoCE path MTU of the fabric's NICs, h1:roce0 (MTU 9000)"},
			{"1/50", 4096, "not written, no RoCE NIC known on this port: 4096 B, the largest RoCE path MTU"},
		}},
		{"not written, small port MTU", model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100}, 1500, []pg{
			{"1/1", 4096, "not written: the RoCE path MTU of h1:roce0 (MTU 9000)"},
			{"1/2", 1024, "not written: the RoCE path MTU of h2:roce0 (MTU 1500)"},
			{"1/49", 4096, "not written: the largest RoCE path MTU of the fabric's NICs, h1:roce0 (MTU 9000)"},
			{"1/50", 1514, "not written, no RoCE NIC known on this port: 4096 B, the largest RoCE path MTU, clamped to the port's largest frame, MTU 1500 + 14 B Ethernet header = 1514 B"},
		}},
		{"written", model.HeadroomPolicy{LosslessMTUBytes: 2048, SmallPacketPercent: 100}, 1500, []pg{
			{"1/1", 2048, ""}, {"1/2", 2048, ""}, {"1/49", 2048, ""},
			{"1/50", 1514, "lossless_mtu 2048 B, clamped to the port's largest frame, MTU 1500 + 14 B Ethernet header = 1514 B"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := testFabric()
			f.QoS.Headroom = tc.policy
			f.Hosts[1].NICs[0].MTU = 1500
			if tc.portMTU > 0 {
				f.Switches[0].Ports[3].MTU = tc.portMTU
			}
			physics(t, f, testSources(f))
			var got []pg
			for _, p := range f.Switches[0].Ports {
				h := p.PriorityGroups[1].Headroom
				got = append(got, pg{p.Name, h.LosslessMTUBytes, h.LosslessMTUFrom})
			}
			if d := cmp.Diff(tc.want, got, cmp.AllowUnexported(pg{})); d != "" {
				t.Errorf("lossless MTU per port (-want +got):\n%s", d)
			}
		})
	}
}

// TestLosslessMTUWarningOnlyWhenWritten: the lossless-mtu-below-the-roce-mtu
// warning is for a written value; without one each port takes its NIC's
// RoCE path MTU and nothing warns.
func TestLosslessMTUWarningOnlyWhenWritten(t *testing.T) {
	for _, tc := range []struct {
		policy model.HeadroomPolicy
		want   int
	}{
		{model.HeadroomPolicy{LosslessMTUBytes: 1024, SmallPacketPercent: 100}, 1},
		{model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100}, 0},
	} {
		f := testFabric()
		f.QoS.Headroom = tc.policy
		src := testSources(f)
		physics(t, f, src)
		n := 0
		for _, d := range check(f, src) {
			if d.Summary == "Lossless MTU below the RoCE MTU" {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("policy %+v: %d warnings, want %d", tc.policy, n, tc.want)
		}
	}
}
