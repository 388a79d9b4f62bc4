package push

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Onyx prints its running configuration in its own layout: ranges of
// ports on one line, defaults left out, values quoted only where it
// wants to. fabricc renders one line per port with every value written
// out. So push compares what the lines mean, not their text: each line
// is broken into settings (one key, one value, the Onyx default of the
// key), and a rendered line is missing only when one of its settings
// does not hold on the switch. Defaults: mellanox.onyx fixtures
// (onyx_interfaces_show.cfg: MTU 1500, "Flow-control: receive off send
// off", switchport access; show_qos_interface_ethernet.cfg: trust L2 by
// the onyx_qos module's default, DSCP 8n..8n+7 -> switch priority n,
// switch priority n -> traffic class n; onyx_pfc_interface_disabled.cfg:
// PFC admin Auto; onyx_show_dcb_ets_interface.cfg: WRR weights 12 and
// 13).

// onyxSetting is one thing a configuration line sets.
type onyxSetting struct {
	key, value, def string
}

// onyxRule reads one line form into settings; m are the submatches of
// re (the port, where there is one, is m[1]).
type onyxRule struct {
	re   *regexp.Regexp
	read func(m []string) []onyxSetting
}

func one(key, value, def string) []onyxSetting { return []onyxSetting{{key, value, def}} }

const onyxPort = `^interface ethernet (\S+) `

var onyxRules = []onyxRule{
	{regexp.MustCompile(onyxPort + `mtu (\d+) force$`), func(m []string) []onyxSetting { return one(m[1]+" mtu", m[2], "1500") }},
	{regexp.MustCompile(onyxPort + `speed (\S+) force$`), func(m []string) []onyxSetting { return one(m[1]+" speed", m[2], "auto") }},
	{regexp.MustCompile(onyxPort + `switchport mode (\S+)$`), func(m []string) []onyxSetting { return one(m[1]+" mode", m[2], "access") }},
	{regexp.MustCompile(onyxPort + `no switchport force$`), func(m []string) []onyxSetting { return one(m[1]+" mode", "routed", "access") }},
	{regexp.MustCompile(onyxPort + `description (.+)$`), func(m []string) []onyxSetting { return one(m[1]+" description", unquote(m[2]), "") }},
	{regexp.MustCompile(onyxPort + `no description$`), func(m []string) []onyxSetting { return one(m[1]+" description", "", "") }},
	{regexp.MustCompile(onyxPort + `flowcontrol (send|receive) (on|off) force$`), func(m []string) []onyxSetting {
		return one(m[1]+" flowcontrol "+m[2], m[3], "off")
	}},
	{regexp.MustCompile(onyxPort + `(no )?shutdown$`), func(m []string) []onyxSetting { return one(m[1]+" shutdown", yesNo(m[2] == ""), "no") }},
	{regexp.MustCompile(onyxPort + `switchport access vlan (\d+)$`), func(m []string) []onyxSetting { return one(m[1]+" access vlan", m[2], "1") }},
	{regexp.MustCompile(onyxPort + `qos trust (\S+)$`), func(m []string) []onyxSetting { return one(m[1]+" trust", m[2], "L2") }},
	{onyxDSCPMapRe, onyxDSCPSettings},
	{regexp.MustCompile(onyxPort + `traffic-class (\d) bind switch-priority ([\d ]+)$`), func(m []string) []onyxSetting {
		var out []onyxSetting
		for _, sp := range expandInts(m[3]) {
			out = append(out, onyxSetting{fmt.Sprintf("%s sp %d", m[1], sp), m[2], fmt.Sprint(sp)})
		}
		return out
	}},
	{regexp.MustCompile(onyxPort + `traffic-class (\d) dcb ets (.+)$`), func(m []string) []onyxSetting {
		return one(m[1]+" ets "+m[2], m[3], fmt.Sprintf("wrr %d", 12+atoi(m[2])%2))
	}},
	{regexp.MustCompile(onyxPort + `traffic-class (\d) congestion-control (.+)$`), func(m []string) []onyxSetting {
		return one(m[1]+" congestion "+m[2], m[3], "none")
	}},
	{regexp.MustCompile(onyxPort + `no traffic-class (\d) congestion-control$`), func(m []string) []onyxSetting {
		return one(m[1]+" congestion "+m[2], "none", "none")
	}},
	{regexp.MustCompile(onyxPort + `dcb priority-flow-control mode (on|auto) force$`), func(m []string) []onyxSetting {
		return one(m[1]+" pfc mode", m[2], "auto")
	}},
	{regexp.MustCompile(onyxPort + `no dcb priority-flow-control mode force$`), func(m []string) []onyxSetting { return one(m[1]+" pfc mode", "off", "auto") }},
	{regexp.MustCompile(onyxPort + `(no )?pfc-wd$`), func(m []string) []onyxSetting { return one(m[1]+" pfc-wd", yesNo(m[2] == ""), "no") }},
	{regexp.MustCompile(`^(no )?dcb priority-flow-control enable force$`), func(m []string) []onyxSetting { return one("pfc", yesNo(m[1] == ""), "no") }},
	{regexp.MustCompile(`^(no )?dcb priority-flow-control priority (\d) enable$`), func(m []string) []onyxSetting {
		return one("pfc priority "+m[2], yesNo(m[1] == ""), "no")
	}},
	{regexp.MustCompile(`^vlan (\d+)$`), func(m []string) []onyxSetting { return one("vlan "+m[1], "yes", yesNo(m[1] == "1")) }},
	{regexp.MustCompile(`^vlan (\d+) name (.+)$`), func(m []string) []onyxSetting { return one("vlan "+m[1]+" name", unquote(m[2]), "") }},
	{regexp.MustCompile(`^traffic pool (\S+) type (\S+)$`), func(m []string) []onyxSetting { return one("pool "+m[1]+" type", m[2], "") }},
	{regexp.MustCompile(`^traffic pool (\S+) memory percent ([\d.]+)$`), func(m []string) []onyxSetting {
		return one("pool "+m[1]+" percent", percent(m[2]), "")
	}},
	{regexp.MustCompile(`^traffic pool (\S+) map switch-priority ([\d ]+)$`), func(m []string) []onyxSetting {
		return one("pool "+m[1]+" priorities", joinInts(expandInts(m[2])), "")
	}},
}

