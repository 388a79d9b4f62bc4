package devsem

import (
	"fmt"
	"sort"
	"strconv"

	"gopkg.in/yaml.v3"
)

// nvueDefault is the profile NVUE applies to every port without one of
// its own (Cumulus Linux user guide, Quality of Service: "To apply PFC
// settings on all ports, modify the default PFC profile (default-global)").
const nvueDefault = "default-global"

// ReadNVUE applies an NVUE patch file (`nv config patch`: a list of
// "set:" documents, each merged into the pending revision; NVUE reference,
// Config Commands) to an empty configuration and returns the state.
func ReadNVUE(text string) (*Switch, error) {
	var docs []map[string]any
	if err := yaml.Unmarshal([]byte(text), &docs); err != nil {
		return nil, err
	}
	tree := map[string]any{}
	for _, d := range docs {
		if set, ok := d["set"].(map[string]any); ok {
			merge(tree, set)
		}
	}
	sw := &Switch{}
	qos := sub(tree, "qos")
	for name, v := range sub(tree, "interface") {
		ifc, _ := v.(map[string]any)
		p := sw.port(name)
		if err := nvueBridge(p, sub(ifc, "bridge", "domain", "br_default"), ifc); err != nil {
			return nil, fmt.Errorf("interface %s: %w", name, err)
		}
		if err := nvuePFC(p, qos, profileOf(ifc, "pfc")); err != nil {
			return nil, fmt.Errorf("interface %s: %w", name, err)
		}
		if err := nvueECN(p, qos, profileOf(ifc, "congestion-control")); err != nil {
			return nil, fmt.Errorf("interface %s: %w", name, err)
		}
		p.DSCPToTC = nvueDSCP(qos, profileOf(ifc, "mapping"))
	}
	return sw, nil
}

// merge deep-merges src into dst, as a patch merges into the revision.
func merge(dst, src map[string]any) {
	for k, v := range src {
		if m, ok := v.(map[string]any); ok {
			d, ok := dst[k].(map[string]any)
			if !ok {
				d = map[string]any{}
				dst[k] = d
			}
			merge(d, m)
			continue
		}
		dst[k] = v
	}
}

// sub walks down map keys; a missing key gives an empty map.
func sub(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return map[string]any{}
		}
		m = next
	}
	return m
}

// profileOf is the port's QoS profile of a kind, or default-global.
func profileOf(ifc map[string]any, kind string) string {
	if s, ok := sub(ifc, "qos", kind)["profile"].(string); ok {
		return s
	}
	return nvueDefault
}

// nvueBridge reads the port's br_default membership: "access N", or the
// per-port VLAN list ("nv set interface swp3 bridge domain br_default vlan
// 200": VLAN pruning) with "untagged N|none"; a member without a list
// carries every bridge VLAN (Cumulus Linux user guide, VLAN-aware Bridge
// Mode). A port outside the bridge is routed.
func nvueBridge(p *Port, br, ifc map[string]any) error {
	if _, member := sub(ifc, "bridge", "domain")["br_default"]; !member {
		p.Mode = "routed"
		return nil
	}
	if a, ok := br["access"]; ok {
		v, err := toInt(a)
		p.Mode, p.Untagged = "access", int(v)
		return err
	}
	p.Mode = "trunk"
	vlans, ok := br["vlan"].(map[string]any)
	if !ok {
		p.AllVLANs = true
		return nil
	}
	untagged := 0
	switch u := br["untagged"].(type) {
	case nil, string:
		if u != nil && u != "none" {
			return fmt.Errorf("untagged %q is not a VLAN or none", u)
		}
	default:
		v, err := toInt(u)
		if err != nil {
			return err
		}
		untagged = int(v)
	}
	set := map[int]bool{}
	for k := range vlans {
		v, err := strconv.Atoi(k)
		if err != nil {
			return fmt.Errorf("VLAN %q is not a number", k)
		}
		set[v] = v != untagged
		if v == untagged {
			p.Untagged = v
		}
	}
	p.Tagged = sortedSet(set)
	return nil
}

