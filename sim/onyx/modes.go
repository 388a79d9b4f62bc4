package onyx

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// env is what a mode rule works on: the session, the running state and
// the output of a show command (json: `| json-print` was asked for).
type env struct {
	sh   *shell
	st   *State
	json bool
	out  strings.Builder
}

// filters reads the `| ...` pipeline (Onyx User Manual, "CLI Pipeline
// Operator Commands": include, exclude, json-print) and returns what to
// do with the output; a non-empty string is the error for a bad filter.
func (e *env) filters(fs []string) (func(string) string, string) {
	post := func(s string) string { return s }
	for _, f := range fs {
		r, m, serr := filterGrammar.Match(f)
		if serr != nil {
			return nil, syntaxText(serr)
		}
		prev := post
		switch r.Syntax {
		case "json-print":
			e.json = true
		case "include <rest>":
			post = func(s string) string { return cli.Include(prev(s), m[1]) }
		case "exclude <rest>":
			post = func(s string) string { return cli.Exclude(prev(s), m[1]) }
		}
	}
	return post, ""
}

var filterGrammar = cli.Compile([]cli.Rule[*env]{
	{Syntax: "json-print", Do: func(*env, []string) error { return nil }},
	{Syntax: "include <rest>", Do: func(*env, []string) error { return nil }},
	{Syntax: "exclude <rest>", Do: func(*env, []string) error { return nil }},
	{Syntax: "watch <rest>"},
}, nil)

// sessionRules work in every mode.
var sessionRules = []cli.Rule[*env]{
	{Syntax: "[no] cli session paging enable", Do: func(e *env, m []string) error { e.sh.paging = m[1] == ""; return nil }},
	{Syntax: "terminal length <int>", Do: func(e *env, m []string) error {
		e.sh.rows, e.sh.paging = atoi(m[1]), atoi(m[1]) > 0
		return nil
	}},
	{Syntax: "terminal width <int>", Do: func(*env, []string) error { return nil }},
	{Syntax: "exit", Do: func(e *env, m []string) error { return e.sh.exit() }},
	{Syntax: "quit", Do: func(e *env, m []string) error { return exitSession{} }},
	{Syntax: "ping <rest>"},
	{Syntax: "traceroute <rest>"},
	{Syntax: "slogin <rest>"},
	{Syntax: "ssh <rest>"},
	{Syntax: "telnet <rest>"},
}

var execOnly = []cli.Rule[*env]{
	{Syntax: "enable", Do: func(e *env, m []string) error {
		if e.sh.d.opts.EnablePassword != "" {
			e.sh.askSecret = true
		} else {
			e.sh.priv = privEnable
		}
		return nil
	}},
}

var enableRules = []cli.Rule[*env]{
	{Syntax: "disable", Do: func(e *env, m []string) error { e.sh.priv = privExec; return nil }},
	{Syntax: "configure terminal", Do: func(e *env, m []string) error { e.sh.priv = privConfig; return nil }},
	{Syntax: "clear <rest>"},
	{Syntax: "clock <rest>"},
	{Syntax: "reload [<rest>]"},
	{Syntax: "reset <rest>"},
}

