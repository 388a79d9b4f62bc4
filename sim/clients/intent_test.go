//go:build !race

package clients

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/sim"
	"github.com/fabricc/fabricc/sim/cli"
)

// The clients' parameters are what fabricc's intent implies, written the
// way each client and OS express it: verify.Expect gives the intended
// state of every port, the model the names, speeds and descriptions.

// hostVars are one switch's Ansible variables (fabricc_*).
type hostVars map[string]any

// dict is a YAML mapping.
type dict = map[string]any

// onyxListAPI is the release from which Onyx wraps several show
// commands' JSON in lists (mellanox.onyx BaseOnyxModule.ONYX_API_VERSION).
const onyxListAPI = "3.6.6000"

// onyxVersionBug says whether the mellanox.onyx modules misread release
// v: they compare releases as strings ("3.10.4206" < "3.6.6000"), so on
// 3.10 and later they expect the pre-3.6.6000 shapes and fail on the
// real ones. The calls that depend on it are left out on such a switch.
func onyxVersionBug(v string) bool {
	return cli.VersionAtLeast(v, onyxListAPI) != (v >= onyxListAPI)
}

// onyxVersionCalls are the mellanox.onyx calls that branch on that
// comparison.
var onyxVersionCalls = []string{"onyx_interface", "onyx_l2_interface", "onyx_vlan", "onyx_pfc_interface"}

// skipped is a call left out on a switch, with the reason.
type skipped struct{ call, reason string }

// eosVars are the arista.eos parameters for sw.
func eosVars(f *model.Fabric, sw *model.Switch, d *sim.LabDevice, cfgFile string) hostVars {
	want := verify.Expect(f, sw)
	first := sw.Ports[0].Name
	v := hostVars{
		"fabricc_calls":       []string{"eos_facts", "eos_command", "eos_config", "eos_vlans", "eos_interfaces", "eos_l2_interfaces"},
		"fabricc_os_version":  d.Options.OSVersion,
		"fabricc_model_name":  "DCS-" + strings.ToUpper(d.Options.Model) + "-R", // a real box's airflow suffix (sim/eos airflowSuffix)
		"fabricc_commands":    []string{"show version", "show interfaces " + first + " | json"},
		"fabricc_wait_for":    []string{fmt.Sprintf("result[1].interfaces['%s'].mtu eq %d", first, want.Ports[first].MTU)},
		"fabricc_config_file": cfgFile,
		"fabricc_neighbors":   eosNeighbors(d.Options.Neighbors),
	}
	vlans, ifs, l2 := []dict{}, []dict{}, []dict{}
	for _, vl := range f.VLANs {
		vlans = append(vlans, dict{"vlan_id": vl.ID, "name": vl.Name, "state": "active"})
	}
	for _, p := range sw.Ports {
		ifs = append(ifs, eosInterface(p))
		if e := eosL2(p); e != nil {
			l2 = append(l2, e)
		}
	}
	v["fabricc_vlans"], v["fabricc_interfaces"], v["fabricc_l2_interfaces"] = vlans, ifs, l2
	return v
}

// eosNeighbors are the LLDP neighbors eos_facts reports
// (ansible_net_neighbors, from `show lldp neighbors | json`): per port
// with a neighbor, its system name as host and its port ID as port, a
// MAC address in EOS's dotted form. The lab's switches see the fabric's
// cables (sim.LabNeighbors).
func eosNeighbors(ns map[string][]cli.Neighbor) dict {
	out := dict{}
	for port, list := range ns {
		var l []dict
		for _, n := range list {
			id := n.PortID
			if n.PortIDMAC {
				id = cli.DottedMAC(id)
			}
			l = append(l, dict{"host": n.SystemName, "port": id})
		}
		out[port] = l
	}
	return out
}

// eosSkips are the arista.eos calls that do not apply to sw:
// eos_l2_interfaces refuses an empty list, so a switch without
// switchports (every port routed) has nothing to ask it.
func eosSkips(v hostVars) []skipped {
	if len(v["fabricc_l2_interfaces"].([]dict)) > 0 {
		return nil
	}
	calls := v["fabricc_calls"].([]string)
	v["fabricc_calls"] = slices.DeleteFunc(calls, func(c string) bool { return c == "eos_l2_interfaces" })
	return []skipped{{"eos_l2_interfaces", "no switchport on the switch (every port routed); the module refuses an empty list"}}
}

