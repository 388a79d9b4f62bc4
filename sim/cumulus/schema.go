// Package cumulus simulates NVIDIA Cumulus Linux 5.x with NVUE: a bash
// login shell with `nv set/unset`, revisions (`nv config patch|replace|
// diff|apply|confirm|detach|history|revision|show`), `nv show ... -o json`
// and a tiny file system for the YAML the push engine uploads.
package cumulus

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/fabricc/fabricc/sim/cli"
)

// The NVUE object model fabricc uses, as path templates (grammar as data).
// Sources: the NVUE command reference (QoS.md) and the Cumulus Linux 5.14
// user guide (Quality of Service; VLAN-aware Bridge Mode). Tokens: a word is a keyword,
// "a|b" alternative keywords, <if> interface names (swp1-4,swp6 lists),
// <name> an object name, <nameset> an object name ending the path (a key
// with no settings below), <set:lo-hi> a set of numbers (list or range),
// <key:lo-hi> one-or-more numeric keys with more path below, <ifset> a set
// of interface names ending the path; the last token
// is the value: <int:lo-hi>, <str>, <alpha>, <vlans> or an enum {a|b}.
var templates = []string{
	"interface <if> type {swp|bond|loopback|svi|sub|peerlink}",
	"interface <if> link mtu <int:552-9216>",
	"interface <if> link speed {auto|10M|100M|1G|10G|25G|40G|50G|100G|200G|400G|800G}",
	"interface <if> link auto-negotiate {on|off}",
	"interface <if> link state {up|down}",
	"interface <if> description <str>",
	"interface <if> qos pfc|mapping|egress-scheduler|congestion-control profile <name>",
	"interface <if> qos link-pause profile <name>",
	// The state enums below are NVIDIA's, not fabricc's (releases.go,
	// enabledKeywords): NVUE Command Reference, Set and Unset Commands,
	// QoS, the revision documenting 5.16 and 5.17 (`nv set interface
	// swp1 qos pfc-watchdog state enable`, "The default setting is
	// disable"; `nv set qos pfc default-global tx enable`, `rx enable`;
	// `nv set qos link-pause my_pause_ports tx enable`; `... traffic-class
	// 4,5,7 ecn enabled`, `red enabled`; `nv set qos roce state enabled`,
	// "In Cumulus Linux 5.14 and earlier, you specify enable on or enable
	// off"), LLDP (dcbx-pfc-tlv on|off up to 5.14, enabled|disabled
	// from 5.15) and the Cumulus Linux 5.15 "New and Changed NVUE
	// Commands" list, tab "On/Off". A rendered file with another word
	// than these is refused, as NVUE refuses it.
	"interface <if> qos pfc-watchdog state {enable|disable}",
	"interface <if> lldp dcbx-pfc-tlv {on|off}",
	"interface <if> lldp dcbx-pfc-tlv {enabled|disabled}",
	// Bonds: `interface <bond> bond member <if>` and the MLAG ID of an
	// MLAG bond (Cumulus Linux user guide, Bonding - Link Aggregation;
	// Multi-Chassis Link Aggregation - MLAG; NVUE CLI, "Search for a
	// Specific Configuration": `bond: member: swp1: {}`, `mlag: enable:
	// on, id: 1`).
	"interface <if> bond member <ifset>",
	"interface <if> bond mlag id <int:1-65535>",
	"interface <if> bond mlag enable {on|off}",
	// MLAG: a bond's `mlag state enabled|disabled` (5.15 and later; `enable
	// on|off` before), the peer link bond NVIDIA names `peerlink`, and the
	// switch's `mlag` settings (NVUE Command Reference, MLAG; Cumulus Linux
	// user guide, Multi-Chassis Link Aggregation - MLAG: `nv set interface
	// peerlink bond member swp49-50`, `nv set mlag mac-address
	// 44:38:39:BE:EF:AA`, `nv set mlag backup 10.10.10.2`, `nv set mlag
	// peer-ip linklocal`, `nv set mlag priority 2084`). Stored and shown
	// back, so that a brownfield MLAG switch can be rehearsed; fabricc
	// configures none of it.
	"interface <if> bond mlag state {enabled|disabled}",
	"mlag enable {on|off}",
	"mlag state {enabled|disabled}",
	"mlag mac-address <str>",
	"mlag backup <nameset>",
	"mlag peer-ip <str>",
	"mlag priority <int:0-65535>",
	"mlag init-delay <int:0-900>",
	"interface <if> bridge domain <name> access <int:1-4094>",
	"interface <if> bridge domain <name> untagged <untagged>",
	"interface <if> bridge domain <name> vlan <set:1-4094>",
	"bridge domain <name> vlan <set:1-4094>",
	"bridge domain <name> untagged <untagged>",
	// VXLAN tunnel DSCP (NVUE Command Reference, Set and Unset Commands,
	// VXLAN; Cumulus Linux user guide, VXLAN Tunnel DSCP Operations).
	"nve vxlan encapsulation dscp action {copy|set|derive}",
	"nve vxlan decapsulation dscp action {copy|preserve|derive}",
	"qos mapping <name> trust {l2|l3|port|both}",
	"qos mapping <name> port-default-sp <int:0-7>",
	"qos mapping <name> dscp <key:0-63> switch-priority <int:0-7>",
	"qos mapping <name> pcp <key:0-7> switch-priority <int:0-7>",
	"qos egress-queue-mapping <name> switch-priority <key:0-7> traffic-class <int:0-7>",
	"qos egress-scheduler <name> traffic-class <key:0-7> mode {dwrr|strict}",
	// bw-percent 0-100: NVUE Command Reference, `nv list-commands qos`
	// ("... traffic-class <qos-tc-id> bw-percent 0-100").
	"qos egress-scheduler <name> traffic-class <key:0-7> bw-percent <int:0-100>",
	"qos pfc <name> switch-priority <set:0-7>",
	"qos pfc <name> tx|rx {enable|disable}",
	"qos pfc <name> cable-length <int:1-100000>",
	"qos pfc <name> port-buffer|xoff-threshold|xon-threshold <int:0-100000000>",
	"qos link-pause <name> tx|rx {enable|disable}",
	"qos link-pause <name> cable-length <int:1-100000>",
	"qos pfc-watchdog polling-interval <int:100-5000>",
	"qos pfc-watchdog robustness <int:1-1000>",
	"qos congestion-control <name> traffic-class <key:0-7> min-threshold|max-threshold <int:1-100000000>",
	"qos congestion-control <name> traffic-class <key:0-7> probability <int:1-100>",
	"qos congestion-control <name> traffic-class <key:0-7> ecn|red {enable|disable}",
	"qos congestion-control <name> traffic-class <key:0-7> ecn|red {enabled|disabled}",
	"qos traffic-pool <name> memory-percent <int:0-100>",
	"qos traffic-pool <name> switch-priority <set:0-7>",
	"qos advance-buffer-config <name> ingress-lossless-buffer|egress-lossless-buffer shared-alpha <alpha>",
	"qos advance-buffer-config <name> ingress-lossless-buffer|egress-lossless-buffer reserved <int:0-100000000>",
	"qos advance-buffer-config <name> egress-lossy-buffer traffic-class <key:0-7> shared-alpha <alpha>",
	"qos advance-buffer-config <name> egress-lossy-buffer traffic-class <key:0-7> reserved <int:0-100000000>",
	"qos advance-buffer-config <name> ingress-lossy-buffer priority-group <name> headroom <int:0-100000000>",
	"qos advance-buffer-config <name> ingress-service-pool <key:0-7> memory-percent <int:0-100>",
	// Egress service pools: `egress-pool` to 5.10, `egress-service-pool`
	// from 5.11 (Cumulus Linux 5.9 User Guide, Quality of Service,
	// "Advanced Buffer Tuning"; 5.11 What's New, "Changed NVUE Commands").
	"qos advance-buffer-config <name> egress-pool|egress-service-pool <key:0-7> infinite {true|false}",
	"qos advance-buffer-config <name> egress-pool|egress-service-pool <key:0-7> memory-percent <int:0-100>",
	"qos roce mode {lossless|lossy|lossless-single-ipool}",
	"qos roce enable {on|off}",
	"qos roce state {enabled|disabled}",
	"qos roce cable-length <int:1-100000>",
	"system hostname <str>",
	// Auto save: `enable on|off` (NVUE Command Reference, `nv set system
	// config auto-save enable`, Cumulus Linux 5.0-5.12) and `state
	// enabled|disabled` (from 5.13, Cumulus Linux user guide, NVUE CLI,
	// "Auto Save"). The simulator takes both in every release.
	"system config auto-save enable {on|off}",
	"system config auto-save state {enabled|disabled}",
	// The NVUE pager, from 5.9.0: `state enabled|disabled` (default
	// disabled) and `pager more|less|vim` (default less) (NVUE Command
	// Reference, Set and Unset Commands, System Configuration, "nv set
	// system cli pagination state" and "... pager").
	"system cli pagination state {enabled|disabled}",
	"system cli pagination pager {more|less|vim}",
}

