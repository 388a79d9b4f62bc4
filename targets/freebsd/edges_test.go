package freebsd

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestMlx5TrustAndCable checks mlx5en's trust_state for each model trust
// (mlx5en sysctl description "1:PCP 2:DSCP 3:BOTH") and that the NIC's
// cable_length, whole meters, is rounded up from the model's cable so
// the NIC's own headroom is never short.
func TestMlx5TrustAndCable(t *testing.T) {
	tests := []struct {
		name   string
		change func(n *model.NIC)
		want   []string
	}{
		{"trust pcp", func(n *model.NIC) { n.RoCE.Trust = model.TrustPCP },
			[]string{"sysctl dev.mce.0.conf.qos.trust_state=1\n", "dev.mce.0.conf.qos.trust_state=\"1\"\n"}},
		{"trust dscp", func(n *model.NIC) { n.RoCE.Trust = model.TrustDSCP },
			[]string{"sysctl dev.mce.0.conf.qos.trust_state=2\n"}},
		{"trust both", func(n *model.NIC) { n.RoCE.Trust = model.TrustBoth },
			[]string{"sysctl dev.mce.0.conf.qos.trust_state=3\n"}},
		{"cable 2.2 m", func(n *model.NIC) { n.Peer.CableMeters = 2.2 },
			[]string{"sysctl dev.mce.0.conf.qos.cable_length=3\n", "dev.mce.0.conf.qos.cable_length=\"3\"\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fixture()
			tc.change(&f.Hosts[1].NICs[0])
			all := ""
			for _, s := range files(t, f, 1) {
				all += s
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("files lack %q", w)
				}
			}
		})
	}
}
