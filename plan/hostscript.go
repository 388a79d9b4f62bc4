package plan

import (
	"bytes"
	"strconv"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/all"
)

// Script states of a host in the plan.
const (
	// ScriptChanges: the host's script (or its other OS files) changes:
	// run it.
	ScriptChanges = "changes"
	// ScriptSame: only the host's document changes: nothing to run.
	ScriptSame = "same"
	// ScriptNew: an added host: run its script.
	ScriptNew = "new"
	// ScriptNewOS: the host's OS changes: run the new OS's script.
	ScriptNewOS = "new-os"
)

// hostScript says whether the files a host's operating system applies
// (its script; on FreeBSD also rc.conf and loader.conf) differ between
// the revisions, by rendering them from both models as `fabricc build`
// does. A renderer's error counts as a change: the plan cannot tell.
func hostScript(base, head *model.Fabric, a, b *model.Host) string {
	before, errA := hostFiles(base, a)
	after, errB := hostFiles(head, b)
	if errA != nil || errB != nil || len(before) != len(after) {
		return ScriptChanges
	}
	for name, data := range after {
		if old, ok := before[name]; !ok || !bytes.Equal(old, data) {
			return ScriptChanges
		}
	}
	return ScriptSame
}

// hostFiles renders the OS files of h, by name.
func hostFiles(f *model.Fabric, h *model.Host) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, render := range all.ForHostOS(h) {
		files, err := render(f, h)
		if err != nil {
			return nil, err
		}
		for _, file := range files {
			out[file.Name] = file.Data
		}
	}
	return out, nil
}

// scriptText is the line a host's section ends with.
func scriptText(d Device) string {
	switch d.Script {
	case ScriptChanges:
		if len(d.ScriptSettings) > 0 {
			return "script changes: " + joinChanges(d.ScriptSettings) + "; run it"
		}
		return "script changes: run it"
	case ScriptSame:
		return "script unchanged, only its document changes: nothing to run"
	case ScriptNew:
		return "new host: run its script"
	case ScriptNewOS:
		return "new OS: run " + quote.ShellWord(d.NewScript)
	}
	return ""
}

// hostsToRun are the hosts whose script is to be run.
func hostsToRun(p *Plan) []string {
	var out []string
	for _, d := range p.Devices {
		if d.Script == ScriptChanges || d.Script == ScriptNew || d.Script == ScriptNewOS {
			out = append(out, d.Name)
		}
	}
	return out
}

// hostsLine is "Hosts to run their script: 2 (h1, h2)." when any host
// is in the plan, "" otherwise.
func hostsLine(p *Plan) string {
	hosts := false
	for _, d := range p.Devices {
		hosts = hosts || d.Script != ""
	}
	if !hosts {
		return ""
	}
	run := hostsToRun(p)
	if len(run) == 0 {
		return "Hosts to run their script: none (only documents change)."
	}
	return "Hosts to run their script: " + strconv.Itoa(len(run)) + " (" + namesInSummary(run) + ")."
}

// landing is the VLAN a NIC's frames land in on port p and how: ("101",
// "untagged"), ("102", "tagged"), or ("none", the reason).
func landing(n *model.NIC, p *model.Port) (string, string) {
	switch {
	case n.VLAN != 0 && p.CarriesVLAN(n.VLAN):
		return strconv.Itoa(n.VLAN), "tagged"
	case n.VLAN != 0:
		return "none", "the port does not carry VLAN " + strconv.Itoa(n.VLAN)
	case p.Mode == model.ModeAccess:
		return strconv.Itoa(p.AccessVLAN), "untagged"
	case p.Mode == model.ModeTrunk && p.NativeVLAN != 0:
		return strconv.Itoa(p.NativeVLAN), "untagged"
	case p.Mode == model.ModeTrunk:
		return "none", "a trunk without native VLAN drops untagged frames"
	}
	return "none", string(p.Mode) + " port"
}

// movedEffects is the VLAN a NIC moved to another port lands in, before
// and after: "VLAN 101 -> 102 (untagged)".
func movedEffects(swA, swB map[string]*model.Switch, a, b *model.NIC) []Change {
	pa, pb := peerPort(swA, a.Peer), peerPort(swB, b.Peer)
	if peer(a.Peer) == peer(b.Peer) || pa == nil || pb == nil {
		return nil
	}
	va, ha := landing(a, pa)
	vb, hb := landing(b, pb)
	if ha != hb {
		return change("VLAN", va+" ("+ha+")", vb+" ("+hb+")", "")
	}
	c := change("VLAN", va, vb, "")
	if len(c) > 0 {
		c[0].Note = ha
	}
	return c
}

// peerPort is the switch port p names, or nil.
func peerPort(switches map[string]*model.Switch, p *model.Peer) *model.Port {
	if p == nil || switches[p.Device] == nil {
		return nil
	}
	return switches[p.Device].Port(p.Port)
}
