package plan

import (
	"slices"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// markRenames notes on each removed switch what push does with it. A
// removed switch whose platform, model, ports and peers an added switch
// has is most likely the same switch renamed: the note says how to push
// it; any other removed switch keeps its configuration, as push leaves
// a switch the fabric no longer has (README, Pushing to switches).
func markRenames(p *Plan, base, head *model.Fabric) {
	before, after := byName(base.Switches, switchName), byName(head.Switches, switchName)
	var addedSigs = map[string][]string{}
	for _, d := range p.Devices {
		if d.Kind == "switch" && d.Status == "added" {
			sig := switchSignature(after[d.Name])
			addedSigs[sig] = append(addedSigs[sig], d.Name)
		}
	}
	for i := range p.Devices {
		d := &p.Devices[i]
		if d.Kind != "switch" || d.Status != "removed" || len(d.Items) == 0 || len(d.Items[0].Changes) == 0 {
			continue
		}
		c := &d.Items[0].Changes[0]
		if to := addedSigs[switchSignature(before[d.Name])]; len(to) == 1 {
			c.Note = "looks like a rename of " + d.Name + " to " + to[0] + ": rename its inventory entry and the switch's hostname, or push with --renamed " + to[0] + "=" + d.Name
			continue
		}
		c.Note = "push leaves its configuration on the switch as it is: remove its inventory entry, and clear or reuse the switch"
	}
}

// switchSignature is what a renamed switch keeps: platform, version,
// model and every port with its speed and peer.
func switchSignature(sw *model.Switch) string {
	parts := []string{platform(sw), sw.Hardware.Model}
	var ports []string
	for _, p := range sw.Ports {
		ports = append(ports, p.Name+"\x00"+portSummary(&p))
	}
	slices.Sort(ports)
	return strings.Join(append(parts, ports...), "\x01")
}
