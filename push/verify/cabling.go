package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// Cabling is what one switch's LLDP neighbors say about the cables the
// model gives its ports (fabricc verify).
type Cabling struct {
	// Cabled counts the switch's ports the model cables.
	Cabled int `json:"cabled"`
	// Matched counts the cabled ports whose neighbor is the model's
	// peer; Differ those whose neighbors are all something else (each
	// is a Difference).
	Matched int `json:"matched"`
	Differ  int `json:"differ"`
	// NoNeighbor lists the cabled ports without an LLDP neighbor: not a
	// difference (LLDP may be off, a host may not run an LLDP agent),
	// but the cable is not checked.
	NoNeighbor []string `json:"no_neighbor,omitempty"`
	// Partly lists the cabled ports whose neighbor agrees with the model
	// in all it sends, but sends too little to check the cable whole: no
	// System Name, or a MAC address as Port ID without a Port
	// Description that names the host's interface.
	Partly []string `json:"partly,omitempty"`
	// OldName lists the cabled ports counted in Matched whose neighbor
	// sent the old name of a switch being renamed (fabricc verify
	// --renamed NEW=OLD): the peer has not been renamed on the switch yet.
	OldName []string `json:"old_name,omitempty"`
	// Uncabled are the neighbors seen on ports the model does not cable:
	// not a difference, fabricc does not own those ports.
	Uncabled []Seen `json:"uncabled,omitempty"`
	// Error says why the cabling was not checked.
	Error string `json:"error,omitempty"`
}

// Seen is a neighbor on a port, as text: "spine1 Ethernet1/1".
type Seen struct {
	Port     string `json:"port"`
	Neighbor string `json:"neighbor"`
}

// Summary is the one line the cabling of switch device takes in
// verify's output: "leaf1: 4 cabled ports: 3 as cabled, 1 differs, 0
// without an LLDP neighbor", then what was partly checked and how many
// neighbors are on ports the model does not cable. Device text is
// written through quote.Visible, the rule for terminal text.
func (c *Cabling) Summary(device string) string {
	if c.Error != "" {
		return quote.Visible(fmt.Sprintf("%s: not checked: %s", device, c.Error))
	}
	verb := "differ"
	if c.Differ == 1 {
		verb = "differs"
	}
	s := fmt.Sprintf("%s: %s: %d as cabled, %d %s, %d without an LLDP neighbor", device, english.Count(c.Cabled, "cabled port"),
		c.Matched, c.Differ, verb, len(c.NoNeighbor))
	if len(c.NoNeighbor) > 0 {
		s += " (" + strings.Join(c.NoNeighbor, ", ") + ")"
	}
	if len(c.Partly) > 0 {
		s += fmt.Sprintf(", %d partly checked (%s)", len(c.Partly), strings.Join(c.Partly, ", "))
	}
	if len(c.OldName) > 0 {
		s += fmt.Sprintf(", %d by a switch's old name (%s; --renamed)", len(c.OldName), strings.Join(c.OldName, ", "))
	}
	if len(c.Uncabled) > 0 {
		s += fmt.Sprintf("; %s on ports the fabric does not cable", english.Count(len(c.Uncabled), "neighbor"))
	}
	return quote.Visible(s)
}

// Peers resolves the far ends of a fabric's cables: each switch's
// platform (its port naming) and each host NIC's interface name, the
// name an LLDP agent on the host sends. Build it once per fabric.
type Peers struct {
	platform map[string]model.Platform
	iface    map[[2]string]string // host, NIC -> interface
	oldName  map[string]string    // switch being renamed -> the name it may still send
}

// NewPeers indexes f for CompareCabling.
func NewPeers(f *model.Fabric) *Peers {
	ps := &Peers{platform: map[string]model.Platform{}, iface: map[[2]string]string{}}
	for i := range f.Switches {
		ps.platform[f.Switches[i].Name] = f.Switches[i].Platform
	}
	for i := range f.Hosts {
		h := &f.Hosts[i]
		for _, n := range h.NICs {
			ps.iface[[2]string{h.Name, n.Name}] = n.Interface
		}
	}
	return ps
}

// expected is the neighbor the model cables to a port.
type expected struct {
	name, port string
	host       bool
	platform   model.Platform // the peer switch's, for its port names
}

func (ps *Peers) expect(p *model.Peer) expected {
	if p.Kind == "host" {
		return expected{name: p.Device, port: ps.iface[[2]string{p.Device, p.Port}], host: true}
	}
	return expected{name: p.Device, port: p.Port, platform: ps.platform[p.Device]}
}

// AcceptOldNames has CompareCabling take a neighbor that sends OLD as
// switch NEW, for each NEW=OLD of renamed (--renamed): until the switch
// is renamed on the box, its LLDP System Name (its hostname) is the old
// one on every peer, as push's hostname check accepts it.
func (ps *Peers) AcceptOldNames(renamed map[string]string) {
	ps.oldName = renamed
}

// nameMatch compares the System Name a neighbor sent with the peer the
// model expects, and says whether it matched only by an old name.
func (ps *Peers) nameMatch(e expected, got string) (m match, old bool) {
	if m = nameMatch(e.name, got); m != no || e.host {
		return m, false
	}
	if o, ok := ps.oldName[e.name]; ok && nameMatch(o, got) == yes {
		return yes, true
	}
	return no, false
}

func (e expected) String() string { return e.name + " " + e.port }

// match is the answer of one comparison: yes, no, or cannot tell.
type match int

