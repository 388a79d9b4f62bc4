package compiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// pcpOnlyHost is a FreeBSD host whose ConnectX-3 Pro runs mlx4en, a
// driver that classifies received frames by PCP only; NIC holds the
// NIC's extra lines.
const pcpOnlyHost = `host "nas" {
  os = "freebsd"
  nic "mlxen0" {
    model     = "ConnectX-3 Pro"
    interface = "mlxen0"
    addresses = ["10.0.0.1/24"]
    NIC
  }
}
`

// TestPCPOnlyTrust: a NIC whose driver classifies by PCP only trusts pcp,
// and a trust written otherwise is an error at the trust attribute.
func TestPCPOnlyTrust(t *testing.T) {
	const fabric = `fabric "r" {}
qos {
  profile = "nvidia-roce"
}
` + pcpOnlyHost
	for _, tc := range []struct {
		name, nic string
		trust     model.Trust
		want      []string
	}{
		{"no trust written", "", model.TrustPCP, nil},
		{"trust pcp", `trust = "pcp"`, model.TrustPCP, nil},
		{"trust dscp", `trust = "dscp"`, model.TrustPCP, []string{
			`11:13: Trust not available on driver: nic "mlxen0" of host "nas" has trust "dscp", but its driver mlx4en (ConnectX-3 Pro on freebsd) classifies received frames by their 802.1Q PCP only: it has no DSCP trust or DSCP map to set (its only QoS sysctls are the pause masks rx_ppp and tx_ppp, FreeBSD sys/dev/mlx4/mlx4_en/mlx4_en_netdev.c), so the NIC cannot classify RoCE by DSCP. Write trust = "pcp" or remove trust, and give the NIC a vlan that its link carries tagged, since an untagged frame carries no PCP and lands in priority 0.`,
		}},
		{"trust both", `trust = "both"`, model.TrustPCP, []string{
			`11:13: Trust not available on driver: nic "mlxen0" of host "nas" has trust "both", but its driver mlx4en (ConnectX-3 Pro on freebsd) classifies received frames by their 802.1Q PCP only: it has no DSCP trust or DSCP map to set (its only QoS sysctls are the pause masks rx_ppp and tx_ppp, FreeBSD sys/dev/mlx4/mlx4_en/mlx4_en_netdev.c), so the NIC cannot classify RoCE by DSCP. Write trust = "pcp" or remove trust, and give the NIC a vlan that its link carries tagged, since an untagged frame carries no PCP and lands in priority 0.`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, got := lowerSrc(t, strings.ReplaceAll(fabric, "NIC", tc.nic))
			var errs []string
			for _, d := range got {
				if !strings.Contains(d, "NIC not cabled") {
					errs = append(errs, d)
				}
			}
			if !reflect.DeepEqual(errs, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(errs), joinLines(tc.want))
			}
			if tr := f.Hosts[0].NICs[0].RoCE.Trust; tr != tc.trust {
				t.Errorf("trust %s, want %s", tr, tc.trust)
			}
		})
	}
	// A driver with DSCP trust (FreeBSD mlx5en) keeps the trust written.
	f, _, _ := lowerSrc(t, strings.NewReplacer("ConnectX-3 Pro", "ConnectX-5", "mlxen0", "mce0", "NIC", `trust = "dscp"`).Replace(fabric))
	if tr := f.Hosts[0].NICs[0].RoCE.Trust; tr != model.TrustDSCP {
		t.Errorf("mlx5en: trust %s, want dscp", tr)
	}
}

