package compiler

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// checkLossless checks that every lossless class has a PFC priority, that
// PFC is on (with a lossless buffer) on every cabled port, that link pause
// is off where PFC is on, and that switches carrying RoCE have lossless
// ports.
func (c *checker) checkLossless() {
	q := c.f.QoS
	var lossless []model.Class
	for _, cl := range q.Classes {
		if !cl.Lossless {
			continue
		}
		if !anyIn(cl.Priorities, q.PFCPriorities) {
			c.errorf("Lossless class without PFC priority",
				fmt.Sprintf("Class %q is lossless but none of its priorities (%s) has PFC on (PFC priorities: %s). Enable PFC on priority %d or make the class lossy.", cl.Name, intsText(cl.Priorities), intsText(q.PFCPriorities), cl.Priority),
				[]string{"qos", "class", cl.Name, "lossless"})
			continue
		}
		lossless = append(lossless, cl)
	}
	for i := range c.f.Switches {
		sw := &c.f.Switches[i]
		for j := range sw.Ports {
			c.checkPortLossless(sw, &sw.Ports[j], lossless)
		}
		c.checkSwitchHasLossless(sw)
	}
}

// anyIn reports whether some element of a is in b.
func anyIn(a, b []int) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// checkPortLossless checks one switch port against the lossless classes.
func (c *checker) checkPortLossless(sw *model.Switch, p *model.Port, classes []model.Class) {
	if p.LinkPause && len(p.PFCPriorities) > 0 {
		c.errorf("Link pause with PFC",
			fmt.Sprintf("Port %s:%s has 802.3x link pause on and PFC on priorities %s; the two are mutually exclusive (a link pause stops every priority). Turn link pause off.", sw.Name, p.Name, intsText(p.PFCPriorities)),
			portPath(sw.Name, p.Name))
	}
	if p.Peer == nil || p.Shutdown {
		return
	}
	for _, cl := range classes {
		switch {
		case p.Lossless(cl.Priority) && !hasLosslessPG(p, cl.Priority):
			c.errorf("No lossless buffer for PFC priority",
				fmt.Sprintf("Port %s:%s has PFC on priority %d (class %q) but no lossless priority group with headroom for it, so paused traffic would overflow. This is an internal inconsistency: report it.", sw.Name, p.Name, cl.Priority, cl.Name),
				portPath(sw.Name, p.Name))
		case p.Lossless(cl.Priority):
		// Whether pfc was written is looked up only here: every port
		// of a large fabric passes the cases above.
		case !c.src.Has(portPath(sw.Name, p.Name, "pfc")...):
			c.errorf("Lossless class without PFC on port",
				fmt.Sprintf("Class %q is lossless but port %s:%s, cabled to %s %s:%s, has no PFC on priority %d. Enable PFC for priority %d on the port.", cl.Name, sw.Name, p.Name, p.Peer.Kind, p.Peer.Device, p.Peer.Port, cl.Priority, cl.Priority),
				portPath(sw.Name, p.Name))
		case c.roceBehind(p.Peer) && c.roceArrives(sw, p):
			c.errorf("PFC disabled on port facing RoCE traffic",
				fmt.Sprintf("Port %s:%s has pfc = false but faces %s %s:%s, which carries RoCE in lossless class %q (priority %d); RoCE would be dropped under congestion. Remove pfc = false.", sw.Name, p.Name, p.Peer.Kind, p.Peer.Device, p.Peer.Port, cl.Name, cl.Priority),
				portPath(sw.Name, p.Name, "pfc"), rel(fmt.Sprintf("RoCE NIC or link peer %s:%s", p.Peer.Device, p.Peer.Port), peerPath(p.Peer)...))
		}
	}
}

// roceArrives reports whether RoCE traffic can arrive at port p of sw
// from its peer: always from a host (roceBehind checks the NIC), from a
// switch only when RoCE NICs sit on both sides of the link (roceFlow).
func (c *checker) roceArrives(sw *model.Switch, p *model.Port) bool {
	if p.Peer == nil || p.Peer.Kind != "switch" {
		return true
	}
	if c.flow == nil {
		c.flow = newRoCEFlow(c.f)
	}
	return c.flow.reachesPort(sw.Name, p.Name)
}

