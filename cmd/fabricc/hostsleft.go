package main

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
)

// hostsNotChecked is the fabric's hosts a run leaves unchecked, in the
// fabric's order: for verify those it has no target for (a Windows
// host, one the inventory does not list for the fabric, one --limit
// leaves out); for push and diff every host, since they check none.
func hostsNotChecked(b *push.Build, inv *inventory.Inventory, devs []*inventory.Device, checked []push.HostTarget, action string) []push.HostNotChecked {
	if len(b.Fabric.Hosts) == 0 {
		return nil
	}
	done := map[string]bool{}
	for _, t := range checked {
		done[t.Host.Name] = true
	}
	selected := map[string]bool{}
	for _, d := range devs {
		selected[d.Name] = true
	}
	var out []push.HostNotChecked
	for i := range b.Fabric.Hosts {
		h := &b.Fabric.Hosts[i]
		if done[h.Name] {
			continue
		}
		hn := push.HostNotChecked{Host: h.Name}
		d := inv.Device(h.Name)
		switch {
		case h.OS == model.OSWindows:
			hn.Why, hn.Check = push.HostNotWindows, push.WindowsCheck(h)
		case d == nil || !d.In(b.Fabric.Name):
			hn.Why = push.HostNotListed
		case !selected[h.Name]:
			hn.Why = push.HostNotLimit
		default:
			hn.Why = push.HostNotPushed
		}
		out = append(out, hn)
	}
	return out
}

// noteHosts fills the report's host fields (the hosts not checked and,
// for push and diff, which hosts' scripts changed since the kept
// previous build) and, with --json, puts their warning among the
// envelope's diagnostics: verify's hosts not checked, push's hosts
// whose scripts changed. Text output has both in the summary.
func noteHosts(cmd *cobra.Command, rep *push.Report, b *push.Build, inv *inventory.Inventory, devs []*inventory.Device, checked []push.HostTarget, out *output) {
	rep.FabricHosts = len(b.Fabric.Hosts)
	rep.HostsNotChecked = hostsNotChecked(b, inv, devs, checked, rep.Action)
	if rep.Action != push.ActionVerify && rep.FabricHosts > 0 {
		hc, err := b.HostScriptChanges()
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "note: cannot tell which hosts' scripts changed since the previous build: %s\n", v(err.Error()))
		}
		rep.HostScriptsChanged = hc
	}
	if !out.json {
		return
	}
	for _, w := range []string{rep.HostsNotCheckedWarning(), rep.HostChangesWarning()} {
		if w != "" {
			out.report(nil, hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: w}})
		}
	}
}

// requireHosts is verify --require-hosts' error: a Linux or FreeBSD
// host of the fabric that was not checked (not in the inventory, or
// left out by --limit). Windows hosts, which verify cannot check, do not
// count; the summary names their -Check.
func requireHosts(rep *push.Report) error {
	var names []string
	for _, h := range rep.HostsNotChecked {
		if h.Why != push.HostNotWindows {
			names = append(names, v(h.Host))
		}
	}
	if len(names) == 0 {
		return nil
	}
	return exitCode(1, fmt.Errorf("--require-hosts: %s of the fabric not checked (%s): add them to the inventory, or widen --limit",
		plural(len(names), "host"), shortList(names)))
}