// onyxSettingsOf reads a line; a line no rule knows is one setting of
// its own text, so it holds only where the switch prints the same line.
func onyxSettingsOf(l string) []onyxSetting {
	for _, r := range onyxRules {
		if m := r.re.FindStringSubmatch(l); m != nil {
			return r.read(m)
		}
	}
	return one(l, "present", "absent")
}

// onyxHave is what a running configuration sets: key -> value and the
// line that set it.
type onyxHave map[string]struct{ value, line string }

func readOnyx(running []string) onyxHave {
	h := onyxHave{}
	for _, l := range running {
		for _, s := range onyxSettingsOf(l) {
			h[s.key] = struct{ value, line string }{s.value, l}
		}
	}
	return h
}

// value is the switch's value of s's key, its default when no line sets it.
func (h onyxHave) value(s onyxSetting) string {
	if v, ok := h[s.key]; ok {
		return v.value
	}
	return s.def
}

// holds says whether every setting of line l already holds.
func (h onyxHave) holds(l string) bool {
	for _, s := range onyxSettingsOf(l) {
		if h.value(s) != s.value {
			return false
		}
	}
	return true
}

// onyxMissing returns the wanted lines that change something on the
// switch, in the rendered order. A port's allowed-vlan lines count as a
// whole (allowedDeltas): where the set they build differs, a port that
// keeps its switchport mode gets only the VLANs to add and to remove;
// a port whose switchport mode changes loses its VLAN membership on
// Onyx, so its membership lines are sent again with it.
func onyxMissing(want, running []string) []string {
	h := readOnyx(running)
	modeChanges := map[string]bool{}
	for _, l := range want {
		for _, s := range onyxSettingsOf(l) {
			if strings.HasSuffix(s.key, " mode") && h.value(s) != s.value {
				modeChanges[strings.TrimSuffix(s.key, " mode")] = true
			}
		}
	}
	deltas := allowedDeltas(want, running)
	sent := map[string]bool{}
	var out []string
	for _, l := range want {
		if m := onyxAllowedRe.FindStringSubmatch(l); m != nil {
			switch p := m[1]; {
			case modeChanges[p]:
				out = append(out, l)
			case !sent[p]:
				sent[p] = true
				out = append(out, deltas[p]...)
			}
			continue
		}
		if !h.holds(l) || membershipOf(l, modeChanges) {
			out = append(out, l)
		}
	}
	return out
}

// membershipOf says whether l sets the access VLAN of a port in ports.
func membershipOf(l string, ports map[string]bool) bool {
	for _, s := range onyxSettingsOf(l) {
		port, _, _ := strings.Cut(s.key, " ")
		if ports[port] && strings.HasSuffix(s.key, " access vlan") {
			return true
		}
	}
	return false
}

