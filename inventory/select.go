package inventory

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Select returns the devices a --limit expression picks: a comma list of
// terms, each a device name (a switch's or a host's), a glob over names
// ("leaf*"), a group or a tag. As Ansible's --limit (Ansible
// documentation, "Patterns: targeting hosts and groups"), a term may
// start with "!", which leaves out the devices it matches, or with "&",
// which keeps only the devices it matches too: "spines,leaf*,!leaf2"
// is every spine and leaf but leaf2, "leaves,&onyx" the Onyx leaves. A
// limit of exclusions only ("!leaf2") starts from every device. The
// order of the terms does not matter. An empty limit selects every
// device. A term that matches nothing is an error, so a typo does not
// silently push to fewer switches (or, excluded, to more) or verify
// fewer hosts.
func (inv *Inventory) Select(limit string) ([]*Device, error) {
	if strings.TrimSpace(limit) == "" {
		return inv.Devices, nil
	}
	picked := map[string]bool{}
	var and, not [][]bool
	positive := false
	for _, term := range strings.Split(limit, ",") {
		term = strings.TrimSpace(term)
		if term == "" {
			continue
		}
		op := ""
		if term[0] == '!' || term[0] == '&' {
			op, term = term[:1], strings.TrimSpace(term[1:])
			if term == "" {
				return nil, fmt.Errorf("--limit term %q names nothing after %s; write %sNAME, a glob, group or tag", op, op, op)
			}
		}
		if _, err := path.Match(term, ""); err != nil {
			return nil, fmt.Errorf("--limit term %q is not a valid glob: %w", op+term, err)
		}
		hit := make([]bool, len(inv.Devices))
		n := 0
		for i, d := range inv.Devices {
			if d.matches(term) {
				hit[i] = true
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("--limit term %q matches no device name, group or tag in %s", op+term, inv.Path)
		}
		switch op {
		case "!":
			not = append(not, hit)
		case "&":
			and = append(and, hit)
		default:
			positive = true
			for i, h := range hit {
				if h {
					picked[inv.Devices[i].Name] = true
				}
			}
		}
	}
	var out []*Device
	for i, d := range inv.Devices {
		keep := picked[d.Name] || !positive
		for _, a := range and {
			keep = keep && a[i]
		}
		for _, x := range not {
			keep = keep && !x[i]
		}
		if keep {
			out = append(out, d)
		}
	}
	return out, nil
}

func (d *Device) matches(term string) bool {
	if ok, _ := path.Match(term, d.Name); ok {
		return true
	}
	for _, g := range append(append([]string(nil), d.Groups...), d.Tags...) {
		if ok, _ := path.Match(term, g); ok {
			return true
		}
	}
	return false
}

// Terms is every word a --limit term can name without a glob: the
// device names (switches and hosts), groups and tags, sorted, each once
// (shell completion offers them).
func (inv *Inventory) Terms() []string {
	seen := map[string]bool{}
	for _, d := range inv.Devices {
		for _, t := range append(append([]string{d.Name}, d.Groups...), d.Tags...) {
			seen[t] = true
		}
	}
	terms := make([]string, 0, len(seen))
	for t := range seen {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	return terms
}

// Device returns the device called name, or nil.
func (inv *Inventory) Device(name string) *Device {
	for _, d := range inv.Devices {
		if d.Name == name {
			return d
		}
	}
	return nil
}
