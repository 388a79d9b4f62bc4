package fabricpath

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// clos is a three-tier Clos: pod 1 has leaves l1, l2 under spines s1,
// s2; pod 2 has leaf l3 under spine s3; every spine has an uplink to
// both super-spines ss1, ss2. Hosts h1 (l1), h2 (l3) and h3 (l2) have one
// NIC each, in one VLAN-less routed design with gateways; l1 and l2 also
// share an MLAG peer link, which is not walked.
func clos() *model.Fabric {
	f := &model.Fabric{Name: "clos"}
	for _, n := range []string{"l1", "l2", "l3", "s1", "s2", "s3", "ss1", "ss2"} {
		f.Switches = append(f.Switches, model.Switch{Name: n, Platform: model.PlatformCumulus})
	}
	joinSwitches(f, "l1", "s1")
	joinSwitches(f, "l1", "s2")
	joinSwitches(f, "l2", "s1")
	joinSwitches(f, "l2", "s2")
	joinSwitches(f, "l1", "l2")
	joinSwitches(f, "l3", "s3")
	for _, s := range []string{"s1", "s2", "s3"} {
		joinSwitches(f, s, "ss1")
		joinSwitches(f, s, "ss2")
	}
	attach(f, "h1", "l1", "10.0.1.1/31")
	attach(f, "h2", "l3", "10.0.3.1/31")
	attach(f, "h3", "l2", "10.0.2.1/31")
	return f
}

// newPort adds a lossless routed port to sw, named swpN by its place.
func newPort(sw *model.Switch, peer *model.Peer) string {
	name := fmt.Sprintf("swp%d", len(sw.Ports)+1)
	sw.Ports = append(sw.Ports, model.Port{Name: name, MTU: 9216, Mode: model.ModeRouted, Trust: model.TrustDSCP,
		PFCPriorities: []int{3}, Peer: peer})
	return name
}

// joinSwitches joins switches a and b with a new port on each.
func joinSwitches(f *model.Fabric, a, b string) {
	sa, sb := f.Switch(a), f.Switch(b)
	pa := fmt.Sprintf("swp%d", len(sa.Ports)+1)
	pb := fmt.Sprintf("swp%d", len(sb.Ports)+1)
	newPort(sa, &model.Peer{Kind: "switch", Device: b, Port: pb})
	newPort(sb, &model.Peer{Kind: "switch", Device: a, Port: pa})
}

// attach adds host name with NIC roce0 at address, cabled to a new port
// of leaf, with a gateway.
func attach(f *model.Fabric, name, leaf, address string) {
	sw := f.Switch(leaf)
	port := newPort(sw, &model.Peer{Kind: "host", Device: name, Port: "roce0"})
	gw, _, _ := strings.Cut(address, "/")
	f.Hosts = append(f.Hosts, model.Host{Name: name, OS: model.OSLinux, NICs: []model.NIC{{
		Name: "roce0", Interface: "ens1f0", Model: "ConnectX-6 Dx", MTU: 9000, Addresses: []string{address},
		RoCE:  model.RoCE{Mode: "v2", Priority: 3, DSCP: 26, Trust: model.TrustDSCP, PFCPriorities: []int{3}},
		Peer:  &model.Peer{Kind: "switch", Device: leaf, Port: port},
		Route: &model.NICRoute{Gateway: gw + "-gw", Source: gw},
	}}})
}

// where lists a path's ports as "stage switch port".
func where(p Path) []string {
	var out []string
	for _, pt := range p.Ports {
		out = append(out, pt.Stage+" "+pt.Switch+" "+pt.Port)
	}
	return out
}