// onyxAllowedRe is a port's "switchport trunk|hybrid allowed-vlan ..." line.
var onyxAllowedRe = regexp.MustCompile(`^interface ethernet (\S+) switchport (?:trunk|hybrid) allowed-vlan (.+)$`)

// vlanSet is a port's tagged VLANs: every VLAN, or a list.
type vlanSet struct {
	all bool
	ids string
}

// allowedDeltas returns, for each port whose tagged VLANs the wanted
// lines leave other than the switch has them, the lines that change
// them in place. The lines cannot be compared one by one: `allowed-vlan
// add N` adds, `none` empties, a bare list replaces, and a trunk starts
// out allowing every VLAN (Emulab snmpit_mellanox.pm), so `add` lines
// alone mean nothing on a fresh trunk. The sets they build can be
// compared, and their difference sent as `add`/`remove` lines, as
// NVIDIA's mellanox.onyx onyx_l2_interface module does (its unit test
// test_trunk_vlan_change: `switchport hybrid allowed-vlan remove 10`,
// `... add 11`). Onyx has no candidate configuration, so the rendered
// `allowed-vlan none` followed by one `add` per VLAN would stop every
// VLAN of a live trunk until the last `add`.
func allowedDeltas(want, running []string) map[string][]string {
	modes := modesOf(running)
	have := allowedSets(running, modes)
	for p, m := range modesOf(want) {
		modes[p] = m
	}
	var vlans []int // read on the first port that allows every VLAN
	out := map[string][]string{}
	for p, w := range allowedSets(want, modes) {
		h, ok := have[p]
		if !ok {
			h = startSet(modes[p])
		}
		if h != w {
			if h.all && vlans == nil {
				vlans = vlansOf(running, want)
			}
			out[p] = vlanDelta(p, modes[p], h, w, vlans, want)
		}
	}
	return out
}

// vlanDelta turns port p's allowed VLANs from h into w. Additions go
// first, removals after: a VLAN the port must carry is never taken off,
// and a session that dies between the two leaves the port carrying
// every VLAN it must plus some it carried before (which the rollback
// removes), never an empty list in between (a trunk narrowed from [200]
// to [101] passes through [101 200], not through nothing). A trunk that
// allows every VLAN is narrowed by removing the VLANs the switch has
// and w has not (removing one VLAN from "all" leaves every other one,
// Emulab snmpit_mellanox.pm). Only where w is "all", or where nothing is
// left to remove from "all", are the rendered lines (want) sent as they
// are. vlans are the switch's VLANs (vlansOf), needed only when h is
// "all".
func vlanDelta(p, mode string, h, w vlanSet, vlans []int, want []string) []string {
	have, wanted := expandInts(h.ids), expandInts(w.ids)
	if h.all {
		have = vlans
	}
	inHave, inWanted := intSet(have), intSet(wanted)
	var add, remove []int
	for _, v := range wanted {
		// "all" carries every VLAN there is, the wanted ones too.
		if !h.all && !inHave[v] {
			add = append(add, v)
		}
	}
	for _, v := range have {
		if !inWanted[v] {
			remove = append(remove, v)
		}
	}
	if w.all || h.all && len(remove) == 0 {
		return portAllowedLines(p, want)
	}
	var out []string
	for _, v := range add {
		out = append(out, fmt.Sprintf("interface ethernet %s switchport %s allowed-vlan add %d", p, mode, v))
	}
	for _, v := range remove {
		out = append(out, fmt.Sprintf("interface ethernet %s switchport %s allowed-vlan remove %d", p, mode, v))
	}
	return out
}

// portAllowedLines are port p's allowed-vlan lines of lines.
func portAllowedLines(p string, lines []string) []string {
	var out []string
	for _, l := range lines {
		if m := onyxAllowedRe.FindStringSubmatch(l); m != nil && m[1] == p {
			out = append(out, l)
		}
	}
	return out
}

// onyxVLANRe is a `vlan N` line.
var onyxVLANRe = regexp.MustCompile(`^vlan (\d[\d,-]*)$`)