const (
	unknown match = iota
	yes
	no
)

func is(b bool) match {
	if b {
		return yes
	}
	return no
}

// nameMatch compares a System Name with a device name: equal, or an
// FQDN whose host part is the device name (switches and lldpd send
// FQDNs; the rule of ANTA's VerifyLLDPNeighbors with require_fqdn false),
// ignoring case (DNS names are case-insensitive, RFC 4343).
func nameMatch(want, got string) match {
	if got == "" {
		return unknown
	}
	g, w := strings.ToLower(got), strings.ToLower(want)
	return is(g == w || strings.HasPrefix(g, w+"."))
}

// portMatch compares the port a neighbor sends with the model's, and
// says which text it compared. A switch sends its interface name as
// Port ID (EOS "Ethernet1/1", Onyx "Eth1/1", Cumulus "swp1": its lldpd
// runs with portidsubtype ifname). lldpd on a host sends, by default, a
// MAC address as Port ID and the interface name as Port Description
// (lldpcli(8), "configure lldp portidsubtype"), so a host's MAC Port ID
// is checked by its description; a switch's MAC Port ID cannot be
// checked, since a switch's description is the interface's own.
func portMatch(e expected, n Neighbor) (match, string) {
	switch {
	case !n.PortIDMAC && n.PortID != "":
		return is(portKey(e, n.PortID) == portKey(e, e.port)), n.PortID
	case e.host && n.PortDescription != "":
		return is(n.PortDescription == e.port), n.PortDescription
	}
	return unknown, n.PortID
}

// portKey is a port name as the peer's platform may send it, reduced to
// what identifies it: EOS "Ethernet1/1" or "Et1/1", Onyx "1/1", "Eth1/1"
// or "ethernet 1/1" become "1/1". Cumulus ports and host interfaces are
// compared as they are.
func portKey(e expected, name string) string {
	if e.host || (e.platform != model.PlatformEOS && e.platform != model.PlatformOnyx) {
		return name
	}
	s := strings.ToLower(strings.TrimSpace(name))
	for _, p := range []string{"ethernet", "eth", "et"} {
		if r, ok := strings.CutPrefix(s, p); ok {
			if r = strings.TrimSpace(r); r != "" && r[0] >= '0' && r[0] <= '9' {
				return r
			}
		}
	}
	return s
}

// CompareCabling checks the LLDP neighbors of sw against the cables the
// model gives its ports. For each cabled port: a neighbor whose System
// Name and port are the model's peer's matches; a port whose neighbors
// all differ in what they send is a Difference (field "neighbor"),
// whether or not the neighbor is in the fabric at all, since the model
// says what is at the other end of that cable; a port without a
// neighbor is listed, not a difference. Neighbors on ports the model
// does not cable are listed too.
func CompareCabling(ps *Peers, sw *model.Switch, seen Neighbors) (Cabling, []Difference) {
	var c Cabling
	var diffs []Difference
	cabled := map[string]bool{}
	for i := range sw.Ports {
		p := &sw.Ports[i]
		if p.Peer == nil {
			continue
		}
		cabled[p.Name] = true
		c.Cabled++
		ns := sorted(seen[p.Name])
		if len(ns) == 0 {
			c.NoNeighbor = append(c.NoNeighbor, p.Name)
			continue
		}
		e := ps.expect(p.Peer)
		best := no
		byOld := false
		var actual []string
		for _, n := range ns {
			nm, old := ps.nameMatch(e, n.SystemName)
			pm, port := portMatch(e, n)
			switch {
			case nm == yes && pm == yes:
				byOld = best != yes && old
				best = yes
			case nm != no && pm != no && best == no:
				best = unknown
			}
			actual = append(actual, neighborText(n.SystemName, port))
		}
		switch best {
		case yes:
			c.Matched++
			if byOld {
				c.OldName = append(c.OldName, p.Name)
			}
		case unknown:
			c.Partly = append(c.Partly, p.Name)
		default:
			c.Differ++
			diffs = append(diffs, Difference{Device: sw.Name, Port: p.Name, Field: "neighbor", Intended: e.String(), Actual: strings.Join(actual, ", ")})
		}
	}
	for _, port := range slices.SortedFunc(maps.Keys(seen), naturalCmp) {
		if cabled[port] {
			continue
		}
		for _, n := range sorted(seen[port]) {
			c.Uncabled = append(c.Uncabled, Seen{Port: port, Neighbor: neighborText(n.SystemName, n.PortID)})
		}
	}
	slices.SortFunc(diffs, func(a, b Difference) int { return naturalCmp(a.Port, b.Port) })
	slices.SortFunc(c.NoNeighbor, naturalCmp)
	slices.SortFunc(c.Partly, naturalCmp)
	slices.SortFunc(c.OldName, naturalCmp)
	return c, diffs
}

// neighborText is "leaf3 Ethernet1/2", with what is missing said.
func neighborText(name, port string) string {
	if name == "" {
		name = "(no system name)"
	}
	if port == "" {
		port = "(no port ID)"
	}
	return name + " " + port
}

// sorted orders a port's neighbors by name and port, so that a report
// does not depend on the order a device lists them in.
func sorted(ns []Neighbor) []Neighbor {
	out := slices.Clone(ns)
	slices.SortFunc(out, func(a, b Neighbor) int {
		return strings.Compare(a.SystemName+"\x00"+a.PortID, b.SystemName+"\x00"+b.PortID)
	})
	return out
}