// TestWalkClimbsToTheTop: a host's walk takes its leaf port, the leaf's
// uplinks to both spines (not the peer link to l2) and the spines'
// uplinks to both super-spines, each cable as its two ends.
func TestWalkClimbsToTheTop(t *testing.T) {
	r, ok := Walk(clos(), "h1")
	if !ok || len(r.Paths) != 1 {
		t.Fatalf("Walk h1: ok %v, %d paths", ok, len(r.Paths))
	}
	p := r.Paths[0]
	if p.Summary != "l1 -> 2 spines: s1, s2 -> 2 super-spines: ss1, ss2" {
		t.Errorf("summary %q", p.Summary)
	}
	want := []string{
		"leaf l1 swp4",
		"leaf-spine l1 swp1", "leaf-spine s1 swp1",
		"leaf-spine l1 swp2", "leaf-spine s2 swp1",
		"spine-super-spine s1 swp3", "spine-super-spine ss1 swp1",
		"spine-super-spine s1 swp4", "spine-super-spine ss2 swp1",
		"spine-super-spine s2 swp3", "spine-super-spine ss1 swp2",
		"spine-super-spine s2 swp4", "spine-super-spine ss2 swp2",
	}
	if got := where(p); !reflect.DeepEqual(got, want) {
		t.Errorf("ports\n got %q\nwant %q", got, want)
	}
	if !r.OK() || r.Problems != 0 {
		t.Errorf("a fabric that agrees has %d problems: %+v", r.Problems, p)
	}
	if p.Ports[1].Peer != "s1 swp1" || p.Ports[0].Peer != "h1 roce0" || p.Ports[0].VLAN != "routed" {
		t.Errorf("peers and VLAN: %+v, %+v", p.Ports[0], p.Ports[1])
	}
}

// TestBetweenTurnsAtTheLowestCommonTier: two leaves of one pod meet at
// their spines (the super-spines are not on the path), leaves of two
// pods at the super-spines, and one leaf is one switch.
func TestBetweenTurnsAtTheLowestCommonTier(t *testing.T) {
	f := clos()
	tests := []struct {
		a, b, summary string
		ports         []string
	}{
		{"h1", "h3", "l1 -> 2 spines: s1, s2 -> l2", []string{
			"leaf l1 swp4",
			"leaf-spine l1 swp1", "leaf-spine s1 swp1", "leaf-spine l1 swp2", "leaf-spine s2 swp1",
			"spine-leaf s1 swp2", "spine-leaf l2 swp1", "spine-leaf s2 swp2", "spine-leaf l2 swp2",
			"leaf l2 swp4"}},
		{"h1", "h2", "l1 -> 2 spines: s1, s2 -> 2 super-spines: ss1, ss2 -> s3 -> l3", []string{
			"leaf l1 swp4",
			"leaf-spine l1 swp1", "leaf-spine s1 swp1", "leaf-spine l1 swp2", "leaf-spine s2 swp1",
			"spine-super-spine s1 swp3", "spine-super-spine ss1 swp1", "spine-super-spine s1 swp4", "spine-super-spine ss2 swp1",
			"spine-super-spine s2 swp3", "spine-super-spine ss1 swp2", "spine-super-spine s2 swp4", "spine-super-spine ss2 swp2",
			"super-spine-spine ss1 swp3", "super-spine-spine s3 swp2", "super-spine-spine ss2 swp3", "super-spine-spine s3 swp3",
			"spine-leaf s3 swp1", "spine-leaf l3 swp1",
			"leaf l3 swp2"}},
	}
	for _, tc := range tests {
		r, ok := Between(f, tc.a, tc.b)
		if !ok || len(r.Paths) != 1 {
			t.Fatalf("%s %s: ok %v, %d paths", tc.a, tc.b, ok, len(r.Paths))
		}
		p := r.Paths[0]
		if p.Summary != tc.summary {
			t.Errorf("%s %s: summary %q, want %q", tc.a, tc.b, p.Summary, tc.summary)
		}
		if got := where(p); !reflect.DeepEqual(got, tc.ports) {
			t.Errorf("%s %s: ports\n got %q\nwant %q", tc.a, tc.b, got, tc.ports)
		}
		if !r.OK() {
			t.Errorf("%s %s: problems %+v", tc.a, tc.b, p)
		}
	}
	// Two NICs on one leaf.
	attach(f, "h4", "l1", "10.0.1.3/31")
	r, _ := Between(f, "h1", "h4")
	if p := r.Paths[0]; p.Summary != "l1 (one switch)" || !reflect.DeepEqual(where(p), []string{"leaf l1 swp4", "leaf l1 swp5"}) {
		t.Errorf("one leaf: %q %q", p.Summary, where(p))
	}
}