// peerPath is the Sources path of a peer.
func peerPath(pr *model.Peer) []string {
	if pr.Kind == "switch" {
		return portPath(pr.Device, pr.Port)
	}
	return nicPath(pr.Device, pr.Port)
}

// roceBehind reports whether RoCE traffic reaches a port from its peer: the
// peer is a RoCE NIC, or a switch in a component with RoCE NICs.
func (c *checker) roceBehind(pr *model.Peer) bool {
	if pr.Kind == "host" {
		if h := c.hosts[pr.Device]; h != nil {
			n := h.NIC(pr.Port)
			return n != nil && n.Transport == model.TransportRoCE
		}
		return false
	}
	return c.comp.hasRoCE(switchNode(pr.Device))
}

// hasLosslessPG reports whether the port has a lossless PG for prio.
func hasLosslessPG(p *model.Port, prio int) bool {
	for _, pg := range p.PriorityGroups {
		if pg.Lossless && slices.Contains(pg.Priorities, prio) && pg.SizeBytes > 0 {
			return true
		}
	}
	return false
}

// checkSwitchHasLossless reports a switch with no PFC port that RoCE NICs
// are cabled to, directly or through other switches.
func (c *checker) checkSwitchHasLossless(sw *model.Switch) {
	if !c.comp.hasRoCE(switchNode(sw.Name)) {
		return
	}
	for _, p := range sw.Ports {
		if len(p.PFCPriorities) > 0 {
			return
		}
	}
	if !c.receivesRoCE(sw) {
		return // cabled to RoCE NICs, but on no path between two of them
	}
	c.errorf("No lossless ports on switch",
		fmt.Sprintf("Switch %q carries traffic of RoCE NICs (for example %s) but has PFC on none of its ports, so RoCE is lossy through it. Enable PFC on the ports RoCE crosses.", sw.Name, c.comp.firstRoCE(switchNode(sw.Name))),
		[]string{"switch", sw.Name})
}

// receivesRoCE reports whether RoCE traffic can arrive at some cabled,
// enabled port of sw.
func (c *checker) receivesRoCE(sw *model.Switch) bool {
	for j := range sw.Ports {
		p := &sw.Ports[j]
		if p.Peer != nil && !p.Shutdown && c.roceBehind(p.Peer) && c.roceArrives(sw, p) {
			return true
		}
	}
	return false
}

// checkECN checks each class's ECN thresholds: min below max, on every
// class that marks (a lossy class's empty ramp used to pass validate and
// fail only when a switch was rendered), in bytes and after each
// platform's rounding; a probability Onyx cannot take (warning); and on a
// lossless class min of at least one frame (warning), max within the
// queue limit of every switch and min below the DCQCN ECN-before-PFC
// bound (warning).
func (c *checker) checkECN() {
	onyx := c.onyxSwitches()
	frame, frameFrom := c.smallestLosslessFrame()
	for _, cl := range c.f.QoS.Classes {
		if cl.ECN == nil {
			continue
		}
		e := cl.ECN
		minPath := []string{"qos", "class", cl.Name, "ecn", "min"}
		maxPath := []string{"qos", "class", cl.Name, "ecn", "max"}
		small := cl.Lossless && e.MinBytes < frame
		switch {
		case e.MinBytes >= e.MaxBytes:
			c.errorf("ECN minimum not below maximum",
				fmt.Sprintf("Class %q marks ECN from %d bytes (min) to %d bytes (max); min must be below max or the marking ramp is empty. Lower min or raise max.", cl.Name, e.MinBytes, e.MaxBytes),
				minPath, rel(fmt.Sprintf("ECN max %d bytes", e.MaxBytes), maxPath...))
		case len(onyx) > 0 && model.OnyxECNKB(e.MinBytes) >= model.OnyxECNKB(e.MaxBytes):
			c.errorf("ECN minimum not below maximum",
				fmt.Sprintf("Class %q marks ECN from %d bytes (min) to %d bytes (max), but Onyx takes the thresholds in KB (1024 B) rounded up, so Onyx %s would mark from %d KB to %d KB, an empty marking ramp. Raise max to %d bytes or more, which Onyx rounds to %d KB.%s", cl.Name, e.MinBytes, e.MaxBytes, switchesText(onyx), model.OnyxECNKB(e.MinBytes), model.OnyxECNKB(e.MaxBytes), model.OnyxECNKB(e.MinBytes)*1024+1, model.OnyxECNKB(e.MinBytes)+1, kbHint(small, e.MinBytes)),
				minPath, rel(fmt.Sprintf("ECN max %d bytes", e.MaxBytes), maxPath...))
		case small:
			c.warnf("ECN minimum below one frame",
				fmt.Sprintf("Class %q starts ECN marking at %d bytes, less than one lossless frame (%d bytes, %s), so its queue marks every packet that waits behind another and DCQCN slows the senders at the first sign of a queue. A size without a unit is bytes: write \"%dKB\" if KB was meant, or raise min.", cl.Name, e.MinBytes, frame, frameFrom, e.MinBytes),
				minPath)
		}
		c.checkECNProbability(cl, onyx)
		if cl.Lossless {
			c.checkECNAgainstSwitches(cl, minPath, maxPath)
		}
	}
}

