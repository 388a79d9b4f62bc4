package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/fabricc/fabricc/targets/docs"
)

// compareHosts compares the hosts by name.
func compareHosts(base, head *model.Fabric, fabricCauses []string) []Device {
	before, after := byName(base.Hosts, hostName), byName(head.Hosts, hostName)
	swA, swB := byName(base.Switches, switchName), byName(head.Switches, switchName)
	var out []Device
	var jobs []scriptJob
	for _, n := range deviceNames(base.Hosts, head.Hosts, hostName) {
		a, b := before[n], after[n]
		d := Device{Name: n, Kind: "host", Status: "changed"}
		switch {
		case a == nil:
			d.Status, d.Items, d.Script = "added", []Item{{Changes: added(hostSummary(b))}}, ScriptNew
		case b == nil:
			d.Status, d.Items = "removed", removedHostItems(a)
		case a.OS != b.OS:
			d.Items, d.Impact = hostItems(base, head, a, b, fabricCauses, swA, swB), osImpact(a, b)
			d.Script, d.NewScript = ScriptNewOS, targets.HostScriptName(b)
		default:
			d.Items = hostItems(base, head, a, b, fabricCauses, swA, swB)
			if len(d.Items) > 0 {
				d.Impact = hostImpact(a, b)
				jobs = append(jobs, scriptJob{len(out), a, b})
			}
		}
		if len(d.Items) > 0 {
			out = append(out, d)
		}
	}
	scripts(base, head, jobs, out)
	return out
}

// scriptJob is a changed host whose scripts are compared: out[i] in
// compareHosts.
type scriptJob struct {
	i    int
	a, b *model.Host
}

// scripts sets the Script of each job's device, rendering the hosts'
// scripts on every CPU: a class change changes every host, and each
// takes two renders (1.3 ms a host on one core).
func scripts(base, head *model.Fabric, jobs []scriptJob, out []Device) {
	cores.Range(len(jobs), 1, func(lo, hi int) {
		for _, j := range jobs[lo:hi] {
			out[j.i].Script = hostScript(base, head, j.a, j.b)
			if out[j.i].Script == ScriptChanges {
				out[j.i].ScriptSettings = scriptSettings(j.a, j.b)
			}
		}
	})
}

// removedHostItems are a removed host's summary, with how its settings
// come back at boot (hostLeftNote), and each of its NICs with what it
// keeps (nicLeftNote).
func removedHostItems(h *model.Host) []Item {
	items := []Item{{Changes: removed(hostSummary(h))}}
	items[0].Changes[0].Note = hostLeftNote(h)
	for i := range h.NICs {
		n := &h.NICs[i]
		it := Item{Subject: n.Name, Changes: removed(nicSummary(n))}
		it.Changes[0].Note = nicLeftNote(h, n)
		items = append(items, it)
	}
	return items
}

// hostName is the name of a host.
func hostName(h *model.Host) string { return h.Name }

// hostOS is "linux ubuntu22.04".
func hostOS(h *model.Host) string { return strings.TrimSpace(string(h.OS) + " " + h.OSVersion) }

// hostSummary is "linux ubuntu22.04, 1 NIC".
func hostSummary(h *model.Host) string {
	n := strconv.Itoa(len(h.NICs)) + " NICs"
	if len(h.NICs) == 1 {
		n = "1 NIC"
	}
	return hostOS(h) + ", " + n
}

// hostItems compares two revisions of one host and its NICs. A NIC's
// RoCE marking, PFC, DCQCN and ETS derive from the fabric's classes;
// when they change, the fabric changes are named as the cause.
// A NIC cabled to another port shows the VLAN its frames land in there.
// When the OS changes, the OS change says what the old OS keeps
// (osChangeNote) and each NIC both revisions have how to clear it there.
// A routed NIC's route and main-table routes are compared too
// (routeChanges), with the other hosts' NICs that move its prefixes as
// the cause (routeCauses).
func hostItems(base, head *model.Fabric, a, b *model.Host, fabricCauses []string, swA, swB map[string]*model.Switch) []Item {
	os := change("OS", hostOS(a), hostOS(b), "")
	if a.OS != b.OS {
		os[0].Note = osChangeNote(a, b)
	}
	items := item(nil, Item{Changes: concat(os,
		change("tuning", onOff(a.Tuning), onOff(b.Tuning), ""))})
	var names []string
	for _, n := range a.NICs {
		names = append(names, n.Name)
	}
	for _, n := range b.NICs {
		names = append(names, n.Name)
	}
	for _, n := range union(names, nil) {
		na, nb := a.NIC(n), b.NIC(n)
		it := Item{Subject: n}
		switch {
		case na == nil:
			it.Changes = added(nicSummary(nb))
		case nb == nil:
			it.Changes = removed(nicSummary(na))
			it.Changes[0].Note = keptNICLeftNote(a, na)
		default:
			own, routes := routeChanges(a, na, nb)
			it.Changes = concat(nicChanges(na, nb), own)
			it.Effects = roceChanges(&na.RoCE, &nb.RoCE)
			if len(it.Effects) > 0 {
				it.Because = fabricCauses
			}
			if len(routes) > 0 {
				it.Effects = append(it.Effects, routes...)
				it.Because = append(it.Because, routeCauses(base, head, a.Name, na, nb)...)
			}
			// The VLAN follows from the new port: an effect of the
			// NIC's own peer change, listed first.
			it.Effects = append(movedEffects(swA, swB, na, nb), it.Effects...)
			if a.OS != b.OS {
				it.Note = oldOSNICNote(a, na)
			}
		}
		items = item(items, it)
	}
	return items
}

