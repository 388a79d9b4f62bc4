package compiler

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// lowerVLANs checks the vlan blocks (id 1-4094, unique ids and names) and
// sorts them by id.
func (l *lowering) lowerVLANs() {
	l.vlans = map[int]bool{}
	byID := map[int]hcl.Range{}
	byName := map[string]hcl.Range{}
	for _, v := range l.cfg.VLANs {
		if v.ID < 1 || v.ID > 4094 {
			l.errorf(or(v.IDRange, v.DefRange), "Invalid VLAN id",
				"vlan %q has id %d; 802.1Q VLAN ids are 1-4094.", v.Name, v.ID)
			l.vlans[v.ID] = true // declared, if wrongly: no follow-on errors
			continue
		}
		if first, dup := byID[v.ID]; dup {
			d := l.errorf(or(v.IDRange, v.DefRange), "Duplicate VLAN id",
				"VLAN id %d is declared twice; give each vlan block its own id.", v.ID)
			also(d, fmt.Sprintf("VLAN %d is first declared here", v.ID), first)
			continue
		}
		if first, dup := byName[v.Name]; dup {
			d := l.errorf(v.DefRange, "Duplicate VLAN name",
				"VLAN name %q is used twice; give each vlan block its own name.", v.Name)
			also(d, fmt.Sprintf("VLAN %q is first declared here", v.Name), first)
			continue
		}
		byID[v.ID], byName[v.Name] = v.DefRange, v.DefRange
		l.vlans[v.ID] = true
		id := strconv.Itoa(v.ID)
		l.src.Set(v.DefRange, "vlan", id)
		l.src.Set(v.IDRange, "vlan", id, "id")
		l.f.VLANs = append(l.f.VLANs, model.VLAN{ID: v.ID, Name: v.Name})
	}
	sort.Slice(l.f.VLANs, func(i, j int) bool { return l.f.VLANs[i].ID < l.f.VLANs[j].ID })
}

// checkVLAN reports a VLAN id no vlan block declares; who describes the
// user ("port swp1 on switch \"leaf1\"").
func (l *lowering) checkVLAN(id int, r hcl.Range, who string) bool {
	if l.vlans[id] {
		return true
	}
	ids := make([]string, 0, len(l.f.VLANs))
	for _, v := range l.f.VLANs {
		ids = append(ids, strconv.Itoa(v.ID))
	}
	hint := ""
	if c := dsl.Suggest(strconv.Itoa(id), ids); c != "" {
		hint = fmt.Sprintf(" Did you mean %s?", c)
	}
	l.errorOnce(r, "Undeclared VLAN",
		fmt.Sprintf("%s uses VLAN %d, which no vlan block declares; add vlan \"name\" { id = %d }.%s", who, id, id, hint))
	return false
}

// errorOnce records an error unless the same one (place, summary and
// detail) is already recorded, so a mistake in a port range's block is
// reported once, not once per port.
func (l *lowering) errorOnce(r hcl.Range, summary, detail string) {
	for _, d := range l.diags {
		if d.Summary == summary && d.Detail == detail && sameSubject(d, r) {
			return
		}
	}
	l.errorf(r, summary, "%s", detail)
}

// sameSubject tells whether d points at r (or both point nowhere).
func sameSubject(d *hcl.Diagnostic, r hcl.Range) bool {
	if d.Subject == nil {
		return !hasRange(r)
	}
	return *d.Subject == r
}
