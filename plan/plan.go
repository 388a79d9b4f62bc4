// Package plan compares two revisions of a fabric at the model level and
// says, per device, what changes in meaning and why: a changed input (a
// cable, a VLAN, a platform) together with the derived values it moves
// (PFC headroom, pool demand). It reads only the model, so it works the
// same for a fabric folder, a build output (model.json) and a git
// revision. Output is text, Markdown for a pull-request comment, or JSON.
package plan

import (
	"sort"

	"github.com/fabricc/fabricc/targets/docs"
)

// Plan is every change between a base and a head revision.
type Plan struct {
	// Fabric is the head fabric's name (the base's when head has none).
	Fabric string `json:"fabric"`
	// Fabric-wide changes: traffic classes, VLANs, links.
	FabricItems []Item `json:"fabric_changes"`
	// Devices with changes: switches, then hosts, each by name.
	Devices []Device `json:"devices"`
	// Notes are sentences about the comparison as a whole, shown below
	// the summary ("The base revision HEAD~1 has no fabric at "fabric";
	// every device is added.").
	Notes []string `json:"notes,omitempty"`
	// Rollout is what the window between the push and the hosts'
	// scripts breaks, with the order that avoids it (rollout.go).
	Rollout []Rollout `json:"rollout,omitempty"`
	// NewWarnings are the head's warnings the base did not raise;
	// GoneWarnings the base's that the head no longer raises. The
	// command that compiled both revisions fills them in
	// (DiffWarnings).
	NewWarnings  []Warning `json:"new_warnings,omitempty"`
	GoneWarnings []Warning `json:"gone_warnings,omitempty"`
}

// Changed reports whether anything changes.
func (p *Plan) Changed() bool { return len(p.FabricItems) > 0 || len(p.Devices) > 0 }

// Device is one switch or host with its changes.
type Device struct {
	Name string `json:"name"`
	// Kind is "switch" or "host".
	Kind string `json:"kind"`
	// Status is "added", "removed" or "changed".
	Status string `json:"status"`
	Items  []Item `json:"changes"`
	// Impact lists the changes that may interrupt traffic on the device
	// while they are applied (impact.go).
	Impact []Impact `json:"impact,omitempty"`
	// Script, for a host, is "changes" (its script's bytes change: run
	// it), "same" (only its document changes: nothing to run), "new"
	// (an added host) or "new-os" (its OS changes: run the new OS's
	// script, NewScript); empty for a switch or a removed host.
	Script string `json:"script,omitempty"`
	// NewScript, for a host whose OS changes, is the new OS's script
	// ("h1.windows.ps1").
	NewScript string `json:"new_script,omitempty"`
	// ScriptSettings, for a host whose script changes, are the values
	// it sets that the plan knows and that its NIC lines do not show as
	// written: each NIC's cable length in whole metres
	// (scriptSettings).
	ScriptSettings []Change `json:"script_settings,omitempty"`
}

// Item is one line of the plan: what changed on one subject (a port, a
// NIC, a pool, the device itself) and what that changes in turn.
type Item struct {
	// Subject names the part of the device or fabric ("swp3", "pool
	// roce-lossless-ingress (ingress)"); empty for the device itself.
	Subject string `json:"subject,omitempty"`
	// Changes are the inputs that changed.
	Changes []Change `json:"changes,omitempty"`
	// Effects are derived values that changed as a consequence.
	Effects []Change `json:"effects,omitempty"`
	// Because names the causes outside the subject, for effects whose
	// subject has no changed input of its own.
	Because []string `json:"because,omitempty"`
	// Note follows the item in text: what its effects mean on this
	// device ("fabricc's computed values for comparison, not
	// configured: ..." on a switch that sizes its headroom itself).
	Note string `json:"note,omitempty"`
}

// Change is one value before and after.
type Change struct {
	// Field is what changed ("cable", "PG3 in flight after PAUSE", "demand").
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Unit follows both values in text ("B"); empty for words.
	Unit string `json:"unit,omitempty"`
	// Note follows the change in text ("+4,096 B, 61 % used").
	Note string `json:"note,omitempty"`
	// BeforeValue and AfterValue are Before and After as numbers in
	// Unit, for a program to compare; nil where the side is no number
	// ("none", "added") or the change is not an amount.
	BeforeValue *int64 `json:"before_value,omitempty"`
	AfterValue  *int64 `json:"after_value,omitempty"`
}

// change returns a Change when before and after differ.
func change(field, before, after, unit string) []Change {
	if before == after {
		return nil
	}
	return []Change{{Field: field, Before: before, After: after, Unit: unit}}
}

// amountChange returns a Change of an amount in unit when a and b
// differ, with the numbers beside their text.
func amountChange(field string, a, b int64, unit string) []Change {
	if a == b {
		return nil
	}
	return []Change{{Field: field, Before: docs.Thousands(a), After: docs.Thousands(b), Unit: unit, BeforeValue: &a, AfterValue: &b}}
}

// item appends an Item to items unless it has nothing.
func item(items []Item, it Item) []Item {
	if len(it.Changes) == 0 && len(it.Effects) == 0 {
		return items
	}
	return append(items, it)
}

// union returns the names of a and b: a's order first, then b's names
// that a lacks, in b's order.
func union(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, lists := range [][]string{a, b} {
		for _, n := range lists {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// byName indexes devices by name, the first of a name as the model's
// lookups find it. A plan looks up every device of both
// revisions; searching the list for each took 15 s for the 63,424 hosts
// of the 2,048-switch benchmark fabric.
func byName[D any](devices []D, name func(*D) string) map[string]*D {
	out := make(map[string]*D, len(devices))
	for i := range devices {
		if n := name(&devices[i]); out[n] == nil {
			out[n] = &devices[i]
		}
	}
	return out
}

// deviceNames returns the names of base's devices, then those of head's
// that base lacks, each in its revision's order.
func deviceNames[D any](base, head []D, name func(*D) string) []string {
	names := make([]string, 0, len(base)+len(head))
	for i := range base {
		names = append(names, name(&base[i]))
	}
	for i := range head {
		names = append(names, name(&head[i]))
	}
	return union(names, nil)
}

// sortDevices orders switches before hosts, each by name.
func sortDevices(ds []Device) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Kind != ds[j].Kind {
			return ds[i].Kind == "switch"
		}
		return ds[i].Name < ds[j].Name
	})
}
