package compiler

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/model"
)

// Cable kinds.
const (
	cableDAC   = "dac"
	cableAOC   = "aoc"
	cableFibre = "fibre"
)

// cableKinds lists the accepted cable kinds.
var cableKinds = []string{cableDAC, cableAOC, cableFibre}

// Cable lengths. Passive copper DACs are sold up to about 5 m, so a longer
// link defaults to an active optical cable. No passive copper Ethernet PHY
// of IEEE 802.3 reaches beyond 7 m (40GBASE-CR4, clause 85; 25GBASE-CR
// and 100GBASE-CR4 reach 5 m, clauses 110 and 92), so a longer "dac" is
// warned about.
const (
	maxDACMeters          = 5
	maxPassiveCopperMeter = 7
	maxCableMeters        = 10000
)

// Endpoint kinds.
const (
	kindSwitch = "switch"
	kindHost   = "host"
)

// lowerLinks resolves the link blocks, fills Peer on both ends and sorts
// the links by their A end (the switch side when there is one).
func (l *lowering) lowerLinks() {
	// Two ends per link: sized up front, the map is not rehashed as it
	// grows (400,000 ends in a 4,096-switch fabric).
	l.cabled = make(map[**model.Peer]dsl.Range, 2*len(l.cfg.Links))
	l.f.Links = make([]model.Link, 0, len(l.cfg.Links))
	for i := range l.cfg.Links {
		if link, ok := l.lowerLink(i); ok {
			l.f.Links = append(l.f.Links, link)
		}
	}
	slices.SortStableFunc(l.f.Links, func(x, y model.Link) int {
		if c := strings.Compare(x.A.Device, y.A.Device); c != 0 {
			return c
		}
		return naturalCompare(x.A.Port, y.A.Port)
	})
}

// lowerLink resolves link i of the declarations.
func (l *lowering) lowerLink(i int) (model.Link, bool) {
	dl := &l.cfg.Links[i]
	defer l.within(dl.A + " - " + dl.B)()
	idx := strconv.Itoa(i)
	l.src.setBlock(Key("link", idx), dl.DefRange, []attrRange{
		{"a", dl.ARange}, {"b", dl.BRange}, {"length", dl.LengthRange}, {"cable", dl.CableRange},
	})
	n := len(l.diags)
	a, aPeer, aok := l.endpoint(dl.A, dl.ARange.Or(dl.DefRange))
	b, bPeer, bok := l.endpoint(dl.B, dl.BRange.Or(dl.DefRange))
	link := model.Link{A: a, B: b, CableMeters: dl.Length, CableKind: l.cableKind(dl)}
	if !aok || !bok || l.failedSince(n) {
		return link, false
	}
	if swapEnds(a, b) {
		link.A, link.B = b, a
	}
	l.connect(a, aPeer, b, link, dl.DefRange)
	l.connect(b, bPeer, a, link, dl.DefRange)
	for _, e := range []model.Endpoint{link.A, link.B} {
		if e.Kind == kindSwitch {
			l.src.Set(dl.LengthRange, "switch", e.Device, "port", e.Port, "link", "length")
		}
	}
	return link, true
}

// swapEnds tells whether b should be the A end: the switch side comes
// first, else the lexically smaller device (then port).
func swapEnds(a, b model.Endpoint) bool {
	if a.Kind != b.Kind {
		return b.Kind == kindSwitch
	}
	if a.Device != b.Device {
		return b.Device < a.Device
	}
	return naturalLess(b.Port, a.Port)
}

