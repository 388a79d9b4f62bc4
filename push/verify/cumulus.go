package verify

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/cumulus"
)

// obj is a decoded NVUE object.
type obj = map[string]any

// ParseNVUE reads `nv config show -o json` (the applied configuration in
// the NVUE object model; the startup.yaml form is a list `[{"header":
// ...}, {"set": {...}}]`, a bare object is accepted too) into a State.
// Object paths follow the NVUE command reference: qos mapping,
// pfc (with its switch-priority, cable-length, port-buffer,
// xoff-threshold and xon-threshold), egress-scheduler and
// congestion-control profiles (default-global unless the interface names
// its own), interface link mtu, bridge domain br_default vlan/access,
// nve vxlan encapsulation and decapsulation dscp action (nvueVXLANDSCP).
// Interface keys may name several interfaces ("swp2,6", "bond1-3"):
// nvueConfigInterfaces.
func ParseNVUE(data []byte) (*State, error) {
	c, err := ParseNVUEConfig(data)
	if err != nil {
		return nil, err
	}
	return c.State()
}

// State is the configuration as a State (ParseNVUE); an error when the
// output held no configuration object.
func (c *NVUEConfig) State() (*State, error) {
	root := c.root
	if root == nil {
		return nil, fmt.Errorf("nv config show -o json: no configuration object in the output")
	}
	s := NewState()
	s.NoVLANNames = true // NVUE VLANs in a bridge domain have no names
	dom := child(root, "bridge", "domain", "br_default")
	for _, id := range keysInts(child(dom, "vlan")) {
		s.VLANs[id] = ""
	}
	qos := child(root, "qos")
	s.Pools = nvuePools(child(qos, "traffic-pool"))
	s.EgressPools = nvueEgressPools(child(qos, "advance-buffer-config", "default-global"))
	s.VXLANDSCP = nvueVXLANDSCP(root)
	foreign := nvueForeignQoS(qos)
	for _, what := range slices.Sorted(maps.Keys(foreign)) {
		s.Conflicts = append(s.Conflicts, Difference{Field: what, Intended: "absent (fabricc configures the lossless class and its pool itself)", Actual: foreign[what]})
	}
	ifaces := nvueConfigInterfaces(child(root, "interface"))
	for _, name := range slices.Sorted(maps.Keys(ifaces)) {
		nvuePort(s.Port(name), ifaces[name], qos, dom)
	}
	for _, u := range ownedProfiles(qos, ifaces) {
		if len(u.Users) == 0 {
			s.UnusedProfiles = append(s.UnusedProfiles, "qos "+u.Kind+" "+u.Name)
		}
	}
	for port, m := range c.BondMembers() {
		if s.Bundled == nil {
			s.Bundled = map[string]string{}
		}
		s.Bundled[port] = "a member of " + m.String()
	}
	s.NVUE = c
	return s, nil
}

// NVUEConfig is `nv config show -o json` decoded once (ParseNVUEConfig)
// for every reader of one read: the State (State,
// ApplyNVUEOperational), push's checks before staging (ForeignQoS,
// OwnedProfiles, BondMembers, Header) and its before/after list
// (Object).
type NVUEConfig struct {
	// doc is the output as decoded: the document list or a bare object.
	doc any
	// root is its configuration object, nil when it holds none.
	root obj
}

// ParseNVUEConfig decodes `nv config show -o json` (as ParseNVUE): the
// startup.yaml form, a list `[{"header": ...}, {"set": {...}}]`, or a
// bare object.
func ParseNVUEConfig(data []byte) (*NVUEConfig, error) {
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("nv config show -o json: %w", err)
	}
	return &NVUEConfig{doc: doc, root: setObject(doc)}, nil
}

// Object is the configuration object (the "set" document), nil when the
// output holds none. It is the decoded value itself: read it, do not
// change it.
func (c *NVUEConfig) Object() map[string]any { return c.root }

