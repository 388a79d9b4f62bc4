// Package fabricpath walks the compiled model from a host's NICs through
// the switches its RoCE traffic crosses, and checks each port on the way
// against the NIC: PFC on for the NIC's RoCE priority, an MTU at least
// the NIC's, and trust that classifies RoCE by the field the NIC marks.
// It is a pure function of the model: it reads the intended settings
// every port carries, never a device.
//
// The fabric is taken as a Clos: a switch's tier is its distance in
// switch-to-switch cables from the nearest switch a host NIC is cabled to
// (tier 0, the leaves). A cable to a switch one tier higher is an uplink;
// cables between switches of one tier (an MLAG peer link) are not walked,
// but for a trunk straight between two leaves that bridges the VLAN two
// NICs share with their subnet. Otherwise, between two leaves the walk
// takes every equal-cost up-down path: up to the lowest tier where the
// two leaves' switches meet, and down again.
package fabricpath

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// Report is the walk of one host, or of the paths between two hosts.
type Report struct {
	Fabric string `json:"fabric"`
	Host   string `json:"host"`
	// To is the second host of a pair walk; "" for a walk of one host.
	To string `json:"to,omitempty"`
	// Paths holds one walk per cabled NIC of Host (to the top of the
	// Clos), or per pair of NICs of Host and To that talk to each other.
	Paths []Path `json:"paths"`
	// Uncabled names the NICs of Host (and of To) the fabric cables to
	// nothing, as HOST NIC. A NIC cabled straight to another host's has a
	// path without ports.
	Uncabled []string `json:"uncabled,omitempty"`
	// Unreachable says why a walk between two hosts found no path at
	// all: "no path: node2 has no NIC cabled to a switch", for each host
	// without one (and no cable straight to the other host). Each is a
	// problem.
	Unreachable []string `json:"unreachable,omitempty"`
	// Problems counts every problem of every path, and the unreachable.
	Problems int `json:"problems"`
}

// Path is the ports one NIC's traffic crosses.
type Path struct {
	From NIC `json:"from"`
	// To is the far NIC of a pair walk; nil for a walk of one host.
	To *NIC `json:"to,omitempty"`
	// Summary is the switches by stage: "leaf1 -> 2 spines: spine1, spine2".
	Summary string `json:"summary"`
	// Ports are the switch ports on the path, stage by stage, each cable
	// as its two ends.
	Ports []Port `json:"ports"`
	// Problems are what is wrong with the path as a whole: the two NICs
	// mark RoCE differently, have no route to each other, or no switch
	// joins their leaves.
	Problems []string `json:"problems,omitempty"`
	// Unwalked says why no packet between the two NICs crosses the
	// fabric, so no switch is walked (Summary "none", Ports empty): no
	// route joins their subnets, or their one subnet is split between
	// two VLANs; "" for a path that was walked.
	Unwalked string `json:"unwalked,omitempty"`
}

// NIC is a host NIC's side of the lossless contract.
type NIC struct {
	Host      string `json:"host"`
	NIC       string `json:"nic"`
	Model     string `json:"model"`
	Interface string `json:"interface"`
	// RoCE is the RoCE mode, "v1" or "v2".
	RoCE     string      `json:"roce"`
	Priority int         `json:"priority"`
	DSCP     int         `json:"dscp"`
	Trust    model.Trust `json:"trust"`
	MTU      int         `json:"mtu"`
	PFC      []int       `json:"pfc_priorities"`
	// VLAN is the 802.1Q tag the NIC sends (0: untagged).
	VLAN      int      `json:"vlan,omitempty"`
	Addresses []string `json:"addresses"`
	// Gateway is the next hop of the NIC's own route; "" for none.
	Gateway string `json:"gateway,omitempty"`
	// Problems are the NIC's own: PFC off for its RoCE priority.
	Problems []string `json:"problems,omitempty"`
	// overlayBytes is what VXLAN adds to the NIC's packets between
	// switches: model.VXLANOverheadIPv4 when its VLAN has the vxlan
	// overlay (RFC 7348 §5; an IPv4 underlay, as the compiler assumes),
	// else 0.
	overlayBytes int
}

