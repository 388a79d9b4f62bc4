package onyx

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// LAG and MLAG membership, in the commands of mellanox.onyx
// onyx_linkagg.py: `interface port-channel N` (or `interface
// mlag-port-channel N`) creates the bundle and enters its sub-mode,
// `interface ethernet X channel-group N mode {on|active|passive}` (or
// `mlag-channel-group N mode ...`) adds a member, `interface ethernet X
// no channel-group` removes it, `no interface port-channel N` deletes
// the bundle. The bundle's own settings are not simulated: its sub-mode
// takes the global commands only.

// lagKind is one kind of bundle: the interface name of the bundle, the
// member command that joins a port to it, and the state's list of the
// bundles of that kind.
type lagKind struct {
	bundle, member string
	list           func(*State) *[]int
}

// lagKinds are the kinds of bundle, in the order the running config
// prints them: the one place that pairs a bundle with its member
// command (onyx_linkagg.py: port-channel / channel-group,
// mlag-port-channel / mlag-channel-group).
var lagKinds = []lagKind{
	{"port-channel", "channel-group", func(s *State) *[]int { return &s.PortChannels }},
	{"mlag-port-channel", "mlag-channel-group", func(s *State) *[]int { return &s.MLAGPortChannels }},
}

// lagOf is the kind whose bundle or member command is name.
func lagOf(name string) lagKind {
	for _, k := range lagKinds {
		if k.bundle == name || k.member == name {
			return k
		}
	}
	panic("sim/onyx: no LAG kind " + name) // the rules' syntax admits only the kinds above
}

// lagWords is "{a|b}", the syntax alternatives of the kinds' bundle
// or member words.
func lagWords(word func(lagKind) string) string {
	var w []string
	for _, k := range lagKinds {
		w = append(w, word(k))
	}
	return "{" + strings.Join(w, "|") + "}"
}

// The bundles' and the members' words, as rule syntax.
var (
	lagBundles = lagWords(func(k lagKind) string { return k.bundle })
	lagMembers = lagWords(func(k lagKind) string { return k.member })
)

// lagRules are the global LAG commands.
var lagRules = []cli.Rule[*env]{
	{Syntax: "interface " + lagBundles + " <int>", Do: changes(func(e *env, m []string) error {
		n, err := rangeInt("port-channel number", m[2], 1, 4096)
		if err != nil {
			return err
		}
		if !slices.Contains(e.st.lags(m[1]), n) {
			e.st.setLags(m[1], append(e.st.lags(m[1]), n))
		}
		e.sh.lag, e.sh.ports, e.sh.vlan = m[1]+" "+m[2], nil, 0
		return nil
	})},
	// The MLAG inter-peer link, in the one-line form a running
	// configuration prints (NVIDIA Onyx User Manual, MLAG: `interface
	// port-channel 1 ipl 1`; the running configuration of an Onyx
	// 3.9.3210 MLAG pair: `interface port-channel 100 ipl 1`). The
	// simulator stores and shows it, and `no interface port-channel N`
	// drops it with the bundle; it runs no MLAG.
	{Syntax: "interface port-channel <int> ipl <int>", Do: changes(func(e *env, m []string) error {
		n := atoi(m[1])
		if !slices.Contains(e.st.PortChannels, n) {
			return fmt.Errorf("port-channel %d does not exist", n)
		}
		id, err := rangeInt("ipl id", m[2], 1, 1)
		if err != nil {
			return err
		}
		if e.st.IPL == nil {
			e.st.IPL = map[int]int{}
		}
		e.st.IPL[n] = id
		return nil
	})},
	{Syntax: "no interface " + lagBundles + " <int>", Do: changes(func(e *env, m []string) error {
		n := atoi(m[2])
		if m[1] == "port-channel" {
			delete(e.st.IPL, n)
		}
		e.st.setLags(m[1], slices.DeleteFunc(e.st.lags(m[1]), func(v int) bool { return v == n }))
		for _, p := range e.st.Ports {
			if p.LAG == m[1] && p.LAGGroup == n {
				p.LAG, p.LAGGroup, p.LAGMode = "", 0, ""
			}
		}
		return nil
	})},
}