// Header is the `version` (the release: "Cumulus Linux 5.15.0") and the
// hardware `model` ("vx") of the header document, as in the switch
// configuration NVIDIA Air's custom topology guide exported with `nv
// config show -o yaml` and a 5.5.1 capture: each the first the document
// list gives, "" without one or when the output is no document list.
func (c *NVUEConfig) Header() (version, model string) {
	docs, _ := c.doc.([]any)
	for _, d := range docs {
		h := child(asObj(d), "header")
		if version == "" {
			version = str(h["version"])
		}
		if model == "" {
			model = str(h["model"])
		}
	}
	return version, model
}

// asObj is v as an object, nil when it is none.
func asObj(v any) obj {
	o, _ := v.(obj)
	return o
}

// ForeignQoS is the switch-wide QoS the configuration holds that fabricc
// does not set and that takes the lossless class from fabricc's
// (nvueForeignQoS), by path; nil when there is none.
func (c *NVUEConfig) ForeignQoS() map[string]string {
	return nvueForeignQoS(child(c.root, "qos"))
}

// nvueForeignQoS finds NVIDIA's RoCE mode (`nv set qos roce`; lossless
// unless a mode is set: Cumulus Linux user guide, RDMA over Converged
// Ethernet - RoCE, "NVUE defaults to roce mode lossless") and a
// roce-lossless traffic pool with switch priorities. RoCE mode writes
// its own trust, ETS, ECN and PFC for every port and puts switch
// priority 3 in its roce-lossless pool ("Default RoCE Configuration"),
// beside fabricc's default-lossless, and "You can only have a single
// lossless pool configured on the switch at a time" (Quality of
// Service, "Traffic Pools"). RoCE mode switched off is `enable off` up
// to 5.14 and `state disabled` from 5.15 (NVUE Command Reference, Set
// and Unset Commands, QoS, `nv set qos roce state`: "In Cumulus Linux
// 5.14 and earlier, you specify enable on or enable off instead of
// state enabled or state disabled").
func nvueForeignQoS(qos obj) map[string]string {
	out := map[string]string{}
	if roce, ok := qos["roce"].(obj); ok && str(roce["enable"]) != "off" && str(roce["state"]) != "disabled" {
		out["qos roce"] = "RoCE mode " + cmp.Or(str(roce["mode"]), "lossless")
	}
	if sp := keysInts(child(qos, "traffic-pool", "roce-lossless", "switch-priority")); len(sp) > 0 {
		out["qos traffic-pool roce-lossless"] = "lossless pool of switch priority " + intsText(sp)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ProfileUse is one NVUE profile named as fabricc names its own
// (cumulus.OwnedProfiles) and the interfaces that attach it.
type ProfileUse struct {
	Kind, Name string
	// Users are the interfaces whose `qos <Kind> profile` names it,
	// ordered by name.
	Users []string
}

// OwnedProfiles is the profiles the configuration holds whose names are
// fabricc's, by kind in cumulus.OwnedProfiles order, then by name; none
// when it holds no configuration object.
func (c *NVUEConfig) OwnedProfiles() []ProfileUse {
	// No configuration object (a switch never configured): no profiles.
	return ownedProfiles(child(c.root, "qos"), c.interfaces())
}

// interfaces is nvueConfigInterfaces of the configuration's interfaces.
func (c *NVUEConfig) interfaces() map[string]obj {
	return nvueConfigInterfaces(child(c.root, "interface"))
}

// ownedProfiles lists the profiles under qos whose names are fabricc's,
// with the interfaces of ifaces that attach each.
func ownedProfiles(qos obj, ifaces map[string]obj) []ProfileUse {
	var out []ProfileUse
	names := slices.SortedFunc(maps.Keys(ifaces), naturalCmp)
	for _, kind := range cumulus.OwnedProfiles {
		users := map[string][]string{} // by profile, in interface order
		for _, i := range names {
			if p := str(child(ifaces[i], "qos", kind.Kind)["profile"]); p != "" {
				users[p] = append(users[p], i)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(child(qos, kind.Kind))) {
			if kind.Name.MatchString(name) {
				out = append(out, ProfileUse{Kind: kind.Kind, Name: name, Users: users[name]})
			}
		}
	}
	return out
}

// nvueConfigInterfaces gives each interface its configuration. `nv config
// show` groups interfaces under one key where their settings are the
// same and keeps what differs under the interface's own key, so one
// interface can take its settings from several keys: "bond1" and
// "bond1-3" in the NVUE Command Reference's `nv config show` example
// (CumulusNetworks/docs content/nvue-reference/Config-Commands.md,
// Cumulus Linux 5.7.0), "swp2,6" with an access VLAN in the switch
// configuration NVIDIA Air's custom topology guide exported with `nv
// config show -o yaml` (Cumulus Linux 5.15.0). Keys that name more
// interfaces are merged first, so an interface's own key wins where
// both set a value.
func nvueConfigInterfaces(ifaces obj) map[string]obj {
	type group struct {
		names []string
		conf  obj
	}
	var groups []group
	for _, key := range slices.Sorted(maps.Keys(ifaces)) {
		if conf := child(ifaces, key); conf != nil {
			groups = append(groups, group{NVUENames(key), conf})
		}
	}
	slices.SortStableFunc(groups, func(a, b group) int { return len(b.names) - len(a.names) })
	out := map[string]obj{}
	for _, g := range groups {
		for _, name := range g.names {
			out[name] = mergeObj(out[name], g.conf)
		}
	}
	return out
}

// nvueNamePart is one item of an NVUE interface list: a name ending in
// a number or a range ("swp1", "swp1-4", "swp1s0-3"), or a bare number
// or range that takes the item before it's prefix ("6" in "swp2,6").
var nvueNamePart = regexp.MustCompile(`^(.*?)([0-9]+)(?:-([0-9]+))?$`)

// NVUENames expands an NVUE interface list ("swp1-4,6,bond1") into
// interface names. A range of more than 4096 names, or one that does
// not ascend, is kept as a name of its own.
func NVUENames(key string) []string {
	var out []string
	prefix := ""
	for _, item := range strings.Split(key, ",") {
		item = strings.TrimSpace(item)
		m := nvueNamePart.FindStringSubmatch(item)
		switch {
		case item == "":
			continue
		case m == nil:
			out, prefix = append(out, item), ""
			continue
		case m[1] != "":
			prefix = m[1]
		}
		if m[3] == "" {
			out = append(out, prefix+m[2])
			continue
		}
		lo, err1 := strconv.Atoi(m[2])
		hi, err2 := strconv.Atoi(m[3])
		if err1 != nil || err2 != nil || hi < lo || hi-lo >= 4096 {
			out = append(out, prefix+m[2]+"-"+m[3])
			continue
		}
		for n := lo; n <= hi; n++ {
			out = append(out, prefix+itoa(n))
		}
	}
	return out
}

// mergeObj returns dst with src merged into it, objects merged key by
// key, other values replaced; src is not shared with the result.
func mergeObj(dst, src obj) obj {
	if dst == nil {
		dst = obj{}
	}
	for k, v := range src {
		if o, ok := v.(obj); ok {
			d, _ := dst[k].(obj)
			dst[k] = mergeObj(d, o)
			continue
		}
		dst[k] = v
	}
	return dst
}

// nvuePort reads interface i into p: its MTU and bridge membership, and
// the QoS of the profiles it names (default-global where it names none).
func nvuePort(p *Port, i, qos, dom obj) {
	link := child(i, "link")
	p.MTU = num(link["mtu"])
	// `nv set interface <if> link speed 100G|auto`, `link state down`,
	// `description TEXT` and `qos link-pause profile NAME` (NVUE command
	// reference, Interface Commands; Cumulus Linux user guide, Quality of
	// Service, Link Pause: a port pauses when a link-pause profile is
	// attached).
	p.Speed = speedMbps(str(link["speed"]))
	p.Shutdown = AdminDown(nvueState(link["state"]) == "down")
	p.Description = str(i["description"])
	if n := str(child(i, "qos", "link-pause")["profile"]); n != "" {
		lp := child(qos, "link-pause", n)
		p.LinkPause = lp == nil || !(nvueOff(lp["tx"]) && nvueOff(lp["rx"]))
	}
	nvuePortMode(p, i, dom)
	// An interface that uses a kind's default-global profile (names
	// none, or names it) takes that kind's fields from it, switch-wide
	// (p.SwitchWide), with NVUE's factory defaults for what it leaves
	// unset.
	prof := func(kind string) obj {
		n, _ := child(i, "qos", kind)["profile"].(string)
		if n == "" || n == "default-global" {
			n = "default-global"
			for _, f := range nvueSwitchWide[kind] {
				if p.SwitchWide == nil {
					p.SwitchWide = map[string]bool{}
				}
				p.SwitchWide[f] = true
			}
		}
		return child(qos, kind, n)
	}
	mapping := prof("mapping")
	p.Trust = map[string]model.Trust{"l3": model.TrustDSCP, "l2": model.TrustPCP, "both": model.TrustBoth, "port": TrustPort}[str(mapping["trust"])]
	pfc := prof("pfc")
	p.PFC = keysInts(child(pfc, "switch-priority"))
	if pfc != nil {
		p.PFCProfile = &PFCProfile{CableMeters: Meters(num(pfc["cable-length"])), PortBuffer: Bytes(num(pfc["port-buffer"])),
			XoffThreshold: Bytes(num(pfc["xoff-threshold"])), XonThreshold: Bytes(num(pfc["xon-threshold"])),
			Tx: nvuePFCDirection(pfc["tx"]), Rx: nvuePFCDirection(pfc["rx"])}
	}
	sched := perTC(child(prof("egress-scheduler"), "traffic-class"))
	for tc, v := range nvueWithDefaults(sched, nvueDefaultETS, nil, p.SwitchWide["ETS"]) {
		e := model.ETS{Mode: model.ETSStrict}
		if str(v["mode"]) == "dwrr" {
			e = model.ETS{Mode: model.ETSWRR, BandwidthPercent: num(v["bw-percent"])}
		}
		p.ETS[tc] = e
	}
	// `nv set interface <if> qos pfc-watchdog state enable` (NVUE command
	// reference).
	p.PFCWatchdog = enabled(child(i, "qos", "pfc-watchdog")["state"])
	// `nv set interface <if> lldp dcbx-pfc-tlv on` (`enabled` from 5.15;
	// off by default: NVUE Command Reference, Set and Unset Commands,
	// LLDP).
	p.DCBX = "off"
	if v := str(child(i, "lldp")["dcbx-pfc-tlv"]); v == "on" || v == "enabled" {
		p.DCBX = "on"
	}
	egress := child(qos, "egress-queue-mapping", "default-global")
	p.DSCPToTC = nvueDSCPToTC(mapping, egress)
	p.DSCPToPriority, p.PriorityToTC = nvueDSCPToPriority(mapping), nvuePriorityToTC(egress)
	if p.SwitchWide == nil {
		p.SwitchWide = map[string]bool{}
	}
	for _, f := range nvueSwitchWide["egress-queue-mapping"] {
		p.SwitchWide[f] = true // default-global only: every port's
	}
	cc := perTC(child(prof("congestion-control"), "traffic-class"))
	for tc, v := range nvueWithDefaults(cc, nvueDefaultECN, nvueECNFactory, p.SwitchWide["ECN"]) {
		// A traffic class the profile lists without `ecn` marks: the
		// guide's example sets only the thresholds (and red) of traffic
		// classes 4, 5 and 7, and `nv show` then lists their ECN as
		// enable (Cumulus Linux 5.9 User Guide, Quality of Service,
		// Congestion Control (ECN)).
		if e, set := v["ecn"]; !set || enabled(e) {
			p.ECN[tc] = nvueECN(v)
		}
	}
}

// nvueECN reads one marking traffic class of a congestion-control
// profile; inDefault: of default-global, whose probability and red are
// NVUE's factory values where unset (nvueECNFactory).
func nvueECN(v obj) ECN {
	e := ECN{MinBytes: int64(num(v["min-threshold"])), MaxBytes: int64(num(v["max-threshold"])), Mode: "ecn", Probability: num(v["probability"])}
	if r, set := v["red"]; set {
		e.RED = "disable"
		if enabled(r) {
			e.RED = "enable"
		}
	}
	return e
}

// nvueECNFactory is what a traffic class of default-global runs where
// the configuration sets no probability or red: "A probability of 100
// percent" and "Random Early Detection (RED) disabled" (Cumulus Linux
// 5.9 User Guide, Quality of Service, Congestion Control (ECN), the
// default profile); the guide's example sets only the thresholds and red
// of traffic classes 4, 5 and 7, and `nv show` lists their probability
// as 100.
var nvueECNFactory = obj{"probability": 100.0, "red": "disable"}

// nvueDefaultETS is NVUE's default-global egress scheduler, which a
// configuration that leaves a traffic class (or the whole profile) unset
// runs: "the bandwidth allocated to egress queues 0,2,4,6 is 12 percent
// and the bandwidth allocated to egress queues 1,3,5,7 is 13 percent"
// (Cumulus Linux 5.9 User Guide, Quality of Service, Egress Scheduler),
// DWRR.
var nvueDefaultETS = map[int]obj{
	0: {"mode": "dwrr", "bw-percent": 12.0}, 1: {"mode": "dwrr", "bw-percent": 13.0},
	2: {"mode": "dwrr", "bw-percent": 12.0}, 3: {"mode": "dwrr", "bw-percent": 13.0},
	4: {"mode": "dwrr", "bw-percent": 12.0}, 5: {"mode": "dwrr", "bw-percent": 13.0},
	6: {"mode": "dwrr", "bw-percent": 12.0}, 7: {"mode": "dwrr", "bw-percent": 13.0},
}

// nvueDefaultECN is NVUE's default-global congestion control: "The
// default profile (default-global) enables ECN by default on egress
// queue 0 for all ports" with a minimum threshold of 150000 bytes and a
// maximum of 1500000 bytes (Cumulus Linux 5.9 User Guide, Quality of
// Service, Congestion Control (ECN)); no other traffic class marks.
var nvueDefaultECN = map[int]obj{0: {"ecn": "enable", "min-threshold": 150000.0, "max-threshold": 1500000.0}}

// nvueWithDefaults is a default-global profile's per-traffic-class
// settings as the switch runs them: the factory settings every traffic
// class has (each), then those of particular classes (def), with what
// the configuration sets over them; `nv config
// show` lists only what was set. set itself when the profile is not
// default-global (apply false): a custom profile's unset values have no
// documented default.
func nvueWithDefaults(set, def map[int]obj, each obj, apply bool) map[int]obj {
	if !apply {
		return set
	}
	out := map[int]obj{}
	for tc, d := range def {
		out[tc] = mergeObj(mergeObj(nil, each), d)
	}
	for tc, v := range set {
		if out[tc] == nil {
			out[tc] = mergeObj(nil, each)
		}
		out[tc] = mergeObj(out[tc], v)
	}
	return out
}

// nvueState reads `link state`, which NVUE's configuration holds as a
// one-member set ({"down": {}}, as `nv set ... link state down` adds a
// member) or, in some outputs, as a plain string.
func nvueState(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case obj:
		if _, down := x["down"]; down {
			return "down"
		}
		if _, up := x["up"]; up {
			return "up"
		}
	}
	return ""
}

// nvueOff reads a link-pause direction that says off; a direction the
// profile leaves out is on (the link-pause profile's default).
func nvueOff(v any) bool {
	s := str(v)
	return s == "disable" || s == "disabled" || s == "off"
}

// nvuePFCDirection reads a PFC profile's `tx` or `rx` as "enable" or
// "disable", in either release's spelling (`disable`, or `disabled` as
// NVUE's later enums write it). A direction the profile leaves out reads
// "enable", as a link-pause direction does (nvueOff): fabricc writes both
// on every profile, so only a direction switched off is a difference.
func nvuePFCDirection(v any) string {
	if nvueOff(v) {
		return "disable"
	}
	return "enable"
}

// enabled reads an NVUE on/off value, which is "enable" or "enabled" by
// release (both appear in the NVUE command reference and the Cumulus
// Linux user guides).
func enabled(v any) bool {
	s := str(v)
	return s == "enable" || s == "enabled"
}

// nvuePortMode reads the interface's br_default membership: none is
// routed, an access VLAN is access, otherwise a trunk of its own VLANs or
// the bridge's.
func nvuePortMode(p *Port, i, dom obj) {
	b := child(i, "bridge", "domain", "br_default")
	switch {
	case b == nil:
		p.Mode = model.ModeRouted
	case b["access"] != nil:
		p.Mode, p.AccessVLAN = model.ModeAccess, num(b["access"])
	default:
		p.Mode = model.ModeTrunk
		if v := child(b, "vlan"); v != nil {
			p.TrunkVLANs = keysInts(v)
		} else {
			p.TrunkVLANs = keysInts(child(dom, "vlan"))
		}
	}
}

// setObject finds the configuration object in the output.
func setObject(raw any) obj {
	switch v := raw.(type) {
	case []any:
		for _, e := range v {
			if m, ok := e.(obj); ok && m["set"] != nil {
				s, _ := m["set"].(obj)
				return s
			}
		}
	case obj:
		if s, ok := v["set"].(obj); ok {
			return s
		}
		return v
	}
	return nil
}

// child walks keys; nil when any step is missing.
func child(o obj, keys ...string) obj {
	for _, k := range keys {
		if o == nil {
			return nil
		}
		o, _ = o[k].(obj)
	}
	return o
}

// perTC spreads comma-list keys ("0,3") over their traffic classes.
func perTC(o obj) map[int]obj {
	out := map[int]obj{}
	for k, v := range o {
		m, _ := v.(obj)
		for _, tc := range expandList(k) {
			if out[tc] == nil {
				out[tc] = obj{}
			}
			for kk, vv := range m {
				out[tc][kk] = vv
			}
		}
	}
	return out
}

func keysInts(o obj) []int {
	var out []int
	for k := range o {
		for _, n := range expandList(k) {
			out = addSorted(out, n)
		}
	}
	return out
}

func num(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case string:
		n, _ := strconv.Atoi(strings.TrimSpace(x))
		return n
	}
	return 0
}

func str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

// nvueDSCPToTC composes the mapping profile's dscp -> switch-priority
// with egress-queue-mapping's switch-priority -> traffic-class (NVUE only
// has default-global for the latter, NVUE command reference); nil
// without a DSCP map where the profile does not trust DSCP (there the map
// has no meaning and is not compared). A profile that trusts DSCP (l3,
// both) runs NVUE's default for a DSCP value it does not map: "If you
// configure the trust to be l3 but do not specify any DSCP to switch
// priority mappings, Cumulus Linux uses the default values", DSCP
// 8n..8n+7 -> switch priority n (Cumulus Linux 5.9 User Guide, Quality
// of Service, Classification, "Trust DSCP"). A switch priority without an
// egress entry stays in traffic class n for switch priority n: "By
// default switch priority values map directly to the matching egress
// queue" (same guide, Egress Queues).
func nvueDSCPToTC(mapping, egress obj) map[int]int {
	sp := nvueDSCPToPriority(mapping)
	if sp == nil {
		return nil
	}
	tcs := nvuePriorityToTC(egress)
	out := map[int]int{}
	for d, prio := range sp {
		tc, ok := tcs[prio]
		if !ok {
			tc = prio
		}
		out[d] = tc
	}
	return out
}

// nvueDSCPToPriority is the mapping profile's dscp -> switch-priority
// stage, with NVUE's default for a DSCP value it does not map where the
// profile trusts DSCP; nil where it neither trusts DSCP nor maps one
// (nvueDSCPToTC says why).
func nvueDSCPToPriority(mapping obj) map[int]int {
	dscp := perTC(child(mapping, "dscp"))
	trust := str(mapping["trust"])
	if len(dscp) == 0 && trust != "l3" && trust != "both" {
		return nil
	}
	sp := map[int]int{}
	if trust == "l3" || trust == "both" {
		for d := 0; d < 64; d++ {
			sp[d] = d / 8
		}
	}
	for d, v := range dscp {
		sp[d] = num(v["switch-priority"])
	}
	return sp
}

// nvuePriorityToTC is egress-queue-mapping's switch-priority ->
// traffic-class stage for switch priorities 0-7, a priority without an
// entry in traffic class n for switch priority n (nvueDSCPToTC says
// why).
func nvuePriorityToTC(egress obj) map[int]int {
	sps := perTC(child(egress, "switch-priority"))
	out := map[int]int{}
	for prio := 0; prio < 8; prio++ {
		out[prio] = prio
		if e, ok := sps[prio]; ok {
			out[prio] = num(e["traffic-class"])
		}
	}
	return out
}

// nvuePools reads `qos traffic-pool NAME memory-percent|switch-priority`;
// the lossless pools are default-lossless and roce-lossless, the lossy
// ones default-lossy and roce-lossy (NVUE command reference; mc-lossy is
// multicast and not a fabric pool).
func nvuePools(tp obj) map[string]Pool {
	out := map[string]Pool{}
	for _, name := range slices.Sorted(maps.Keys(tp)) {
		typ := map[string]string{"default-lossless": "lossless", "roce-lossless": "lossless",
			"default-lossy": "lossy", "roce-lossy": "lossy"}[name]
		if _, seen := out[typ]; typ == "" || seen {
			continue // default-* sorts first: fabricc's pool is the one compared
		}
		p := child(tp, name)
		out[typ] = Pool{Percent: float64(num(p["memory-percent"])), Priorities: keysInts(child(p, "switch-priority"))}
	}
	return out
}

// BondMember is a port's membership of an NVUE bond.
type BondMember struct {
	// Bond is the bond interface that lists the port under `bond member`.
	Bond string
	// MLAGID is the bond's `bond mlag id`, "auto" for an MLAG bond that
	// sets none (NVUE's default), "" when it is not an MLAG bond.
	MLAGID string
	// PeerLink is true when the bond is the MLAG peer link: NVUE's
	// `interface peerlink` bond, which `nv config show` gives `type:
	// peerlink` (Cumulus Linux user guide, Multi-Chassis Link Aggregation -
	// MLAG: `nv set interface peerlink bond member swp49-50`).
	PeerLink bool
}

// String names the bundle as push's refusal and verify name it: "bond
// bond2", "MLAG bond bond1 (bond mlag id 1)", "the MLAG peer link
// peerlink", the names made visible (quote.Visible).
func (m BondMember) String() string {
	bond := quote.Visible(m.Bond)
	switch {
	case m.PeerLink:
		return "the MLAG peer link " + bond
	case m.MLAGID != "":
		return "MLAG bond " + bond + " (bond mlag id " + quote.Visible(m.MLAGID) + ")"
	}
	return "bond " + bond
}

// BondMembers is each port some bond lists under `interface <bond> bond
// member <port>`, with the bond's MLAG ID (`bond mlag id`): the object
// model of the Cumulus Linux user guide, NVUE CLI, "Search for a
// Specific Configuration" (`bond1: bond: member: swp1: {}`, `mlag:
// enable: on, id: 1`). Member keys may name several ports ("swp1-2").
func (c *NVUEConfig) BondMembers() map[string]BondMember {
	out := map[string]BondMember{}
	ifaces := c.interfaces()
	for _, bond := range slices.Sorted(maps.Keys(ifaces)) {
		b := child(ifaces[bond], "bond")
		mlag := bondMLAGID(child(b, "mlag"))
		peer := bond == "peerlink" || str(ifaces[bond]["type"]) == "peerlink"
		for _, key := range slices.Sorted(maps.Keys(child(b, "member"))) {
			for _, port := range NVUENames(key) {
				out[port] = BondMember{Bond: bond, MLAGID: mlag, PeerLink: peer}
			}
		}
	}
	return out
}

// bondMLAGID is the `bond mlag id` of an MLAG bond's mlag object, "auto"
// when the bond sets none, and "" when the bond is not an MLAG bond. In
// the NVUE Command Reference, MLAG, `nv set interface <interface-id> bond
// mlag state enabled` (`enable on` in Cumulus Linux 5.14 and earlier)
// makes the bond an MLAG bond, and the id's "default setting is auto";
// an id set, "auto" included, is one too. MLAG is off with `state
// disabled` or `enable off`, with id 0 ("A value of 0 disables MLAG on
// the bond"), and when the bond has none of these (the state's "default
// setting is disabled").
func bondMLAGID(m obj) string {
	id := scalar(m["id"])
	on := str(m["state"]) == "enabled" || str(m["enable"]) == "on"
	if m == nil || str(m["enable"]) == "off" || str(m["state"]) == "disabled" || id == "0" || !on && id == "" {
		return ""
	}
	if id == "" {
		return "auto"
	}
	return id
}

// scalar is a JSON string or number as text, "" for anything else.
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

// nvueEgressPools reads the egress service pools of an advance-buffer
// profile: `egress-pool <ID> infinite|memory-percent` (Cumulus Linux
// 5.4-5.10) and `egress-service-pool <ID> ...` (5.11 and later, Cumulus
// Linux 5.11 What's New, "Changed NVUE Commands"), in the object model
// `nv show qos advance-buffer-config -o json` prints (NVUE Command
// Reference, Show Commands, QoS: {"egress-pool": {"0":
// {"memory-percent": 100, "mode": "dynamic"}}}). Never nil: a switch
// without the profile has every pool at its traffic pool's share.
func nvueEgressPools(profile obj) map[int]EgressPool {
	out := map[int]EgressPool{}
	for _, key := range []string{"egress-pool", "egress-service-pool"} {
		pools := child(profile, key)
		for _, id := range slices.Sorted(maps.Keys(pools)) {
			p := child(pools, id)
			n, err := strconv.Atoi(id)
			if p == nil || err != nil {
				continue
			}
			out[n] = EgressPool{Infinite: nvueTrue(p["infinite"]), MemoryPercent: num(p["memory-percent"])}
		}
	}
	return out
}

// nvueTrue reads an NVUE boolean, which the JSON output may give as a
// boolean or as its CLI word ("true", "on", "enable(d)").
func nvueTrue(v any) bool {
	if b, ok := v.(bool); ok {
		return b
	}
	switch str(v) {
	case "true", "on", "enable", "enabled":
		return true
	}
	return false
}

// ApplyNVUEOperational adds to s, read from the applied configuration
// conf (s is conf.State()), each port's operational state (rcum #6): the
// link MTU from `nv show interface -o json` (ifaces; NVUE Command
// Reference, Show Commands, Interface, since 5.0.0: without --applied,
// `nv show` prints the operational state; each interface's "link":
// {"mtu": 9216, "state": {"down": {}}, ...}, as a Cumulus Linux 5.6.0
// capture of the command kept in an NVIDIA test-data module,
// CUMULUS_INTERFACES, shows), and the switch priorities of the PFC
// profile the port uses from `nv show qos pfc -o json` (pfc; the
// reference's `nv show qos pfc <profile-id>`, since 5.3.0, gives
// operational and applied values of switch-priority, cable-length,
// port-buffer, xoff-threshold and xon-threshold; its JSON has the object
// model's shape, {"<profile>": {"switch-priority": {"3": {}}, ...}}).
// The profile a port uses is the one its operational state names, else
// its applied `qos pfc profile`, else default-global. NVIDIA documents
// no operational form of the traffic pools (`nv show qos traffic-pool`
// prints an applied column only), so they are compared as applied.
func ApplyNVUEOperational(s *State, conf *NVUEConfig, ifaces, pfc []byte) error {
	var opIfaces, opPFC obj
	if err := json.Unmarshal(ifaces, &opIfaces); err != nil {
		return fmt.Errorf("nv show interface -o json: %w", err)
	}
	if err := json.Unmarshal(pfc, &opPFC); err != nil {
		return fmt.Errorf("nv show qos pfc -o json: %w", err)
	}
	applIfs := conf.interfaces()
	for name, p := range s.Ports {
		op := child(opIfaces, name)
		profile := cmp.Or(str(child(op, "qos", "pfc")["profile"]), str(child(applIfs[name], "qos", "pfc")["profile"]), "default-global")
		p.Operational = &Operational{MTU: num(child(op, "link")["mtu"]), PFC: keysInts(child(opPFC, profile, "switch-priority"))}
	}
	return nil
}
