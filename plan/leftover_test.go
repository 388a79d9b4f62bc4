package plan

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// classMoveHCL is the plan test fabric with two lossless classes, roce
// (priority 3) and roce4 (priority 4), as in docs/changes.md's
// make-before-break move, on a leaf of the given platform.
func classMoveHCL(t *testing.T, platform string) string {
	t.Helper()
	text := edit(t, baseHCL(t), "qos {\n  profile = \"nvidia-roce\"\n}", `qos {
  profile    = "none"
  roce_class = "roce"
  cnp_class  = "cnp"
  class "roce" {
    priority  = 3
    dscp      = [26, 24, 25, 27, 28, 29, 30, 31]
    lossless  = true
    bandwidth = 50
    ecn {
      min = 150000
      max = 1500000
    }
  }
  class "roce4" {
    priority  = 4
    dscp      = [34, 32, 33, 35, 36, 37, 38, 39]
    lossless  = true
    bandwidth = 10
    ecn {
      min = 150000
      max = 1500000
    }
  }
  class "cnp" {
    priority = 6
    dscp     = [48, 49, 50, 51, 52, 53, 54, 55]
    strict   = true
  }
  class "default" {
    priority  = 0
    default   = true
    bandwidth = 40
  }
}`)
	return onPlatform(t, text, platform)
}

// onPlatform moves the plan test fabric's leaf1 to platform ("eos",
// "onyx" or "cumulus", as it is), its ports named that platform's way.
func onPlatform(t *testing.T, text, platform string) string {
	t.Helper()
	switch platform {
	case "onyx":
		text = edit(t, text, `platform   = "cumulus"`, `platform   = "onyx"`, `os_version = "5.9.2"`, `os_version = "3.10.4206"`,
			`"swp1"`, `"1/1"`, `"swp2"`, `"1/2"`, `leaf1:swp1`, `leaf1:1/1`, `leaf1:swp2`, `leaf1:1/2`)
	case "eos":
		text = edit(t, text, `platform   = "cumulus"`, `platform   = "eos"`, `model      = "SN2700"`, `model      = "7050CX3-32S"`, `os_version = "5.9.2"`, `os_version = "4.32.2F"`,
			`"swp1"`, `"Ethernet1/1"`, `"swp2"`, `"Ethernet2/1"`, `leaf1:swp1`, `leaf1:Ethernet1/1`, `leaf1:swp2`, `leaf1:Ethernet2/1`, "mtu   = 9216", "mtu   = 9214")
	}
	return text
}

// removeRoceClass is step 3 of the move: class roce goes, roce4 carries
// RoCE and the default class takes roce's share.
func removeRoceClass(t *testing.T, text string) string {
	return edit(t, text, `roce_class = "roce"`, `roce_class = "roce4"`,
		"  class \"roce\" {\n    priority  = 3\n    dscp      = [26, 24, 25, 27, 28, 29, 30, 31]\n    lossless  = true\n    bandwidth = 50\n    ecn {\n      min = 150000\n      max = 1500000\n    }\n  }\n", "",
		"bandwidth = 10", "bandwidth = 50",
		"default   = true\n    bandwidth = 40", "default   = true\n    bandwidth = 50")
}

