package plan

import (
	"fmt"
	"strconv"

	"github.com/fabricc/fabricc/model"
)

// A change reaches a running fabric in two steps that do not happen at
// once: `fabricc push` changes the switches, and the operator runs each
// host's script. In between, a host link has one end of each revision.
// The rollout compares, for every host link that exists in both
// revisions, the contract that validate enforces on a static fabric (the
// host's MTU fits its port's, its RoCE marking lands in a lossless
// priority of its port, both ends trust the same field, the port carries
// the NIC's VLAN as the NIC sends it) in the two mixed states: new
// switches with old hosts (push first) and new hosts with old switches
// (hosts first). A contract that holds in both revisions but breaks in
// one mixed state gives the order; one that breaks in both has no safe
// order in one step.

// Rollout is one contract between hosts and their switch ports that a
// step of the rollout breaks, with the order that avoids it.
type Rollout struct {
	// Contract is "MTU", "lossless", "trust" or "VLAN".
	Contract string `json:"contract"`
	// Order is "hosts-first" (run the hosts' scripts, then push),
	// "switches-first" (push, then the hosts' scripts) or "none" (no
	// order avoids it in one step).
	Order string `json:"order"`
	// Hosts are the hosts whose links break in the wrong order.
	Hosts []string `json:"hosts"`
	// Text says what traffic meets in the window and what to do.
	Text string `json:"text"`
}

// Orders of a rollout.
const (
	orderHostsFirst    = "hosts-first"
	orderSwitchesFirst = "switches-first"
	orderNone          = "none"
)

// hostLink is one host NIC with the switch port it is cabled to, in one
// revision: the facts the contract reads.
type hostLink struct {
	host *model.Host
	nic  *model.NIC
	sw   *model.Switch
	port *model.Port
	qos  *model.QoS
}

// name is "h1:roce0".
func (l hostLink) name() string { return l.host.Name + ":" + l.nic.Name }

// portName is "leaf1:swp1".
func (l hostLink) portName() string { return l.sw.Name + ":" + l.port.Name }

// broken says, per contract, how the link breaks it ("" where it holds).
func (l hostLink) broken() map[string]string {
	out := map[string]string{}
	n, p := l.nic, l.port
	if n.MTU != 0 && l.host.OS.NICMTU().IPMTU(n.MTU) > l.sw.Platform.PortMTU().IPMTU(p.MTU) {
		out["MTU"] = fmt.Sprintf("%s sends IP packets of up to %d B into %s, which takes %d B at most and drops the larger ones",
			l.name(), l.host.OS.NICMTU().IPMTU(n.MTU), l.portName(), l.sw.Platform.PortMTU().IPMTU(p.MTU))
	}
	if s := l.lossless(); s != "" {
		out["lossless"] = s
	}
	if r := n.RoCE.Trust; n.Transport == model.TransportRoCE && r != "" && r != p.Trust {
		out["trust"] = fmt.Sprintf("%s trusts %s and %s trusts %s, so the two ends classify the same packets into different priorities", l.name(), r, l.portName(), p.Trust)
	}
	if s := l.tagging(); s != "" {
		out["VLAN"] = s
	}
	return out
}

// lossless says how the NIC's RoCE misses a lossless priority of its
// port: its priority has no PFC there, or the port trusts DSCP and maps
// the NIC's DSCP to a priority without PFC.
func (l hostLink) lossless() string {
	n, p, q := l.nic, l.port, l.qos
	if n.Transport != model.TransportRoCE || len(p.PFCPriorities) == 0 {
		return ""
	}
	r := n.RoCE
	if (p.Trust == model.TrustDSCP || p.Trust == model.TrustBoth) && r.DSCP >= 0 && r.DSCP < len(q.DSCPToPriority) {
		if prio := q.DSCPToPriority[r.DSCP]; !p.Lossless(prio) {
			return fmt.Sprintf("%s marks RoCE with DSCP %d, which %s maps to priority %d, without PFC there: its RoCE runs lossy", l.name(), r.DSCP, l.portName(), prio)
		}
	}
	if !p.Lossless(r.Priority) {
		return fmt.Sprintf("%s sends RoCE on priority %d, which has no PFC on %s: its RoCE runs lossy", l.name(), r.Priority, l.portName())
	}
	return ""
}

// tagging says how the port fails to carry the NIC's frames as the NIC
// sends them (untagged, or tagged with its VLAN).
func (l hostLink) tagging() string {
	n, p := l.nic, l.port
	switch {
	case n.VLAN == 0 && p.Mode == model.ModeTrunk && p.NativeVLAN == 0:
		return fmt.Sprintf("%s sends untagged frames and %s, a trunk without native VLAN, drops them", l.name(), l.portName())
	case n.VLAN == 0:
		return ""
	case !p.CarriesVLAN(n.VLAN):
		return fmt.Sprintf("%s tags its frames with VLAN %d, which %s (VLANs %s) does not carry", l.name(), n.VLAN, l.portName(), vlans(p))
	case p.Mode == model.ModeAccess || p.NativeVLAN == n.VLAN:
		return fmt.Sprintf("%s tags its frames with VLAN %d, which %s sends untagged, so the host does not take the switch's frames", l.name(), n.VLAN, l.portName())
	}
	return ""
}

// hostLinks are the links of every NIC cabled to a switch port, by
// "host:nic".
func hostLinks(f *model.Fabric) map[string]hostLink {
	switches := byName(f.Switches, switchName)
	out := map[string]hostLink{}
	for i := range f.Hosts {
		h := &f.Hosts[i]
		for j := range h.NICs {
			n := &h.NICs[j]
			if n.Peer == nil || switches[n.Peer.Device] == nil {
				continue
			}
			sw := switches[n.Peer.Device]
			if p := sw.Port(n.Peer.Port); p != nil {
				l := hostLink{host: h, nic: n, sw: sw, port: p, qos: &f.QoS}
				out[l.name()] = l
			}
		}
	}
	return out
}