// TestUntaggedToPCPOnlyNIC: a switch port that sends its VLAN untagged to
// a NIC that classifies by PCP only.
func TestUntaggedToPCPOnlyNIC(t *testing.T) {
	const fabric = `fabric "r" {}
qos {
  profile = "nvidia-roce"
}
vlan "s" {
  id = 100
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp49" {
    speed = "40G"
    PORT
  }
}
` + pcpOnlyHost + `link {
  a      = "leaf1:swp49"
  b      = "nas:mlxen0"
  length = 2
}
`
	const trunk = "mode  = \"trunk\"\n    vlans = [100]"
	for _, tc := range []struct {
		name, port, nic string
		want            []string
	}{
		{"access port", access, "", []string{
			`13:13: Untagged RoCE to a NIC that classifies by PCP: Switch port leaf1:swp49 sends the frames of nas:mlxen0 untagged (an access port in VLAN 100), but the NIC's driver mlx4en (ConnectX-3 Pro on freebsd) classifies received frames by their 802.1Q PCP only and has no DSCP trust. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so the NIC puts the RoCE it receives on priority 3 in priority 0, which has no PFC: PFC on priority 3 never pauses it, a NIC running PFC has 802.3x global pause off, so nothing pauses it and the NIC drops it when its receive buffer fills. Make the port a trunk carrying a VLAN tagged (mode = "trunk" with the VLAN in vlans, not as native_vlan) and give the NIC that vlan, so that RoCE reaches it tagged with its priority.`,
			`  note 19:3: nas:mlxen0 has no vlan`,
			`  note 20:17: nas:mlxen0 driver mlx4en (ConnectX-3 Pro on freebsd)`,
		}},
		{"native VLAN", trunk + "\n    native_vlan = 100", "", []string{
			`15:19: Untagged RoCE to a NIC that classifies by PCP: Switch port leaf1:swp49 sends the frames of nas:mlxen0 untagged (a trunk whose native_vlan is 100), but the NIC's driver mlx4en (ConnectX-3 Pro on freebsd) classifies received frames by their 802.1Q PCP only and has no DSCP trust. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so the NIC puts the RoCE it receives on priority 3 in priority 0, which has no PFC: PFC on priority 3 never pauses it, a NIC running PFC has 802.3x global pause off, so nothing pauses it and the NIC drops it when its receive buffer fills. Make the port a trunk carrying a VLAN tagged (mode = "trunk" with the VLAN in vlans, not as native_vlan) and give the NIC that vlan, so that RoCE reaches it tagged with its priority.`,
			`  note 20:3: nas:mlxen0 has no vlan`,
			`  note 21:17: nas:mlxen0 driver mlx4en (ConnectX-3 Pro on freebsd)`,
		}},
		{"routed port", "mode  = \"routed\"", "gateway   = \"10.0.0.254\"", []string{
			`13:13: Untagged RoCE to a NIC that classifies by PCP: Switch port leaf1:swp49 sends the frames of nas:mlxen0 untagged (a routed port, which carries no VLAN), but the NIC's driver mlx4en (ConnectX-3 Pro on freebsd) classifies received frames by their 802.1Q PCP only and has no DSCP trust. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so the NIC puts the RoCE it receives on priority 3 in priority 0, which has no PFC: PFC on priority 3 never pauses it, a NIC running PFC has 802.3x global pause off, so nothing pauses it and the NIC drops it when its receive buffer fills. Make the port a trunk carrying a VLAN tagged (mode = "trunk" with the VLAN in vlans, not as native_vlan) and give the NIC that vlan, so that RoCE reaches it tagged with its priority.`,
			`  note 18:3: nas:mlxen0 has no vlan`,
			`  note 19:17: nas:mlxen0 driver mlx4en (ConnectX-3 Pro on freebsd)`,
		}},
		{"tagged on a trunk", trunk, "vlan      = 100", nil},
		{"tagged on a PCP trunk", trunk + "\n    trust = \"pcp\"", "vlan      = 100", nil},
		// The port's own PCP classification of the untagged NIC is the error.
		{"access port trusting pcp", access + "\n    trust = \"pcp\"", "", []string{
			`20:3: PCP trust toward untagged NIC: nas:mlxen0 sends RoCE untagged (it has no vlan), but switch port leaf1:swp49 trusts pcp. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so the port puts the NIC's RoCE in its default priority 0 instead of priority 3; priority 0 has no PFC, so RoCE would be dropped under congestion. Give the NIC a vlan that the port carries tagged (mode = "trunk" with that VLAN in vlans), or use trust = "dscp" on both ends.`,
			`  note 15:13: leaf1:swp49 trust pcp`,
		}},
		{"trunk without native VLAN", trunk, "", []string{
			`19:3: Untagged NIC on trunk port without native VLAN: nas:mlxen0 sends untagged frames (it has no vlan), but switch port leaf1:swp49 is a trunk without native_vlan, which forwards only frames tagged with VLANs 100 and drops every frame the NIC sends. Give the NIC a vlan the trunk carries (100), or give the port a native_vlan for the NIC's untagged frames.`,
			`  note 14:13: leaf1:swp49 trunk VLANs 100, no native_vlan`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkSrc(t, strings.NewReplacer("PORT", tc.port, "NIC", tc.nic).Replace(fabric))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// TestUntaggedPCPBackToBack: two NICs cabled back to back without a vlan
// where one classifies the other's RoCE by PCP.
func TestUntaggedPCPBackToBack(t *testing.T) {
	const fabric = `fabric "r" {}
qos {
  profile = "nvidia-roce"
}
vlan "s" {
  id = 20
}
host "a" {
  os = "OSA"
  nic "n" {
    model     = "MODELA"
    interface = "IFA"
    speed     = "40G"
    addresses = ["10.0.0.1/24"]
    NICA
  }
}
host "b" {
  os = "linux"
  nic "n" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "40G"
    addresses = ["10.0.0.2/24"]
    NICB
  }
}
link {
  a      = "a:n"
  b      = "b:n"
  length = 3
}
`
	freebsd := strings.NewReplacer("OSA", "freebsd", "MODELA", "ConnectX-3 Pro", "IFA", "mlxen0")
	linux := strings.NewReplacer("OSA", "linux", "MODELA", "ConnectX-5", "IFA", "ens1f0")
	for _, tc := range []struct {
		name       string
		a          *strings.Replacer
		nica, nicb string
		want       []string
	}{
		{"mlx4en untagged", freebsd, "", "", []string{
			`10:3: Untagged RoCE to a NIC that classifies by PCP: a:n and the NIC it is cabled to, b:n, have no vlan, so RoCE crosses the link untagged, but a:n's driver mlx4en (ConnectX-3 Pro on freebsd) classifies received frames by their 802.1Q PCP only and has no DSCP trust. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so a:n puts the RoCE b:n sends on priority 3 in priority 0, which has no PFC: PFC on priority 3 never pauses it, a NIC running PFC has 802.3x global pause off, so nothing pauses it and the NIC drops it when its receive buffer fills. Give both NICs the same vlan, so that RoCE crosses the link tagged with its priority.`,
			`  note 20:3: b:n has no vlan`,
			`  note 11:17: a:n driver mlx4en (ConnectX-3 Pro on freebsd)`,
		}},
		{"mlx4en in one VLAN", freebsd, "vlan = 20", "vlan = 20", nil},
		{"mlx4en in one VLAN, both pcp", freebsd, "vlan = 20\n    trust = \"pcp\"", "vlan = 20\n    trust = \"pcp\"", nil},
		{"mlx4en untagged, peer pcp", freebsd, "", `trust = "pcp"`, []string{
			`10:3: Untagged RoCE to a NIC that classifies by PCP: a:n and the NIC it is cabled to, b:n, have no vlan, so RoCE crosses the link untagged, but a:n's driver mlx4en (ConnectX-3 Pro on freebsd) classifies received frames by their 802.1Q PCP only and has no DSCP trust. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so a:n puts the RoCE b:n sends on priority 3 in priority 0, which has no PFC: PFC on priority 3 never pauses it, a NIC running PFC has 802.3x global pause off, so nothing pauses it and the NIC drops it when its receive buffer fills. Give both NICs the same vlan, so that RoCE crosses the link tagged with its priority.`,
			`  note 20:3: b:n has no vlan`,
			`  note 11:17: a:n driver mlx4en (ConnectX-3 Pro on freebsd)`,
		}},
		{"both pcp untagged", linux, `trust = "pcp"`, `trust = "pcp"`, []string{
			`10:3: Untagged RoCE to a NIC that classifies by PCP: a:n and the NIC it is cabled to, b:n, have no vlan, so RoCE crosses the link untagged, but a:n trusts pcp. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so a:n puts the RoCE b:n sends on priority 3 in priority 0, which has no PFC: PFC on priority 3 never pauses it, a NIC running PFC has 802.3x global pause off, so nothing pauses it and the NIC drops it when its receive buffer fills. Give both NICs the same vlan, so that RoCE crosses the link tagged with its priority, or trust = "dscp" on both NICs.`,
			`  note 20:3: b:n has no vlan`,
			`  note 15:13: a:n trust pcp`,
		}},
		{"both pcp in one VLAN", linux, "vlan = 20\n    trust = \"pcp\"", "vlan = 20\n    trust = \"pcp\"", nil},
		{"both dscp untagged", linux, "", "", nil},
		{"one pcp untagged", linux, "", `trust = "pcp"`, []string{
			`10:3: RoCE settings differ between NICs: a:n has trust dscp but the NIC it is cabled to, b:n, has trust pcp; back-to-back NICs must mark and pause RoCE the same way. Set the same trust on both.`,
			`  note 25:13: b:n trust pcp`,
		}},
		{"both trust both, RoCE v2", linux, `trust = "both"`, `trust = "both"`, nil},
		{"both trust both, RoCE v1", linux, "trust = \"both\"\n    roce_mode = \"v1\"", "trust = \"both\"\n    roce_mode = \"v1\"", []string{
			`10:3: Untagged RoCE to a NIC that classifies by PCP: a:n and the NIC it is cabled to, b:n, have no vlan, so RoCE crosses the link untagged, but a:n trusts both (DSCP for IP packets, PCP for the rest, and RoCE v1 has no IP header). An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so a:n puts the RoCE b:n sends on priority 3 in priority 0, which has no PFC: PFC on priority 3 never pauses it, a NIC running PFC has 802.3x global pause off, so nothing pauses it and the NIC drops it when its receive buffer fills. Give both NICs the same vlan, so that RoCE crosses the link tagged with its priority, or roce_mode = "v2" with trust = "dscp" on both NICs.`,
			`  note 21:3: b:n has no vlan`,
			`  note 15:13: a:n trust both`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("NICA", tc.nica, "NICB", tc.nicb).Replace(tc.a.Replace(fabric))
			got := checkSrc(t, src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
