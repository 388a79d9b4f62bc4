package eos

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// portName is the EOS front-panel port form: "Ethernet1", "Ethernet1/1".
var portName = regexp.MustCompile(`^Ethernet[0-9]+(/[0-9]+)*$`)

// eosMaxMTU is the largest "mtu" value seen accepted by EOS (Arista AVD
// eos_cli_config_gen examples; unverified on a switch), so larger values
// get a warning comment.
const eosMaxMTU = 9214

// writeInterface writes one "interface EthernetN" block. Sub-commands are
// in the order EOS prints them (AVD ethernet-interfaces.j2): description,
// shutdown, mtu, flowcontrol, speed, switchport lines, trust, PFC, then the
// tx-queue sub-blocks (txQueues, rendered once by writeTxQueues).
//
// A push merges these lines into the running configuration (a configure
// session, not a replace), so every setting the block owns is written in
// both states: a line that only appears when a setting is on would leave
// an earlier fabric's value on the port once the fabric stops asking for
// it. That is how Arista AVD's eos_designs renders the interfaces it
// manages: ethernet-interfaces.j2 writes `no shutdown` for shutdown false,
// `flowcontrol receive off`, `switchport mode access`, `switchport` or
// `no switchport`, `no priority-flow-control` and `priority-flow-control
// priority N drop`. A removed description is cleared with `no
// description` (Arista EOS User Manual, Ethernet Ports, "description":
// the no and default forms remove the description).
func writeInterface(w *writer, p *model.Port, txQueues *targets.Text) error {
	if !portName.MatchString(p.Name) {
		return fmt.Errorf("EOS front-panel ports are named EthernetN or EthernetN/M; rename the port")
	}
	if p.Description != "" {
		if err := quote.CheckCLIText(p.Description); err != nil {
			return fmt.Errorf("description %q %w; change it", p.Description, err)
		}
	}
	speed, err := speedToken(p.SpeedMbps, p.Lanes)
	if err != nil {
		return err
	}
	if p.LinkPause && len(p.PFCPriorities) > 0 {
		return fmt.Errorf("link pause (802.3x) and PFC are both on; they are mutually exclusive, turn one off")
	}
	w.sep()
	w.port(p)
	w.line(0, "interface %s", p.Name)
	w.port(p, "description")
	if p.Description != "" {
		w.line(1, "description %s", quote.CLIText(p.Description))
	} else {
		w.line(1, "no description")
	}
	w.port(p)
	if p.Shutdown {
		w.line(1, "shutdown")
	} else {
		w.line(1, "no shutdown")
	}
	if p.MTU > 0 {
		w.port(p, "mtu")
		w.line(1, "mtu %d", p.MTU)
		if p.MTU > eosMaxMTU {
			w.comment(1, "mtu %d is above %d, the largest EOS L3 MTU seen in vendor examples (Arista AVD, unverified); EOS may reject it", p.MTU, eosMaxMTU)
		}
	}
	// 802.3x pause, on or off in both directions (AVD schema
	// ethernet_interfaces[].flowcontrol.received: on, off or desired); off
	// is written too, so link pause an earlier fabric turned on does not
	// stay on beside PFC, with which it is mutually exclusive.
	w.port(p, "pfc")
	pause := "off"
	if p.LinkPause {
		pause = "on"
	}
	w.line(1, "flowcontrol receive %s", pause)
	w.line(1, "flowcontrol send %s", pause)
	if speed != "" {
		w.port(p, "speed")
		w.line(1, "speed %s", speed)
	}
	if err := writeSwitchport(w, p); err != nil {
		return err
	}
	w.port(p, "trust")
	if err := writeTrust(w, p.Trust); err != nil {
		return err
	}
	if err := writePFC(w, p); err != nil {
		return err
	}
	w.port(p)
	w.Append(txQueues)
	return nil
}