// cableKind checks the length and resolves the cable kind.
func (l *lowering) cableKind(dl *dsl.Link) string {
	if dl.Length <= 0 || dl.Length > maxCableMeters {
		l.errorf(dl.LengthRange.Or(dl.DefRange), "Invalid cable length",
			"length %g is out of range; write the cable length in metres, more than 0 and at most %d.", dl.Length, maxCableMeters)
	}
	if dl.Cable == nil {
		if dl.Length <= maxDACMeters {
			return cableDAC
		}
		return cableAOC
	}
	c := *dl.Cable
	if c != cableDAC && c != cableAOC && c != cableFibre {
		l.errorf(dl.CableRange.Or(dl.DefRange), "Invalid cable kind",
			"cable %q is not known; write %s.%s", c, quoteList(cableKinds), didYouMean(c, cableKinds))
	}
	if c == cableDAC && dl.Length > maxPassiveCopperMeter {
		l.warnf(dl.CableRange.Or(dl.DefRange), "DAC longer than copper reaches",
			"cable \"dac\" of %g m: no passive copper Ethernet PHY reaches beyond %d m (40GBASE-CR4, IEEE 802.3 clause 85; 25G and 100G copper reach 5 m). Write cable = \"aoc\" or \"fibre\" if that is what is laid, or correct the length.",
			dl.Length, maxPassiveCopperMeter)
	}
	return c
}

// endpoint resolves "device:port" to a switch port or host NIC, returns
// the address of its Peer field and records it in l.cabled; a second
// link on the same end is an error.
func (l *lowering) endpoint(s string, r dsl.Range) (model.Endpoint, **model.Peer, bool) {
	dev, port, ok := strings.Cut(s, ":")
	if !ok || dev == "" || port == "" {
		l.errorf(r, "Invalid link end", "link end %q is not \"device:port\"; write it like \"leaf1:swp1\" or \"gpu01:roce0\".", s)
		return model.Endpoint{}, nil, false
	}
	e := model.Endpoint{Device: dev, Port: port}
	peer := l.peerField(&e, r)
	if peer == nil {
		return e, nil, false
	}
	if first, dup := l.cabled[peer]; dup {
		what := fmt.Sprintf("port %s of switch %q", port, dev)
		if e.Kind == kindHost {
			what = fmt.Sprintf("nic %q of host %q", port, dev)
		}
		d := l.errorf(r, "Cabled twice", "%s is already cabled by another link; one end takes one cable.", what)
		also(d, "the other link is here", first)
		return e, nil, false
	}
	l.cabled[peer] = r
	return e, peer, true
}

// peerField sets e's kind and returns the address of the Peer field of
// the switch port or host NIC e names, or nil when there is none (an
// error says why: its own, or an earlier one).
func (l *lowering) peerField(e *model.Endpoint, r dsl.Range) **model.Peer {
	dev, port := e.Device, e.Port
	if sw := l.switches[dev]; sw != nil {
		e.Kind = kindSwitch
		if p := findPort(sw, port); p != nil {
			return &p.Peer
		}
		if l.badPorts[dev] || l.badNames[Key(dev, port)] || l.undeclaredAfterBadPort(dev, port) {
			return nil // the port block's error says why
		}
		l.errorf(r, "Unknown port", "switch %q has no port %s; declare it in a port block.%s", dev, port, didYouMean(port, portNames(sw)))
		return nil
	}
	if h := l.hosts[dev]; h != nil {
		e.Kind = kindHost
		if n := findNIC(h, port); n != nil {
			return &n.Peer
		}
		if l.badPorts[dev] {
			return nil // the duplicate host's error says why
		}
		l.errorf(r, "Unknown NIC", "host %q has no nic %q; declare it in a nic block.%s", dev, port, didYouMean(port, nicNames(h)))
		l.meantNIC(dev, dsl.Suggest(port, nicNames(h)))
		return nil
	}
	l.errorf(r, "Unknown device", "no switch or host is named %q.%s", dev, didYouMean(dev, l.deviceNames()))
	l.meantNIC(dsl.Suggest(dev, l.deviceNames()), port)
	return nil
}

// meantNIC records that a link end which names no NIC most likely means
// nic of host (the name its error suggests), when there is such a NIC:
// its link's error says why it is not cabled, so finishNICs gives it no
// "NIC has no speed" error.
func (l *lowering) meantNIC(host, nic string) {
	if h := l.hosts[host]; h != nil && findNIC(h, nic) != nil {
		l.meant[Key(host, nic)] = true
	}
}

// connect sets the Peer of end (switch port or NIC; peer is the address
// of its Peer field) to the far end and records the link's source under
// the end's key.
func (l *lowering) connect(end model.Endpoint, peer **model.Peer, far model.Endpoint, link model.Link, r dsl.Range) {
	*peer = &model.Peer{Kind: far.Kind, Device: far.Device, Port: far.Port, CableMeters: link.CableMeters, CableKind: link.CableKind}
	if end.Kind == kindSwitch {
		l.src.Set(r, "switch", end.Device, "port", end.Port, "link")
		return
	}
	l.src.Set(r, "host", end.Device, "nic", end.Port, "link")
}

