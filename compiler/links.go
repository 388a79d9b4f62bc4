package compiler

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// Cable kinds.
const (
	cableDAC   = "dac"
	cableAOC   = "aoc"
	cableFibre = "fibre"
)

// cableKinds lists the accepted cable kinds.
var cableKinds = []string{cableDAC, cableAOC, cableFibre}

// Cable lengths. Passive copper DACs are sold up to about 5 m, and copper
// reaches less the faster each lane runs (copperReach), so a longer link,
// or one longer than copper reaches at its speed, defaults to an active
// optical cable; a "dac" longer than copper reaches at the link's speed is
// warned about.
//
// An active optical cable is a multimode fibre with the short-reach
// optics built into its ends, and reaches what those optics reach: 100 m
// on OM4 fibre at 25G and 100G (25GBASE-SR, IEEE 802.3 clause 112;
// 100GBASE-SR4, clause 95; 70 m on OM3). NVIDIA LinkX 100GbE AOCs are
// such cables (MFA1A00-xxxx 100Gb/s QSFP28 MMF Active Optical Cable
// Product Specifications). So a link longer than 100 m defaults to
// fibre, and a longer "aoc" is warned about.
//
// Every cable is at most 10 km: the reach of the single-mode LR optics
// (10GBASE-LR, clause 52; 25GBASE-LR, clause 114; 100GBASE-LR4, clause
// 88). Longer spans (the 40 km ER optics) are metro links, not a
// lossless fabric's cabling; the PFC headroom they need (a port's cable
// term grows with the length, see computeHeadroom) is planned for no
// longer cable, and a longer length is more likely a typing mistake.
const (
	maxDACMeters   = 5
	maxAOCMeters   = 100
	maxCableMeters = 10000
)

// copperReach is how far passive copper reaches at a link speed, and the
// standard that says so: the longest reach of any copper PHY of that
// speed, so that only a cable no standard carries is warned about.
func copperReach(speedMbps int) (meters float64, standard string) {
	switch {
	case speedMbps <= 10000:
		return 7, "10G SFP+ direct attach copper, SFF-8431, is sold up to 7 m"
	case speedMbps <= 25000:
		return 5, "25GBASE-CR, IEEE 802.3 clause 110"
	case speedMbps <= 40000:
		return 7, "40GBASE-CR4, IEEE 802.3 clause 85"
	case speedMbps <= 50000:
		return 3, "50GBASE-CR, IEEE 802.3 clause 136"
	case speedMbps <= 100000:
		return 5, "100GBASE-CR4, IEEE 802.3 clause 92; 100GBASE-CR2 reaches 3 m and 100GBASE-CR1 2 m"
	case speedMbps <= 400000:
		// 400G over eight 50G PAM4 lanes uses 200GBASE-CR4's lanes;
		// 400GBASE-CR4 (IEEE 802.3ck, clause 162) reaches 2 m.
		return 3, "200GBASE-CR4, IEEE 802.3 clause 136, whose 50G lanes 400G copper also runs; 400GBASE-CR4, clause 162, reaches 2 m"
	}
	return 2, "800GBASE-CR8, IEEE 802.3df, on clause 162's 100G lanes"
}

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
	// Links with override = true first: they take their ends, and the
	// others that cable one of those ends are left out (overrides.go).
	for _, overriding := range []bool{true, false} {
		l.overrides.pass = overriding
		for i := range l.cfg.Links {
			if l.cfg.Links[i].Override != overriding {
				continue
			}
			if link, ok := l.lowerLink(i); ok {
				l.f.Links = append(l.f.Links, link)
			}
		}
	}
	l.overridesUnused()
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
		{"a", dl.ARange}, {"b", dl.BRange}, {"length", dl.LengthRange}, {"cable", dl.CableRange}, {"override", dl.OverrideRange},
	})
	n := len(l.diags)
	if endMissing(dl.A, dl.ARange) || endMissing(dl.B, dl.BRange) {
		l.missingEnd(dl)
		return model.Link{}, false
	}
	if dl.A == dl.B {
		l.selfLink(dl)
		return model.Link{}, false
	}
	l.overrides.replaced = l.overrides.replaced[:0]
	a, aPeer, aok := l.endpoint(dl.A, "a", dl.ARange.Or(dl.DefRange))
	b, bPeer, bok := l.endpoint(dl.B, "b", dl.BRange.Or(dl.DefRange))
	if l.replacedByOverride(aPeer, bPeer) {
		return model.Link{}, false
	}
	link := model.Link{A: a, B: b, CableMeters: dl.Length, CableKind: l.cableKind(dl, max(l.speedOf(a), l.speedOf(b)))}
	if !aok || !bok || l.failedSince(n) {
		return link, false
	}
	l.overrideTakes(i, aPeer, bPeer)
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

