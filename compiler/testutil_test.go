package compiler

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// testQoS is the NVIDIA RoCE policy: TC0 lossy default, TC3 lossless
// RoCE on priority 3 / DSCP 26, TC6 strict CNP on priority 6 / DSCP 48.
func testQoS() model.QoS {
	dscp := make([]int, 64)
	dscp[26], dscp[48] = 3, 6
	return model.QoS{
		Profile: "nvidia-roce",
		Classes: []model.Class{
			{Name: "default", Priority: 0, Priorities: []int{0, 1, 2, 4, 5, 7}, TrafficClass: 0,
				DSCP: []int{0}, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}},
			{Name: "roce", Priority: 3, Priorities: []int{3}, TrafficClass: 3, DSCP: []int{26}, MarkDSCP: 26,
				Lossless: true, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50},
				ECN: &model.ECN{MinBytes: 150 * 1024, MaxBytes: 1500 * 1024, MarkProbabilityPercent: 100}},
			{Name: "cnp", Priority: 6, Priorities: []int{6}, TrafficClass: 6, DSCP: []int{48}, MarkDSCP: 48,
				CNP: true, ETS: model.ETS{Mode: model.ETSStrict}},
		},
		DSCPToPriority: dscp,
		PriorityToTC:   []int{0, 0, 0, 3, 0, 0, 6, 0},
		PFCPriorities:  []int{3},
		RoCEClass:      "roce",
		CNPClass:       "cnp",
		Headroom:       model.HeadroomPolicy{LosslessMTUBytes: 4096, SmallPacketPercent: 50}, // the RoCE path MTU of the MTU 9000 NICs
	}
}

// testPort is a trunk port in VLAN 100 with PFC on priority 3.
func testPort(name string, speed int, peer *model.Peer) model.Port {
	return model.Port{Name: name, SpeedMbps: speed, MTU: 9216, Mode: model.ModeTrunk, TrunkVLANs: []int{100},
		Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true, Peer: peer}
}

// testNIC is a ConnectX-5 RoCE v2 NIC matching testQoS.
func testNIC(addr string, peer *model.Peer) model.NIC {
	return model.NIC{Name: "roce0", Interface: "ens1f0", Model: "ConnectX-5", Vendor: "mellanox", Driver: "mlnx_ofed",
		Transport: model.TransportRoCE, SpeedMbps: 100000, MTU: 9000, VLAN: 100, Addresses: []string{addr},
		RoCE: model.RoCE{Mode: "v2", UDPPort: 4791, Priority: 3, DSCP: 26, TOS: 104, CNPPriority: 6, CNPDSCP: 48,
			PFCPriorities: []int{3}, Trust: model.TrustDSCP, ECNPriorities: []int{3},
			ETS: []model.ETS{{Mode: model.ETSWRR, BandwidthPercent: 50}, {Mode: model.ETSWRR}, {Mode: model.ETSWRR}, {Mode: model.ETSWRR, BandwidthPercent: 50}, {Mode: model.ETSWRR}, {Mode: model.ETSWRR}, {Mode: model.ETSStrict}, {Mode: model.ETSWRR}}},
		Peer: peer}
}

// testFabric is a consistent two-tier fabric: leaf1 (SN2410, Onyx) with
// hosts h1 (3 m) and h2 (5 m) and an uplink to spine1 (SN2700, 10 m),
// plus one unused leaf port.
func testFabric() *model.Fabric {
	sw := func(kind, dev, port string, m float64) *model.Peer {
		return &model.Peer{Kind: kind, Device: dev, Port: port, CableMeters: m, CableKind: "dac"}
	}
	return &model.Fabric{
		Name:  "test",
		QoS:   testQoS(),
		VLANs: []model.VLAN{{ID: 100, Name: "rdma"}},
		Switches: []model.Switch{
			{Name: "leaf1", Platform: model.PlatformOnyx, OSVersion: "3.6.8190", Hardware: model.Hardware{Model: "SN2410"},
				Ports: []model.Port{
					testPort("1/1", 100000, sw("host", "h1", "roce0", 3)),
					testPort("1/2", 100000, sw("host", "h2", "roce0", 5)),
					testPort("1/49", 100000, sw("switch", "spine1", "1/1", 10)),
					shutDown(testPort("1/50", 100000, nil)),
				}},
			{Name: "spine1", Platform: model.PlatformOnyx, OSVersion: "3.9.1014", Hardware: model.Hardware{Model: "SN2700"},
				Ports: []model.Port{testPort("1/1", 100000, sw("switch", "leaf1", "1/49", 10))}},
		},
		Hosts: []model.Host{
			{Name: "h1", OS: model.OSLinux, NICs: []model.NIC{testNIC("10.0.0.1/24", sw("switch", "leaf1", "1/1", 3))}},
			{Name: "h2", OS: model.OSLinux, NICs: []model.NIC{testNIC("10.0.0.2/24", sw("switch", "leaf1", "1/2", 5))}},
		},
		Links: []model.Link{
			{A: model.Endpoint{Kind: "switch", Device: "leaf1", Port: "1/1"}, B: model.Endpoint{Kind: "host", Device: "h1", Port: "roce0"}, CableMeters: 3, CableKind: "dac"},
			{A: model.Endpoint{Kind: "switch", Device: "leaf1", Port: "1/2"}, B: model.Endpoint{Kind: "host", Device: "h2", Port: "roce0"}, CableMeters: 5, CableKind: "dac"},
			{A: model.Endpoint{Kind: "switch", Device: "leaf1", Port: "1/49"}, B: model.Endpoint{Kind: "switch", Device: "spine1", Port: "1/1"}, CableMeters: 10, CableKind: "dac"},
		},
	}
}

