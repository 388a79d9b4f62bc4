package eos

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/fabricc/fabricc/sim/cli"
)

// shower renders one show command as JSON (`| json`) or text.
type shower struct {
	syntax string
	do     func(e *cmdEnv, m []string) (json any, text string, err error)
}

var shows = []shower{
	{"show running-config", func(e *cmdEnv, m []string) (any, string, error) {
		text := e.sh.d.render(e.sh.d.run)
		return cmdsTree(text), text, nil
	}},
	{"show startup-config", func(e *cmdEnv, m []string) (any, string, error) {
		text := e.sh.d.render(e.sh.d.startup)
		return cmdsTree(text), text, nil
	}},
	{"show session-config", func(e *cmdEnv, m []string) (any, string, error) {
		sess, err := e.sh.inSession()
		if err != nil {
			return nil, "", err
		}
		text := e.sh.d.render(sess.st)
		return cmdsTree(text), text, nil
	}},
	{"show session-config diffs", func(e *cmdEnv, m []string) (any, string, error) {
		sess, err := e.sh.inSession()
		if err != nil {
			return nil, "", err
		}
		return nil, e.sh.d.sessionDiff(sess), nil
	}},
	{"show session-config named <name> diffs", func(e *cmdEnv, m []string) (any, string, error) {
		sess, err := e.sh.named(m[1])
		if err != nil {
			return nil, "", err
		}
		return nil, e.sh.d.sessionDiff(sess), nil
	}},
	{"show configuration sessions [detail]", func(e *cmdEnv, m []string) (any, string, error) {
		return e.sh.d.sessionsJSON(), sessionsText(e.sh.d), nil
	}},
	{"show interfaces status", func(e *cmdEnv, m []string) (any, string, error) { return e.sh.d.interfacesStatus() }},
	{"show interfaces [<if>]", func(e *cmdEnv, m []string) (any, string, error) { return e.sh.d.interfaces(m[1]) }},
	{"show vlan", func(e *cmdEnv, m []string) (any, string, error) { return e.sh.d.vlans() }},
	{"show priority-flow-control [status]", func(e *cmdEnv, m []string) (any, string, error) { return e.sh.d.pfc() }},
	{"show qos interfaces [<if>]", func(e *cmdEnv, m []string) (any, string, error) { return e.sh.d.qosInterfaces(m[1]) }},
	{"show qos maps", func(e *cmdEnv, m []string) (any, string, error) { return e.sh.d.qosMaps() }},
	{"show version", func(e *cmdEnv, m []string) (any, string, error) { return e.sh.d.version() }},
	{"show hostname", func(e *cmdEnv, m []string) (any, string, error) {
		h := e.sh.d.run.Hostname
		return map[string]any{"hostname": h, "fqdn": h}, fmt.Sprintf("Hostname: %s\nFQDN:     %s\n", h, h), nil
	}},
	{"show lldp neighbors", func(e *cmdEnv, m []string) (any, string, error) { return e.sh.d.lldpNeighbors() }},
	{"show lldp neighbors detail", func(e *cmdEnv, m []string) (any, string, error) { return e.sh.d.lldpDetail() }},
}

// unsimulatedShows keep abbreviations as ambiguous as on the switch.
var unsimulatedShows = []string{"show ip <rest>", "show inventory", "show logging [<rest>]",
	"show mac address-table [<rest>]", "show spanning-tree [<rest>]", "show clock", "show users", "show environment <rest>"}

var showRules = func() []cli.Rule[*cmdEnv] {
	var out []cli.Rule[*cmdEnv]
	for _, s := range shows {
		out = append(out, cli.Rule[*cmdEnv]{Syntax: s.syntax, Do: s.run})
	}
	for _, s := range unsimulatedShows {
		out = append(out, cli.Rule[*cmdEnv]{Syntax: s})
	}
	return out
}()

func (s shower) run(e *cmdEnv, m []string) error {
	j, text, err := s.do(e, m)
	if err != nil {
		return err
	}
	if e.json && j != nil {
		e.out.WriteString(cli.JSON(j))
	} else {
		e.out.WriteString(text)
	}
	return nil
}

// modelName is the chassis model EOS prints: Arista's "DCS-" prefix, the
// model and the airflow suffix of a real box (airflowSuffix),
// "DCS-7050CX3-32S-R". The model is the fabric's, which names it without
// prefix or suffix.
func (d *Device) modelName() string {
	return "DCS-" + strings.TrimPrefix(strings.ToUpper(d.opts.Model), "DCS-") + airflowSuffix
}