// Port is one switch port on a path.
type Port struct {
	// Stage is where the port is: "leaf" (faces the NIC), "leaf-leaf" (a
	// trunk bridging the NICs' VLAN between their leaves), or the cable's
	// tiers, "leaf-spine", "spine-super-spine", "spine-leaf".
	Stage  string `json:"stage"`
	Switch string `json:"switch"`
	Port   string `json:"port"`
	// Peer is the far end of the port's cable, "DEVICE PORT".
	Peer  string      `json:"peer"`
	PFC   []int       `json:"pfc_priorities"`
	Trust model.Trust `json:"trust"`
	// MTU is the port's IP MTU (what every platform fabricc renders
	// counts, model.Platform.PortMTU).
	MTU int `json:"mtu"`
	// VLAN is "access 10", "trunk 101-104", "trunk 10,20 native 1" or
	// "routed".
	VLAN     string   `json:"vlan"`
	Shutdown bool     `json:"shutdown,omitempty"`
	Problems []string `json:"problems,omitempty"`
}

// Walk is the path of every cabled NIC of host from its leaf up to the
// top of the Clos. ok is false when the fabric has no such host.
func Walk(f *model.Fabric, host string) (*Report, bool) {
	h := f.Host(host)
	if h == nil {
		return nil, false
	}
	g := newGraph(f)
	r := &Report{Fabric: f.Name, Host: h.Name, Paths: []Path{}}
	for i := range h.NICs {
		n := &h.NICs[i]
		switch {
		case direct(n):
			r.Paths = append(r.Paths, Path{From: nicOf(f, h, n), Ports: []Port{},
				Summary: "no switch: cabled straight to " + n.Peer.Device + " " + n.Peer.Port})
			continue
		case !g.cabled(n):
			r.Uncabled = append(r.Uncabled, h.Name+" "+n.Name)
			continue
		}
		r.Paths = append(r.Paths, g.upPath(h, n))
	}
	r.count()
	return r, true
}

// Between is the paths between the NICs of host and those of to that
// talk to each other: NICs in one subnet, or a NIC whose own routes
// reach the other's address; a NIC with no such partner is paired with
// every cabled NIC of the other host, and the path says whether a route
// joins them. ok is false when the fabric lacks either host.
func Between(f *model.Fabric, host, to string) (*Report, bool) {
	a, b := f.Host(host), f.Host(to)
	if a == nil || b == nil {
		return nil, false
	}
	g := newGraph(f)
	r := &Report{Fabric: f.Name, Host: a.Name, To: b.Name, Paths: []Path{}}
	r.Uncabled = append(g.uncabledNICs(a), g.uncabledNICs(b)...)
	for i := range a.NICs {
		na := &a.NICs[i]
		if nb := b.NIC(peerNIC(na, b.Name)); nb != nil {
			from, to := nicOf(f, a, na), nicOf(f, b, nb)
			r.Paths = append(r.Paths, Path{From: from, To: &to, Ports: []Port{},
				Summary: "no switch: cabled straight to each other", Problems: pairProblems(f, from, to, na, nb)})
		}
	}
	for _, p := range g.pairs(a, b) {
		r.Paths = append(r.Paths, g.pairPath(a, p[0], b, p[1]))
	}
	if len(r.Paths) == 0 {
		r.Unreachable = append(g.switchless(a), g.switchless(b)...)
	}
	r.count()
	return r, true
}

// switchless is "no path: HOST has no NIC cabled to a switch" when none
// of h's NICs is; else nothing.
func (g *graph) switchless(h *model.Host) []string {
	for i := range h.NICs {
		if g.cabled(&h.NICs[i]) {
			return nil
		}
	}
	return []string{"no path: " + h.Name + " has no NIC cabled to a switch"}
}

// OK reports whether every port and NIC agrees.
func (r *Report) OK() bool { return r.Problems == 0 }