// kbHint is the Onyx rounding error's last sentence when min is below
// one frame: likely bytes written where KB was meant.
func kbHint(small bool, min int64) string {
	if !small {
		return ""
	}
	return fmt.Sprintf(" A size without a unit is bytes, and min is below one lossless frame: if KB was meant, write the unit (\"%dKB\").", min)
}

// switchesText is "switch leaf3" or "switches leaf3, leaf4".
func switchesText(names []string) string {
	if len(names) == 1 {
		return "switch " + names[0]
	}
	return "switches " + listText(names)
}

// onyxSwitches names the Onyx switches with a port in service: the ones
// whose ECN lines Onyx rounds to KB and that take no probability.
func (c *checker) onyxSwitches() []string {
	var out []string
	for i := range c.f.Switches {
		sw := &c.f.Switches[i]
		if sw.Platform != model.PlatformOnyx {
			continue
		}
		for j := range sw.Ports {
			if !sw.Ports[j].Shutdown {
				out = append(out, sw.Name)
				break
			}
		}
	}
	return out
}

// smallestLosslessFrame is the smallest frame a lossless queue must hold
// whole, and where it comes from: the headroom policy's written
// lossless_mtu, else the smallest lossless MTU a lossless priority group
// was computed for (each port's NICs' RoCE path MTU).
func (c *checker) smallestLosslessFrame() (int64, string) {
	hp := c.f.QoS.Headroom
	if !hp.LosslessMTUFromNICs {
		return int64(hp.LosslessMTUBytes), "the headroom policy's lossless_mtu"
	}
	smallest := int64(hp.LosslessMTUBytes)
	for i := range c.f.Switches {
		for _, p := range c.f.Switches[i].Ports {
			for _, pg := range p.PriorityGroups {
				if pg.Lossless && pg.Headroom != nil && int64(pg.Headroom.LosslessMTUBytes) < smallest {
					smallest = int64(pg.Headroom.LosslessMTUBytes)
				}
			}
		}
	}
	return smallest, "the smallest lossless MTU of the lossless ports"
}

// checkECNProbability warns at a written probability other than 100 %
// when the fabric has Onyx switches: Onyx's congestion-control command
// takes the mode and two thresholds and no probability (NVIDIA Onyx User
// Manual, QoS, "traffic-class congestion-control"; mellanox.onyx
// onyx_traffic_class offers control, threshold_mode, min and max), so
// they mark on their own curve while EOS and NVUE take the written one.
func (c *checker) checkECNProbability(cl model.Class, onyx []string) {
	at := []string{"qos", "class", cl.Name, "ecn", "probability"}
	if len(onyx) == 0 || cl.ECN.MarkProbabilityPercent == 100 || !c.src.Has(at...) {
		return
	}
	c.warnf("ECN probability not settable",
		fmt.Sprintf("Class %q asks for a marking probability of %d %% at the ECN maximum, but Onyx %s cannot be told it (the traffic-class congestion-control command takes only the mode and the two thresholds) and marks on its own curve, so the written probability has no effect there (EOS and Cumulus switches take it). Use 100, the probability of NVIDIA's RoCE defaults, or run the class on switches that take it.", cl.Name, cl.ECN.MarkProbabilityPercent, switchesText(onyx)),
		at)
}