// writeSwitchport writes the L2 mode lines. EOS prints "switchport access
// vlan" and the trunk VLAN lines before "switchport mode" (AVD
// ethernet-interfaces.j2, intended qos.cfg). Access is the EOS default
// mode, which `show running-config` does not print; it is written all the
// same, as AVD does, since a port an earlier fabric made a trunk stays one
// until told otherwise. An L2 port also gets `switchport` (AVD
// switchport.enabled: true), which undoes an earlier `no switchport`. A
// trunk without a native VLAN gets `no switchport trunk native vlan`, the
// line Arista's pyeapi sends to clear one (api/switchports.py,
// set_trunk_native_vlan).
func writeSwitchport(w *writer, p *model.Port) error {
	switch p.Mode {
	case model.ModeAccess:
		if p.AccessVLAN != 0 {
			w.port(p, "vlans")
			w.Also("vlan", strconv.Itoa(p.AccessVLAN))
			w.line(1, "switchport access vlan %d", p.AccessVLAN)
		}
		w.port(p, "mode")
		w.line(1, "switchport mode access")
		w.line(1, "switchport")
	case model.ModeTrunk:
		w.port(p, "native_vlan")
		if p.NativeVLAN != 0 {
			w.Also("vlan", strconv.Itoa(p.NativeVLAN))
			w.line(1, "switchport trunk native vlan %d", p.NativeVLAN)
		} else {
			w.line(1, "no switchport trunk native vlan")
		}
		w.port(p, "vlans")
		if w.Mapped() {
			for _, id := range p.TrunkVLANs {
				w.Also("vlan", strconv.Itoa(id))
			}
		}
		w.line(1, "switchport trunk allowed vlan %s", vlanList(p.TrunkVLANs))
		w.port(p, "mode")
		w.line(1, "switchport mode trunk")
		w.line(1, "switchport")
	case model.ModeRouted:
		w.port(p, "mode")
		w.line(1, "no switchport")
	default:
		return fmt.Errorf("port mode %q is not access, trunk or routed", p.Mode)
	}
	return nil
}

// writeTrust writes the per-port classification trust ("qos trust dscp" or
// "qos trust cos"; AVD schema ethernet_interfaces[].qos.trust: dscp, cos
// or disabled).
func writeTrust(w *writer, t model.Trust) error {
	switch t {
	case model.TrustDSCP:
		w.line(1, "qos trust dscp")
	case model.TrustPCP:
		w.line(1, "qos trust cos")
	case model.TrustBoth:
		// EOS trust takes one of dscp | cos | (no qos trust); there is no
		// combined mode as on Onyx and NVUE (Arista EOS User Manual,
		// Quality of Service, "Port Settings - Trust Mode and Traffic
		// Class"). The compiler refuses it; a model from elsewhere is
		// refused here, since DSCP trust would leave RoCE v1 lossy.
		return fmt.Errorf("trust mode both: EOS has no combined trust mode; set dscp (RoCE v2) or pcp (RoCE v1)")
	case "":
		return fmt.Errorf("trust mode is empty; set dscp or pcp")
	default:
		return fmt.Errorf("trust mode %q is not dscp, pcp or both", t)
	}
	return nil
}

// writePFC writes the per-port PFC lines: PFC on or `no
// priority-flow-control`, every priority as no-drop (lossless) or drop,
// and the per-port watchdog on or off (AVD ethernet-interfaces.j2:
// priority_flow_control.enabled and priorities[].no_drop, each written in
// both states). Every priority is written, so a priority an earlier
// fabric made lossless does not stay so. `no priority-flow-control pause
// watchdog` follows EOS's rule that `no` removes a command; no public
// sample of it was found (README, "EOS lines and their public sources").
func writePFC(w *writer, p *model.Port) error {
	w.port(p, "pfc")
	if len(p.PFCPriorities) > 0 {
		w.line(1, "priority-flow-control on")
	} else {
		w.line(1, "no priority-flow-control")
	}
	var noDrop [8]bool
	for _, prio := range p.PFCPriorities {
		if prio < 0 || prio >= len(noDrop) {
			return fmt.Errorf("PFC priority %d; 802.1p priorities are 0-7", prio)
		}
		noDrop[prio] = true
	}
	for prio, nd := range noDrop {
		if nd {
			w.line(1, "priority-flow-control priority %d no-drop", prio)
		} else {
			w.line(1, "priority-flow-control priority %d drop", prio)
		}
	}
	if WatchdogArmed(p) {
		w.line(1, "priority-flow-control pause watchdog")
	} else {
		w.line(1, "no priority-flow-control pause watchdog")
	}
	writeDCBX(w, p)
	return nil
}

