package compiler

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/fabricc/fabricc/model"
)

func TestWatchdogHeadroomAndNICOverrides(t *testing.T) {
	f, src, diags := lowerSrc(t, `
fabric "lab" {
  description = "policy test"
}
qos {
  profile   = "nvidia-roce"
  cnp_class = "cnp"
  headroom {
    lossless_mtu         = 4096
    small_packet_percent = 20
  }
  pfc_watchdog {
    enabled    = false
    action     = "no-drop"
    polling_ms = 50
  }
}
switch "a" {
  platform = "onyx"
  model    = "SN2410"
}
switch "b" {
  platform   = "onyx"
  model      = "SN2410"
  os_version = "3.6.8190"
  pfc_watchdog {
    enabled   = true
    restore_ms = 1000
  }
}
host "h" {
  os = "linux"
  nic "n" {
    model          = "ConnectX-5"
    interface      = "ens1f0"
    speed          = "100G"
    mtu            = 4200
    dscp           = 24
    cnp_priority   = 7
    cnp_dscp       = 56
    pfc_priorities = [4, 3, 4]
    trust          = "pcp"
    class          = "roce"
  }
}
`)
	// Switch b runs its watchdog on Onyx, whose pfc-wd takes none of the
	// written settings (the qos block's action and polling_ms, its own
	// restore_ms); switch a's watchdog is off.
	ignored := "PFC watchdog setting the switch ignores: pfc_watchdog %s is written, but onyx switches cannot honour it: Onyx's pfc-wd command takes no action, timeout or interval and uses its own. Their watchdog runs without it; remove the setting, or set it in the pfc_watchdog block of the switches that honour it."
	// Host h's NIC has a speed but no link, in a fabric with switches.
	notCabled := `33:3: NIC not cabled: no link block cables nic "n" of host "h", so its speed, MTU, VLAN tagging and PFC are checked against no switch port, though its host script configures it. Add a link block with a = "SWITCH:PORT" and b = "h:n", or acknowledge this warning if the NIC is cabled to a device the fabric does not describe.`
	if want := []string{"14:18: " + fmt.Sprintf(ignored, "action"), "12:3: " + fmt.Sprintf(ignored, "polling_ms"), "26:3: " + fmt.Sprintf(ignored, "restore_ms"), notCabled}; !reflect.DeepEqual(diags, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(diags), joinLines(want))
	}
	if f.Name != "lab" || f.Description != "policy test" {
		t.Errorf("fabric = %q %q", f.Name, f.Description)
	}
	if f.QoS.Headroom != (model.HeadroomPolicy{LosslessMTUBytes: 4096, SmallPacketPercent: 20}) {
		t.Errorf("headroom = %+v", f.QoS.Headroom)
	}
	if f.Switches[0].PFCWatchdog != (model.PFCWatchdog{}) || f.Switches[0].OSVersion != "3.9.3202" {
		t.Errorf("switch a: watchdog %+v os %q", f.Switches[0].PFCWatchdog, f.Switches[0].OSVersion)
	}
	want := model.PFCWatchdog{Enabled: true, Action: "no-drop", TimeoutMs: 200, PollingIntervalMs: 50, RestoreMs: 1000}
	if f.Switches[1].PFCWatchdog != want || f.Switches[1].OSVersion != "3.6.8190" {
		t.Errorf("switch b: watchdog %+v, want %+v; os %q", f.Switches[1].PFCWatchdog, want, f.Switches[1].OSVersion)
	}
	r := f.Hosts[0].NICs[0].RoCE
	if r.Priority != 3 || r.DSCP != 24 || r.TOS != 98 || r.CNPPriority != 7 || r.CNPDSCP != 56 ||
		!reflect.DeepEqual(r.PFCPriorities, []int{3, 4}) || r.Trust != model.TrustPCP || f.Hosts[0].NICs[0].MTU != 4200 {
		t.Errorf("roce = %+v", r)
	}
	if at := src.At("qos", "class", "roce", "priority"); at == nil || at.Start.Line != 6 {
		t.Errorf("profile class source = %v, want the profile attribute (line 6)", at)
	}
}

func TestPolicyErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"watchdog", edit("qos {\n  pfc_watchdog {\n    action     = \"pause\"\n    timeout_ms = 0\n  }\n}\n"), []string{
			"34:18: Invalid PFC watchdog action: pfc_watchdog action \"pause\" is not known; write \"drop\" or \"no-drop\".",
			"33:3: Invalid PFC watchdog time: pfc_watchdog timeout_ms 0 is out of range; write milliseconds from 1 to 60000.",
		}},
		{"watchdog NVUE ignores", edit("qos {\n  pfc_watchdog {\n    action     = \"no-drop\"\n    restore_ms = 500\n  }\n}\n"), []string{
			"34:18: PFC watchdog setting the switch ignores: pfc_watchdog action is written, but cumulus switches cannot honour it: NVUE's watchdog always drops the stuck queue's packets. Their watchdog runs without it; remove the setting, or set it in the pfc_watchdog block of the switches that honour it.",
			"33:3: PFC watchdog setting the switch ignores: pfc_watchdog restore_ms is written, but cumulus switches cannot honour it: NVUE has no restore timer: it restores PFC after one polling interval without pause frames. Their watchdog runs without it; remove the setting, or set it in the pfc_watchdog block of the switches that honour it.",
		}},
		{"headroom", edit("qos {\n  headroom {\n    lossless_mtu         = 10\n    small_packet_percent = 101\n  }\n}\n"), []string{
			"33:3: Invalid lossless MTU: headroom lossless_mtu 10 is out of range; write the largest lossless frame in bytes, 64-9216.",
			"33:3: Invalid small packet percent: headroom small_packet_percent 101 is out of range; write a percentage from 0 to 100.",
		}},
		{"planning length", edit("qos {\n  headroom {\n    planning_length = 0\n  }\n}\n"), []string{
			"33:3: Invalid planning length: headroom planning_length 0 is out of range; write the cable length in metres the buffer pools are planned for, above 0 and at most 100000 (a switch's longest cable raises it anyway).",
		}},
		{"unknown cnp class", edit("qos {\n  cnp_class = \"cpn\"\n}\n"), []string{
			"33:15: Unknown CNP class: cnp_class \"cpn\" names no class; the classes are \"default\", \"roce\" or \"cnp\". Did you mean \"cnp\"?",
		}},
		{"nic values", edit("", "    vlan      = 100\n", "    vlan      = 100\n    roce_mode = \"v3\"\n    class     = \"rcoe\"\n    priority  = 8\n    trust     = \"l3\"\n    pfc_priorities = [9]\n"), []string{
			"23:17: Invalid RoCE mode: nic \"roce0\" of host \"gpu01\" has roce_mode \"v3\"; write \"v1\" or \"v2\".",
			"24:17: Unknown class: nic \"roce0\" of host \"gpu01\" rides class \"rcoe\", which the qos block does not declare; the classes are \"default\", \"roce\" or \"cnp\". Did you mean \"roce\"?",
			"25:17: Invalid priority: nic \"roce0\" of host \"gpu01\" has priority 8; write 0-7.",
			"27:22: Invalid priority: nic \"roce0\" of host \"gpu01\" lists PFC priority 9; 802.1p priorities are 0-7.",
			"26:17: Invalid trust: nic \"roce0\" of host \"gpu01\" has trust \"l3\"; write \"dscp\", \"pcp\" or \"both\".",
		}},
		{"port mode", edit("", "    vlans = [100]\n", "    vlans = [100]\n    mode  = \"hybrid\"\n    trust = \"L3\"\n"), []string{
			"14:13: Invalid port mode: port \"swp1-4\" on switch \"leaf1\" has mode \"hybrid\", which is not known; write \"access\", \"trunk\" or \"routed\".",
			"15:13: Invalid trust: trust \"L3\" is not known; write \"dscp\", \"pcp\" or \"both\".",
		}},
		{"routed with vlans", edit("", "    vlans = [100]\n", "    vlans = [100]\n    mode  = \"routed\"\n    native_vlan = 100\n"), []string{
			"15:19: Native VLAN on a non-trunk port: port \"swp1-4\" on switch \"leaf1\" has native_vlan, which applies to trunk ports, but it is routed; remove native_vlan or use mode = \"trunk\".",
			"14:13: Routed port with VLANs: port \"swp1-4\" on switch \"leaf1\" is a routed port, which carries no VLANs; remove vlans, or use mode = \"trunk\" or \"access\".",
			"25:17: Routed NIC without a gateway: nic \"roce0\" of host \"gpu01\" is cabled to leaf1:swp2, a routed switch port, but fabricc gives it no route beyond its own subnet: its address 192.168.100.11/24 is no /31 or /30 (nor IPv6 /127) whose other address would be the switch port's. Its RoCE peers in other subnets (the other NICs of its rail, everything across the spines) are off-link, so the host sends to them by its main table's default route (often the management NIC) or not at all. Write gateway = \"ADDRESS\" on the nic (the switch port's address in its subnet, or the switch's IPv6 link-local address, as on a BGP-unnumbered link), or give it a /31 whose other address is the switch port's; the Linux host script then gives the NIC a routing table of its own and main-table routes to the rest of its rail.",
		}},
		{"unknown os and freebsd qlogic", edit("host \"bsd\" {\n  os = \"freebsd\"\n  nic \"q\" {\n    model     = \"QL45212\"\n    interface = \"ql0\"\n    speed     = \"25G\"\n  }\n}\nhost \"mac\" {\n  os = \"macos\"\n}\n"), []string{
			"35:17: Unsupported NIC: fabricc knows no freebsd driver for the QL45212 of nic \"q\" on host \"bsd\"; use a ConnectX adapter or another OS.",
			"41:8: Unknown host OS: host \"mac\" has os \"macos\"; fabricc renders \"linux\", \"windows\" or \"freebsd\".",
			"34:3: NIC not cabled: no link block cables nic \"q\" of host \"bsd\", so its speed, MTU, VLAN tagging and PFC are checked against no switch port, though its host script configures it. Add a link block with a = \"SWITCH:PORT\" and b = \"bsd:q\", or acknowledge this warning if the NIC is cabled to a device the fabric does not describe.",
		}},
		{"linux driver", edit("", "    vlan      = 100\n", "    vlan      = 100\n    driver    = \"winof2\"\n"), []string{
			"23:17: Driver does not fit the NIC: driver \"winof2\" does not run a ConnectX-6 Dx on linux; write \"mlnx_ofed\" or \"inbox\".",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, got := lowerSrc(t, tc.src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