// cableKind checks the length and resolves the cable kind of a link of
// speedMbps (0 when an end is unresolved).
func (l *lowering) cableKind(dl *dsl.Link, speedMbps int) string {
	if dl.Length <= 0 || dl.Length > maxCableMeters {
		why := ""
		if dl.Length > maxCableMeters {
			why = " (10 km, the reach of single-mode LR optics such as 100GBASE-LR4)"
		}
		l.errorf(dl.LengthRange.Or(dl.DefRange), "Invalid cable length",
			"length %g is out of range; write the cable length in metres, more than 0 and at most %d%s.", dl.Length, maxCableMeters, why)
	}
	reach, standard := copperReach(speedMbps)
	if dl.Cable == nil {
		switch {
		case dl.Length <= min(maxDACMeters, reach):
			return cableDAC
		case dl.Length <= maxAOCMeters:
			return cableAOC
		}
		return cableFibre
	}
	c := *dl.Cable
	if c != cableDAC && c != cableAOC && c != cableFibre {
		l.errorf(dl.CableRange.Or(dl.DefRange), "Invalid cable kind",
			"cable %q is not known; write %s.%s", c, dsl.QuoteList(cableKinds), didYouMean(c, cableKinds))
	}
	if c == cableDAC && speedMbps > 0 && dl.Length > reach && dl.Length <= maxCableMeters {
		l.warnf(dl.CableRange.Or(dl.DefRange), "DAC longer than copper reaches",
			"cable \"dac\" of %g m at %s: passive copper reaches %g m at that speed (%s). Write cable = \"aoc\" or \"fibre\" if that is what is laid, or correct the length.",
			dl.Length, speedText(speedMbps), reach, standard)
	}
	if c == cableAOC && dl.Length > maxAOCMeters && dl.Length <= maxCableMeters {
		l.warnf(dl.CableRange.Or(dl.DefRange), "AOC longer than active optical cables reach",
			"cable \"aoc\" of %g m: active optical cables reach %d m (the multimode short-reach optics they are built on: 25GBASE-SR and 100GBASE-SR4 on OM4, IEEE 802.3 clauses 112 and 95). Write cable = \"fibre\" if transceivers and a fibre are laid, or correct the length.",
			dl.Length, maxAOCMeters)
	}
	return c
}

// selfLink reports a link whose two ends name the same port or NIC. No
// end of it is resolved, so neither is taken as cabled; the NICs left
// without a link may be the end it meant (finishNICs folds them in).
func (l *lowering) selfLink(dl *dsl.Link) {
	d := l.errorf(dl.BRange.Or(dl.DefRange), "Link joins a port to itself",
		"a and b both name %q; a link is one cable between two different ports. Write the far end of the cable in b: \"HOST:NIC\" for a host, \"SWITCH:PORT\" for a switch.", dl.A)
	also(d, "a names the same end", dl.ARange)
	l.broken = append(l.broken, brokenEnd{d: d, attr: "b"})
}