// mixed is the link with the host end of h and the switch end of s.
func mixed(h, s hostLink) hostLink {
	return hostLink{host: h.host, nic: h.nic, sw: s.sw, port: s.port, qos: s.qos}
}

// contracts is the order in which the rollout lists the contracts.
var contracts = []string{"MTU", "lossless", "trust", "VLAN"}

// rolloutHazard is what breaks on one link in each order.
type rolloutHazard struct {
	host                  string
	pushFirst, hostsFirst string // "" where that order keeps the contract
}

// Rollouts derives the rollout entries of the change from base to head,
// as Compare's Plan.Rollout holds them; push and diff run it alone
// between the previous build and theirs.
func Rollouts(base, head *model.Fabric) []Rollout {
	before, after := hostLinks(base), hostLinks(head)
	hazards := map[string][]rolloutHazard{}
	for _, h := range head.Hosts {
		for _, n := range h.NICs {
			key := h.Name + ":" + n.Name
			a, inA := before[key]
			b, inB := after[key]
			if !inA || !inB || a.portName() != b.portName() {
				continue // a new, removed or moved link: no mixed state
			}
			was, is := a.broken(), b.broken()
			pf, hf := mixed(a, b).broken(), mixed(b, a).broken()
			for _, c := range contracts {
				if was[c] != "" || is[c] != "" || pf[c]+hf[c] == "" {
					continue
				}
				hazards[c] = append(hazards[c], rolloutHazard{host: h.Name, pushFirst: pf[c], hostsFirst: hf[c]})
			}
		}
	}
	var out []Rollout
	for _, c := range contracts {
		if len(hazards[c]) > 0 {
			out = append(out, rolloutEntry(c, hazards[c])...)
		}
	}
	return out
}

// rolloutEntry groups a contract's hazards by the order that avoids
// them: one entry per order.
func rolloutEntry(contract string, hs []rolloutHazard) []Rollout {
	var push, first, none []rolloutHazard
	for _, h := range hs {
		switch {
		case h.pushFirst != "" && h.hostsFirst != "":
			none = append(none, h)
		case h.pushFirst != "":
			first = append(first, h)
		default:
			push = append(push, h)
		}
	}
	var out []Rollout
	if len(none) > 0 {
		out = append(out, Rollout{Contract: contract, Order: orderNone, Hosts: hostsOf(none),
			Text: noOrderText(contract, none)})
	}
	if len(first) > 0 {
		out = append(out, Rollout{Contract: contract, Order: orderHostsFirst, Hosts: hostsOf(first),
			Text: fmt.Sprintf("hosts first, then push: after a push, until its script runs, %s%s. Run the scripts of %s first, then fabricc push.",
				first[0].pushFirst, others(len(first)), hostList(hostsOf(first)))})
	}
	if len(push) > 0 {
		out = append(out, Rollout{Contract: contract, Order: orderSwitchesFirst, Hosts: hostsOf(push),
			Text: fmt.Sprintf("push first, then the hosts: a host whose script runs before the push breaks it: %s%s. Run fabricc push, then the scripts of %s.",
				push[0].hostsFirst, others(len(push)), hostList(hostsOf(push)))})
	}
	return out
}

// noOrderText is the text of a contract no order keeps: what breaks
// either way, and the procedure that avoids it.
func noOrderText(contract string, hs []rolloutHazard) string {
	s := fmt.Sprintf("no safe order in one step. After the push, until its script runs, %s%s; a host whose script runs before the push breaks it too: %s. ",
		hs[0].pushFirst, others(len(hs)), hs[0].hostsFirst)
	if contract == "lossless" {
		return s + "Make before break instead (docs/changes.md): 1. add the new priority and DSCP block as a second lossless class beside the old one, roce_class unchanged: push, then every host's script; " +
			"2. set roce_class to the new class: every host's script; 3. remove the old class once every host's --check passes: push, then every host's script. fabricc plan shows no rollout hazard for each of these steps."
	}
	return s + "No order avoids the window: push one switch at a time (fabricc push --limit SWITCH) and run the scripts of its hosts right after it, in a maintenance window (docs/changes.md)."
}

// hostsOf lists the hosts of the hazards, once each, in order.
func hostsOf(hs []rolloutHazard) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range hs {
		if !seen[h.host] {
			seen[h.host] = true
			out = append(out, h.host)
		}
	}
	return out
}

// others is ", and so on N more links" after the example, or "".
func others(n int) string {
	switch n {
	case 1:
		return ""
	case 2:
		return " (and 1 more link)"
	}
	return " (and " + strconv.Itoa(n-1) + " more links)"
}

// hostList is "h1" or "3 hosts (h1, h2, h3)", with at most summaryNames
// names.
func hostList(hosts []string) string {
	if len(hosts) == 1 {
		return hosts[0]
	}
	return strconv.Itoa(len(hosts)) + " hosts (" + namesInSummary(hosts) + ")"
}

// NoSafeOrder reports whether no order of the push and the hosts'
// scripts keeps the contract (Order "none").
func (r Rollout) NoSafeOrder() bool { return r.Order == orderNone }

// Line is the rollout as plan's text prints it: "MTU: hosts first, then
// push: ...", "lossless: no safe order in one step. ...".
func (r Rollout) Line() string { return r.Contract + ": " + r.Text }
