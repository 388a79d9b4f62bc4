package push

import (
	"fmt"
	"regexp"
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
	{regexp.MustCompile(onyxPort + `flowcontrol (send|receive) (on|off) force$`), func(m []string) []onyxSetting {
		return one(m[1]+" flowcontrol "+m[2], m[3], "off")
	}},
	{regexp.MustCompile(onyxPort + `(no )?shutdown$`), func(m []string) []onyxSetting { return one(m[1]+" shutdown", yesNo(m[2] == ""), "no") }},
	{regexp.MustCompile(onyxPort + `switchport access vlan (\d+)$`), func(m []string) []onyxSetting { return one(m[1]+" access vlan", m[2], "1") }},
	// `allowed-vlan add N` adds one VLAN; a plain list replaces the set.
	{regexp.MustCompile(onyxPort + `switchport (?:trunk|hybrid) allowed-vlan add (\d+)$`), func(m []string) []onyxSetting {
		return one(m[1]+" allowed "+m[2], "yes", "no")
	}},
	{regexp.MustCompile(onyxPort + `switchport (?:trunk|hybrid) allowed-vlan ([\d,\-]+)$`), func(m []string) []onyxSetting {
		return one(m[1]+" allowed-set", joinInts(expandInts(m[2])), "")
	}},
	{regexp.MustCompile(onyxPort + `qos trust (\S+)$`), func(m []string) []onyxSetting { return one(m[1]+" trust", m[2], "L2") }},
	{regexp.MustCompile(onyxPort + `qos map dscp ([\d ]+) to switch-priority (\d)$`), func(m []string) []onyxSetting {
		var out []onyxSetting
		for _, d := range expandInts(m[2]) {
			out = append(out, onyxSetting{fmt.Sprintf("%s dscp %d", m[1], d), m[3], fmt.Sprint(d / 8)})
		}
		return out
	}},
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
	{regexp.MustCompile(onyxPort + `dcb priority-flow-control mode (on|auto) force$`), func(m []string) []onyxSetting {
		return one(m[1]+" pfc mode", m[2], "auto")
	}},
	{regexp.MustCompile(onyxPort + `no dcb priority-flow-control mode force$`), func(m []string) []onyxSetting { return one(m[1]+" pfc mode", "off", "auto") }},
	{regexp.MustCompile(onyxPort + `(no )?pfc-wd$`), func(m []string) []onyxSetting { return one(m[1]+" pfc-wd", yesNo(m[2] == ""), "no") }},
	{regexp.MustCompile(`^(no )?dcb priority-flow-control enable force$`), func(m []string) []onyxSetting { return one("pfc", yesNo(m[1] == ""), "no") }},
	{regexp.MustCompile(`^dcb priority-flow-control priority (\d) enable$`), func(m []string) []onyxSetting { return one("pfc priority "+m[1], "yes", "no") }},
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
	h.allowedSets()
	return h
}

// allowedSets adds, for every port with tagged VLANs, the "allowed-set"
// a plain allowed-vlan list is compared with.
func (h onyxHave) allowedSets() {
	sets := map[string][]int{}
	for k, v := range h {
		port, vlan, ok := strings.Cut(k, " allowed ")
		if ok && v.value == "yes" {
			sets[port] = addInt(sets[port], atoi(vlan))
		}
	}
	for port, ids := range sets {
		h[port+" allowed-set"] = struct{ value, line string }{joinInts(ids), ""}
	}
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
// switch, in the rendered order. A port whose switchport mode changes
// loses its VLAN membership on Onyx, so its membership lines are sent
// again with it.
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
	var out []string
	for _, l := range want {
		if !h.holds(l) || membershipOf(l, modeChanges) {
			out = append(out, l)
		}
	}
	return out
}

// membershipOf says whether l sets the VLAN membership of a port in
// ports.
func membershipOf(l string, ports map[string]bool) bool {
	for _, s := range onyxSettingsOf(l) {
		port, _, _ := strings.Cut(s.key, " ")
		if ports[port] && (strings.Contains(s.key, " allowed") || strings.HasSuffix(s.key, " access vlan")) {
			return true
		}
	}
	return false
}

// onyxDiff prints what sending lines does: "-" for a running line whose
// setting a sent line replaces, "+" for each sent line.
func onyxDiff(running, send []string) string {
	h := readOnyx(running)
	var b strings.Builder
	shown := map[string]bool{}
	for _, l := range send {
		for _, s := range onyxSettingsOf(l) {
			if old, ok := h[s.key]; ok && old.line != "" && old.value != s.value && !shown[old.line] {
				shown[old.line] = true
				b.WriteString("- " + old.line + "\n")
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