// eosInterface is the eos_interfaces entry of p. What EOS's defaults
// are is left out, because the running-config does not print it and the
// module reads only that: the MTU at 1500, layer-2 mode (a switchport;
// only "no switchport" is printed); the speed is EOS's forced form as
// eos_interfaces reads it ("forced 100g", duplex "full").
func eosInterface(p model.Port) dict {
	e := dict{"name": p.Name, "enabled": !p.Shutdown}
	if p.Mode == model.ModeRouted {
		e["mode"] = "layer3"
	}
	if p.Description != "" {
		e["description"] = p.Description
	}
	if p.MTU != 0 && p.MTU != 1500 {
		e["mtu"] = p.MTU
	}
	if g := p.SpeedMbps / 1000; g >= 25 {
		e["speed"], e["duplex"] = fmt.Sprintf("forced %dg", g), "full"
	} else if p.SpeedMbps > 0 {
		e["speed"], e["duplex"] = fmt.Sprintf("forced %d", p.SpeedMbps), "full"
	}
	return e
}

// eosL2 is the eos_l2_interfaces entry of a switchport (nil for a routed
// port). Access mode is EOS's default, which the running-config does not
// print, so an access port names only its VLAN.
func eosL2(p model.Port) dict {
	switch p.Mode {
	case model.ModeAccess:
		return dict{"name": p.Name, "access": dict{"vlan": max(p.AccessVLAN, 1)}}
	case model.ModeTrunk:
		trunk := dict{"trunk_allowed_vlans": []string{ranges(p.TrunkVLANs)}}
		if p.NativeVLAN != 0 {
			trunk["native_vlan"] = p.NativeVLAN
		}
		return dict{"name": p.Name, "mode": "trunk", "trunk": trunk}
	}
	return nil
}

// onyxVars are the mellanox.onyx parameters for sw, and the calls left
// out with their reason.
func onyxVars(f *model.Fabric, sw *model.Switch, d *sim.LabDevice, rendered string) (hostVars, []skipped) {
	want := verify.Expect(f, sw)
	release := d.Options.OSVersion
	first := sw.Ports[0].Name
	calls := []string{"onyx_facts", "onyx_command", "onyx_qos", "onyx_traffic_class"}
	var skips []skipped
	subset := []string{"version", "modules", "interfaces"}
	if onyxVersionBug(release) {
		subset = subset[:2]
		for _, c := range onyxVersionCalls {
			skips = append(skips, skipped{c, "mellanox.onyx compares releases as strings: " + release + " reads as older than " + onyxListAPI})
		}
	} else {
		calls = append(calls, onyxVersionCalls...)
	}
	pools := onyxPools(sw, rendered)
	if len(pools) > 0 {
		calls = append(calls, "onyx_buffer_pool")
	} else {
		skips = append(skips, skipped{"onyx_buffer_pool", "no traffic pool with one switch priority (buffer style " + sw.BufferStyle + "); the module reads one priority"})
	}
	v := hostVars{
		"fabricc_calls":           calls,
		"fabricc_os_version":      release,
		"fabricc_facts_subset":    subset,
		"fabricc_commands":        []string{"show version", "show interfaces ethernet " + first},
		"fabricc_wait_for":        []string{"result[0] contains " + release},
		"fabricc_interfaces":      onyxInterfaces(sw),
		"fabricc_l2_interfaces":   onyxL2(sw),
		"fabricc_vlans":           onyxVLANs(f),
		"fabricc_pfc":             onyxPFC(sw, want),
		"fabricc_qos":             onyxQoS(sw),
		"fabricc_traffic_classes": onyxTrafficClasses(f, sw, want),
		"fabricc_pools":           pools,
	}
	return v, skips
}

func eth(p string) string { return "Eth" + p }

// onyxSpeeds are the speeds onyx_interface accepts.
var onyxSpeeds = []string{"1G", "10G", "25G", "40G", "50G", "56G", "100G"}

func onyxInterfaces(sw *model.Switch) []dict {
	out := []dict{}
	for _, p := range sw.Ports {
		e := dict{"name": eth(p.Name), "mtu": p.MTU, "enabled": !p.Shutdown}
		if p.Description != "" {
			e["description"] = p.Description
		}
		if s := fmt.Sprintf("%dG", p.SpeedMbps/1000); slices.Contains(onyxSpeeds, s) {
			e["speed"] = s
		}
		out = append(out, e)
	}
	return out
}

