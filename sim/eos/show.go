package eos

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// showCmd renders one show command; json selects `| json`.
type showCmd struct {
	pattern string
	do      func(s *shell, m []string, json bool) string
	re      *regexp.Regexp
}

var shows = compileShows([]showCmd{
	{pattern: `show running-config`, do: func(s *shell, m []string, json bool) string {
		if json {
			return cli.JSON(cmdsTree(render(s.d.run)))
		}
		return render(s.d.run)
	}},
	{pattern: `show session-config`, do: func(s *shell, m []string, json bool) string {
		if s.sess == nil {
			return "% Not in a configuration session"
		}
		return render(s.sess.st)
	}},
	{pattern: `show session-config diffs`, do: func(s *shell, m []string, json bool) string { return s.diffs() }},
	{pattern: `show session-config named ([\w.\-]+) diffs`, do: func(s *shell, m []string, json bool) string {
		sess, ok := s.d.sessions[m[1]]
		if !ok {
			return "% Session " + m[1] + " does not exist"
		}
		return cli.Diff(render(s.d.run), render(sess.st), "system:/running-config", "session:/"+m[1]+"-session-config")
	}},
	{pattern: `show configuration sessions(?: detail)?`, do: func(s *shell, m []string, json bool) string {
		if json {
			return cli.JSON(s.d.sessionsJSON())
		}
		return sessionsText(s.d)
	}},
	{pattern: `show interfaces status`, do: func(s *shell, m []string, json bool) string { return s.d.interfacesStatus(json) }},
	{pattern: `show interfaces(?: ` + ifName + `)?`, do: func(s *shell, m []string, json bool) string { return s.d.interfaces(m[1], json) }},
	{pattern: `show vlan`, do: func(s *shell, m []string, json bool) string { return s.d.vlans(json) }},
	{pattern: `show priority-flow-control(?: status)?`, do: func(s *shell, m []string, json bool) string { return s.d.pfc(json) }},
	{pattern: `show qos interfaces(?: ` + ifName + `)?`, do: func(s *shell, m []string, json bool) string { return s.d.qosInterfaces(m[1], json) }},
	{pattern: `show qos maps`, do: func(s *shell, m []string, json bool) string { return s.d.qosMaps(json) }},
	{pattern: `show version`, do: func(s *shell, m []string, json bool) string {
		v := map[string]any{"modelName": "DCS-7060CX-32S", "version": "4.32.1F", "hostname": s.d.opts.Name, "uptime": 3600.0}
		if json {
			return cli.JSON(v)
		}
		return "Arista DCS-7060CX-32S\nSoftware image version: 4.32.1F"
	}},
})

func compileShows(cs []showCmd) []showCmd {
	for i := range cs {
		cs[i].re = cli.Anchored(cs[i].pattern)
	}
	return cs
}

// show runs a show command with its pipes.
func (s *shell) show(line string) string {
	cmd, filters := cli.Pipe(line)
	json := false
	var include []string
	for _, f := range filters {
		switch {
		case f == "json":
			json = true
		case f == "no-more":
		case strings.HasPrefix(f, "include "):
			include = append(include, strings.TrimPrefix(f, "include "))
		default:
			return invalid(f)
		}
	}
	for _, c := range shows {
		if m := c.re.FindStringSubmatch(cmd); m != nil {
			out := c.do(s, m, json)
			for _, w := range include {
				out = cli.Include(out, w)
			}
			return out
		}
	}
	return invalid(cmd)
}

func sessionsText(d *Device) string {
	var b strings.Builder
	b.WriteString("Maximum number of completed sessions: 1\nMaximum number of pending sessions: 5\n\n")
	b.WriteString("  Name          State                 User    Terminal\n")
	b.WriteString("  ------------- --------------------- ------- --------\n")
	for _, name := range d.order {
		fmt.Fprintf(&b, "  %-13s %-21s\n", name, d.sessions[name].state)
	}
	return b.String()
}

// cmdsTree is the `show running-config | json` shape: nested "cmds" keyed
// by command, children by indentation.
func cmdsTree(text string) map[string]any {
	root := map[string]any{"cmds": map[string]any{}, "comments": []string{}, "header": []string{"! device: fabricc simulator"}}
	type level struct {
		indent int
		cmds   map[string]any
	}
	stack := []level{{-1, root["cmds"].(map[string]any)}}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t == "!" || t == "end" {
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " "))
		for len(stack) > 1 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1].cmds
		parent[t] = nil
		child := map[string]any{}
		stack = append(stack, level{ind, child})
		// A command with children becomes an object; set lazily below.
		parent[t] = lazyNode{child}
	}
	return unlazy(root).(map[string]any)
}

type lazyNode struct{ cmds map[string]any }

func unlazy(v any) any {
	switch x := v.(type) {
	case lazyNode:
		if len(x.cmds) == 0 {
			return nil
		}
		return map[string]any{"cmds": unlazy(x.cmds), "comments": []string{}}
	case map[string]any:
		out := map[string]any{}
		for k, c := range x {
			out[k] = unlazy(c)
		}
		return out
	}
	return v
}