// airflowSuffix ends the modelName of a fixed Arista switch with its
// airflow, "-R" (rear to front) or "-F" (front to rear): "DCS-7010T-48-R"
// in napalm's EOS mock test_get_environment/issue810_7010t/
// show_version.json and ntc-templates' arista_eos_show_version3.raw,
// "DCS-7280SR-48C6-M-R" in napalm's issue1671_top_mb, "CCS-720XP-24ZY4-F"
// in ntc-templates' arista_eos_show_version2.raw. The simulator's boxes
// are rear to front.
const airflowSuffix = "-R"

// version is `show version`: the JSON fields of napalm's EOS fixture
// test_get_facts/normal/show_version.json (arista.eos reads "version"
// and "modelName") and the text layout of EOS.
func (d *Device) version() (any, string, error) {
	up := time.Since(d.booted)
	j := map[string]any{
		"mfgName": "Arista", "modelName": d.modelName(), "hardwareRevision": "11.00", "serialNumber": "SSJ00000000",
		"systemMacAddress": "28:99:3a:00:00:01", "hwMacAddress": "28:99:3a:00:00:01", "version": d.opts.Version,
		"internalVersion": d.opts.Version + "-0000000.sim", "internalBuildId": "00000000-0000-0000-0000-000000000000",
		"imageFormatVersion": "3.0", "architecture": "x86_64", "bootupTimestamp": float64(d.booted.Unix()),
		"uptime": up.Seconds(), "memTotal": 8099732, "memFree": 5840368, "isIntlVersion": false,
	}
	text := fmt.Sprintf("Arista %s\nHardware version: 11.00\nSerial number: SSJ00000000\nHardware MAC address: 28:99:3a:00:00:01\n"+
		"System MAC address: 28:99:3a:00:00:01\n\nSoftware image version: %s\nArchitecture: x86_64\nInternal build version: %s-0000000.sim\n"+
		"Image format version: 3.0\n\nUptime: %d hours and %d minutes\nTotal memory: 8099732 kB\nFree memory: 5840368 kB\n",
		d.modelName(), d.opts.Version, d.opts.Version, int(up.Hours()), int(up.Minutes())%60)
	return j, text, nil
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

// cmdsTree is the `show running-config | json` shape (eAPI): nested
// "cmds" keyed by command, children by indentation; a command that opens
// a mode is {"comments": [], "cmds": {...}} even without children, any
// other null; "header" is the "! device:" line without its newline. So
// prints cEOS 4.34.2F in a public containerlab eAPI capture
// (`"interface Ethernet3": {"comments": [], "cmds": {}}`,
// `"transceiver qsfp default-mode 4x10G": null`, `"header": ["! device:
// ceos1 (cEOSLab, EOS-4.34.2F-...)"]`; review rsim #8).
func cmdsTree(text string) map[string]any {
	var header []string
	type level struct {
		indent int
		node   map[string]any
	}
	root := map[string]any{"cmds": map[string]any{}, "comments": []string{}}
	stack := []level{{-1, root}}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "! ") && len(stack) == 1:
			if strings.HasPrefix(t, "! device:") {
				header = append(header, t)
			}
			continue
		case t == "" || t == "!" || t == "end" || strings.HasPrefix(t, "!"):
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " "))
		for len(stack) > 1 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1].node
		cmds, _ := parent["cmds"].(map[string]any)
		if cmds == nil {
			cmds = map[string]any{}
			parent["cmds"], parent["comments"] = cmds, []string{}
		}
		child := map[string]any{}
		if modeLine.MatchString(t) {
			child["cmds"], child["comments"] = map[string]any{}, []string{}
		}
		cmds[t] = child
		stack = append(stack, level{ind, child})
	}
	root["header"] = header
	return nullLeaves(root).(map[string]any)
}

// modeLine is a running-config line that opens one of the simulator's
// modes (interface, VLAN, QoS profile, MMU queue profile, tx-queue).
var modeLine = regexp.MustCompile(`^(?:interface \S+|vlan \S+|qos profile \S+|(?:uc-)?tx-queue \d+|platform (?:trident|sand) mmu queue profile \S+)$`)

// nullLeaves turns commands that open no mode into null, as eAPI does;
// a mode's "cmds" stays an object, empty or not.
func nullLeaves(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if len(m) == 0 {
		return nil
	}
	out := map[string]any{}
	for k, c := range m {
		if cmds, ok := c.(map[string]any); ok && k == "cmds" {
			kids := map[string]any{}
			for ck, cc := range cmds {
				kids[ck] = nullLeaves(cc)
			}
			out[k] = kids
			continue
		}
		out[k] = nullLeaves(c)
	}
	return out
}