// node is one level of the object model.
type node struct {
	kw map[string]*node // keyword children
	// key: a collection whose keys are names or numbers.
	key     *node
	keyKind string // "if", "name", "num"
	lo, hi  int
	// terminal keys (<set>) may end a path: `switch-priority 3` sets {}.
	terminal bool
	// value validates a leaf value; nil for inner nodes.
	value func(string) (any, error)
}

// egressPools is the egress service pools' keyword in the templates:
// `egress-pool`, then `egress-service-pool` (egressServicePool);
// schemaFor puts one release's keyword in its place.
const egressPools = "egress-pool|egress-service-pool"

// schemaFor is the object model of a release: the egress pools'
// keyword of egressServicePool, and only the templates whose objects
// or keywords the release has (templateChange, templateRetired), all by
// the one table of release cut-offs (releases). Releases with the same changes share one
// schema, built once: nothing changes a node after buildSchema.
func schemaFor(version string) *node {
	rc := changesOf(version)
	if s, ok := schemas.Load(rc); ok {
		return s.(*node)
	}
	s, _ := schemas.LoadOrStore(rc, buildRelease(rc))
	return s.(*node)
}

// schemas holds the schema of each releaseChanges built so far.
var schemas sync.Map

// buildRelease builds the schema of releases with changes rc.
func buildRelease(rc releaseChanges) *node {
	pool := "egress-pool"
	if rc[egressServicePool] {
		pool = "egress-service-pool"
	}
	var ts []string
	for _, t := range templates {
		if c, ok := templateChange(t); ok && !rc[c] {
			continue
		}
		if c, ok := templateRetired(t); ok && rc[c] {
			continue
		}
		ts = append(ts, strings.ReplaceAll(t, egressPools, pool))
	}
	return buildSchema(ts)
}