// onyxL2 are the onyx_l2_interface entries: a trunk with a native VLAN is
// a hybrid port on Onyx; a routed port is not a switchport (absent).
func onyxL2(sw *model.Switch) []dict {
	out := []dict{}
	for _, p := range sw.Ports {
		switch {
		case p.Mode == model.ModeAccess:
			out = append(out, dict{"name": eth(p.Name), "mode": "access", "access_vlan": max(p.AccessVLAN, 1)})
		case p.Mode == model.ModeTrunk && p.NativeVLAN != 0:
			tagged := slices.DeleteFunc(slices.Clone(p.TrunkVLANs), func(v int) bool { return v == p.NativeVLAN })
			out = append(out, dict{"name": eth(p.Name), "mode": "hybrid", "access_vlan": p.NativeVLAN, "trunk_allowed_vlans": tagged})
		case p.Mode == model.ModeTrunk:
			out = append(out, dict{"name": eth(p.Name), "mode": "trunk", "trunk_allowed_vlans": p.TrunkVLANs})
		default:
			out = append(out, dict{"name": eth(p.Name), "state": "absent"})
		}
	}
	return out
}

func onyxVLANs(f *model.Fabric) []dict {
	out := []dict{}
	for _, v := range f.VLANs {
		out = append(out, dict{"vlan_id": v.ID, "name": v.Name})
	}
	return out
}

func onyxPFC(sw *model.Switch, want *verify.State) []dict {
	out := []dict{}
	for _, p := range sw.Ports {
		state := "disabled"
		if len(want.Ports[p.Name].PFC) > 0 {
			state = "enabled"
		}
		out = append(out, dict{"name": eth(p.Name), "state": state})
	}
	return out
}

// onyxTrust is the Onyx trust keyword of a model trust.
var onyxTrust = map[model.Trust]string{model.TrustDSCP: "L3", model.TrustPCP: "L2", model.TrustBoth: "both"}

func onyxQoS(sw *model.Switch) []dict {
	byTrust := map[string][]string{}
	for _, p := range sw.Ports {
		t := onyxTrust[p.Trust]
		byTrust[t] = append(byTrust[t], eth(p.Name))
	}
	out := []dict{}
	for _, t := range []string{"L2", "L3", "both"} {
		if len(byTrust[t]) > 0 {
			out = append(out, dict{"interfaces": byTrust[t], "trust": t})
		}
	}
	return out
}

// onyxTrafficClasses are the onyx_traffic_class items: each class's ETS
// on every port and, on the ports that mark ECN, its thresholds in KB
// (Onyx takes KB; fabricc rounds the model's bytes up).
func onyxTrafficClasses(f *model.Fabric, sw *model.Switch, want *verify.State) []dict {
	out := []dict{}
	for _, c := range f.QoS.Classes {
		dcb := dict{"mode": "strict"}
		if c.ETS.Mode == model.ETSWRR {
			dcb = dict{"mode": "wrr", "weight": c.ETS.BandwidthPercent}
		}
		var marking, plain []string
		for _, p := range sw.Ports {
			if _, ok := want.Ports[p.Name].ECN[c.TrafficClass]; ok {
				marking = append(marking, eth(p.Name))
			} else {
				plain = append(plain, eth(p.Name))
			}
		}
		if len(marking) > 0 {
			out = append(out, dict{"interfaces": marking, "tc": c.TrafficClass, "dcb": dcb, "congestion_control": dict{
				"control": "ecn", "threshold_mode": "absolute", "min_threshold": kb(c.ECN.MinBytes), "max_threshold": kb(c.ECN.MaxBytes)}})
		}
		if len(plain) > 0 {
			out = append(out, dict{"interfaces": plain, "tc": c.TrafficClass, "dcb": dcb})
		}
	}
	return out
}

func kb(b int64) int64 { return (b + 1023) / 1024 }

// poolLine finds the rendered traffic pools: names are the Onyx target's,
// shares and priorities the model's.
var poolLine = regexp.MustCompile(`(?m)^traffic pool (\S+) map switch-priority ([\d ]+)$`)

// onyxPools are the onyx_buffer_pool items: ingress pools with a single
// switch priority (the module parses "Switch Priorities" as one int).
func onyxPools(sw *model.Switch, rendered string) []dict {
	names := map[string]string{}
	for _, m := range poolLine.FindAllStringSubmatch(rendered, -1) {
		names[strings.TrimSpace(m[2])] = m[1]
	}
	out := []dict{}
	for _, p := range sw.Pools {
		name, ok := names[joinInts(p.Priorities, " ")]
		if p.Direction != "ingress" || len(p.Priorities) != 1 || !ok {
			continue
		}
		out = append(out, dict{"name": name, "pool_type": p.Type, "memory_percent": p.Percent, "switch_priority": p.Priorities[0]})
	}
	return out
}

func joinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

// ranges writes ascending VLANs as EOS prints them ("101-104,110").
func ranges(v []int) string {
	var parts []string
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", v[i], v[j]))
		} else {
			parts = append(parts, strconv.Itoa(v[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