// TestDisagreements: each setting a port can get wrong is marked on that
// port, with what is wrong, and only there.
func TestDisagreements(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*model.Fabric)
		where string
		want  []string
	}{
		{"PFC off for the RoCE priority on the leaf port", func(f *model.Fabric) { f.Switch("l1").Port("swp4").PFCPriorities = []int{4} },
			"leaf l1 swp4", []string{"PFC off for priority 3"}},
		{"PFC off on a spine's end of an uplink", func(f *model.Fabric) { f.Switch("s2").Port("swp1").PFCPriorities = nil },
			"leaf-spine s2 swp1", []string{"PFC off for priority 3"}},
		{"MTU below the NIC's on a super-spine", func(f *model.Fabric) { f.Switch("ss2").Port("swp2").MTU = 1500 },
			"spine-super-spine ss2 swp2", []string{"MTU 1500 < NIC MTU 9000"}},
		{"trust pcp where the NIC marks DSCP", func(f *model.Fabric) { f.Switch("l1").Port("swp1").Trust = model.TrustPCP },
			"leaf-spine l1 swp1", []string{"trust pcp, NIC trust dscp"}},
		{"a shut port", func(f *model.Fabric) { f.Switch("s1").Port("swp3").Shutdown = true },
			"spine-super-spine s1 swp3", []string{"shut down"}},
		{"several at once", func(f *model.Fabric) {
			p := f.Switch("s1").Port("swp1")
			p.PFCPriorities, p.MTU, p.Trust = nil, 4000, model.TrustPCP
		}, "leaf-spine s1 swp1", []string{"PFC off for priority 3", "MTU 4000 < NIC MTU 9000", "trust pcp, NIC trust dscp"}},
	}
	for _, tc := range tests {
		f := clos()
		tc.edit(f)
		r, _ := Walk(f, "h1")
		if r.OK() || r.Problems != len(tc.want) {
			t.Errorf("%s: %d problems, want %d", tc.name, r.Problems, len(tc.want))
		}
		for _, pt := range r.Paths[0].Ports {
			at := pt.Stage + " " + pt.Switch + " " + pt.Port
			switch {
			case at == tc.where && !reflect.DeepEqual(pt.Problems, tc.want):
				t.Errorf("%s: %s problems %q, want %q", tc.name, at, pt.Problems, tc.want)
			case at != tc.where && len(pt.Problems) > 0:
				t.Errorf("%s: %s marked too: %q", tc.name, at, pt.Problems)
			}
		}
	}
}

// TestTrustBoth: a port trusting both classifies RoCE v2, which is IP,
// by DSCP, as a DSCP NIC marks it; RoCE v1 (no IP header) by PCP.
func TestTrustBoth(t *testing.T) {
	f := clos()
	f.Switch("l1").Port("swp1").Trust = model.TrustBoth
	if r, _ := Walk(f, "h1"); !r.OK() {
		t.Errorf("trust both on a RoCE v2 path is marked: %+v", r.Paths[0].Ports[1])
	}
	f.Hosts[0].NICs[0].RoCE.Mode = "v1"
	r, _ := Walk(f, "h1")
	if got := r.Paths[0].Ports[1].Problems; !reflect.DeepEqual(got, []string{"trust both, NIC trust dscp"}) {
		t.Errorf("trust both on a RoCE v1 path: %q", got)
	}
}

// TestVXLANUnderlay: between switches a VXLAN VLAN's packets are 50 B
// longer (RFC 7348 §5, IPv4 underlay), which the leaf port to the NIC
// does not carry.
func TestVXLANUnderlay(t *testing.T) {
	f := clos()
	f.VLANs = []model.VLAN{{ID: 100, Overlay: model.OverlayVXLAN}}
	leafPort := f.Switch("l1").Port("swp4")
	leafPort.Mode, leafPort.AccessVLAN, leafPort.MTU = model.ModeAccess, 100, 9000
	f.Switch("l1").Port("swp1").MTU = 9049
	f.Switch("s1").Port("swp1").MTU = 9050
	r, _ := Walk(f, "h1")
	ports := r.Paths[0].Ports
	if len(ports[0].Problems) != 0 || ports[0].VLAN != "access 100" {
		t.Errorf("leaf port: %+v", ports[0])
	}
	if !reflect.DeepEqual(ports[1].Problems, []string{"MTU 9049 < NIC MTU 9000 + 50 B VXLAN"}) || len(ports[2].Problems) != 0 {
		t.Errorf("underlay ports: %q, %q", ports[1].Problems, ports[2].Problems)
	}
}