// count totals the problems.
func (r *Report) count() {
	r.Problems = len(r.Unreachable)
	for _, p := range r.Paths {
		r.Problems += len(p.Problems) + len(p.From.Problems)
		if p.To != nil {
			r.Problems += len(p.To.Problems)
		}
		for _, pt := range p.Ports {
			r.Problems += len(pt.Problems)
		}
	}
}

// cabled reports whether the NIC is cabled to a switch of the fabric.
func (g *graph) cabled(n *model.NIC) bool {
	return n.Peer != nil && n.Peer.Kind == "switch" && g.switches[n.Peer.Device] != nil
}

// direct reports whether the NIC is cabled straight to another host's
// NIC, with no switch between (a back-to-back link).
func direct(n *model.NIC) bool { return n.Peer != nil && n.Peer.Kind == "host" }

// peerNIC is the name of the NIC of host that n is cabled straight to,
// or "".
func peerNIC(n *model.NIC, host string) string {
	if direct(n) && n.Peer.Device == host {
		return n.Peer.Port
	}
	return ""
}

// uncabledNICs names h's NICs cabled to nothing, as HOST NIC.
func (g *graph) uncabledNICs(h *model.Host) []string {
	var out []string
	for i := range h.NICs {
		if n := &h.NICs[i]; !g.cabled(n) && !direct(n) {
			out = append(out, h.Name+" "+h.NICs[i].Name)
		}
	}
	return out
}

// nicOf is the NIC's side of the contract, with its own problems.
func nicOf(f *model.Fabric, h *model.Host, n *model.NIC) NIC {
	out := NIC{Host: h.Name, NIC: n.Name, Model: n.Model, Interface: n.Interface, RoCE: n.RoCE.Mode,
		Priority: n.RoCE.Priority, DSCP: n.RoCE.DSCP, Trust: n.RoCE.Trust, MTU: h.OS.NICMTU().IPMTU(n.MTU),
		PFC: orEmpty(n.RoCE.PFCPriorities), VLAN: n.VLAN, Addresses: orEmpty(n.Addresses)}
	if n.Route != nil {
		out.Gateway = n.Route.Gateway
	}
	if v := f.VLAN(accessVLAN(f, n)); v != nil && v.Overlay == model.OverlayVXLAN {
		out.overlayBytes = model.VXLANOverheadIPv4
	}
	if !slices.Contains(n.RoCE.PFCPriorities, n.RoCE.Priority) {
		out.Problems = append(out.Problems, fmt.Sprintf("PFC off for its RoCE priority %d", n.RoCE.Priority))
	}
	return out
}

// orEmpty keeps a nil slice out of the JSON ([] rather than null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// portOf is sw's port p on a path at stage, checked against nics; a
// port of the underlay (between switches) carries a VXLAN NIC's packets
// encapsulated.
func portOf(stage string, underlay bool, sw *model.Switch, p *model.Port, nics ...NIC) Port {
	out := Port{Stage: stage, Switch: sw.Name, Port: p.Name, PFC: orEmpty(p.PFCPriorities), Trust: p.Trust,
		MTU: sw.Platform.PortMTU().IPMTU(p.MTU), VLAN: vlanText(p), Shutdown: p.Shutdown}
	if p.Peer != nil {
		out.Peer = p.Peer.Device + " " + p.Peer.Port
	}
	for _, n := range nics {
		for _, why := range disagreements(&out, p, n, underlay) {
			if !slices.Contains(out.Problems, why) {
				out.Problems = append(out.Problems, why)
			}
		}
	}
	return out
}

