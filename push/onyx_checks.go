package push

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
)

// What Stage refuses on an Onyx switch before anything is sent, besides
// the traffic pools (onyx_pools.go) and RoCE mode: switch state the
// fabric's lines cannot configure or repair (review ronyx).

// onyxMemberRe is a port's LAG or MLAG membership in a running config
// (mellanox.onyx onyx_linkagg.py: `interface ethernet X channel-group N
// mode M`, `... mlag-channel-group N mode M`).
var onyxMemberRe = regexp.MustCompile(`^interface ethernet (\S+) (channel-group|mlag-channel-group) (\d+) mode \S+$`)

// onyxPortRe is a line of one port's settings.
var onyxPortRe = regexp.MustCompile(onyxPort)

// onyxPortsOf is the set of ports lines configure (onyxLines).
func onyxPortsOf(lines []string) map[string]bool {
	ports := map[string]bool{}
	for _, l := range lines {
		if m := onyxPortRe.FindStringSubmatch(l); m != nil {
			ports[m[1]] = true
		}
	}
	return ports
}

// onyxLAGMembers refuses a push that configures a port the running
// configuration shows as a LAG or MLAG member (review ronyx #5): the
// member takes its switchport mode (`no switchport force` for a routed
// port) and VLANs from its port-channel, which fabricc does not manage
// (README, Scope), and fabricc writes the mode on every fabric port,
// so its per-port lines would be refused half-way or fight the bundle.
// Real Onyx configurations put the switchport lines
// on the port-channel alone and keep a member's own MTU and PFC lines:
// the mellanox.onyx collection's fixture of a switch's running
// configuration (tests/unit/modules/fixtures/onyx_config_config.cfg)
// has `interface mlag-port-channel 2 switchport mode hybrid` and
// `switchport access vlan 101` on the bundle, and `interface ethernet
// 1/7-1/8 dcb priority-flow-control mode on force` on the members of
// port-channel 1; HPE's Cray System Management documentation, Mellanox
// NCN port configuration, shows `show run int ethernet 1/1` of an MLAG
// member with `interface ethernet 1/1 mtu 9216 force`. So the member's
// MTU and PFC are no reason to refuse, and the refusal does not name
// them. ours are the fabric's ports (onyxPortsOf), running the switch's
// lines (onyxLines).
//
// A member of an mlag-port-channel (a dual-homed host's bundle) or of the
// port-channel that is the MLAG IPL (`interface port-channel N ipl 1`,
// NVIDIA Onyx User Manual, MLAG) gets no removal command: taking it out
// is an outage (mlagRefusal).
func onyxLAGMembers(ours map[string]bool, running []string) error {
	ipl := map[string]bool{}
	for _, l := range running {
		if m := onyxIPLRe.FindStringSubmatch(l); m != nil {
			ipl[m[1]] = true
		}
	}
	var plain, mlag []string
	for _, l := range running {
		m := onyxMemberRe.FindStringSubmatch(l)
		if m == nil || !ours[m[1]] {
			continue
		}
		port := quote.Visible(m[1])
		switch {
		case m[2] == "mlag-channel-group":
			mlag = append(mlag, fmt.Sprintf("%s is a member of mlag-port-channel %s", port, m[3]))
		case ipl[m[3]]:
			mlag = append(mlag, fmt.Sprintf("%s is a member of port-channel %s, the MLAG IPL (peer link)", port, m[3]))
		default:
			plain = append(plain, fmt.Sprintf("%s is a member of port-channel %s (`interface ethernet %s no %s` takes it out)", port, m[3], port, m[2]))
		}
	}
	return lagRefusal(plain, "fabric ports are LAG members on the switch: %s; a member takes its switchport mode and VLANs from its port-channel, "+
		"which fabricc does not manage, so fabricc cannot configure the port: take it out of the bundle or leave the port out of the fabric", mlag)
}

// onyxIPLRe is a port-channel made the MLAG inter-peer link (NVIDIA Onyx
// User Manual, MLAG: `interface port-channel 1 ipl 1`; the running
// configuration of an Onyx 3.9.3210 MLAG pair prints `interface
// port-channel 100 ipl 1`).
var onyxIPLRe = regexp.MustCompile(`^interface port-channel (\d+) ipl \d+$`)

