package push

import (
	"fmt"
	"path"
	"strings"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// HostNotChecked is a host of the fabric that a run did not check, why,
// and, for a Windows host, the check to run on it instead.
type HostNotChecked struct {
	Host string `json:"host"`
	// Why is one of the HostNot* reasons.
	Why string `json:"why"`
	// Check is the command that checks a Windows host, run on the host
	// ("win01.windows.ps1 -Check").
	Check string `json:"check,omitempty"`
}

// Reasons a host is not checked (HostNotChecked.Why), in the order the
// summary gives them.
const (
	HostNotPushed  = "push checks no host" // in the inventory: fabricc verify checks it
	HostNotListed  = "not in the inventory"
	HostNotLimit   = "--limit"
	HostNotWindows = "windows" // verify cannot check it over SSH: run its script with -Check on the host
)

// hostWhyOrder is the order of the summary's groups.
var hostWhyOrder = []string{HostNotPushed, HostNotListed, HostNotLimit, HostNotWindows}

// WindowsCheck is the command that checks Windows host h on the host.
func WindowsCheck(h *model.Host) string { return targets.HostScriptName(h) + " -Check" }

// HostChanges is what push knows of the hosts' own step: the hosts whose
// script differs from the one in the build that Since names, the build
// the --artifacts folder replaced (".DIR.prev", kept by fabricc build).
type HostChanges struct {
	Since string `json:"since"`
	// Hosts are the hosts whose script differs from Since's, or that
	// Since lacks, in the fabric's order; empty when none does.
	Hosts []string `json:"hosts"`
}

// HostScriptChanges compares each host's script in an --artifacts build
// with the build that folder replaced, when fabricc build kept it beside
// (artifacts.PreviousOf): nil, nil when there is none to compare with (a
// Build of a fabric path, no kept build), since nothing then tells which
// hosts changed. Only the manifests are read: the SHA-256 each gives a
// script.
func (b *Build) HostScriptChanges() (*HostChanges, error) {
	if b.dir == "" {
		return nil, nil
	}
	prev := artifacts.PreviousOf(b.dir)
	if !artifacts.IsPrevious(prev) {
		return nil, nil
	}
	m, err := artifacts.ReadManifest(prev)
	if err != nil {
		return nil, err
	}
	old := m.Files
	hc := &HostChanges{Since: prev, Hosts: []string{}}
	for i := range b.Fabric.Hosts {
		h := &b.Fabric.Hosts[i]
		rel := path.Join(h.Name, targets.HostScriptName(h))
		if now, ok := b.scripts[rel]; ok && old[rel] != now {
			hc.Hosts = append(hc.Hosts, h.Name)
		}
	}
	return hc, nil
}

// hostLines are the summary's lines on the fabric's hosts: which were
// not checked, grouped by why, and for push and diff whether their
// scripts changed. Host names go through quote.Visible.
func (r *Report) hostLines() []string {
	if r.FabricHosts == 0 {
		return nil
	}
	var lines []string
	if r.Action != ActionVerify {
		lines = append(lines, "hosts: "+r.hostChangesText())
	}
	if len(r.HostsNotChecked) > 0 {
		lines = append(lines, fmt.Sprintf("hosts not checked: %d of %s of the fabric: %s",
			len(r.HostsNotChecked), plural(r.FabricHosts, "host"), hostGroups(r.HostsNotChecked)))
	}
	return lines
}

// hostChangesText is what push and diff say of the hosts' step.
func (r *Report) hostChangesText() string {
	hc := r.HostScriptsChanged
	switch {
	case hc == nil:
		return "push changes no host; running their scripts is the operator's step (fabricc plan --base lists the hosts a change touches; fabricc verify checks them)"
	case len(hc.Hosts) == 0:
		return fmt.Sprintf("no host's script differs from the previous build's (%s); push changes no host", quote.Visible(hc.Since))
	}
	return fmt.Sprintf("the hosts' settings changed too: run the scripts of %s: %s (they differ from the previous build's, %s); push changes no host",
		plural(len(hc.Hosts), "host"), nameList(hc.Hosts), quote.Visible(hc.Since))
}

// HostChangesWarning is the warning of a push whose hosts' scripts
// changed since the previous build, "" when none did or it is not known.
func (r *Report) HostChangesWarning() string {
	if hc := r.HostScriptsChanged; hc != nil && len(hc.Hosts) > 0 {
		return r.hostChangesText()
	}
	return ""
}

// HostsNotCheckedWarning is verify's warning of the fabric's hosts it
// did not check, "" when it checked every one.
func (r *Report) HostsNotCheckedWarning() string {
	if len(r.HostsNotChecked) == 0 || r.Action != ActionVerify {
		return ""
	}
	return fmt.Sprintf("%d of %s of fabric %s not checked: %s", len(r.HostsNotChecked), plural(r.FabricHosts, "host"),
		quote.Visible(r.Fabric), hostGroups(r.HostsNotChecked))
}

// hostGroups is the hosts not checked, by why, in hostWhyOrder.
func hostGroups(hosts []HostNotChecked) string {
	by := map[string][]HostNotChecked{}
	for _, h := range hosts {
		by[h.Why] = append(by[h.Why], h)
	}
	var parts []string
	for _, why := range hostWhyOrder {
		hs := by[why]
		if len(hs) == 0 {
			continue
		}
		names := make([]string, len(hs))
		for i, h := range hs {
			names[i] = h.Host
			if h.Check != "" {
				names[i] += " (run " + h.Check + " on it)"
			}
		}
		parts = append(parts, hostWhyText[why]+": "+nameList(names))
	}
	return strings.Join(parts, "; ")
}

// hostWhyText is how the summary says each reason.
var hostWhyText = map[string]string{
	HostNotPushed:  "in the inventory, but push checks no host (fabricc verify checks them)",
	HostNotListed:  "not in the inventory",
	HostNotLimit:   "left out by --limit",
	HostNotWindows: "Windows, which fabricc cannot check over SSH",
}

// nameList is the first five names, each through quote.Visible, then
// "and N more".
func nameList(names []string) string {
	n := min(len(names), 5)
	shown := make([]string, n)
	for i, s := range names[:n] {
		shown[i] = quote.Visible(s)
	}
	out := strings.Join(shown, ", ")
	if len(names) > n {
		out += fmt.Sprintf(" and %d more", len(names)-n)
	}
	return out
}
