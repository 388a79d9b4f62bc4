package compiler

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// lowerVLANs checks the vlan blocks (id 1-4094, unique ids and names) and
// sorts them by id.
func (l *lowering) lowerVLANs() {
	l.vlans = map[int]bool{}
	byID := map[int]dsl.Range{}
	byName := map[string]dsl.Range{}
	for _, v := range l.cfg.VLANs {
		if v.ID < 1 || v.ID > 4094 {
			d := l.errorf(v.IDRange.Or(v.DefRange), "Invalid VLAN id",
				"vlan %q has id %d; 802.1Q VLAN ids are 1-4094.", v.Name, v.ID)
			l.vlans[v.ID] = true // declared, if wrongly: no follow-on errors
			l.foldUndeclared(d, fmt.Sprintf("vlan %q", v.Name))
			continue
		}
		// A duplicate still declares its id: ports and NICs using it
		// get no "Undeclared VLAN" follow-on errors.
		if first, dup := byID[v.ID]; dup {
			d := l.errorf(v.IDRange.Or(v.DefRange), "Duplicate VLAN id",
				"VLAN id %d is declared twice; give each vlan block its own id.", v.ID)
			also(d, fmt.Sprintf("VLAN %d is first declared here", v.ID), first)
			l.foldUndeclared(d, "the duplicate")
			continue
		}
		if first, dup := byName[v.Name]; dup {
			d := l.errorf(v.DefRange, "Duplicate VLAN name",
				"VLAN name %q is used twice; give each vlan block its own name.", v.Name)
			also(d, fmt.Sprintf("VLAN %q is first declared here", v.Name), first)
			l.vlans[v.ID] = true
			byID[v.ID] = v.DefRange
			continue
		}
		byID[v.ID], byName[v.Name] = v.DefRange, v.DefRange
		l.vlans[v.ID] = true
		id := strconv.Itoa(v.ID)
		l.src.Set(v.DefRange, "vlan", id)
		l.src.Set(v.IDRange, "vlan", id, "id")
		l.f.VLANs = append(l.f.VLANs, model.VLAN{ID: v.ID, Name: v.Name, Overlay: l.vlanOverlay(v)})
	}
	sort.Slice(l.f.VLANs, func(i, j int) bool { return l.f.VLANs[i].ID < l.f.VLANs[j].ID })
}

// vlanOverlays are the values a vlan block's overlay takes, with what
// each says.
var vlanOverlays = []struct{ name, meaning string }{
	{model.OverlayVXLAN, "EVPN-VXLAN between the leaves' VTEPs stretches the VLAN across routed uplinks"},
}

// vlanOverlay checks a vlan block's overlay and returns it ("" for none
// or an unknown one, which is an error naming the known ones).
func (l *lowering) vlanOverlay(v dsl.VLAN) string {
	if v.Overlay == nil {
		return ""
	}
	l.src.Set(v.OverlayRange, "vlan", strconv.Itoa(v.ID), "overlay")
	var known, names []string
	for _, o := range vlanOverlays {
		if *v.Overlay == o.name {
			return o.name
		}
		known = append(known, fmt.Sprintf("%q (%s)", o.name, o.meaning))
		names = append(names, o.name)
	}
	hint := ""
	if s := dsl.Suggest(*v.Overlay, names); s != "" {
		hint = fmt.Sprintf(" Did you mean %q?", s)
	}
	l.errorf(v.OverlayRange.Or(v.DefRange), "Invalid VLAN overlay",
		"vlan %q has overlay %q, which is not known; write %s, or leave overlay out for a VLAN the fabric's own links carry.%s",
		v.Name, *v.Overlay, english.Or(known), hint)
	return ""
}

// foldUndeclared makes d, an error of a vlan block that declares no
// usable id (block names it), the one that names the VLANs used but not
// declared, unless an earlier block's error is: most likely that block
// was meant to declare one of them (see checkVLAN and finishVLANs).
func (l *lowering) foldUndeclared(d *hcl.Diagnostic, block string) {
	if l.badVLAN == nil {
		l.badVLAN, l.badVLANBlock = d, block
	}
}

// checkVLAN reports a VLAN id no vlan block declares; who describes the
// user ("port swp1 on switch \"leaf1\""). listed are the ids the same
// attribute already holds: never suggested for the undeclared one.
func (l *lowering) checkVLAN(id int, r dsl.Range, who string, listed ...int) bool {
	if l.vlans[id] {
		return true
	}
	ids := make([]string, 0, len(l.f.VLANs))
	for _, v := range l.f.VLANs {
		if !slices.Contains(listed, v.ID) {
			ids = append(ids, strconv.Itoa(v.ID))
		}
	}
	if l.badVLAN != nil {
		// Most likely the duplicate or invalid block was meant to declare
		// this id: one error (that block's) says so, not one per user.
		l.undeclaredVLANs[id] = append(l.undeclaredVLANs[id], who)
		return false
	}
	hint := ""
	if c := dsl.Suggest(strconv.Itoa(id), ids); c != "" {
		hint = fmt.Sprintf(" Did you mean %s?", c)
	}
	l.errorOnce(r, "Undeclared VLAN",
		fmt.Sprintf("%s uses VLAN %d, which no vlan block declares; add vlan \"name\" { id = %d }.%s", who, id, id, hint))
	return false
}

// finishVLANs adds the VLANs used but not declared to the duplicate or
// invalid VLAN id error, when there is one (see checkVLAN).
func (l *lowering) finishVLANs() {
	if l.badVLAN == nil || len(l.undeclaredVLANs) == 0 {
		return
	}
	ids := make([]int, 0, len(l.undeclaredVLANs))
	for id := range l.undeclaredVLANs {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var parts []string
	for _, id := range ids {
		users := l.undeclaredVLANs[id]
		parts = append(parts, fmt.Sprintf("VLAN %d (%s)", id, listText(uniqueStrings(users))))
	}
	l.badVLAN.Detail += fmt.Sprintf(" No vlan block declares %s, which ports or NICs use; if %s was meant to declare one of those, correcting its id fixes both.", joinAnd(parts), l.badVLANBlock)
}

// uniqueStrings drops repeats, keeping the first of each.
func uniqueStrings(v []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range v {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// errorOnce records an error unless the same one (place, summary and
// detail) is already recorded, so a mistake in a port range's block is
// reported once, not once per port. The error kept then stands for
// several instances and names none (dsl.Collapse would name it).
func (l *lowering) errorOnce(r dsl.Range, summary, detail string) {
	if d := l.recorded(r, summary, detail); d != nil {
		if dsl.InstanceOf(d) != l.instance {
			dsl.SetInstance(d, "")
		}
		return
	}
	l.errorf(r, summary, "%s", detail)
}

// recorded is the diagnostic already recorded at r with summary and
// detail, or nil.
func (l *lowering) recorded(r dsl.Range, summary, detail string) *hcl.Diagnostic {
	for _, d := range l.diags {
		if d.Summary == summary && d.Detail == detail && sameSubject(d, r) {
			return d
		}
	}
	return nil
}

// warnOnce records a warning at r unless the same one is recorded.
func (l *lowering) warnOnce(r dsl.Range, summary, detail string) {
	if l.recorded(r, summary, detail) == nil {
		l.warnf(r, summary, "%s", detail)
	}
}

// sameSubject tells whether d points at r (or both point nowhere).
func sameSubject(d *hcl.Diagnostic, r dsl.Range) bool {
	if d.Subject == nil {
		return r.Empty()
	}
	return *d.Subject == r.HCL()
}