// checkECNAgainstSwitches compares a class's thresholds with the limits
// of each switch it crosses; each finding lists the switches it holds for.
//
// Queue limit: a lossless egress queue has alpha inf, so it may grow into
// the whole egress lossless pool; the pool size is the limit. That pool
// is the whole buffer (see buildPools), so the limit does not depend on
// the cables.
//
// DCQCN bound (Zhu et al., "Congestion Control for Large-Scale RDMA
// Deployments", SIGCOMM 2015, section "Buffer Settings"): with dynamic
// PFC thresholds t_PFC = beta x (B - 8n x t_flight - s) / 8, ECN fires
// before PFC when t_ECN < beta x (B - 8n x t_flight) / (8n x (beta + 1)).
// In the paper 8n counts the lossless priority groups (8 priorities on
// each of n ports, every one lossless), 8n x t_flight is their headroom
// and B the buffer they share; for its Trident II (B = 12 MB, n = 32,
// t_flight = 22.4 KB, beta = 8) the bound is 21.76 KB (TestDCQCNBoundPaper).
// fabricc puts the fabric's own numbers in those places (dcqcnBound):
// k, the lossless priority groups of the switch's cabled ports, for 8n;
// and S, the shared part of the ingress lossless pool (the pool less the
// headroom reserved in it), for B - 8n x t_flight, since only the lossless
// pool's free space feeds the lossless groups' dynamic threshold.
func (c *checker) checkECNAgainstSwitches(cl model.Class, minPath, maxPath []string) {
	e := cl.ECN
	var overLimit, overBound switchLimits
	terms := map[string]string{}
	for i := range c.f.Switches {
		sw := &c.f.Switches[i]
		if !switchCarries(sw, cl.Priority) {
			continue
		}
		if limit := egressLosslessPool(sw); limit > 0 && e.MaxBytes > limit {
			overLimit.add(sw.Name, limit)
		}
		if b, ok := dcqcnBound(sw); ok && e.MinBytes > b.bytes {
			overBound.add(sw.Name, b.bytes)
			terms[sw.Name] = fmt.Sprintf("%s (S = %d bytes, k = %d)", sw.Name, b.shared, b.groups)
		}
	}
	if len(overLimit) == 1 {
		l := overLimit[0]
		c.errorf("ECN maximum above queue limit",
			fmt.Sprintf("Class %q marks ECN up to %d bytes, but on switch %s a lossless queue can hold at most %d bytes (the egress lossless pool), so marking never reaches its maximum. Lower max below %d bytes.", cl.Name, e.MaxBytes, listText(l.switches), l.bytes, l.bytes),
			maxPath)
	} else if len(overLimit) > 1 {
		c.errorf("ECN maximum above queue limit",
			fmt.Sprintf("Class %q marks ECN up to %d bytes, but a lossless queue can hold at most %s (the egress lossless pool of each), so marking never reaches its maximum there. Lower max below %d bytes.", cl.Name, e.MaxBytes, overLimit, overLimit[0].bytes),
			maxPath)
	}
	if len(overBound) > 0 {
		c.warnf("ECN minimum above DCQCN bound",
			fmt.Sprintf("Class %q starts ECN marking at %d bytes, above the DCQCN ECN-before-PFC bound beta x S / (k x (beta + 1)) = %s, where S is the shared part of the switch's ingress lossless pool (the pool less the headroom reserved in it; the paper's B - 8n x t_flight), k the lossless priority groups of its cabled ports (the paper's 8n: 8 priorities on each of n ports) and %s; PFC may pause before ECN slows the senders. Lower min below %d bytes or use fewer lossless ports per switch.", cl.Name, e.MinBytes, boundText(overBound, terms), betaNote, overBound[0].bytes),
			minPath)
	}
}

