package cumulus

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// configShow is the applied configuration as `nv config show` prints it:
// interfaces (and bridge VLANs) that share a setting are listed under one
// key naming them all ("swp2,6", "bond1-3", VLANs "10,20,30,40"), and
// what only some of them have stays under a key of its own ("bond1" with
// its member beside "bond1-3" with the shared mtu and type): the NVUE
// Command Reference's `nv config show` example (CumulusNetworks/docs
// content/nvue-reference/Config-Commands.md, Cumulus Linux 5.7.0) and the
// switch configuration NVIDIA Air's custom topology guide exported with
// `nv config show -o yaml` (Cumulus Linux 5.15.0). How NVUE splits a
// configuration into keys beyond those two samples is (no public
// sample): here each setting goes under the key naming exactly the
// interfaces that have it. Device.Running keeps one key per interface.
func configShow(t tree) tree {
	out := tree{}
	for k, v := range t {
		out[k] = v
	}
	if ifs, ok := t["interface"].(tree); ok {
		out["interface"] = factor(ifs)
	}
	dom, ok := child2(t, "bridge", "domain", "br_default")
	if !ok {
		return out
	}
	vlans, ok := dom["vlan"].(tree)
	if !ok {
		return out
	}
	d := tree{}
	for k, v := range dom {
		d[k] = v
	}
	d["vlan"] = factor(vlans)
	bridge := tree{}
	for k, v := range t["bridge"].(tree) {
		bridge[k] = v
	}
	domains := tree{}
	for k, v := range bridge["domain"].(tree) {
		domains[k] = v
	}
	domains["br_default"] = d
	bridge["domain"] = domains
	out["bridge"] = bridge
	return out
}

// child2 walks t by keys, each step an object.
func child2(t tree, keys ...string) (tree, bool) {
	for _, k := range keys {
		c, ok := t[k].(tree)
		if !ok {
			return nil, false
		}
		t = c
	}
	return t, true
}

// factor regroups a map of named objects: every setting (a leaf, or an
// empty object such as an address) goes under the key that lists
// exactly the names having it.
func factor(named tree) tree {
	type leaf struct {
		path  []string
		val   any
		names []string
	}
	leaves := map[string]*leaf{}
	var order []string
	for _, name := range sortedNames(named) {
		obj, _ := named[name].(tree)
		var walk func(path []string, v any)
		walk = func(path []string, v any) {
			if o, ok := v.(tree); ok && len(o) > 0 {
				for _, k := range sortedKeys(o) {
					walk(append(append([]string(nil), path...), k), o[k])
				}
				return
			}
			b, _ := json.Marshal(v)
			id := strings.Join(path, "\x00") + "\x01" + string(b)
			l := leaves[id]
			if l == nil {
				l = &leaf{path: path, val: v}
				leaves[id] = l
				order = append(order, id)
			}
			l.names = append(l.names, name)
		}
		walk(nil, obj)
	}
	out := tree{}
	for _, id := range order {
		l := leaves[id]
		key := listNames(l.names)
		cur, _ := out[key].(tree)
		if cur == nil {
			cur = tree{}
			out[key] = cur
		}
		if len(l.path) == 0 {
			continue // an object with nothing set: the key alone
		}
		for _, k := range l.path[:len(l.path)-1] {
			next, _ := cur[k].(tree)
			if next == nil {
				next = tree{}
				cur[k] = next
			}
			cur = next
		}
		cur[l.path[len(l.path)-1]] = l.val
	}
	return out
}

// namePart splits a name into its prefix and trailing number.
var namePart = regexp.MustCompile(`^(.*?)([0-9]+)$`)

// listNames writes names as NVUE lists them: per prefix, runs of
// consecutive numbers as ranges, the prefix written once ("swp1-4,6",
// "swp2,6" in NVIDIA Air's sample, VLANs "10,20,30,40"); names without a
// number as they are.
func listNames(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	nums := map[string][]int{}
	var prefixes, plain []string
	for _, n := range names {
		m := namePart.FindStringSubmatch(n)
		if m == nil || len(m[2]) > 1 && m[2][0] == '0' { // "lo"; "swp01" would not survive a range
			plain = append(plain, n)
			continue
		}
		v, err := strconv.Atoi(m[2])
		if err != nil {
			plain = append(plain, n)
			continue
		}
		if _, ok := nums[m[1]]; !ok {
			prefixes = append(prefixes, m[1])
		}
		nums[m[1]] = append(nums[m[1]], v)
	}
	sort.Strings(prefixes)
	var parts []string
	for _, p := range prefixes {
		ns := nums[p]
		sort.Ints(ns)
		var runs []string
		for i := 0; i < len(ns); {
			j := i
			for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
				j++
			}
			r := strconv.Itoa(ns[i])
			if j > i {
				r += "-" + strconv.Itoa(ns[j])
			}
			runs = append(runs, r)
			i = j + 1
		}
		parts = append(parts, p+strings.Join(runs, ","))
	}
	sort.Strings(plain)
	return strings.Join(append(parts, plain...), ",")
}

// sortedNames orders names by prefix, then number.
func sortedNames(t tree) []string {
	names := sortedKeys(t)
	sort.SliceStable(names, func(i, j int) bool {
		a, b := namePart.FindStringSubmatch(names[i]), namePart.FindStringSubmatch(names[j])
		if a == nil || b == nil || a[1] != b[1] {
			return names[i] < names[j]
		}
		x, _ := strconv.Atoi(a[2])
		y, _ := strconv.Atoi(b[2])
		return x < y
	})
	return names
}

func sortedKeys(t tree) []string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