// TestPlanRemovedClassPerVendor: when a class goes, the plan says what
// push leaves on each vendor. EOS and Onyx write the ETS and ECN of
// each class's traffic class only, so the removed class's TC3 keeps its
// share and its ECN thresholds (verify notes them: "traffic classes no
// priority maps to keep an earlier fabric's settings"); Cumulus writes
// all eight traffic classes of default-global, an idle one DWRR 1 %
// with ECN disabled, the 1 % points taken from the lossy classes, so
// TC0 gets 45 %, not the model's 50 %, and TC3's ECN goes off.
func TestPlanRemovedClassPerVendor(t *testing.T) {
	kept := func(vendor string) string {
		return "  ETS TC0 40 %, TC3 50 %, TC4 10 %, TC6 strict -> TC0 50 %, TC4 50 %, TC6 strict (TC3 50 % stays on the switch: push leaves a traffic class no priority maps to any more, and ETS lends its share to the classes with traffic), " +
			"TC0 priorities 0-2, 5, 7 -> 0-3, 5, 7, TC3 class roce -> none, TC3 priorities 3 -> none, " +
			"TC3 ECN 150,000..1,500,000 B at 100 % stays (push leaves it on " + vendor + ": no priority maps to TC3 any more, so it marks nothing), " +
			"priority 0 DSCP 0-23, 40-47, 56-63 -> 0-31, 40-47, 56-63, priority 3 DSCP 24-31 -> none, because of the fabric-wide changes above\n"
	}
	tests := []struct{ platform, want string }{
		{"eos", kept("EOS")},
		{"onyx", kept("Onyx")},
		{"cumulus", "  ETS TC0 36 %, TC3 50 %, TC4 10 %, TC6 strict; TC1, 2, 5, 7 idle at 1 % -> TC0 45 %, TC4 50 %, TC6 strict; TC1-3, 5, 7 idle at 1 %, " +
			"TC0 priorities 0-2, 5, 7 -> 0-3, 5, 7, TC3 class roce -> none, TC3 priorities 3 -> none, TC3 ECN 150,000..1,500,000 B at 100 % -> off, " +
			"priority 0 DSCP 0-23, 40-47, 56-63 -> 0-31, 40-47, 56-63, priority 3 DSCP 24-31 -> none, because of the fabric-wide changes above\n"},
	}
	for _, tc := range tests {
		t.Run(tc.platform, func(t *testing.T) {
			base := classMoveHCL(t, tc.platform)
			got := planText(t, base, removeRoceClass(t, base))
			if want := "leaf1 (switch)\n" + tc.want; !strings.Contains(got, want) {
				t.Errorf("plan lacks\n%s\nin:\n%s", want, got)
			}
		})
	}
}

