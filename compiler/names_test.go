package compiler

import (
	"reflect"
	"strings"
	"testing"
)

// TestNameErrors covers the strings whose rule depends on the platform or
// OS. Each of these fabrics passed validation and failed only in build,
// without a location, before these checks.
func TestNameErrors(t *testing.T) {
	// Each host is cabled to a port of minimalFabric's leaf1: a NIC
	// no link cables would be warned about as well.
	windowsHost := "host \"win1\" {\n  os = \"windows\"\n  nic \"r0\" {\n    model     = \"ConnectX-4\"\n    interface = IFACE\n    speed     = \"25G\"\n  }\n}\nlink {\n  a      = \"leaf1:swp3\"\n  b      = \"win1:r0\"\n  length = 2\n}\n"
	bsdHost := "host \"nas\" {\n  os = \"freebsd\"\n  nic \"r0\" {\n    model     = \"ConnectX-4\"\n    interface = \"eth0\"\n    speed     = \"25G\"\n  }\n}\nlink {\n  a      = \"leaf1:swp3\"\n  b      = \"nas:r0\"\n  length = 2\n}\n"
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"linux interface with a space", edit("", `"ens1f0"`, `"ens1f0 && reboot"`), []string{
			`21:17: Invalid interface name: nic "roce0" of host "gpu01" has interface "ens1f0 && reboot"; a Linux interface name is 1-15 letters, digits, '_', '.' or '-' (not "." or ".."), such as "ens1f0".`,
		}},
		{"linux interface dot-dot", edit("", `"ens1f0"`, `".."`), []string{
			`21:17: Invalid interface name: nic "roce0" of host "gpu01" has interface ".."; a Linux interface name is 1-15 letters, digits, '_', '.' or '-' (not "." or ".."), such as "ens1f0".`,
		}},
		{"linux interface starting with a dash", edit("", `"ens1f0"`, `"-rf"`), []string{
			`21:17: Invalid interface name: nic "roce0" of host "gpu01" has interface "-rf", which starts with '-': commands of the host script such as ethtool -a "$ifc" read it as an option, not as an interface name. Write a name that starts with a letter or digit, such as "ens1f0" (rename the interface if the OS gave it such a name).`,
		}},
		{"linux interface of one dash", edit("", `"ens1f0"`, `"-"`), []string{
			`21:17: Invalid interface name: nic "roce0" of host "gpu01" has interface "-", which starts with '-': commands of the host script such as ethtool -a "$ifc" read it as an option, not as an interface name. Write a name that starts with a letter or digit, such as "ens1f0" (rename the interface if the OS gave it such a name).`,
		}},
		{"linux interface with a dash inside", edit("", `"ens1f0"`, `"ens1f0-rdma"`), nil},
		{"linux VLAN interface too long", edit("", `"ens1f0"`, `"enp129s0f1np1"`), []string{
			`21:17: Interface name too long for its VLAN: nic "roce0" of host "gpu01": its VLAN interface "enp129s0f1np1.100" is longer than Linux's 15 characters; name the VLAN interface with vlan_interface (1-15 characters, such as vlan_interface = "vl100"), or give the interface a shorter name (a systemd.link(5) file's Name=).`,
		}},
		{"linux vlan_interface for a long interface", edit("", `interface = "ens1f0"`, vlanIf(`"enp129s0f1np1"`, `"vl100"`)), nil},
		{"linux vlan_interface too long", edit("", `interface = "ens1f0"`, vlanIf(`"ens1f0"`, `"vlan100-of-ens1f0"`)), []string{
			`22:22: Invalid vlan_interface: nic "roce0" of host "gpu01" has vlan_interface "vlan100-of-ens1f0"; a Linux interface name is 1-15 letters, digits, '_', '.' or '-' (not "." or ".."), such as "vl100".`,
		}},
		{"linux vlan_interface with a slash", edit("", `interface = "ens1f0"`, vlanIf(`"ens1f0"`, `"vl/100"`)), []string{
			`22:22: Invalid vlan_interface: nic "roce0" of host "gpu01" has vlan_interface "vl/100"; a Linux interface name is 1-15 letters, digits, '_', '.' or '-' (not "." or ".."), such as "vl100".`,
		}},
		{"linux vlan_interface dot", edit("", `interface = "ens1f0"`, vlanIf(`"ens1f0"`, `"."`)), []string{
			`22:22: Invalid vlan_interface: nic "roce0" of host "gpu01" has vlan_interface "."; a Linux interface name is 1-15 letters, digits, '_', '.' or '-' (not "." or ".."), such as "vl100".`,
		}},
		{"linux vlan_interface starting with a dash", edit("", `interface = "ens1f0"`, vlanIf(`"ens1f0"`, `"-vl100"`)), []string{
			`22:22: Invalid vlan_interface: nic "roce0" of host "gpu01" has vlan_interface "-vl100", which starts with '-': commands of the host script such as ip link show dev NAME read it as an option. Write a name that starts with a letter or digit, such as "vl100".`,
		}},
		{"linux vlan_interface its own interface", edit("", `interface = "ens1f0"`, vlanIf(`"ens1f0"`, `"ens1f0"`)), []string{
			`22:22: Invalid vlan_interface: nic "roce0" of host "gpu01" has vlan_interface "ens1f0", its own interface: the VLAN interface is a second device on top of it and needs a name of its own, such as "vl100".`,
		}},
		{"linux vlan_interface another NIC's interface", edit("link {\n  a      = \"gpu01:roce1\"\n  b      = \"leaf1:swp3\"\n  length = 3\n}\n", `interface = "ens1f0"`, vlanIf(`"ens1f0"`, `"vl100"`), "/24\"]\n  }\n", "/24\"]\n  }\n  nic \"roce1\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"vl100\"\n  }\n"), []string{
			`22:22: Two NICs on one interface: nic "roce0" of host "gpu01" has VLAN interface "vl100", which is the interface of nic "roce1" of the same host; the script would configure one device for both. Give this VLAN interface another name with vlan_interface.`,
			`  note 28:17: nic "roce1" has interface "vl100"`,
		}},
		{"windows vlan_interface", edit(strings.ReplaceAll(windowsHost, "IFACE", "\"Ethernet 4\"\n    vlan_interface = \"vl100\"")), []string{
			`37:22: vlan_interface is for Linux: nic "r0" of host "win1" has vlan_interface "vl100", which only a Linux host's NIC takes: Windows tags on the adapter itself (its VlanID keyword) and has no VLAN interface. Remove it.`,
		}},
		{"freebsd vlan_interface", edit(strings.Replace(renamed(bsdHost, "mce0", "mce0"), `driver_interface = "mce0"`, "driver_interface = \"mce0\"\n    vlan_interface = \"vl100\"", 1)), []string{
			`38:22: vlan_interface is for Linux: nic "r0" of host "nas" has vlan_interface "vl100", which only a Linux host's NIC takes: the FreeBSD script makes the vlan(4) interface rc.conf's vlans_<interface> names, <interface>.<vlan>. Remove it.`,
		}},
		{"freebsd interface", edit(bsdHost), []string{
			`36:17: Invalid interface name: nic "r0" of host "nas" has interface "eth0"; the mlx5en driver names its interfaces like "mce0". If rc.conf renames it (ifconfig_mce0_name="eth0", rc.conf(5)), keep interface = "eth0" and add driver_interface = "mce0", the driver's name, which its sysctls keep.`,
		}},
		{"freebsd interface starting with a dash", edit(strings.Replace(bsdHost, `"eth0"`, `"-mce0"`, 1)), []string{
			`36:17: Invalid interface name: nic "r0" of host "nas" has interface "-mce0"; the mlx5en driver names its interfaces like "mce0". If rc.conf renames it (ifconfig_mce0_name="-mce0", rc.conf(5)), keep interface = "-mce0" and add driver_interface = "mce0", the driver's name, which its sysctls keep.`,
		}},
		// A lagg(4) interface gets no rename hint: driver_interface would
		// set PFC on one of its ports only.
		{"freebsd lagg interface", edit(strings.Replace(bsdHost, `"eth0"`, `"lagg0"`, 1)), []string{
			`36:17: Invalid interface name: nic "r0" of host "nas" has interface "lagg0", a lagg(4) interface: its MTU and addresses are the lagg's, but PFC, trust and ETS are set per port by the mlx5en driver, and fabricc does not configure lagg (README, Scope): described as the lagg, or as one port renamed so, the NIC would leave PFC off on the lagg's other ports. Leave the lagg out of the fabric, or describe an interface of the driver that is in no lagg, such as "mce0".`,
		}},
		{"freebsd lagg interface as a renamed port", edit(renamed(bsdHost, "lagg0", "mce0")), []string{
			`36:17: Invalid interface name: nic "r0" of host "nas" has interface "lagg0", a lagg(4) interface: its MTU and addresses are the lagg's, but PFC, trust and ETS are set per port by the mlx5en driver, and fabricc does not configure lagg (README, Scope): described as the lagg, or as one port renamed so, the NIC would leave PFC off on the lagg's other ports. Leave the lagg out of the fabric, or describe an interface of the driver that is in no lagg, such as "mce0".`,
		}},
		{"linux interface named like a bond", edit("", `"ens1f0"`, `"bond0"`), []string{
			`21:17: NIC interface named like a bond or team: nic "roce0" of host "gpu01" has interface "bond0", named like a bond master. A bond or team has no PFC, trust or ETS of its own: RoCE LAG runs RDMA on its ports, which keep their own (MLNX_OFED user manual, "RoCE LAG"), and fabricc does not configure bonds, teams or RoCE LAG (README, Scope), so the host script stops at "bond0" if it is one. Leave the bond out of the fabric, or, for a port of its own that only has such a name, accept this warning.`,
		}},
		{"linux interface named like a team", edit("", `"ens1f0"`, `"team1"`), []string{
			`21:17: NIC interface named like a bond or team: nic "roce0" of host "gpu01" has interface "team1", named like a team master. A bond or team has no PFC, trust or ETS of its own: RoCE LAG runs RDMA on its ports, which keep their own (MLNX_OFED user manual, "RoCE LAG"), and fabricc does not configure bonds, teams or RoCE LAG (README, Scope), so the host script stops at "team1" if it is one. Leave the team out of the fabric, or, for a port of its own that only has such a name, accept this warning.`,
		}},
		{"freebsd interface renamed by rc.conf", edit(renamed(bsdHost, "rdma0", "mce0")), nil},
		{"freebsd renamed interface that is not one word", edit(renamed(bsdHost, "rdma-0", "mce0")), []string{
			`36:17: Invalid interface name: nic "r0" of host "nas" has interface "rdma-0"; a renamed FreeBSD interface is 1-15 letters, digits or '_', a letter first (such as "rdma0"), so that rc.conf's ifconfig_<name> can name it.`,
		}},
		{"freebsd driver_interface not the driver's", edit(renamed(bsdHost, "rdma0", "mlxen0")), []string{
			`37:24: Invalid driver_interface: nic "r0" of host "nas" has driver_interface "mlxen0"; the mlx5en driver names its interfaces like "mce0": write the name it gave the interface before rc.conf renamed it.`,
		}},
		{"two NICs on one driver interface", edit(strings.Replace(renamed(bsdHost, "mce0", "mce0"), "  }\n}\nlink", "  }\n  nic \"r1\" {\n    model     = \"ConnectX-4\"\n    interface = \"rdma1\"\n    driver_interface = \"mce0\"\n    speed     = \"25G\"\n  }\n}\nlink {\n  a      = \"leaf1:swp4\"\n  b      = \"nas:r1\"\n  length = 2\n}\nlink", 1)), []string{
			`43:24: Two NICs on one driver interface: nic "r1" of host "nas" is the driver's "mce0", which nic "r0" of the same host already is; the script would set that interface's sysctls for both. Write the driver's name of each renamed interface as its driver_interface.`,
			`  note 37:24: nic "r0" is the driver's "mce0"`,
		}},
		{"driver_interface on linux", edit("", `interface = "ens1f0"`, "interface = \"ens1f0\"\n    driver_interface = \"mce0\""), []string{
			`22:24: driver_interface is for FreeBSD: nic "roce0" of host "gpu01" has driver_interface "mce0", which only a FreeBSD host's NIC takes (the driver's name of an interface rc.conf renames); remove it.`,
		}},
		{"windows empty interface", edit(strings.ReplaceAll(windowsHost, "IFACE", `""`)), []string{
			`36:17: Invalid interface name: nic "r0" of host "win1" has no interface name; write the adapter name Get-NetAdapter shows, such as "Ethernet 4".`,
		}},
		{"windows wildcard interface", edit(strings.ReplaceAll(windowsHost, "IFACE", `"Ethernet*"`)), []string{
			`36:17: Invalid interface name: nic "r0" of host "win1" has interface "Ethernet*"; the NetAdapter cmdlets read * ? [ ] as wildcards in an adapter name, so it could select other adapters. Rename the adapter (Rename-NetAdapter) and write its new name.`,
		}},
		{"windows interface with a space at the end", edit(strings.ReplaceAll(windowsHost, "IFACE", `"Ethernet 4 "`)), []string{
			`36:17: Invalid interface name: nic "r0" of host "win1" has interface "Ethernet 4 ", which starts or ends with a space; write the adapter name as Get-NetAdapter shows it.`,
		}},
		// A spelling of a supported Windows release suggests it by
		// meaning ("2022r2" is not "2012r2"), without the PowerShell
		// reason that is only for real releases older than those.
		{"windows 2022r2", edit(winVersion(windowsHost, "2022r2")), []string{
			`34:16: Invalid os_version: host "win1" has os_version "2022r2", which is not how fabricc names a Windows release. Write one of "2012r2", "2016", "2019", "2022", "2025", "21h2", "22h2" or "23h2" (Windows Server, or Azure Stack HCI by its version), lower case as shown. Did you mean "2022"?`,
		}},
		{"windows Server2022", edit(winVersion(windowsHost, "Server2022")), []string{
			`34:16: Invalid os_version: host "win1" has os_version "Server2022", which is not how fabricc names a Windows release. Write one of "2012r2", "2016", "2019", "2022", "2025", "21h2", "22h2" or "23h2" (Windows Server, or Azure Stack HCI by its version), lower case as shown. Did you mean "2022"?`,
		}},
		{"windows 2012R2 in capitals", edit(winVersion(windowsHost, "2012R2")), []string{
			`34:16: Invalid os_version: host "win1" has os_version "2012R2", which is not how fabricc names a Windows release. Write one of "2012r2", "2016", "2019", "2022", "2025", "21h2", "22h2" or "23h2" (Windows Server, or Azure Stack HCI by its version), lower case as shown. Did you mean "2012r2"?`,
		}},
		{"windows 2008r2", edit(winVersion(windowsHost, "2008r2")), []string{
			`34:16: Unsupported os_version: host "win1" runs Windows "2008r2", which is not a release fabricc writes scripts for: the script needs Windows PowerShell 4.0 or later (its #Requires -RunAsAdministrator line) and the Windows Server 2012 R2 DCB and NetQos cmdlets. Write one of "2012r2", "2016", "2019", "2022", "2025", "21h2", "22h2" or "23h2" (Windows Server, or Azure Stack HCI by its version), lower case as shown.`,
		}},
		{"windows release fabricc does not know", edit(winVersion(windowsHost, "2024")), []string{
			`34:16: Invalid os_version: host "win1" has os_version "2024", which is not a Windows release fabricc knows. Write one of "2012r2", "2016", "2019", "2022", "2025", "21h2", "22h2" or "23h2" (Windows Server, or Azure Stack HCI by its version), lower case as shown.`,
		}},
		{"cumulus os_version that is not a release", edit("", `model    = "SN2700"`, "model    = \"SN2700\"\n  os_version = \"model.json\""), []string{
			`11:16: Invalid os_version: switch "leaf1" runs cumulus, and "model.json" is not one of its releases; write it as the switch prints it, such as "5.9.2".`,
		}},
		{"cumulus before NVUE QoS", edit("", `model    = "SN2700"`, "model    = \"SN2700\"\n  os_version = \"5.2\""), []string{
			`11:16: Unsupported os_version: switch "leaf1" runs Cumulus Linux 5.2, which has no NVUE QoS profiles (they arrived in 5.3); declare os_version 5.3 or later.`,
		}},
		{"onyx os_version that is not a release", edit("", `"cumulus"`, `"onyx"`, `model    = "SN2700"`, "model    = \"SN2700\"\n  os_version = \"3.9\"", `"swp1-4"`, `"1/1-1/4"`, `leaf1:swp2`, `leaf1:1/2`), []string{
			`11:16: Invalid os_version: switch "leaf1" runs onyx, and "3.9" is not one of its releases; write it as the switch prints it, such as "3.9.3202".`,
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

// vlanIf is an interface attribute's value ifc followed by a
// vlan_interface line with value v.
func vlanIf(ifc, v string) string {
	return "interface = " + ifc + "\n    vlan_interface = " + v
}

// renamed is bsdHost with interface ifc and driver_interface drv.
func renamed(bsdHost, ifc, drv string) string {
	return strings.Replace(bsdHost, `interface = "eth0"`, "interface = \""+ifc+"\"\n    driver_interface = \""+drv+"\"", 1)
}

// TestDriverInterface: a FreeBSD NIC rc.conf renames keeps the driver's
// name in the model, which the FreeBSD target's sysctls use.
func TestDriverInterface(t *testing.T) {
	bsd := "host \"nas\" {\n  os = \"freebsd\"\n  nic \"r0\" {\n    model     = \"ConnectX-4\"\n    interface = \"eth0\"\n    speed     = \"25G\"\n  }\n}\nlink {\n  a      = \"leaf1:swp3\"\n  b      = \"nas:r0\"\n  length = 2\n}\n"
	f, src, diags := lowerSrc(t, edit(renamed(bsd, "rdma0", "mce0")))
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if !src.Has("host", "nas", "nic", "r0", "driver_interface") {
		t.Errorf("driver_interface not recorded at host/nas/nic/r0/driver_interface")
	}
	for _, h := range f.Hosts {
		if h.Name == "nas" && (h.NICs[0].Interface != "rdma0" || h.NICs[0].DriverInterface != "mce0") {
			t.Errorf("nic = %q, driver's %q; want rdma0, mce0", h.NICs[0].Interface, h.NICs[0].DriverInterface)
		}
	}
}

// winVersion is windowsHost with os_version v and an adapter name.
func winVersion(windowsHost, v string) string {
	h := strings.ReplaceAll(windowsHost, "IFACE", `"Ethernet 4"`)
	return strings.Replace(h, `os = "windows"`, "os = \"windows\"\n  os_version = \""+v+"\"", 1)
}

// TestVLANInterfaceModel: a Linux NIC's vlan_interface reaches the model,
// with its source recorded, and names the VLAN device (model.NIC.VLANName);
// without it the name is interface.VID.
func TestVLANInterfaceModel(t *testing.T) {
	for _, tc := range []struct{ src, field, name string }{
		{edit("", `interface = "ens1f0"`, vlanIf(`"enp129s0f1np1"`, `"vl100"`)), "vl100", "vl100"},
		{edit(""), "", "ens1f0.100"},
	} {
		f, src, diags := lowerSrc(t, tc.src)
		if len(diags) != 0 {
			t.Fatalf("diagnostics: %v", diags)
		}
		n := &f.Hosts[0].NICs[0]
		if n.VLANInterface != tc.field || n.VLANName() != tc.name {
			t.Errorf("VLANInterface %q, VLANName %q; want %q, %q", n.VLANInterface, n.VLANName(), tc.field, tc.name)
		}
		if src.Has("host", "gpu01", "nic", "roce0", "vlan_interface") == (tc.field == "") {
			t.Errorf("vlan_interface %q: source recorded = %v", tc.field, tc.field == "")
		}
	}
}

// TestVLANInterfaceWithoutVLAN: vlan_interface on an untagged NIC has
// nothing to name.
func TestVLANInterfaceWithoutVLAN(t *testing.T) {
	_, _, got := lowerSrc(t, edit("", "    vlan      = 100\n", "", `interface = "ens1f0"`, vlanIf(`"ens1f0"`, `"vl100"`)))
	want := `22:22: vlan_interface without a VLAN: nic "roce0" of host "gpu01" has vlan_interface "vl100" but no vlan, so there is no VLAN interface to name; add vlan = N, or remove vlan_interface.`
	if len(got) != 1 || got[0] != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), want)
	}
}