// shutDown returns p shut down: testFabric's spare port, which keeps its
// buffers (5 m default) but raises no uncabled-port warning.
func shutDown(p model.Port) model.Port {
	p.Shutdown = true
	return p
}

// testSources gives every block and attribute of testFabric its own line
// in "fabric.hcl", in a fixed order, so diagnostics can be asserted by
// line.
func testSources(f *model.Fabric) Sources {
	var keys []string
	add := func(parts ...string) { keys = append(keys, Key(parts...)) }
	add("qos")
	for _, c := range f.QoS.Classes {
		add("qos", "class", c.Name)
		for _, a := range []string{"priority", "dscp", "bandwidth", "lossless", "ecn/min", "ecn/max"} {
			add("qos", "class", c.Name, a)
		}
	}
	for _, s := range f.Switches {
		add("switch", s.Name)
		add("switch", s.Name, "platform")
		add("switch", s.Name, "model")
		for _, p := range s.Ports {
			add("switch", s.Name, "port", p.Name)
			for _, a := range []string{"speed", "mtu", "vlans", "trust"} {
				add("switch", s.Name, "port", p.Name, a)
			}
		}
	}
	for _, h := range f.Hosts {
		add("host", h.Name)
		for _, n := range h.NICs {
			add("host", h.Name, "nic", n.Name)
			for _, a := range []string{"model", "speed", "mtu", "vlan", "addresses", "roce_mode", "transport", "priority", "dscp", "cnp_priority", "cnp_dscp", "pfc_priorities", "trust"} {
				add("host", h.Name, "nic", n.Name, a)
			}
		}
	}
	for i := range f.Links {
		add("link", fmt.Sprint(i))
	}
	src := NewSources(0)
	for i, k := range keys {
		src.spans[k] = SpanOf(lineRange(i + 1))
	}
	return src
}

// lineRange is a range covering line n of fabric.hcl.
func lineRange(n int) hcl.Range {
	return hcl.Range{Filename: "fabric.hcl", Start: hcl.Pos{Line: n, Column: 1, Byte: n * 100}, End: hcl.Pos{Line: n, Column: 10, Byte: n*100 + 9}}
}

// keyAt returns the Sources key whose range is r (for assertions).
func keyAt(src Sources, r *hcl.Range) string {
	if r == nil {
		return "<none>"
	}
	var keys []string
	for k, v := range src.all {
		if v.Range() == *r {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// diagLine renders a diagnostic as "severity|summary|subject key|related keys".
func diagLine(src Sources, d *hcl.Diagnostic) string {
	sev := "error"
	if d.Severity == hcl.DiagWarning {
		sev = "warning"
	}
	var rel []string
	for _, r := range dsl.RelatedOf(d) {
		rr := r.Range
		rel = append(rel, keyAt(src, &rr))
	}
	return fmt.Sprintf("%s|%s|%s|%s", sev, d.Summary, keyAt(src, d.Subject), strings.Join(rel, ","))
}

// physics runs applyPhysics on f and fails the test on any diagnostic.
func physics(t *testing.T, f *model.Fabric, src Sources) {
	t.Helper()
	if diags := applyPhysics(f, src); len(diags) > 0 {
		t.Fatalf("applyPhysics: %v", diags)
	}
}