func buildSchema(ts []string) *node {
	root := &node{kw: map[string]*node{}}
	for _, t := range ts {
		add(root, strings.Fields(t))
	}
	return root
}

var rangeTok = regexp.MustCompile(`^<(set|key|int):(\d+)-(\d+)>$`)

func add(n *node, toks []string) {
	tok := toks[0]
	if len(toks) == 1 {
		n.value = valueFunc(tok)
		return
	}
	switch {
	case tok == "<if>" || tok == "<name>":
		if n.key == nil {
			n.key = &node{kw: map[string]*node{}}
		}
		n.keyKind = strings.Trim(tok, "<>")
		add(n.key, toks[1:])
	case rangeTok.MatchString(tok):
		m := rangeTok.FindStringSubmatch(tok)
		if n.key == nil {
			n.key = &node{kw: map[string]*node{}}
		}
		n.keyKind, n.lo, n.hi = "num", atoi(m[2]), atoi(m[3])
		if len(toks) == 1 {
			n.terminal = true
			return
		}
		add(n.key, toks[1:])
	default:
		for _, alt := range strings.Split(tok, "|") {
			c, ok := n.kw[alt]
			if !ok {
				c = &node{kw: map[string]*node{}}
				n.kw[alt] = c
			}
			if m := rangeTok.FindStringSubmatch(toks[1]); m != nil && m[1] == "set" && len(toks) == 2 {
				c.keyKind, c.lo, c.hi, c.terminal = "num", atoi(m[2]), atoi(m[3]), true
				c.key = &node{kw: map[string]*node{}}
				continue
			}
			if toks[1] == "<ifset>" && len(toks) == 2 {
				// A set of interfaces: `bond member swp1-2` sets
				// {swp1: {}, swp2: {}}.
				c.keyKind, c.terminal = "if", true
				c.key = &node{kw: map[string]*node{}}
				continue
			}
			if toks[1] == "<nameset>" && len(toks) == 2 {
				// A name that is a key ending the path: `mlag backup
				// 10.10.10.2` sets {10.10.10.2: {}}.
				c.keyKind, c.terminal = "name", true
				c.key = &node{kw: map[string]*node{}}
				continue
			}
			add(c, toks[1:])
		}
	}
}