// missingEnd reports a link without a or b, naming the written end and
// what the missing one is written as. When the written end is a switch
// port, a NIC no link cables may be the missing end (foldUncabled names
// it); the written end counts as cabled, so it gets no follow-on error.
func (l *lowering) missingEnd(dl *dsl.Link) {
	if endMissing(dl.A, dl.ARange) && endMissing(dl.B, dl.BRange) {
		l.errorf(dl.DefRange, "Missing link end",
			"the link has neither a nor b; write the two ends of the cable, each \"SWITCH:PORT\" for a switch port or \"HOST:NIC\" for a host's NIC (a = \"leaf1:swp1\", b = \"gpu01:roce0\").")
		return
	}
	have, missing, r := "a", "b", dl.ARange
	s := dl.A
	if endMissing(dl.A, dl.ARange) {
		have, missing, r, s = "b", "a", dl.BRange, dl.B
	}
	e, _, ok := l.endpoint(s, have, r)
	what := ""
	if ok {
		what = " from " + l.endText(e)
	}
	d := l.errorf(dl.DefRange, "Missing link end",
		"the link has %s = %q but no %s; write %s = \"SWITCH:PORT\" for a switch port or %s = \"HOST:NIC\" for a host's NIC, the other end of the cable%s.",
		have, s, missing, missing, missing, what)
	also(d, fmt.Sprintf("%s is written here", have), r)
	if !ok || e.Kind == kindSwitch {
		l.broken = append(l.broken, brokenEnd{d: d, attr: missing})
	}
}

// endMissing tells whether a link end is not written: no value and no
// place (a = "" is written, and is an invalid end; a Config built in Go
// has values without places).
func endMissing(v string, r dsl.Range) bool { return v == "" && r.Empty() }

// endText names a resolved link end for messages: port swp1 of switch
// "leaf1" (100G, access), or nic "roce0" of host "gpu01".
func (l *lowering) endText(e model.Endpoint) string {
	if e.Kind == kindHost {
		return fmt.Sprintf("nic %q of host %q", e.Port, e.Device)
	}
	text := fmt.Sprintf("port %s of switch %q", e.Port, e.Device)
	if sw := l.switches[e.Device]; sw != nil {
		if p := findPort(sw, e.Port); p != nil && p.SpeedMbps > 0 {
			text += fmt.Sprintf(" (%s, %s)", speedText(p.SpeedMbps), p.Mode)
		}
	}
	return text
}

// brokenEnd is a link end whose error leaves a cable unaccounted for: a
// link joining a port to itself, or an end naming a host but no NIC.
// A NIC that no link cables may be the end it meant; finishNICs names
// such NICs in its error instead of reporting each.
type brokenEnd struct {
	d *hcl.Diagnostic
	// attr is the link attribute ("a" or "b") to correct, host the host
	// the end names ("" when the end could be any NIC).
	attr, host string
	// any takes all the host's uncabled NICs, however many there are:
	// the end names a NIC the host does not declare, so it meant one of
	// them, and the error names them all rather than each getting a
	// "NIC not cabled" whose "add a link block" may be wrong.
	any bool
}