// lagPortRules are the member commands of `interface ethernet X`.
var lagPortRules = []cli.Rule[*penv]{
	{Syntax: lagMembers + " <int> mode {on|active|passive}", Do: func(e *penv, m []string) error {
		kind := lagOf(m[1]).bundle
		n := atoi(m[2])
		if !slices.Contains(e.st.lags(kind), n) {
			return fmt.Errorf("%s %d does not exist", kind, n)
		}
		e.p.LAG, e.p.LAGGroup, e.p.LAGMode = kind, n, m[3]
		return nil
	}},
	{Syntax: "no " + lagMembers, Do: func(e *penv, m []string) error {
		e.p.LAG, e.p.LAGGroup, e.p.LAGMode = "", 0, ""
		return nil
	}},
}

// lags are the bundles of kind (its bundle name), sorted.
func (s *State) lags(kind string) []int { return *lagOf(kind).list(s) }

// setLags sets the bundles of kind to v, sorted.
func (s *State) setLags(kind string, v []int) {
	slices.Sort(v)
	*lagOf(kind).list(s) = v
}

// verbatim is a refusal whose text is already in Onyx's "% ..." form;
// errText passes it through unchanged.
type verbatim string

func (v verbatim) Error() string { return string(v) }

// notMember refuses a switchport setting on a LAG or MLAG member: the
// member's VLANs are the bundle's (onyx_linkagg.py and onyx_l2_interface.py
// configure them on `interface port-channel N`). No public sample gives
// Onyx's words for this refusal; the simulator answers with one "%" line
// that is none of the five phrases of push's failed-when-contains list,
// as a release may word it, so that a client that knows only those
// phrases is caught taking it for success.
func notMember(do func(*penv, []string) error) func(*penv, []string) error {
	return func(e *penv, m []string) error {
		if e.p.LAG != "" {
			return verbatim("% Interface is a member of " + e.p.LAG + " " + strconv.Itoa(e.p.LAGGroup) + "; configure the " + e.p.LAG + " instead")
		}
		return do(e, m)
	}
}

// memberRefused are the port commands a LAG member refuses. A member
// takes its own `mtu ... force` and `dcb priority-flow-control mode on
// force` (review rsim #6): the running-config of mellanox.onyx's fixture
// onyx_config_config.cfg (ansible-collections/mellanox.onyx,
// tests/unit/modules/fixtures) carries `interface ethernet 1/7-1/8 dcb
// priority-flow-control mode on force` for members of port-channel 1, and
// Cray-HPE docs-csm's Mellanox port page shows `interface ethernet 1/1
// mtu 9216 force` beside `interface ethernet 1/1 mlag-channel-group 1
// mode active`.
var memberRefused = []string{"switchport", "no switchport"}

// guardMembers wraps the rules a LAG member refuses in notMember.
func guardMembers(rs []cli.Rule[*penv]) []cli.Rule[*penv] {
	out := slices.Clone(rs)
	for i, r := range out {
		for _, p := range memberRefused {
			if len(r.Syntax) >= len(p) && r.Syntax[:len(p)] == p && r.Do != nil {
				out[i].Do = notMember(r.Do)
				break
			}
		}
	}
	return out
}

// lagLines are the "LAG configuration" section, when there is a bundle:
// the bundles, then each member's channel-group line.
func (r *renderer) lagLines() {
	if len(r.s.PortChannels)+len(r.s.MLAGPortChannels) == 0 {
		return
	}
	r.section("LAG configuration")
	for _, k := range lagKinds {
		for _, n := range *k.list(r.s) {
			r.cmd("interface %s %d", k.bundle, n)
		}
		r.perPort(func(p *Port) []string {
			if p.LAG != k.bundle {
				return nil
			}
			return []string{fmt.Sprintf("%s %d mode %s", k.member, p.LAGGroup, p.LAGMode)}
		})
	}
	for _, n := range r.s.PortChannels {
		if id, ok := r.s.IPL[n]; ok {
			r.cmd("interface port-channel %d ipl %d", n, id)
		}
	}
}