// nicSummary is "ConnectX-6 Dx 100G, to leaf1:swp1".
func nicSummary(n *model.NIC) string {
	return n.Model + " " + docs.Speed(n.SpeedMbps) + ", to " + peer(n.Peer)
}

// nicChanges compares a NIC's own settings and link.
func nicChanges(a, b *model.NIC) []Change {
	return concat(
		change("interface", a.Interface, b.Interface, ""),
		change("model", a.Model, b.Model, ""),
		change("driver", a.Driver, b.Driver, ""),
		change("transport", string(a.Transport), string(b.Transport), ""),
		change("peer", peer(a.Peer), peer(b.Peer), ""),
		change("cable", peerCable(a.Peer), peerCable(b.Peer), ""),
		change("speed", docs.Speed(a.SpeedMbps), docs.Speed(b.SpeedMbps), ""),
		change("MTU", strconv.Itoa(a.MTU), strconv.Itoa(b.MTU), ""),
		change("VLAN", vlanOrNone(a.VLAN), vlanOrNone(b.VLAN), ""),
		change("addresses", strings.Join(a.Addresses, ", "), strings.Join(b.Addresses, ", "), ""),
		change("applications", apps(a.Applications), apps(b.Applications), ""))
}

// vlanOrNone is the VLAN id, or "untagged".
func vlanOrNone(v int) string {
	if v == 0 {
		return "untagged"
	}
	return strconv.Itoa(v)
}

// apps is "iser 3260 prio 3, smb-direct 445 prio 3".
func apps(as []model.Application) string {
	var parts []string
	for _, a := range as {
		parts = append(parts, fmt.Sprintf("%s %d prio %d", a.Kind, a.Port, a.Priority))
	}
	return strings.Join(parts, ", ")
}

// roceChanges compares the QoS settings the compiler derives for a NIC.
func roceChanges(a, b *model.RoCE) []Change {
	return concat(
		change("RoCE", a.Mode, b.Mode, ""),
		change("priority", strconv.Itoa(a.Priority), strconv.Itoa(b.Priority), ""),
		change("DSCP", strconv.Itoa(a.DSCP), strconv.Itoa(b.DSCP), ""),
		change("trust", string(a.Trust), string(b.Trust), ""),
		change("PFC", docs.Ranges(a.PFCPriorities), docs.Ranges(b.PFCPriorities), ""),
		change("DCQCN", docs.Ranges(a.ECNPriorities), docs.Ranges(b.ECNPriorities), ""),
		change("CNP", fmt.Sprintf("priority %d DSCP %d", a.CNPPriority, a.CNPDSCP), fmt.Sprintf("priority %d DSCP %d", b.CNPPriority, b.CNPDSCP), ""),
		change("ETS", nicETS(a.ETS), nicETS(b.ETS), ""))
}

// nicETS is "TC0 50 %, TC3 50 %, TC6 strict".
func nicETS(ets []model.ETS) string {
	var parts []string
	for tc, e := range ets {
		if e.Mode == model.ETSStrict || e.BandwidthPercent > 0 {
			parts = append(parts, etsPart(tc, e))
		}
	}
	return strings.Join(parts, ", ")
}

// etsPart is "TC3 50 %" or "TC6 strict".
func etsPart(tc int, e model.ETS) string {
	if e.Mode == model.ETSStrict {
		return fmt.Sprintf("TC%d strict", tc)
	}
	return fmt.Sprintf("TC%d %d %%", tc, e.BandwidthPercent)
}