// nvuePFC reads the port's PFC profile. Cumulus Linux sets a PFC buffer
// size per port (port-buffer), the "xoff byte limit (buffer limit that
// triggers PFC frame transmit to start)" and the xon limit where it
// stops (Cumulus Linux user guide, Quality of Service, Priority Flow
// Control: the qos_features.conf comments NVUE's `nv set qos pfc
// <profile> port-buffer | xoff-threshold | xon-threshold` write, shown
// side by side in the guide). So PAUSE goes out at xoff-threshold and the
// room left for in-flight bytes is port-buffer - xoff-threshold. Without
// the three values NVUE sizes the buffer from cable-length itself.
func nvuePFC(p *Port, qos map[string]any, profile string) error {
	prof := sub(qos, "pfc", profile)
	if len(prof) == 0 {
		return nil
	}
	var prios []int
	for k := range sub(prof, "switch-priority") {
		v, err := strconv.Atoi(k)
		if err != nil {
			return err
		}
		prios = append(prios, v)
	}
	sort.Ints(prios)
	p.PFC = prios
	var g PG
	var err error
	for _, v := range []struct {
		key string
		dst *int64
	}{{"port-buffer", &g.SizeBytes}, {"xoff-threshold", &g.XoffBytes}, {"xon-threshold", &g.XonBytes}} {
		raw, ok := prof[v.key]
		if !ok {
			return nil // NVUE computes the buffer from cable-length
		}
		if *v.dst, err = toInt(raw); err != nil {
			return fmt.Errorf("pfc %s: %w", v.key, err)
		}
	}
	p.Lossless[-1] = g
	return nil
}

// nvueECN reads the ECN profile's traffic classes with ecn on, thresholds
// in bytes (NVUE reference: qos congestion-control <profile> traffic-class
// <tc> min-threshold | max-threshold, "in bytes").
func nvueECN(p *Port, qos map[string]any, profile string) error {
	for k, v := range sub(qos, "congestion-control", profile, "traffic-class") {
		tc, err := strconv.Atoi(k)
		if err != nil {
			return err
		}
		c, _ := v.(map[string]any)
		if e := c["ecn"]; e != "enable" && e != "enabled" {
			continue
		}
		lo, err1 := toInt(c["min-threshold"])
		hi, err2 := toInt(c["max-threshold"])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("traffic class %d has ECN on without byte thresholds", tc)
		}
		p.ECN[tc] = ECN{MinBytes: lo, MaxBytes: hi}
	}
	return nil
}

// nvueDSCP composes the mapping profile's DSCP -> switch priority with
// the egress-queue-mapping switch priority -> traffic class. Defaults:
// DSCP 8n..8n+7 -> switch priority n (Cumulus Linux user guide, RoCE,
// `nv show qos roce`) and switch priority n -> queue n ("By default switch
// priority values map directly to the matching egress queue", Quality of
// Service, Egress Queues).
func nvueDSCP(qos map[string]any, profile string) map[int]int {
	dscp := sub(qos, "mapping", profile, "dscp")
	sptc := sub(qos, "egress-queue-mapping", nvueDefault, "switch-priority")
	out := map[int]int{}
	for d := 0; d < 64; d++ {
		sp := int64(d / 8)
		if v, err := toInt(sub(dscp, strconv.Itoa(d))["switch-priority"]); err == nil {
			sp = v
		}
		tc := sp
		if v, err := toInt(sub(sptc, strconv.FormatInt(sp, 10))["traffic-class"]); err == nil {
			tc = v
		}
		out[d] = int(tc)
	}
	return out
}

// toInt reads a YAML number.
func toInt(v any) (int64, error) {
	switch n := v.(type) {
	case int:
		return int64(n), nil
	case int64:
		return n, nil
	case uint64:
		return int64(n), nil
	}
	return 0, fmt.Errorf("%v is not a whole number", v)
}