// endpoint resolves "device:port", written as link attribute attr, to a
// switch port or host NIC, returns the address of its Peer field and
// records it in l.cabled; a second link on the same end is an error.
func (l *lowering) endpoint(s, attr string, r dsl.Range) (model.Endpoint, **model.Peer, bool) {
	dev, port, ok := strings.Cut(s, ":")
	if !ok || dev == "" || port == "" {
		l.invalidEnd(s, attr, dev, r)
		return model.Endpoint{}, nil, false
	}
	e := model.Endpoint{Device: dev, Port: port}
	peer := l.peerField(&e, attr, r)
	if peer == nil {
		return e, nil, false
	}
	if first, dup := l.cabled[peer]; dup {
		if l.overridden(peer) {
			return e, nil, false
		}
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

// invalidEnd reports a link end that is not "device:port". One that
// names a host (or a switch) says what to add; a host's NICs without a
// link are then most likely what it meant (see brokenEnd).
func (l *lowering) invalidEnd(s, attr, dev string, r dsl.Range) {
	if h := l.hosts[dev]; h != nil {
		d := l.errorf(r, "Invalid link end", "link end %q names host %q but none of its NICs; write %s = %q, with the name of its nic block for NIC (the host declares %s).",
			s, dev, attr, dev+":NIC", nicsText(h))
		l.broken = append(l.broken, brokenEnd{d: d, attr: attr, host: dev})
		return
	}
	if sw := l.switches[dev]; sw != nil {
		l.errorf(r, "Invalid link end", "link end %q names switch %q but none of its ports; write %s = %q, with the port's name for PORT.", s, dev, attr, dev+":PORT")
		return
	}
	l.errorf(r, "Invalid link end", "link end %q is not \"device:port\"; write it like \"leaf1:swp1\" or \"gpu01:roce0\".", s)
}

// nicsText lists the NICs of h for messages: nic "roce0", or "no nic
// block" when it has none.
func nicsText(h *model.Host) string {
	if len(h.NICs) == 0 {
		return "no nic block"
	}
	names := make([]string, len(h.NICs))
	for i, n := range h.NICs {
		names[i] = strconv.Quote(n.Name)
	}
	return "nic " + listText(names)
}

// peerField sets e's kind and returns the address of the Peer field of
// the switch port or host NIC e names, or nil when there is none (an
// error says why: its own, or an earlier one).
func (l *lowering) peerField(e *model.Endpoint, attr string, r dsl.Range) **model.Peer {
	dev, port := e.Device, e.Port
	if sw := l.switches[dev]; sw != nil {
		e.Kind = kindSwitch
		if p := findPort(sw, port); p != nil {
			return &p.Peer
		}
		if l.badPorts[dev] || l.badNames[Key(dev, port)] || l.undeclaredAfterBadPort(dev, port) {
			return nil // the port block's error says why
		}
		l.errorf(r, "Unknown port", "switch %q has no port %s; declare it in a port block.%s", dev, port, portHint(port, portNames(sw)))
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
		l.unknownNIC(h, port, attr, r)
		return nil
	}
	l.errorf(r, "Unknown device", "no switch or host is named %q.%s%s", dev, didYouMean(dev, l.deviceNames()), indexNamesHint(l.deviceNames()))
	l.meantNIC(dsl.Suggest(dev, l.deviceNames()), port)
	return nil
}

// unknownNIC reports a link end naming a NIC host h does not declare.
// It suggests the closest NIC name, or the host's only NIC; the NIC it
// suggests gets no "NIC not cabled" error. Without a suggestion, the
// host's NICs that no link cables are named in this error instead
// (foldUncabled): the end names their host, so it most likely meant one.
func (l *lowering) unknownNIC(h *model.Host, port, attr string, r dsl.Range) {
	names := nicNames(h)
	meant := dsl.Suggest(port, names)
	if meant == "" && len(names) == 1 {
		meant = names[0]
	}
	hint := ""
	if meant != "" {
		hint = fmt.Sprintf(" Did you mean %q?", meant)
	}
	d := l.errorf(r, "Unknown NIC", "host %q has no nic %q (it declares %s); name one of those, or declare it in a nic block.%s", h.Name, port, nicsText(h), hint)
	if meant != "" {
		l.meantNIC(h.Name, meant)
		return
	}
	l.broken = append(l.broken, brokenEnd{d: d, attr: attr, host: h.Name, any: true})
}

// indexNamesHint is the likely cause of an unknown device when some
// devices are named by digits alone ("0", "1", ...): a dynamic block
// whose for_each is a list (keys(...), a list of names) has the index as
// each instance's key, so labels = [leaf.key] names them 0, 1, 2.
func indexNamesHint(names []string) string {
	var digits []string
	for _, n := range names {
		if n != "" && strings.Trim(n, "0123456789") == "" {
			digits = append(digits, strconv.Quote(n))
		}
	}
	if len(digits) == 0 {
		return ""
	}
	shown := strings.Join(digits[:min(3, len(digits))], ", ")
	if len(digits) > 3 {
		shown += fmt.Sprintf(" and %d more", len(digits)-3)
	}
	return fmt.Sprintf(" The fabric has devices named only by digits (%s): a dynamic block whose for_each is a list, such as keys(...), "+
		"gives each instance its index as key, so labels = [x.key] names them 0, 1, 2, ...; label them with x.value, or write for_each = toset(...).", shown)
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

// speedOf is the speed of a resolved link end in Mbit/s, 0 when it is
// not resolved.
func (l *lowering) speedOf(e model.Endpoint) int {
	if sw := l.switches[e.Device]; sw != nil && e.Kind == kindSwitch {
		if p := findPort(sw, e.Port); p != nil {
			return p.SpeedMbps
		}
	}
	if h := l.hosts[e.Device]; h != nil && e.Kind == kindHost {
		if n := findNIC(h, e.Port); n != nil {
			return n.SpeedMbps
		}
	}
	return 0
}

// interfacePrefix is how switch CLIs spell "Ethernet" before a port
// number: Onyx's "ethernet 1/2" and "Eth1/2", EOS's "Et1".
var interfacePrefix = regexp.MustCompile(`(?i)^(ethernet|eth|et)\s*`)

// portHint suggests the declared port a link end most likely means: the
// one that is the same port written as a switch's CLI writes it (a link
// end "ethernet 1/2" for Onyx's port "1/2"), else the closest name.
func portHint(port string, names []string) string {
	bare := interfacePrefix.ReplaceAllString(port, "")
	for _, n := range names {
		if bare != port && strings.EqualFold(interfacePrefix.ReplaceAllString(n, ""), bare) {
			return fmt.Sprintf(" Ports are named as their port block names them: did you mean %q?", n)
		}
	}
	return didYouMean(port, names)
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
		nic := l.peerNIC(p.Peer)
		if !l.written[k+"/trust"] {
			p.Trust = model.TrustDSCP
			if nic != nil && nic.RoCE.Mode == "v1" {
				p.Trust = model.TrustPCP // RoCE v1 has no IP header to classify by
			}
		}
		if !l.written[k+"/description"] && p.Peer != nil {
			p.Description = fmt.Sprintf("to %s:%s", p.Peer.Device, p.Peer.Port)
		}
		// The port advertises PFC to a NIC that takes it from the
		// switch by DCBX (EOS and Cumulus advertise nothing by default).
		p.DCBX = nic != nil && nic.TakesPFCByDCBX()
	}
}

// peerNIC is the host NIC a port is cabled to, nil for a switch peer or
// none.
func (l *lowering) peerNIC(peer *model.Peer) *model.NIC {
	if peer == nil || peer.Kind != kindHost {
		return nil
	}
	if h := l.hosts[peer.Device]; h != nil {
		return findNIC(h, peer.Port)
	}
	return nil
}

// uncabledNIC is a NIC that no link names.
type uncabledNIC struct {
	host, nic string
	// speed tells whether the NIC's speed is written.
	speed bool
}

// name is "host:nic" as a link writes it.
func (u uncabledNIC) name() string { return u.host + ":" + u.nic }

// notCabled reports a NIC that no link cables, naming it as the instance
// it is, so that one mistake a dynamic block repeats lists its NICs.
// Without a written speed it is an error (the speed comes from the
// switch port at the other end of its link). With one it is a warning
// in a fabric that has switches, since every check of a NIC (speed, MTU,
// tagging, PFC, marking) is against the switch port its link reaches,
// so such a NIC is most likely a forgotten link; the NIC may also be
// cabled to a device the fabric does not describe, hence a warning. A
// fabric without switches has no port to cable a NIC to (a host-only
// fabric renders host scripts alone), and says nothing then.
func (l *lowering) notCabled(u uncabledNIC) {
	if u.speed && len(l.f.Switches) == 0 {
		return
	}
	defer l.within(u.name())()
	at := l.src.Place("host", u.host, "nic", u.nic)
	add := fmt.Sprintf("Add a link block with a = \"SWITCH:PORT\" and b = %q", u.name())
	if !u.speed {
		l.errorf(at, "NIC not cabled",
			"no link block cables nic %q of host %q, so it has no switch port to take its speed from. %s; if the NIC is cabled to a device the fabric does not describe, set its speed instead (e.g. speed = \"25G\").", u.nic, u.host, add)
		return
	}
	l.warnf(at, "NIC not cabled",
		"no link block cables nic %q of host %q, so its speed, MTU, VLAN tagging and PFC are checked against no switch port, though its host script configures it. %s, or acknowledge this warning if the NIC is cabled to a device the fabric does not describe.", u.nic, u.host, add)
}

// finishNICs gives a NIC without a written speed its switch port's
// speed, and reports the NICs no link cables (see notCabled), but for
// those a broken link end most likely meant (foldUncabled).
func (l *lowering) finishNICs() {
	var uncabled []uncabledNIC
	for i := range l.f.Hosts {
		h := &l.f.Hosts[i]
		for j := range h.NICs {
			n := &h.NICs[j]
			written := l.written[Key("host", h.Name, "nic", n.Name, "speed")]
			if !written && n.Peer != nil && n.Peer.Kind == kindSwitch {
				if sw := l.switches[n.Peer.Device]; sw != nil {
					n.SpeedMbps = findPort(sw, n.Peer.Port).SpeedMbps
				}
			}
			if _, cabled := l.cabled[&n.Peer]; n.Peer != nil || cabled || l.meant[Key(h.Name, n.Name)] {
				continue // cabled, or the link's error says why
			}
			uncabled = append(uncabled, uncabledNIC{host: h.Name, nic: n.Name, speed: written})
		}
	}
	for _, u := range l.foldUncabled(uncabled) {
		l.notCabled(u)
	}
}

// foldUncabled names the uncabled NICs in the errors of the broken link
// ends that most likely meant them, and returns the others. An end that
// names a host takes that host's uncabled NICs, a link joining a port
// to itself any; either only when there are no more such NICs than
// such ends, so that each could be one of them, but for an end naming
// an unknown NIC of the host (brokenEnd.any), which takes them all.
func (l *lowering) foldUncabled(uncabled []uncabledNIC) []uncabledNIC {
	if len(l.broken) == 0 || len(uncabled) == 0 {
		return uncabled
	}
	byHost := map[string][]brokenEnd{}
	var anyEnd []brokenEnd
	for _, b := range l.broken {
		if b.host == "" {
			anyEnd = append(anyEnd, b)
		} else {
			byHost[b.host] = append(byHost[b.host], b)
		}
	}
	folds := func(host string) bool {
		ends := byHost[host]
		return len(ends) > 0 && (len(nicsOf(uncabled, host)) <= len(ends) || slices.ContainsFunc(ends, func(b brokenEnd) bool { return b.any }))
	}
	var rest []uncabledNIC
	for _, u := range uncabled {
		if folds(u.host) {
			continue // folded below
		}
		rest = append(rest, u)
	}
	for _, b := range l.broken {
		if b.host != "" && folds(b.host) {
			if nics := nicsOf(uncabled, b.host); len(nics) > 0 {
				b.d.Detail += meantText(nics, b.attr)
			}
		}
	}
	if len(anyEnd) == 0 || len(rest) > len(anyEnd) {
		return rest
	}
	for _, b := range anyEnd {
		b.d.Detail += meantText(rest, b.attr)
	}
	return nil
}

// nicsOf lists the NICs of uncabled on host.
func nicsOf(uncabled []uncabledNIC, host string) []uncabledNIC {
	var out []uncabledNIC
	for _, u := range uncabled {
		if u.host == host {
			out = append(out, u)
		}
	}
	return out
}

// meantText tells a broken link end's error which uncabled NICs it may
// have meant.
func meantText(nics []uncabledNIC, attr string) string {
	if len(nics) == 1 {
		return fmt.Sprintf(" No link cables nic %q of host %q; if this end was meant to be it, %s = %q fixes both.", nics[0].nic, nics[0].host, attr, nics[0].name())
	}
	names := make([]string, len(nics))
	for i, u := range nics {
		names[i] = u.name()
	}
	return fmt.Sprintf(" No link cables %s; if this end was meant to be one of them, correcting %s fixes both.", listText(names), attr)
}