// findPort returns the named port of sw, or nil.
func findPort(sw *model.Switch, name string) *model.Port {
	for i := range sw.Ports {
		if sw.Ports[i].Name == name {
			return &sw.Ports[i]
		}
	}
	return nil
}

// findNIC returns the named NIC of h, or nil.
func findNIC(h *model.Host, name string) *model.NIC {
	for i := range h.NICs {
		if h.NICs[i].Name == name {
			return &h.NICs[i]
		}
	}
	return nil
}

// portNames lists the ports of sw.
func portNames(sw *model.Switch) []string {
	out := make([]string, len(sw.Ports))
	for i, p := range sw.Ports {
		out[i] = p.Name
	}
	return out
}

// nicNames lists the NICs of h.
func nicNames(h *model.Host) []string {
	out := make([]string, len(h.NICs))
	for i, n := range h.NICs {
		out[i] = n.Name
	}
	return out
}

// deviceNames lists every switch and host name.
func (l *lowering) deviceNames() []string {
	var out []string
	for _, s := range l.f.Switches {
		out = append(out, s.Name)
	}
	for _, h := range l.f.Hosts {
		out = append(out, h.Name)
	}
	return out
}

// finishPorts fills the defaults that depend on a port's peer: trust
// (PCP toward a RoCEv1 NIC, else DSCP) and the description "to dev:port".
func (l *lowering) finishPorts() {
	// Each switch's ports are its own, and lowering only reads the
	// maps here: the switches are finished on every core.
	cores.Range(len(l.f.Switches), 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			l.finishSwitchPorts(&l.f.Switches[i])
		}
	})
}

// finishSwitchPorts is finishPorts for the ports of sw.
func (l *lowering) finishSwitchPorts(sw *model.Switch) {
	for j := range sw.Ports {
		p := &sw.Ports[j]
		k := Key("switch", sw.Name, "port", p.Name)
		if !l.written[k+"/trust"] {
			p.Trust = l.peerTrust(p.Peer)
		}
		if !l.written[k+"/description"] && p.Peer != nil {
			p.Description = fmt.Sprintf("to %s:%s", p.Peer.Device, p.Peer.Port)
		}
	}
}

// peerTrust is the default trust of a port cabled to peer.
func (l *lowering) peerTrust(peer *model.Peer) model.Trust {
	if peer != nil && peer.Kind == kindHost {
		if h := l.hosts[peer.Device]; h != nil {
			if n := findNIC(h, peer.Port); n != nil && n.RoCE.Mode == "v1" {
				return model.TrustPCP
			}
		}
	}
	return model.TrustDSCP
}

// noSpeed reports a NIC that has no speed, naming it as the instance it
// is, so that one mistake a dynamic block repeats lists its NICs.
func (l *lowering) noSpeed(host, nic string) {
	defer l.within(host + ":" + nic)()
	l.errorf(l.src.Place("host", host, "nic", nic), "NIC has no speed",
		"nic %q of host %q has no speed and is not linked to a switch port; set speed (e.g. speed = \"25G\").", nic, host)
}

// finishNICs gives a NIC without a written speed its switch port's speed.
func (l *lowering) finishNICs() {
	for i := range l.f.Hosts {
		h := &l.f.Hosts[i]
		for j := range h.NICs {
			n := &h.NICs[j]
			if l.written[Key("host", h.Name, "nic", n.Name, "speed")] {
				continue
			}
			if n.Peer != nil && n.Peer.Kind == kindSwitch {
				if sw := l.switches[n.Peer.Device]; sw != nil {
					n.SpeedMbps = findPort(sw, n.Peer.Port).SpeedMbps
					continue
				}
			}
			if _, cabled := l.cabled[&n.Peer]; cabled || l.meant[Key(h.Name, n.Name)] {
				continue // the link's error says why
			}
			l.noSpeed(h.Name, n.Name)
		}
	}
}