// onyxDSCPMapRe is a port's `qos map dscp LIST to switch-priority SP`.
var onyxDSCPMapRe = regexp.MustCompile(onyxPort + `qos map dscp ([\d ]+) to switch-priority (\d)$`)

// onyxStrayDSCPMaps refuses a push onto fabric ports whose running
// configuration maps a DSCP to another switch priority than the fabric
// (review ronyx #2): fabricc writes no DSCP map (targets/onyx, Onyx's
// default map, DSCP 8n..8n+7 to switch priority n), so push sends
// nothing for such a line while verify, which reads the same map,
// reports the port's classes wrong, and every push would fail its
// verification. The refusal names each line and its removal: the `no`
// form of an Onyx QoS command resets the value to its default (NVIDIA
// Onyx User Manual 3.10, "QoS Commands"). want and running are lines
// (onyxLines), ours the fabric's ports (onyxPortsOf).
func onyxStrayDSCPMaps(want, running []string, ours map[string]bool) error {
	h := readOnyx(want)
	var found []string
	for _, l := range running {
		m := onyxDSCPMapRe.FindStringSubmatch(l)
		if m == nil || !ours[m[1]] {
			continue
		}
		var stray []int
		dscps := expandInts(m[2])
		for i, s := range onyxDSCPSettings(m) {
			if h.value(s) != s.value {
				stray = append(stray, dscps[i])
			}
		}
		if len(stray) > 0 {
			port := quote.Visible(m[1])
			found = append(found, fmt.Sprintf("`interface ethernet %s qos map dscp %s to switch-priority %s` (remove it with `interface ethernet %s no qos map dscp %s`)",
				port, joinInts(expandInts(m[2])), m[3], port, joinInts(stray)))
		}
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("the switch maps DSCP values on fabric ports where the fabric keeps Onyx's default map (DSCP 8n..8n+7 to switch priority n): %s; "+
		"verify reads these maps, but push writes none and cannot change them; remove them on the switch (configuration mode) and push again; nothing was changed",
		strings.Join(found, "; "))
}

// onyxRewriteRe is a port's `qos rewrite dscp|pcp` (NVIDIA Onyx User
// Manual, QoS, "Rewrite").
var onyxRewriteRe = regexp.MustCompile(onyxPort + `qos rewrite (dscp|pcp)$`)

// onyxStrayRewrites refuses a push onto fabric ports whose running
// configuration remarks egress packets (`qos rewrite dscp` or `pcp`),
// as onyxStrayDSCPMaps refuses a hand-made DSCP map: fabricc writes no
// rewrite (Onyx's default is off), so push sends nothing for such a line
// while verify reports it, and the push would fail its verification and
// roll back. The refusal names each line and its removal (the `no` form,
// NVIDIA Onyx User Manual 3.10, "QoS Commands"). running are the
// switch's lines (onyxLines), ours the fabric's ports (onyxPortsOf).
func onyxStrayRewrites(running []string, ours map[string]bool) error {
	var found []string
	for _, l := range running {
		if m := onyxRewriteRe.FindStringSubmatch(l); m != nil && ours[m[1]] {
			port := quote.Visible(m[1])
			found = append(found, fmt.Sprintf("`interface ethernet %s qos rewrite %s` (remove it with `interface ethernet %s no qos rewrite %s`)", port, m[2], port, m[2]))
		}
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("the switch rewrites the DSCP or PCP of packets leaving fabric ports, which the fabric leaves off: %s; "+
		"verify reads these lines, but push writes none and cannot change them; remove them on the switch (configuration mode) and push again; nothing was changed",
		strings.Join(found, "; "))
}

// onyxAdvancedLine turns Onyx's advanced buffer mode on.
const onyxAdvancedLine = verify.OnyxAdvancedLine

// onyxBufferMode refuses a push whose buffer style is not the switch's
// (review ronyx #3): NVIDIA Onyx User Manual 3.10.4100, "Shared
// Buffers", presents the traffic pools and the advanced buffer
// configuration as two alternative ways to program the one shared
// buffer. The fabric's style follows its os_version (before 3.6.5000
// advanced, later traffic pools), and push never turns the other mode
// off, so a wrong os_version would switch a running RoCE fabric's buffer
// mode unannounced, and a corrected one would leave it so. want and
// running are lines (onyxLines), wantPools and hasPools their traffic
// pools.
func onyxBufferMode(want, running []string, wantPools, hasPools bool) error {
	wantAdvanced, isAdvanced := slices.Contains(want, onyxAdvancedLine), slices.Contains(running, onyxAdvancedLine)
	switch {
	case wantPools && isAdvanced:
		return errors.New("the switch is in advanced buffer mode (`advanced buffer management force` in its running configuration), " +
			"but the fabric configures traffic pools, the buffer style its os_version implies (3.6.5000 and later); check os_version against `show version`: " +
			"if the switch runs an older release, correct os_version; otherwise leave advanced mode on the switch (`no advanced buffer management force` " +
			"and `no pool NAME`, configuration mode; it reprograms the shared buffer) and push again; nothing was changed")
	case wantAdvanced && !isAdvanced && hasPools:
		return errors.New("the switch programs its buffer with traffic pools, but the fabric configures advanced buffer mode, the buffer style its os_version " +
			"implies (before 3.6.5000), which would replace the pools; check os_version against `show version` and correct it, and push again; nothing was changed")
	}
	return nil
}

// onyxHeaderVersionRe is the OS version in the header of a rendered Onyx
// file (targets/onyx: "## platform onyx, OS version 3.10.4206, hardware
// SN2700").
var onyxHeaderVersionRe = regexp.MustCompile(`(?m)^## platform onyx, OS version (\d+(?:\.\d+)*), `)

// onyxReleaseRe is `show version`'s release line (mellanox.onyx fixture
// onyx_command_show_version.txt: "Product release:   3.6.5000").
var onyxReleaseRe = regexp.MustCompile(`(?m)^Product release:\s+(\d+(?:\.\d+)*)\s*$`)

// onyxRelease refuses a push whose file was built for a release on the
// other side of the buffer-style boundary from the one the switch runs
// (review ronyx #3): the file's buffer lines would be the wrong style.
// A file without the header, or a switch whose `show version` gives no
// release, is not checked.
func onyxRelease(c Conn, config []byte) error {
	m := onyxHeaderVersionRe.FindSubmatch(config)
	if m == nil {
		return nil
	}
	declared := string(m[1])
	out, err := c.Send("show version")
	if refused(err) {
		return nil
	}
	if err != nil {
		return err
	}
	r := onyxReleaseRe.FindStringSubmatch(out)
	if r == nil {
		return nil
	}
	running := r[1]
	if (model.CompareVersions(declared, model.OnyxTrafficPoolRelease) < 0) == (model.CompareVersions(running, model.OnyxTrafficPoolRelease) < 0) {
		return nil
	}
	return fmt.Errorf("the switch runs release %s (show version) but the fabric declares os_version %s, on the other side of %s, "+
		"where Onyx's buffer style changes (advanced buffers before, traffic pools from it on): correct os_version, build again and push; nothing was changed",
		running, declared, model.OnyxTrafficPoolRelease)
}

// onyxModelRead is the chassis model Onyx prints: the CHASSIS row of
// `show inventory` (its part number, such as MSN2700-CS2F: an "M", the
// model and a suffix for airflow and power supplies). The layout, a
// table of Module, Part Number and Serial Number under dashed rules, is
// the example of `show inventory` in NVIDIA's MLNX-GW User Manual,
// "Chassis Management Commands" (the same MLNX-OS CLI; its one row there
// is SYSTEM). `show version`'s "Product model" is only "x86onie" (the
// mellanox.onyx fixture onyx_facts_show_version.cfg), not the model.
var onyxModelRead = hwModel{Command: "show inventory", Parse: onyxChassisModel}

// onyxChassisModel is the CHASSIS row's first field that names a model
// of the catalogue (catalogModel), else its part number (the field after
// the module's name); "" without the row.
func onyxChassisModel(out string) string {
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || !strings.EqualFold(f[0], "CHASSIS") {
			continue
		}
		for _, field := range f[1:] {
			if catalogModel(field) != "" {
				return field
			}
		}
		return f[1]
	}
	return ""
}