// configRules are the global configuration commands.
var configRules = append([]cli.Rule[*env]{
	{Syntax: "configuration write", Do: func(e *env, m []string) error { e.sh.write("", false); return nil }},
	{Syntax: "configuration write to <file> [no-switch]", Do: func(e *env, m []string) error {
		e.sh.write(m[1], m[2] != "")
		return nil
	}},
	{Syntax: "configuration switch-to <file>", Do: func(e *env, m []string) error {
		if _, ok := e.sh.d.files[m[1]]; !ok {
			return fmt.Errorf("configuration file %s does not exist", m[1])
		}
		e.sh.confirm = m[1]
		return nil
	}},
	{Syntax: "configuration delete <file>", Do: func(e *env, m []string) error {
		if m[1] == e.sh.d.active {
			return fmt.Errorf("cannot delete the active configuration file")
		}
		if _, ok := e.sh.d.files[m[1]]; !ok {
			return fmt.Errorf("configuration file %s does not exist", m[1])
		}
		delete(e.sh.d.files, m[1])
		return nil
	}},
	{Syntax: "write memory", Do: func(e *env, m []string) error { e.sh.write("", false); return nil }},
	{Syntax: "interface ethernet <ports>", Do: func(e *env, m []string) error {
		names, err := portRange(e.st, m[1])
		if err == nil {
			e.sh.ports, e.sh.portsSpec, e.sh.vlan, e.sh.lag = names, m[1], 0, ""
		}
		return err
	}},
	{Syntax: "interface ethernet <ports> <rest>", Do: func(e *env, m []string) error { return e.sh.portCommand(m[1], m[2]) }},
	{Syntax: "[no] cli default prefix-modes enable", Do: func(*env, []string) error { return nil }},
	{Syntax: "hostname <word>", Do: changes(func(e *env, m []string) error { e.st.Hostname = m[1]; return nil })},
	{Syntax: "vlan <list>", Do: changes(createVLANs)},
	{Syntax: "vlan <int> name <rest>", Do: changes(func(e *env, m []string) error { return nameVLAN(e.st, m[1], unquote(m[2])) })},
	{Syntax: "vlan <int> no name", Do: changes(func(e *env, m []string) error { return nameVLAN(e.st, m[1], "") })},
	{Syntax: "no vlan <list>", Do: changes(func(e *env, m []string) error {
		ids, err := cli.Ints(m[1], 2, 4094)
		for _, id := range ids {
			delete(e.st.VLANs, id)
			dropVLAN(e.st, id)
		}
		return err
	})},
	{Syntax: "[no] dcb priority-flow-control enable [force]", Do: changes(func(e *env, m []string) error { e.st.PFC = m[1] == ""; return nil })},
	{Syntax: "[no] dcb priority-flow-control priority <prio> enable", Do: changes(func(e *env, m []string) error {
		if m[1] == "" {
			e.st.PFCPriorities[atoi(m[2])] = true
		} else {
			delete(e.st.PFCPriorities, atoi(m[2]))
		}
		return nil
	})},
	{Syntax: "traffic pool <pool> type {lossless|lossy|lossy-mc}", Do: changes(func(e *env, m []string) error { pool(e.st, m[1]).Type = m[2]; return nil })},
	{Syntax: "traffic pool <pool> memory percent <float>", Do: changes(poolPercent)},
	{Syntax: "traffic pool <pool> map switch-priority <list>", Do: changes(mapPool)},
	{Syntax: "no traffic pool <pool> map switch-priority [<list>]", Do: changes(func(e *env, m []string) error { pool(e.st, m[1]).SPs = nil; return nil })},
	{Syntax: "no traffic pool <pool>", Do: changes(func(e *env, m []string) error { delete(e.st.Pools, m[1]); return nil })},
	{Syntax: "[no] advanced buffer management force", Do: changes(func(e *env, m []string) error { e.st.Advanced = m[1] == ""; return nil })},
	{Syntax: "pool <word> size <int> type {dynamic|static}", Do: changes(func(e *env, m []string) error {
		if !e.st.Advanced {
			return fmt.Errorf("advanced buffer management is disabled; run \"advanced buffer management force\" first")
		}
		e.st.APools[m[1]] = &AdvPool{Size: int64(atoi(m[2])), Type: m[3]}
		return nil
	})},
	{Syntax: "no pool <word>", Do: changes(func(e *env, m []string) error { delete(e.st.APools, m[1]); return nil })},
	{Syntax: "protocol <rest>"},
	{Syntax: "lacp [<rest>]"},
	{Syntax: "[no] lldp", Do: changes(func(e *env, m []string) error { e.st.LLDP = m[1] == ""; return nil })},
	{Syntax: "lldp <rest>"},
	{Syntax: "spanning-tree [<rest>]"},
	{Syntax: "ip <rest>"},
	{Syntax: "ntp <rest>"},
}, roceRules...)

// poolPercent is `traffic pool NAME memory percent P`. The pools share
// one buffer, so their shares may not add up to more than 100 % (the
// rule NVIDIA documents for the same Spectrum shared buffer on Cumulus
// Linux: Cumulus Linux 5.9 User Guide, Quality of Service, "Traffic
// Pools": "The total memory allocation across pools must not exceed
// 100%"); the wording of Onyx's refusal has no public sample.
func poolPercent(e *env, m []string) error {
	v, err := strconv.ParseFloat(m[2], 64)
	if err != nil || v > 100 {
		return fmt.Errorf("memory percent must be 0-100")
	}
	total := v
	for n, p := range e.st.Pools {
		if n != m[1] {
			f, _ := strconv.ParseFloat(p.MemoryPercent, 64)
			total += f
		}
	}
	if total > 100.0001 {
		return fmt.Errorf("traffic pools would use %.2f%% of the buffer; the total may not exceed 100%%", total)
	}
	pool(e.st, m[1]).MemoryPercent = fmt.Sprintf("%.2f", v)
	return nil
}

