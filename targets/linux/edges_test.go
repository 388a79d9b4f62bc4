package linux

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestMlnxQosTrust checks the mlnx_qos trust line and DSCP map for each
// model trust. mlnx_qos --trust takes pcp or dscp only; "both" is
// written as dscp (RoCEv2 is classified by DSCP) with a note, and the
// DSCP map is programmed whenever DSCP is trusted.
func TestMlnxQosTrust(t *testing.T) {
	tests := []struct {
		trust   model.Trust
		want    []string
		notWant []string
	}{
		{model.TrustDSCP, []string{
			"mlnx_ensure \"$ifc\" trust dscp --trust dscp\n",
			"\t\tmlnx_dscp \"$ifc\" 0:0 1:0 ",
		}, []string{"asks for trust both"}},
		{model.TrustBoth, []string{
			"note \"$ifc: the model asks for trust both; mlnx_qos offers pcp or dscp, so DSCP (RoCEv2's marking) is set\"\n",
			"mlnx_ensure \"$ifc\" trust dscp --trust dscp\n",
			"\t\tmlnx_dscp \"$ifc\" 0:0 1:0 ",
		}, []string{"--trust pcp", "--trust both"}},
		{model.TrustPCP, []string{
			"mlnx_ensure \"$ifc\" trust pcp --trust pcp\n",
		}, []string{"mlnx_dscp \"$ifc\"", "--trust dscp"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.trust), func(t *testing.T) {
			f := fixture()
			f.Hosts[0].NICs[0].RoCE.Trust = tt.trust
			s := render(t, f, 0)
			assertHas(t, s, tt.want, tt.notWant)
		})
	}
}

// TestNICFeatureGates checks the lines written only where the NIC can
// take them: RDMA-CM's RoCE mode only for RoCE (an iWARP NIC has none),
// CNP marking sysfs only on mlx5 (ConnectX-3 is mlx4, which has no
// ecn/roce_np), and 802.3x pause turned off only where PFC replaces it.
func TestNICFeatureGates(t *testing.T) {
	tests := []struct {
		name    string
		change  func(n *model.NIC)
		want    []string
		notWant []string
	}{
		{"iWARP has no RoCE mode", func(n *model.NIC) { n.Transport = model.TransportIWARP },
			nil, []string{"roce_cm \"$ifc\""}},
		{"ConnectX-3 has no CNP sysfs", func(n *model.NIC) { n.Model = "ConnectX-3 Pro" },
			nil, []string{"cnp_sysfs \"$ifc\""}},
		{"ConnectX-4 has CNP sysfs", func(n *model.NIC) {},
			[]string{"\t\tcnp_sysfs \"$ifc\" 48 6\n"}, nil},
		{"no PFC keeps link pause", func(n *model.NIC) { n.RoCE.PFCPriorities = nil },
			[]string{"mlnx_pfc \"$ifc\" 0,0,0,0,0,0,0,0\n"},
			[]string{"ethtool -A \"$ifc\" autoneg off rx off tx off"}},
		{"PFC turns link pause off", func(n *model.NIC) {},
			[]string{"ensure \"$ifc\" 'link pause' 'autoneg off rx off tx off' \"$(pause_get \"$ifc\")\" ethtool -A \"$ifc\" autoneg off rx off tx off\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fixture()
			tt.change(&f.Hosts[0].NICs[0])
			s := render(t, f, 0)
			assertHas(t, s, tt.want, tt.notWant)
		})
	}
}

// TestDSCPPairsFollowModel checks that the dcb/mlnx_qos DSCP map is the
// model's, not a default: DSCP 10 moved to priority 3 reads "10:3".
func TestDSCPPairsFollowModel(t *testing.T) {
	f := fixture()
	f.QoS.DSCPToPriority[10] = 3
	s := render(t, f, 2)
	if !strings.Contains(s, " 9:0 10:3 11:0 ") {
		t.Errorf("dcb app map does not carry DSCP 10 -> 3")
	}
}

// assertHas fails t unless s contains every text of want and none of
// notWant.
func assertHas(t *testing.T, s string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("script lacks %q", w)
		}
	}
	for _, w := range notWant {
		if strings.Contains(s, w) {
			t.Errorf("script has %q", w)
		}
	}
}