// planText is the text plan from base to head, two fabric texts.
func planText(t *testing.T, base, head string) string {
	t.Helper()
	var b strings.Builder
	if err := WriteText(&b, Compare(compileHCL(t, base), compileHCL(t, head))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// freebsdHost is a FreeBSD host with a tagged ConnectX-5 on leaf1:swp4.
const freebsdHost = `
host "b1" {
  os = "freebsd"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "mce0"
    speed     = "100G"
    mtu       = 9000
    vlan      = 10
    addresses = ["10.0.10.14/24"]
  }
}

link {
  a      = "leaf1:swp4"
  b      = "b1:roce0"
  length = 2
}
`

// hostsOfEveryOS is the base fabric with w1 (Windows) on swp3 and b1
// (FreeBSD) on swp4, beside h1 and h2 (Linux).
func hostsOfEveryOS(t *testing.T) string {
	return edit(t, withWindows(t), "  port \"swp2\" {", "  port \"swp4\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"trunk\"\n    vlans = [10]\n  }\n\n  port \"swp2\" {") + freebsdHost
}

// withoutHost removes host name and its link (the link to port) from text.
func withoutHost(t *testing.T, text, name, port string) string {
	t.Helper()
	i := strings.Index(text, "host \""+name+"\" {")
	j := strings.Index(text[i:], "\n}\n") + i + 3
	text = text[:i] + text[j:]
	return withoutLink(t, text, port)
}

// withoutLink removes the link block of leaf1's port from text.
func withoutLink(t *testing.T, text, port string) string {
	t.Helper()
	i := strings.Index(text, "link {\n  a      = \"leaf1:"+port+"\"")
	if i < 0 {
		t.Fatalf("no link of leaf1:%s", port)
	}
	j := strings.Index(text[i:], "}\n") + i + 2
	return text[:i] + text[j:]
}

// hostSection is the plan's section of device name, up to the next
// blank line.
func hostSection(t *testing.T, plan, name string) string {
	t.Helper()
	i := strings.Index(plan, "\n"+name+" (host")
	if i < 0 {
		t.Fatalf("no section %s in:\n%s", name, plan)
	}
	s := plan[i+1:]
	if j := strings.Index(s, "\n\n"); j >= 0 {
		s = s[:j+1]
	}
	return s
}

// mlnxTClassClear is the command that clears the global traffic class
// the Linux script writes for an MLNX_OFED mlx5 NIC: mlx5_ib's
// traffic_class_store takes -1 as "no global class" (mlnx-ofa_kernel,
// drivers/infiniband/hw/mlx5/main_ext.c).
const mlnxTClassClear = "echo -1 > /sys/class/infiniband/<device>/tc/1/traffic_class, which clears the port's global traffic class " +
	"(MLNX_OFED's mlx5_ib, mlnx-ofa_kernel drivers/infiniband/hw/mlx5/main_ext.c, traffic_class_store)"

// TestPlanRemovedHostLeftovers: a removed host's section says how its
// settings come back at boot and how to stop that on its OS (the Linux
// script's --uninstall and the files it removes; the FreeBSD files the
// script wrote; the Windows persistent store), then, per NIC, what the
// NIC keeps and the commands that clear it in its script's vocabulary.
func TestPlanRemovedHostLeftovers(t *testing.T) {
	base := hostsOfEveryOS(t)
	tests := []struct{ name, port, want string }{
		{"h1", "swp1", "h1 (host, removed)\n" +
			"  removed: linux ubuntu22.04, 1 NIC (its NICs keep the script's settings, and a copy installed with --install re-applies them at every boot: on the host run the previous build's h1.linux.sh --uninstall, which disables and removes fabricc-host-settings.service and /usr/local/sbin/fabricc-host-settings and leaves the settings in force; then clear each NIC as below)\n" +
			"  roce0: removed: ConnectX-6 Dx 100G, to leaf1:swp1 (no script of the fabric sets ens1f0np0 any more, so its PFC 3, trust dscp, RoCE ToS 106, global traffic class 106, MTU 9000 and address 10.0.10.11/24 stay; clear them on the host: " +
			"mlnx_qos -i ens1f0np0 --pfc 0,0,0,0,0,0,0,0 --trust pcp; ip addr del 10.0.10.11/24 dev ens1f0np0; ip link set dev ens1f0np0 mtu 1500; " +
			"set default_roce_tos of its RDMA device back to 0 (configfs rdma_cm, /sys/kernel/config/rdma_cm/<device>/ports/1/default_roce_tos; rdma link show names the device of ens1f0np0); " +
			mlnxTClassClear + ")\n"},
		{"b1", "swp4", "b1 (host, removed)\n" +
			"  removed: freebsd, 1 NIC (its NICs keep the script's settings, and /etc/rc.conf, /boot/loader.conf and /etc/sysctl.conf, where the script wrote them, apply them again at every boot (the script has no --uninstall): remove the lines of the previous build's b1.rc.conf, b1.loader.conf and, where it wrote one, b1.sysctl.conf from those files; then clear each NIC as below)\n" +
			"  roce0: removed: ConnectX-5 100G, to leaf1:swp4 (no script of the fabric sets mce0 any more, so its PFC 3, trust dscp, MTU 9000, VLAN interface mce0.10 and address 10.0.10.14/24 stay; clear them on the host: " +
			"sysrc vlans_mce0-=10; sysrc -x ifconfig_mce0; sysrc -x ifconfig_mce0_10; ifconfig mce0.10 destroy; remove the lines of mce0 from /boot/loader.conf and /etc/sysctl.conf (the previous build's b1.loader.conf and b1.sysctl.conf list them); they take effect at the next boot)\n"},
		{"w1", "swp3", "w1 (host, removed)\n" +
			"  removed: windows 2022, 1 NIC (the script's QoS policies, traffic classes and PFC are in Windows' persistent store and stay across reboots (the script has no uninstall): remove the fabric's with Remove-NetQosPolicy and Remove-NetQosTrafficClass, Disable-NetQosFlowControl -Priority 3; then clear each NIC as below)\n" +
			"  roce0: removed: ConnectX-6 Dx 100G, to leaf1:swp3 (no script of the fabric sets Ethernet 4 any more, so its PFC 3, trust dscp, MTU 9000 and address 10.0.10.13/24 stay; clear them on the host: " +
			"Disable-NetAdapterQos -Name 'Ethernet 4'; Remove-NetIPAddress -InterfaceAlias 'Ethernet 4' -IPAddress 10.0.10.13 -Confirm:$false; Set-NetAdapterAdvancedProperty -Name 'Ethernet 4' -RegistryKeyword '*JumboPacket' -RegistryValue 1514)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := hostSection(t, planText(t, base, withoutHost(t, base, tc.name, tc.port)), tc.name)
			if got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestPlanRemovedNICLeftovers: a NIC removed from a host that stays
// keeps what the earlier script set; the plan says so and gives the
// commands, for a tagged NIC whose VLAN interface goes with its address.
// With the inbox driver they are iproute2's dcb; under MLNX_OFED
// mlnx_qos, and the port's global traffic class the script wrote to
// /sys/class/infiniband/DEV/tc/1/traffic_class, which stays until it
// is cleared with -1 or the driver reloads.
func TestPlanRemovedNICLeftovers(t *testing.T) {
	tests := []struct{ driver, kept, dcb, tclass string }{
		{"inbox", "", "dcb pfc set dev ens1f1np1 prio-pfc all:off; dcb app flush dev ens1f1np1 dscp-prio", ""},
		{"mlnx_ofed", "global traffic class 106, ", "mlnx_qos -i ens1f1np1 --pfc 0,0,0,0,0,0,0,0 --trust pcp", "; " + mlnxTClassClear},
	}
	for _, tc := range tests {
		t.Run(tc.driver, func(t *testing.T) {
			nic := "\n\n  nic \"roce1\" {\n    model     = \"ConnectX-6 Dx\"\n    driver    = \"" + tc.driver + "\"\n    interface = \"ens1f1np1\"\n    speed     = \"100G\"\n    mtu       = 9000\n    vlan      = 10\n    addresses = [\"10.0.11.11/24\"]\n  }\n"
			roce0 := "  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f0np0\"\n    speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]\n  }"
			base := edit(t, baseHCL(t), roce0+"\n", roce0+nic)
			base = edit(t, base, "  port \"swp2\" {", "  port \"swp4\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"trunk\"\n    vlans = [10]\n  }\n\n  port \"swp2\" {") +
				"\nlink {\n  a      = \"leaf1:swp4\"\n  b      = \"h1:roce1\"\n  length = 2\n}\n"
			head := withoutLink(t, edit(t, base, nic, "\n"), "swp4")
			want := "h1 (host)\n" +
				"  roce1: removed: ConnectX-6 Dx 100G, to leaf1:swp4 (no script of the fabric sets ens1f1np1 any more, so its PFC 3, trust dscp, RoCE ToS 106, " + tc.kept + "MTU 9000, VLAN interface ens1f1np1.10 and address 10.0.11.11/24 stay; clear them on the host: " +
				tc.dcb + "; ip link del ens1f1np1.10; ip link set dev ens1f1np1 mtu 1500; " +
				"set default_roce_tos of its RDMA device back to 0 (configfs rdma_cm, /sys/kernel/config/rdma_cm/<device>/ports/1/default_roce_tos; rdma link show names the device of ens1f1np1)" + tc.tclass + ")\n" +
				"  script changes: run it\n"
			if got := hostSection(t, planText(t, base, head), "h1"); got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestPlanRemovedPortPFCPerVendor: a port removed from the fabric keeps
// its lossless settings on every platform, for push merges into the
// running configuration and touches only the ports the fabric
// describes. The plan gives, per platform, the lines its renderer
// writes for a port without them: its PFC, its PFC watchdog (EOS `no
// priority-flow-control pause watchdog`, Onyx `no pfc-wd`, NVUE `nv
// unset interface swp2 qos pfc-watchdog`) and, on Onyx in advanced
// buffer mode (MLNX-OS before 3.6.5000), each priority group's and
// egress queue's buffer binding; in traffic-pool mode Onyx sizes the
// port's buffers itself and has no such lines.
func TestPlanRemovedPortPFCPerVendor(t *testing.T) {
	const tail = ", or keep the port in the fabric with shutdown = true)\n"
	const head = "(push leaves the port as it is on the switch, its PFC and headroom included: clear it there, "
	tests := []struct{ name, platform, port, version, want string }{
		{"eos", "eos", "Ethernet2/1", "", "  Ethernet2/1: removed: 100G trunk VLAN 10, to h2:roce0 " + head +
			"on EOS with interface Ethernet2/1, then no priority-flow-control, priority-flow-control priority 3 drop and no priority-flow-control pause watchdog" + tail},
		{"onyx", "onyx", "1/2", "", "  1/2: removed: 100G trunk VLAN 10, to h2:roce0 " + head +
			"on Onyx with interface ethernet 1/2 no dcb priority-flow-control mode force and interface ethernet 1/2 no pfc-wd" + tail},
		{"onyx-advanced", "onyx", "1/2", "3.6.4000", "  1/2: removed: 100G trunk VLAN 10, to h2:roce0 " + head +
			"on Onyx with interface ethernet 1/2 no dcb priority-flow-control mode force, interface ethernet 1/2 no pfc-wd, " +
			"interface ethernet 1/2 no ingress-buffer iPort.pg0, interface ethernet 1/2 no ingress-buffer iPort.pg3, " +
			"interface ethernet 1/2 no egress-buffer ePort.tc0, interface ethernet 1/2 no egress-buffer ePort.tc3 and interface ethernet 1/2 no egress-buffer ePort.tc6" + tail},
		{"cumulus", "cumulus", "swp2", "", "  swp2: removed: 100G trunk VLAN 10, to h2:roce0 " + head +
			"on Cumulus Linux with nv unset interface swp2 qos pfc, nv unset interface swp2 qos pfc-watchdog and nv config apply" + tail},
		// The per-port watchdog arrived in Cumulus Linux 5.6.0 (NVUE
		// Command Reference, Set and Unset Commands, QoS): 5.5 has no
		// `qos pfc-watchdog` to unset, 5.9 has.
		{"cumulus-5.5", "cumulus", "swp2", "5.5.1", "  swp2: removed: 100G trunk VLAN 10, to h2:roce0 " + head +
			"on Cumulus Linux with nv unset interface swp2 qos pfc and nv config apply" + tail},
		{"cumulus-5.9", "cumulus", "swp2", "5.9.1", "  swp2: removed: 100G trunk VLAN 10, to h2:roce0 " + head +
			"on Cumulus Linux with nv unset interface swp2 qos pfc, nv unset interface swp2 qos pfc-watchdog and nv config apply" + tail},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := onPlatform(t, baseHCL(t), tc.platform)
			if tc.version != "" {
				from := `os_version = "3.10.4206"`
				if tc.platform == "cumulus" {
					from = `os_version = "5.9.2"`
				}
				base = edit(t, base, from, `os_version = "`+tc.version+`"`)
			}
			head := withoutLink(t, base, tc.port)
			i := strings.Index(head, "  port \""+tc.port+"\" {")
			j := strings.Index(head[i:], "  }\n") + i + 4
			head = head[:i] + head[j:]
			got := planText(t, base, head)
			if !strings.Contains(got, "\n"+tc.want) {
				t.Errorf("plan lacks\n%s\nin:\n%s", tc.want, got)
			}
		})
	}
}

// TestWindowsClearQuotesTheAdapter: a Windows adapter name reaches the
// cmdlets as one PowerShell verbatim string, its quotes doubled, so
// that nothing in it runs.
func TestWindowsClearQuotesTheAdapter(t *testing.T) {
	got := strings.Join(windowsClear(&model.NIC{Interface: "Eth 'x'; Remove-Item C:\\"}), "\n")
	want := "Disable-NetAdapterQos -Name 'Eth ''x''; Remove-Item C:\\'\n" +
		"Set-NetAdapterAdvancedProperty -Name 'Eth ''x''; Remove-Item C:\\' -RegistryKeyword '*JumboPacket' -RegistryValue 1514"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPlanOSChange: a host whose OS changes (re-imaged, or booted into
// another OS) runs the new OS's script, which removes nothing the old
// one set: the plan names the script to run and says what stays under
// the old OS, for a host that still boots it, with the commands of the
// old OS (its boot-time re-apply and each NIC), and never that the old
// script cleans up.
func TestPlanOSChange(t *testing.T) {
	base := hostsOfEveryOS(t)
	tests := []struct{ name, from, to, want string }{
		{"h1", "host \"h1\" {\n  os         = \"linux\"\n  os_version = \"ubuntu22.04\"\n\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f0np0\"",
			"host \"h1\" {\n  os         = \"windows\"\n  os_version = \"2022\"\n\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"Ethernet 5\"",
			"h1 (host)\n" +
				"  OS linux ubuntu22.04 -> windows 2022 (run h1.windows.ps1, the windows script: it removes nothing h1.linux.sh set under linux; a re-imaged host has none of that left, but on a host that still boots linux it stays there: " +
				"under linux, its NICs keep the script's settings, and a copy installed with --install re-applies them at every boot: on the host run the previous build's h1.linux.sh --uninstall, which disables and removes fabricc-host-settings.service and /usr/local/sbin/fabricc-host-settings and leaves the settings in force; then clear each NIC as below)\n" +
				"  roce0: interface ens1f0np0 -> Ethernet 5, driver mlnx_ofed -> winof2 (under linux, ens1f0np0 keeps its PFC 3, trust dscp, RoCE ToS 106, global traffic class 106, MTU 9000 and address 10.0.10.11/24: clear them there with " +
				"mlnx_qos -i ens1f0np0 --pfc 0,0,0,0,0,0,0,0 --trust pcp; ip addr del 10.0.10.11/24 dev ens1f0np0; ip link set dev ens1f0np0 mtu 1500; set default_roce_tos of its RDMA device back to 0 (configfs rdma_cm, /sys/kernel/config/rdma_cm/<device>/ports/1/default_roce_tos; rdma link show names the device of ens1f0np0); " + mlnxTClassClear + ")\n" +
				"  impact: another operating system, linux -> windows: the host is down while it is re-imaged or rebooted, and its NICs get the fabric's settings only when h1.windows.ps1 runs\n" +
				"  new OS: run h1.windows.ps1\n"},
		{"w1", "host \"w1\" {\n  os         = \"windows\"\n  os_version = \"2022\"\n\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"Ethernet 4\"",
			"host \"w1\" {\n  os         = \"linux\"\n  os_version = \"ubuntu22.04\"\n\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens2f0np0\"",
			"w1 (host)\n" +
				"  OS windows 2022 -> linux ubuntu22.04 (run w1.linux.sh, the linux script: it removes nothing w1.windows.ps1 set under windows; a re-imaged host has none of that left, but on a host that still boots windows it stays there: " +
				"under windows, the script's QoS policies, traffic classes and PFC are in Windows' persistent store and stay across reboots (the script has no uninstall): remove the fabric's with Remove-NetQosPolicy and Remove-NetQosTrafficClass, Disable-NetQosFlowControl -Priority 3; then clear each NIC as below)\n" +
				"  roce0: interface Ethernet 4 -> ens2f0np0, driver winof2 -> mlnx_ofed (under windows, Ethernet 4 keeps its PFC 3, trust dscp, MTU 9000 and address 10.0.10.13/24: clear them there with " +
				"Disable-NetAdapterQos -Name 'Ethernet 4'; Remove-NetIPAddress -InterfaceAlias 'Ethernet 4' -IPAddress 10.0.10.13 -Confirm:$false; Set-NetAdapterAdvancedProperty -Name 'Ethernet 4' -RegistryKeyword '*JumboPacket' -RegistryValue 1514)\n" +
				"  impact: another operating system, windows -> linux: the host is down while it is re-imaged or rebooted, and its NICs get the fabric's settings only when w1.linux.sh runs\n" +
				"  new OS: run w1.linux.sh\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Compare(compileHCL(t, base), compileHCL(t, edit(t, base, tc.from, tc.to)))
			var b strings.Builder
			if err := WriteText(&b, p); err != nil {
				t.Fatal(err)
			}
			if got := hostSection(t, b.String(), tc.name); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if !strings.Contains(b.String(), "Hosts to run their script: 1 ("+tc.name+").") {
				t.Errorf("the host is not among the hosts to run:\n%s", b.String())
			}
		})
	}
}