// TestNICProblems: a NIC without PFC on its own RoCE priority is marked.
func TestNICProblems(t *testing.T) {
	f := clos()
	f.Hosts[0].NICs[0].RoCE.PFCPriorities = []int{4}
	r, _ := Walk(f, "h1")
	if got := r.Paths[0].From.Problems; !reflect.DeepEqual(got, []string{"PFC off for its RoCE priority 3"}) || r.OK() {
		t.Errorf("NIC problems %q", got)
	}
}

// TestPairProblems: two NICs that mark RoCE differently, that have no
// route between their subnets, or that share a subnet across VLANs.
func TestPairProblems(t *testing.T) {
	f := clos()
	f.Hosts[1].NICs[0].RoCE.Priority, f.Hosts[1].NICs[0].RoCE.DSCP = 4, 34
	f.Hosts[1].NICs[0].RoCE.PFCPriorities = []int{4}
	f.Hosts[0].NICs[0].Route = nil
	r, _ := Between(f, "h1", "h2")
	p := r.Paths[0]
	want := []string{
		"RoCE marks differ: h1 roce0 priority 3 DSCP 26, h2 roce0 priority 4 DSCP 34",
		"no route from h1 roce0 (10.0.1.1/31) to h2 roce0 (10.0.3.1/31): another subnet, and the fabric gives h1 roce0 no gateway",
	}
	if !reflect.DeepEqual(p.Problems, want) {
		t.Errorf("pair problems\n got %q\nwant %q", p.Problems, want)
	}
	// No packet between them crosses the fabric: no switch is walked.
	if p.Summary != "none" || len(p.Ports) != 0 || p.Unwalked != "no route joins their subnets" || r.Problems != 2 {
		t.Errorf("no route, yet walked: %q %q %+v", p.Summary, p.Unwalked, p.Ports)
	}
	// With h1's gateway back, every port is checked against both NICs:
	// PFC is on for 3 only.
	f.Hosts[0].NICs[0].Route = &model.NICRoute{Gateway: "10.0.1.1-gw", Source: "10.0.1.1"}
	r, _ = Between(f, "h1", "h2")
	if p := r.Paths[0]; p.Unwalked != "" || len(p.Ports) == 0 || !reflect.DeepEqual(p.Ports[0].Problems, []string{"PFC off for priority 4"}) {
		t.Errorf("leaf port against h2's priority: %q %+v", p.Unwalked, p.Ports)
	}

	f = clos()
	for i, vlan := range []int{10, 20} {
		h := &f.Hosts[[]int{0, 2}[i]]
		h.NICs[0].Route, h.NICs[0].Addresses = nil, []string{fmt.Sprintf("10.9.9.%d/24", i+1)}
		p := f.Switch(h.NICs[0].Peer.Device).Port(h.NICs[0].Peer.Port)
		p.Mode, p.AccessVLAN = model.ModeAccess, vlan
	}
	r, _ = Between(f, "h1", "h3")
	if got := r.Paths[0].Problems; !reflect.DeepEqual(got, []string{"one subnet in two VLANs: h1 roce0 in VLAN 10, h3 roce0 in VLAN 20"}) {
		t.Errorf("one subnet, two VLANs: %q", got)
	}
	if p := r.Paths[0]; p.Summary != "none" || len(p.Ports) != 0 || p.Unwalked != "one subnet in two VLANs, which no frame crosses" {
		t.Errorf("one subnet in two VLANs, yet walked: %q %q %+v", p.Summary, p.Unwalked, p.Ports)
	}
}