// vlansOf lists the VLANs the lines of each list create, with VLAN 1,
// which always exists, in ascending order.
func vlansOf(lists ...[]string) []int {
	seen := map[int]bool{1: true}
	for _, lines := range lists {
		for _, l := range lines {
			if m := onyxVLANRe.FindStringSubmatch(l); m != nil {
				for _, v := range expandInts(m[1]) {
					seen[v] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// intSet is the members of list.
func intSet(list []int) map[int]bool {
	out := make(map[int]bool, len(list))
	for _, v := range list {
		out[v] = true
	}
	return out
}

// modesOf reads each port's switchport mode from lines.
func modesOf(lines []string) map[string]string {
	out := map[string]string{}
	for _, l := range lines {
		for _, s := range onyxSettingsOf(l) {
			if p, ok := strings.CutSuffix(s.key, " mode"); ok && !strings.Contains(p, " ") {
				out[p] = s.value
			}
		}
	}
	return out
}

// startSet is what a port allows before any allowed-vlan line: a trunk
// every VLAN, a hybrid port none.
func startSet(mode string) vlanSet { return vlanSet{all: mode == "trunk"} }

// allowedSets applies each port's allowed-vlan lines in order.
func allowedSets(lines []string, modes map[string]string) map[string]vlanSet {
	ids := map[string][]int{}
	sets := map[string]vlanSet{}
	for _, l := range lines {
		m := onyxAllowedRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		p := m[1]
		cur, ok := sets[p]
		if !ok {
			cur = startSet(modes[p])
		}
		f := strings.Fields(m[2])
		switch f[0] {
		case "none":
			cur, ids[p] = vlanSet{}, nil
		case "all":
			cur, ids[p] = vlanSet{all: true}, nil
		case "add":
			if !cur.all {
				for _, v := range expandInts(strings.Join(f[1:], " ")) {
					ids[p] = addInt(ids[p], v)
				}
			}
		case "remove":
			cur.all = false
			for _, v := range expandInts(strings.Join(f[1:], " ")) {
				ids[p] = slices.DeleteFunc(ids[p], func(x int) bool { return x == v })
			}
		default:
			cur.all, ids[p] = false, expandInts(strings.Join(f, " "))
		}
		cur.ids = joinInts(ids[p])
		sets[p] = cur
	}
	return sets
}

// onyxDiff prints what sending lines does: "-" for a running line whose
// setting a sent line replaces, "+" for each sent line.
func onyxDiff(running, send []string) string {
	h := readOnyx(running)
	var b strings.Builder
	shown := map[string]bool{}
	minus := func(l string) {
		if !shown[l] {
			shown[l] = true
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range send {
		if m := onyxAllowedRe.FindStringSubmatch(l); m != nil {
			// A delta line (allowedDeltas) replaces at most the one
			// running line of its VLAN; any other form the whole list.
			if strings.HasPrefix(m[2], "add ") || strings.HasPrefix(m[2], "remove ") {
				if r := strings.Replace(l, "allowed-vlan remove", "allowed-vlan add", 1); r != l && slices.Contains(running, r) {
					minus(r)
				}
				b.WriteString("+ " + l + "\n")
				continue
			}
			for _, r := range running {
				if rm := onyxAllowedRe.FindStringSubmatch(r); rm != nil && rm[1] == m[1] && !slices.Contains(send, r) {
					minus(r)
				}
			}
		}
		for _, s := range onyxSettingsOf(l) {
			if old, ok := h[s.key]; ok && old.value != s.value {
				minus(old.line)
			}
		}
		b.WriteString("+ " + l + "\n")
	}
	return b.String()
}

// unquote drops the double quotes Onyx puts around a value with blanks.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// percent writes a pool share with two decimals, as Onyx prints it.
func percent(s string) string {
	var f float64
	fmt.Sscanf(s, "%g", &f)
	return fmt.Sprintf("%.2f", f)
}

// expandInts reads "1 2 3", "10,20-22" into ascending unique values.
func expandInts(s string) []int {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		lo, hi, isRange := strings.Cut(f, "-")
		a, b := atoi(lo), atoi(lo)
		if isRange {
			b = atoi(hi)
		}
		for v := a; v <= b && v-a < 4096; v++ {
			out = addInt(out, v)
		}
	}
	return out
}

func addInt(list []int, v int) []int {
	for i, x := range list {
		if x == v {
			return list
		}
		if x > v {
			return append(list[:i], append([]int{v}, list[i:]...)...)
		}
	}
	return append(list, v)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " ")
}

// onyxDSCPSettings are the settings of a port's `qos map dscp LIST to
// switch-priority SP` line (onyxDSCPMapRe's match m), one per DSCP in
// LIST's order; Onyx's default maps DSCP d to switch priority d/8.
func onyxDSCPSettings(m []string) []onyxSetting {
	var out []onyxSetting
	for _, d := range expandInts(m[2]) {
		out = append(out, onyxSetting{fmt.Sprintf("%s dscp %d", m[1], d), m[3], fmt.Sprint(d / 8)})
	}
	return out
}