// writeDCBX advertises the port's PFC by DCBX IEEE where the peer NIC
// takes its PFC from the switch (model.Port.DCBX: a QLogic NIC in
// Dynamic DCBX mode): "DCBX is off by default" on EOS (Arista EOS User
// Manual, DCBX and Flow Control), and Mellanox's own Arista example
// writes `dcbx mode ieee` before `priority-flow-control mode on`
// (Mellanox WinOF-2 User Manual 1.21, §3.1.3.4, "Arista Switch"). EOS
// needs LLDP on the port for DCBX, which it runs by default. Other ports
// get `no dcbx mode`, EOS's default, so an advertisement an earlier
// fabric or an operator left does not reach a NIC that keeps its own
// settings.
func writeDCBX(w *writer, p *model.Port) {
	if p.DCBX {
		w.line(1, "dcbx mode ieee")
	} else {
		w.line(1, "no dcbx mode")
	}
}

// speedToken returns the EOS "speed" argument for a forced speed of mbps
// over lanes electrical lanes (the compiler's model.Port.Lanes, from the
// cage's lane rate; 0 when unknown, taken as the usual count). EOS's help
// text gives each lane form: "100g-1", "100g-2", "100g-4", "Disable
// autoneg and force 100 Gbps/full duplex operation over 1 | 2 | 4
// lanes", and "forced 100gfull" and "forced 50gfull" as the 4- and 2-lane
// modes (Arista AVD issue #5632 and pull request #5692 quote it from EOS
// 4.33.0F and 4.34.2.1F, which both keep the "forced NNfull" forms while
// the bare "100g" went in 4.34). So 100G and 50G on a cage of 50G lanes
// (the 7280CR3's QSFP-DD and OSFP ports) are "100g-2" and "50g-1": a
// forced 4- or 2-lane mode does not come up against a PAM4 peer (AVD
// issue #6884). 200G and faster have only the lane forms. Zero means
// auto-negotiation: no line.
func speedToken(mbps, lanes int) (string, error) {
	switch {
	case mbps == 0:
		return "", nil
	case mbps == 50000 && lanes == 1, mbps == 100000 && (lanes == 1 || lanes == 2),
		mbps == 200000 && lanes == 2, mbps == 400000 && lanes == 4:
		return fmt.Sprintf("%dg-%d", mbps/1000, lanes), nil
	}
	switch mbps {
	case 1000:
		return "forced 1000full", nil
	case 10000:
		return "forced 10000full", nil
	case 25000:
		return "forced 25gfull", nil
	case 40000:
		return "forced 40gfull", nil
	case 50000:
		return "forced 50gfull", nil
	case 100000:
		return "forced 100gfull", nil
	case 200000:
		return "200g-4", nil
	case 400000:
		return "400g-8", nil
	case 800000:
		return "800g-8", nil
	}
	return "", fmt.Errorf("speed %d Mb/s has no EOS speed token; use 1000, 10000, 25000, 40000, 50000, 100000, 200000, 400000 or 800000", mbps)
}

// SpeedLanes is the number of lanes port p runs with the speed line
// targets/eos writes for it ("forced 100gfull" 4, "100g-2" 2), 0 for
// auto-negotiation or a speed EOS has no token for. Verification
// compares it with the running configuration's (TokenLanes).
func SpeedLanes(p *model.Port) int {
	tok, err := speedToken(p.SpeedMbps, p.Lanes)
	if err != nil {
		return 0
	}
	return TokenLanes(tok)
}

// tokenLanes are the lanes of the EOS speed tokens without a lane
// suffix, from EOS's help text (Arista AVD issue #5632): "100g" is "over 4
// or 10 lanes", taken as 4.
var tokenLanes = map[string]int{"1000full": 1, "1g": 1, "10000full": 1, "10g": 1, "25gfull": 1, "25g": 1,
	"40gfull": 4, "40g": 4, "50gfull": 2, "100gfull": 4, "100g": 4}

// TokenLanes is the lane count of an EOS speed argument as
// `show running-config` prints it ("forced 100gfull", "100g-2", "auto
// 100gfull"), 0 for auto-negotiation or a token it does not know.
func TokenLanes(arg string) int {
	f := strings.Fields(strings.ToLower(arg))
	if len(f) == 0 || f[0] == "auto" {
		return 0
	}
	tok := f[len(f)-1]
	if _, n, ok := strings.Cut(tok, "-"); ok {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			return 0
		}
		return v
	}
	return tokenLanes[tok]
}

// vlanList formats ascending VLAN ids the way EOS prints an allowed-VLAN
// list: consecutive ids collapsed into ranges, comma separated
// ("110-111,210-211" in AVD intended qos.cfg). An empty list is "none".
func vlanList(ids []int) string {
	if len(ids) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ids[i]))
		} else {
			parts = append(parts, strconv.Itoa(ids[i])+"-"+strconv.Itoa(ids[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