// disagreements is what in port p (pt its summary) does not agree with
// NIC n: the port is shut, PFC is off for the NIC's RoCE priority (its
// frames are dropped instead of paused when the queue fills), the MTU is
// smaller than the NIC's (larger frames are dropped), or the port
// classifies RoCE by another field than the NIC's trust. An underlay
// port needs room for VXLAN too: VTEPs do not fragment (RFC 7348 §4.3).
func disagreements(pt *Port, p *model.Port, n NIC, underlay bool) []string {
	var out []string
	if p.Shutdown {
		out = append(out, "shut down")
	}
	if !p.Lossless(n.Priority) {
		out = append(out, fmt.Sprintf("PFC off for priority %d", n.Priority))
	}
	switch {
	case underlay && n.overlayBytes > 0 && pt.MTU < n.MTU+n.overlayBytes:
		out = append(out, fmt.Sprintf("MTU %d < NIC MTU %d + %d B VXLAN", pt.MTU, n.MTU, n.overlayBytes))
	case pt.MTU < n.MTU:
		out = append(out, fmt.Sprintf("MTU %d < NIC MTU %d", pt.MTU, n.MTU))
	}
	ip := n.RoCE != "v1" // RoCE v2 rides UDP/IP; v1 is plain Ethernet
	if classifier(p.Trust, ip) != classifier(n.Trust, ip) {
		out = append(out, fmt.Sprintf("trust %s, NIC trust %s", p.Trust, n.Trust))
	}
	return out
}

// classifier is the header field a port of trust t classifies a frame
// by: DSCP for trust dscp, and for trust both when the frame carries IP
// (Onyx "trust both", NVUE "both": DSCP for IP, PCP otherwise); else the
// PCP of the VLAN tag.
func classifier(t model.Trust, ip bool) string {
	if t == model.TrustDSCP || (t == model.TrustBoth && ip) {
		return "dscp"
	}
	return "pcp"
}

// vlanText is the port's layer-2 mode and VLANs, as one short field.
func vlanText(p *model.Port) string {
	switch p.Mode {
	case model.ModeAccess:
		return "access " + strconv.Itoa(p.AccessVLAN)
	case model.ModeTrunk:
		s := "trunk " + ranges(p.TrunkVLANs)
		if p.NativeVLAN != 0 {
			s += " native " + strconv.Itoa(p.NativeVLAN)
		}
		return s
	}
	return string(p.Mode)
}

// ranges writes ascending ids compactly: "101-104,200".
func ranges(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		} else {
			parts = append(parts, strconv.Itoa(ids[i]))
		}
		i = j + 1
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// pairs are the NICs of a and b that talk to each other (Between).
func (g *graph) pairs(a, b *model.Host) [][2]*model.NIC {
	var out [][2]*model.NIC
	var bs []*model.NIC
	for i := range b.NICs {
		if g.cabled(&b.NICs[i]) {
			bs = append(bs, &b.NICs[i])
		}
	}
	for i := range a.NICs {
		na := &a.NICs[i]
		if !g.cabled(na) {
			continue
		}
		var partners []*model.NIC
		for _, nb := range bs {
			if sameSubnet(na, nb) || routes(na, nb) || routes(nb, na) {
				partners = append(partners, nb)
			}
		}
		if len(partners) == 0 {
			partners = bs
		}
		for _, nb := range partners {
			out = append(out, [2]*model.NIC{na, nb})
		}
	}
	return out
}

// sameSubnet reports whether an address of a and one of b share a's or
// b's subnet.
func sameSubnet(a, b *model.NIC) bool {
	for _, x := range prefixes(a.Addresses) {
		for _, y := range prefixes(b.Addresses) {
			if x.Contains(y.Addr()) || y.Contains(x.Addr()) {
				return true
			}
		}
	}
	return false
}

// routes reports whether a's main-table routes (NICRoute.Prefixes) hold
// an address of b.
func routes(a, b *model.NIC) bool {
	if a.Route == nil {
		return false
	}
	for _, x := range prefixes(a.Route.Prefixes) {
		for _, y := range prefixes(b.Addresses) {
			if x.Contains(y.Addr()) {
				return true
			}
		}
	}
	return false
}

// prefixes parses CIDR strings, skipping any that do not parse.
func prefixes(cidrs []string) []netip.Prefix {
	var out []netip.Prefix
	for _, c := range cidrs {
		if p, err := netip.ParsePrefix(c); err == nil {
			out = append(out, p)
		}
	}
	return out
}