// mapPool is `traffic pool NAME map switch-priority LIST`. A switch
// priority belongs to one traffic pool (NVIDIA Onyx User Manual 3.10,
// "Shared Buffer Commands", `map switch-priority`: "Maps
// switch-priorities to the traffic pool"), so mapping it here takes it
// out of the pool it was in.
func mapPool(e *env, m []string) error {
	sps, err := cli.Ints(m[2], 0, 7)
	if err != nil {
		return err
	}
	for n, p := range e.st.Pools {
		if n != m[1] {
			p.SPs = slices.DeleteFunc(p.SPs, func(sp int) bool { return slices.Contains(sps, sp) })
		}
	}
	pool(e.st, m[1]).SPs = sps
	return nil
}

// changes marks the session as having changed the configuration (the
// drift fault applies when it leaves configuration mode).
func changes(do func(*env, []string) error) func(*env, []string) error {
	return func(e *env, m []string) error {
		if err := do(e, m); err != nil {
			return err
		}
		e.sh.changed = true
		return nil
	}
}

// createVLANs is `vlan <list>`: it creates the VLANs; one VLAN enters
// its sub-mode (ansible onyx_vlan follows `vlan N` with `exit`).
func createVLANs(e *env, m []string) error {
	ids, err := cli.Ints(m[1], 1, 4094)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, ok := e.st.VLANs[id]; !ok {
			e.st.VLANs[id] = ""
		}
	}
	if len(ids) == 1 {
		e.sh.vlan, e.sh.ports, e.sh.lag = ids[0], nil, ""
	}
	return nil
}

// dropVLAN removes a deleted VLAN from every port.
func dropVLAN(st *State, id int) {
	for _, p := range st.Ports {
		if p.AccessVLAN == id {
			p.AccessVLAN = 0
		}
		var keep []int
		for _, v := range p.Allowed {
			if v != id {
				keep = append(keep, v)
			}
		}
		p.Allowed = keep
	}
}

var vlanRules = []cli.Rule[*env]{
	{Syntax: "name <rest>", Do: changes(func(e *env, m []string) error { e.st.VLANs[e.sh.vlan] = unquote(m[1]); return nil })},
	{Syntax: "no name", Do: changes(func(e *env, m []string) error { e.st.VLANs[e.sh.vlan] = ""; return nil })},
}

// inPorts turns the port rules into interface-mode rules for the ports
// the session entered.
func inPorts(rs []cli.Rule[*penv]) []cli.Rule[*env] {
	out := make([]cli.Rule[*env], len(rs))
	for i, r := range rs {
		do := r.Do
		out[i] = cli.Rule[*env]{Syntax: r.Syntax, Do: func(e *env, m []string) error {
			return e.sh.applyPorts(e.sh.ports, do, m)
		}}
	}
	return out
}

func join[T any](lists ...[]T) []T {
	var out []T
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// The command set of each mode: configuration modes keep the enable
// commands, sub-modes keep the global configuration commands.
var (
	allPortRules     = guardMembers(join(portRules, lagPortRules))
	allConfigRules   = join(configRules, lagRules)
	portGrammar      = cli.Compile(allPortRules, kinds)
	execGrammar      = cli.Compile(join(showRules, sessionRules, execOnly), kinds)
	enableGrammar    = cli.Compile(join(showRules, sessionRules, enableRules), kinds)
	configGrammar    = cli.Compile(join(showRules, sessionRules, allConfigRules), kinds)
	interfaceGrammar = cli.Compile(join(inPorts(allPortRules), showRules, sessionRules, allConfigRules), kinds)
	vlanGrammar      = cli.Compile(join(vlanRules, showRules, sessionRules, allConfigRules), kinds)
	lagGrammar       = cli.Compile(join(showRules, sessionRules, allConfigRules), kinds)
)