func valueFunc(tok string) func(string) (any, error) {
	switch {
	case tok == "<name>":
		return func(v string) (any, error) {
			if !nameRe.MatchString(v) {
				return nil, fmt.Errorf("'%s' is not a valid name", v)
			}
			return v, nil
		}
	case tok == "<str>":
		return func(v string) (any, error) { return v, nil }
	case tok == "<alpha>":
		return enum("alpha_0|alpha_1_128|alpha_1_64|alpha_1_32|alpha_1_16|alpha_1_8|alpha_1_4|alpha_1_2|alpha_1|alpha_2|alpha_4|alpha_8|alpha_16|alpha_32|alpha_64|alpha_infinity")
	case tok == "<untagged>":
		return func(v string) (any, error) {
			if v == "none" {
				return v, nil
			}
			return cli.Int(v, 1, 4094)
		}
	case strings.HasPrefix(tok, "{"):
		return enum(strings.Trim(tok, "{}"))
	}
	m := rangeTok.FindStringSubmatch(tok)
	if m == nil {
		panic("cumulus: bad template token " + tok)
	}
	lo, hi := atoi(m[2]), atoi(m[3])
	return func(v string) (any, error) { return cli.Int(v, lo, hi) }
}

func enum(alts string) func(string) (any, error) {
	ok := map[string]bool{}
	for _, a := range strings.Split(alts, "|") {
		ok[a] = true
	}
	return func(v string) (any, error) {
		if !ok[v] {
			return nil, fmt.Errorf("'%s' is not one of [%s]", v, strings.ReplaceAll(alts, "|", ", "))
		}
		return v, nil
	}
}

// keys expands one key token: "swp1-4,swp6", "0,3", "24-31", a name.
func (n *node) keys(tok string) ([]string, error) {
	switch n.keyKind {
	case "num":
		v, err := cli.Ints(tok, n.lo, n.hi)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(v))
		for i, x := range v {
			out[i] = strconv.Itoa(x)
		}
		return out, nil
	case "if":
		return ifList(tok)
	}
	if !nameRe.MatchString(tok) {
		return nil, fmt.Errorf("'%s' is not a valid name", tok)
	}
	return []string{tok}, nil
}

var (
	nameRe = regexp.MustCompile(`^[\w.\-]{1,64}$`)
	ifRe   = regexp.MustCompile(`^([a-z_]+[a-z])(\d+)(?:-(\d+))?$`)
	// namedIfRe is an interface name that is no numbered range: a bond
	// named as NVIDIA's MLAG guide names the peer link ("peerlink"), or
	// with a word after its digits ("hostbond_3" in NVUE's own `nv show
	// interface <id> bond mlag` example); Linux's 15 characters at most.
	namedIfRe = regexp.MustCompile(`^[a-z][a-z0-9_]{0,14}$`)
)

// ifList expands "swp1-4,swp6" into interface names. A part of digits
// only takes the name of the part before it ("swp1-4,6"): the key form
// `nv config show` prints for interfaces that share a setting (NVUE
// Command Reference, `nv config show` example, CL 5.7.0), which its `-o
// commands` form repeats and an operator pastes back.
func ifList(tok string) ([]string, error) {
	var out []string
	prefix := ""
	for _, part := range strings.Split(tok, ",") {
		if prefix != "" && part != "" && part[0] >= '0' && part[0] <= '9' {
			part = prefix + part
		}
		m := ifRe.FindStringSubmatch(part)
		if m == nil && namedIfRe.MatchString(part) {
			out = append(out, part) // a bond's own name: peerlink, hostbond_3
			prefix = ""
			continue
		}
		if m == nil {
			return nil, fmt.Errorf("'%s' is not a valid interface name", part)
		}
		prefix = m[1]
		lo, hi := atoi(m[2]), atoi(m[2])
		if m[3] != "" {
			hi = atoi(m[3])
		}
		if hi < lo {
			return nil, fmt.Errorf("'%s' is not a valid interface range", part)
		}
		for i := lo; i <= hi; i++ {
			out = append(out, fmt.Sprintf("%s%d", m[1], i))
		}
	}
	return out, nil
}

func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}
