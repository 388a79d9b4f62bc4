package inventory

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Select returns the devices a --limit expression picks: a comma list of
// terms, each a device name (a switch's or a host's), a glob over names
// ("leaf*"), a group or a tag. An empty limit selects every device. A
// term that matches nothing is an error, so a typo does not silently push
// to fewer switches or verify fewer hosts.
func (inv *Inventory) Select(limit string) ([]*Device, error) {
	if strings.TrimSpace(limit) == "" {
		return inv.Devices, nil
	}
	picked := map[string]bool{}
	for _, term := range strings.Split(limit, ",") {
		term = strings.TrimSpace(term)
		if term == "" {
			continue
		}
		if _, err := path.Match(term, ""); err != nil {
			return nil, fmt.Errorf("--limit term %q is not a valid glob: %w", term, err)
		}
		n := 0
		for _, d := range inv.Devices {
			if d.matches(term) {
				picked[d.Name] = true
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("--limit term %q matches no device name, group or tag in %s", term, inv.Path)
		}
	}
	var out []*Device
	for _, d := range inv.Devices {
		if picked[d.Name] {
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