// TestPairsByRail: NICs pair with the other host's NICs in their subnet
// (a rail), not with every NIC.
func TestPairsByRail(t *testing.T) {
	f := clos()
	h1, h3 := f.Host("h1"), f.Host("h3")
	second := func(h *model.Host, leaf, addr string) {
		port := newPort(f.Switch(leaf), &model.Peer{Kind: "host", Device: h.Name, Port: "roce1"})
		n := h.NICs[0]
		n.Name, n.Addresses, n.Route = "roce1", []string{addr}, nil
		n.Peer = &model.Peer{Kind: "switch", Device: leaf, Port: port}
		h.NICs = append(h.NICs, n)
	}
	second(h1, "l2", "10.7.0.1/24")
	second(h3, "l1", "10.7.0.2/24")
	h1.NICs[0].Addresses, h3.NICs[0].Addresses = []string{"10.8.0.1/24"}, []string{"10.8.0.2/24"}
	r, _ := Between(f, "h1", "h3")
	var got []string
	for _, p := range r.Paths {
		got = append(got, p.From.NIC+"-"+p.To.NIC+": "+p.Summary)
	}
	want := []string{"roce0-roce0: l1 -> 2 spines: s1, s2 -> l2", "roce1-roce1: l2 -> 2 spines: s1, s2 -> l1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pairs\n got %q\nwant %q", got, want)
	}
}

// TestUnknownAndUncabled: an unknown host is not walked; a NIC with no
// cable is named, not walked.
func TestUnknownAndUncabled(t *testing.T) {
	f := clos()
	if _, ok := Walk(f, "h9"); ok {
		t.Error("Walk of an unknown host")
	}
	if _, ok := Between(f, "h1", "h9"); ok {
		t.Error("Between with an unknown host")
	}
	f.Hosts[0].NICs[0].Peer = nil
	r, _ := Walk(f, "h1")
	if len(r.Paths) != 0 || !reflect.DeepEqual(r.Uncabled, []string{"h1 roce0"}) || !r.OK() {
		t.Errorf("uncabled: %+v", r)
	}
	// Between two hosts, one without a cabled NIC: no path joins them,
	// a problem naming that host, whichever comes first.
	for _, pair := range [][2]string{{"h1", "h2"}, {"h2", "h1"}} {
		r, _ = Between(f, pair[0], pair[1])
		want := []string{"no path: h1 has no NIC cabled to a switch"}
		if len(r.Paths) != 0 || !reflect.DeepEqual(r.Unreachable, want) || r.Problems != 1 {
			t.Errorf("between %s and %s, h1 uncabled: %+v", pair[0], pair[1], r)
		}
	}
}

// TestNoCommonSwitch: two leaves whose switches never meet.
func TestNoCommonSwitch(t *testing.T) {
	f := clos()
	s3 := f.Switch("s3")
	s3.Ports = s3.Ports[:1] // l3's spine loses its super-spine uplinks
	r, _ := Between(f, "h1", "h2")
	want := []string{"no switch above l1 reaches l3: the fabric cables no path between them"}
	if p := r.Paths[0]; !reflect.DeepEqual(p.Problems, want) || p.Summary != "l1 -> ? -> l3" || r.OK() {
		t.Errorf("no common switch: %q %q", p.Summary, p.Problems)
	}
}

// TestBackToBack: a NIC cabled straight to another host's NIC has a path
// without ports, in a walk and between the two; it is not uncabled.
func TestBackToBack(t *testing.T) {
	f := clos()
	f.Hosts = append(f.Hosts, model.Host{Name: "b1", NICs: []model.NIC{{Name: "p0", Addresses: []string{"10.5.0.1/24"},
		RoCE: model.RoCE{Mode: "v2", Priority: 3, DSCP: 26, PFCPriorities: []int{3}}, Peer: &model.Peer{Kind: "host", Device: "b2", Port: "p1"}}}},
		model.Host{Name: "b2", NICs: []model.NIC{{Name: "p1", Addresses: []string{"10.5.0.2/24"},
			RoCE: model.RoCE{Mode: "v2", Priority: 4, DSCP: 26, PFCPriorities: []int{4}}, Peer: &model.Peer{Kind: "host", Device: "b1", Port: "p0"}}}})
	r, _ := Walk(f, "b1")
	if len(r.Paths) != 1 || r.Paths[0].Summary != "no switch: cabled straight to b2 p1" || len(r.Uncabled) != 0 || !r.OK() {
		t.Errorf("walk: %+v", r)
	}
	r, _ = Between(f, "b1", "b2")
	want := []string{"RoCE marks differ: b1 p0 priority 3 DSCP 26, b2 p1 priority 4 DSCP 26"}
	if len(r.Paths) != 1 || r.Paths[0].Summary != "no switch: cabled straight to each other" || !reflect.DeepEqual(r.Paths[0].Problems, want) {
		t.Errorf("between: %+v", r)
	}
}