// boundText is "459008 bytes on switch leaf1 (S = 8119368 bytes, k = 3);
// 1392810 bytes on switch spine1 (S = ..., k = 1)": each bound with its
// switches and their terms, the first five values.
func boundText(ls switchLimits, terms map[string]string) string {
	return ls.text(func(sw string) string { return terms[sw] })
}

// betaNote says what beta is, for the DCQCN bound warning.
const betaNote = "beta = " + losslessPGAlpha + `, the dynamic-threshold factor (alpha) of the lossless priority groups; see "Terms" in docs/language.md`

// switchLimits are the switches a limit holds for, one entry per value,
// smallest first: the limits of a class's switches differ with their
// models and buffers, and a message gives each its own.
type switchLimits []switchLimit

// switchLimit is one limit in bytes and the switches it holds for.
type switchLimit struct {
	bytes    int64
	switches []string
}

// add records that the limit of switch sw is bytes.
func (ls *switchLimits) add(sw string, bytes int64) {
	i, found := slices.BinarySearchFunc(*ls, bytes, func(l switchLimit, b int64) int { return cmp.Compare(l.bytes, b) })
	if !found {
		*ls = slices.Insert(*ls, i, switchLimit{bytes: bytes})
	}
	(*ls)[i].switches = append((*ls)[i].switches, sw)
}

// String renders the limits as "8242652 bytes on switch leaf1, leaf2;
// 11796480 bytes on switch spine", the first five values.
func (ls switchLimits) String() string {
	return ls.text(func(sw string) string { return sw })
}

// text renders the limits, each switch as name gives it.
func (ls switchLimits) text(name func(string) string) string {
	var parts []string
	for i, l := range ls {
		if i == 5 {
			n := 0
			for _, rest := range ls[i:] {
				n += len(rest.switches)
			}
			parts = append(parts, fmt.Sprintf("more on %d other switches", n))
			break
		}
		var sws []string
		for _, sw := range l.switches {
			sws = append(sws, name(sw))
		}
		parts = append(parts, fmt.Sprintf("%d bytes on switch %s", l.bytes, listText(sws)))
	}
	return strings.Join(parts, "; ")
}

// switchCarries reports whether some port of sw has PFC on prio.
func switchCarries(sw *model.Switch, prio int) bool {
	for i := range sw.Ports {
		if sw.Ports[i].Lossless(prio) {
			return true
		}
	}
	return false
}

// egressLosslessPool returns the size of the switch's egress lossless
// pool, or 0.
func egressLosslessPool(sw *model.Switch) int64 {
	for _, p := range sw.Pools {
		if p.Direction == "egress" && p.Type == "lossless" {
			return p.SizeBytes
		}
	}
	return 0
}

// dcqcnTerms is a switch's DCQCN bound with its terms.
type dcqcnTerms struct {
	// bytes is the bound, beta x shared / (groups x (beta + 1)).
	bytes int64
	// shared is S: the ingress lossless pool less the headroom reserved
	// in it (the whole buffer less the headroom in use on a switch
	// without pools).
	shared int64
	// groups is k: the lossless priority groups of the cabled ports
	// that are not shut down.
	groups int64
}

// dcqcnBound computes the ECN-before-PFC bound of a switch (see
// checkECNAgainstSwitches); false when the switch has no lossless
// priority group on a cabled port.
func dcqcnBound(sw *model.Switch) (dcqcnTerms, bool) {
	var t dcqcnTerms
	for _, p := range sw.Ports {
		if p.Peer == nil || p.Shutdown {
			continue
		}
		for _, pg := range p.PriorityGroups {
			if pg.Lossless {
				t.groups++
			}
		}
	}
	if t.groups == 0 {
		return t, false
	}
	beta, err := strconv.ParseInt(losslessPGAlpha, 10, 64)
	if err != nil {
		return t, false
	}
	t.shared = sw.Buffer.TotalBytes - sw.Buffer.HeadroomBytes
	for _, p := range sw.Pools {
		if p.Direction == "ingress" && p.Type == "lossless" {
			t.shared = p.SizeBytes - sw.Buffer.HeadroomReserveBytes
		}
	}
	if t.shared < 0 {
		t.shared = 0
	}
	t.bytes = beta * t.shared / (t.groups * (beta + 1))
	return t, true
}
