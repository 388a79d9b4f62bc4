package compiler

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// edit returns minimalFabric with each (old, new) pair replaced once and
// extra appended.
func edit(extra string, pairs ...string) string {
	s := minimalFabric
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			panic(fmt.Sprintf("edit: %q is not in minimalFabric", pairs[i]))
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s + extra
}

// errorCases are complete small fabrics with one mistake each, and the
// exact diagnostics lower must give.
var errorCases = []struct {
	name string
	src  string
	want []string
}{
	{name: "duplicate switch", src: edit("switch \"leaf1\" {\n  platform = \"eos\"\n  model    = \"7050CX3-32S\"\n}\n"), want: []string{
		"32:8: Duplicate switch: switch \"leaf1\" is declared twice; rename one or merge the blocks.",
		"  note 8:8: switch \"leaf1\" is first declared here",
	}},
	{name: "duplicate host", src: edit("host \"gpu01\" {\n  os = \"linux\"\n}\n"), want: []string{
		"32:6: Duplicate host: host \"gpu01\" is declared twice; rename one or merge the blocks.",
		"  note 17:6: host \"gpu01\" is first declared here",
	}},
	{name: "device named twice", src: edit("host \"leaf1\" {\n  os = \"linux\"\n}\n"), want: []string{
		"32:6: Duplicate device name: host \"leaf1\" has the name of a switch; links name devices, so every switch and host needs its own name.",
		"  note 8:8: switch \"leaf1\" is declared here",
	}},
	{name: "duplicate port", src: edit("", "  port \"swp1-4\" {", "  port \"swp4\" {\n    speed = \"25G\"\n  }\n  port \"swp1-4\" {"), want: []string{
		"14:8: Duplicate port: port swp4 of switch \"leaf1\" is declared twice; declare each port in one port block and change it with an override block.",
		"  note 11:3: port swp4 is first declared here",
	}},
	{name: "override undeclared port", src: edit("", "    vlans = [100]\n  }\n", "    vlans = [100]\n  }\n  override \"swp5\" {\n    mtu = 9000\n  }\n"), want: []string{
		"15:12: Override of an undeclared port: switch \"leaf1\" has no port swp5 to override; declare it in a port block first.",
	}},
	{name: "port without speed", src: edit("", "    speed = \"100G\"\n", ""), want: []string{
		"11:3: Port has no speed: port \"swp1-4\" on switch \"leaf1\" has no speed; set speed (e.g. speed = \"100G\") in its port block or an override.",
	}},
	{name: "bad speed", src: edit("", "\"100G\"", "\"25Gb\""), want: []string{
		"12:13: Invalid speed: \"25Gb\" is not a port speed; write one of 100M, 1G, 10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G. Did you mean \"25G\"?",
	}},
	{name: "speed as a bare number", src: edit("", "\"100G\"", "100"), want: []string{
		"12:13: Invalid speed: \"100\" is not a port speed; write one of 100M, 1G, 10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G. Did you mean \"100G\"?",
	}},
	{name: "NIC speed as datasheets write it", src: edit("", "    vlan      = 100\n", "    vlan      = 100\n    speed     = \"100GbE\"\n"), want: []string{
		"23:17: Invalid speed: \"100GbE\" is not a port speed; write one of 100M, 1G, 10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G. Did you mean \"100G\"?",
	}},
	{name: "bad port name", src: edit("", "\"swp1-4\"", "\"1/1-1/4\""), want: []string{
		"11:8: Invalid port name: switch \"leaf1\" runs cumulus, and \"1/1\" is not a port name there: Cumulus ports are \"swpN\", or \"swpNsM\" for a breakout port.",
	}},
	// A missing end says what to write and what the other end is; the
	// written end counts as cabled (no "NIC not cabled" for gpu01 when
	// a names it).
	{name: "link without b", src: edit("", "  b      = \"leaf1:swp2\"\n", ""), want: []string{
		"27:1: Missing link end: the link has a = \"gpu01:roce0\" but no b; write b = \"SWITCH:PORT\" for a switch port or b = \"HOST:NIC\" for a host's NIC, the other end of the cable from nic \"roce0\" of host \"gpu01\".",
		"  note 28:12: a is written here",
	}},
	// The NIC left uncabled is named in the error, not reported apart.
	{name: "link without a", src: edit("", "  a      = \"gpu01:roce0\"\n", ""), want: []string{
		"27:1: Missing link end: the link has b = \"leaf1:swp2\" but no a; write a = \"SWITCH:PORT\" for a switch port or a = \"HOST:NIC\" for a host's NIC, the other end of the cable from port swp2 of switch \"leaf1\" (100G, trunk). No link cables nic \"roce0\" of host \"gpu01\"; if this end was meant to be it, a = \"gpu01:roce0\" fixes both.",
		"  note 28:12: b is written here",
	}},
	{name: "link without ends", src: edit("", "  a      = \"gpu01:roce0\"\n  b      = \"leaf1:swp2\"\n", ""), want: []string{
		"27:1: Missing link end: the link has neither a nor b; write the two ends of the cable, each \"SWITCH:PORT\" for a switch port or \"HOST:NIC\" for a host's NIC (a = \"leaf1:swp1\", b = \"gpu01:roce0\").",
		"19:3: NIC not cabled: no link block cables nic \"roce0\" of host \"gpu01\", so it has no switch port to take its speed from. Add a link block with a = \"SWITCH:PORT\" and b = \"gpu01:roce0\"; if the NIC is cabled to a device the fabric does not describe, set its speed instead (e.g. speed = \"25G\").",
	}},
	// A one-NIC host's only NIC is the suggestion, and gets no "NIC not
	// cabled" error of its own.
	{name: "unknown nic of a one-nic host", src: edit("", "\"gpu01:roce0\"", "\"gpu01:eth0\""), want: []string{
		"28:12: Unknown NIC: host \"gpu01\" has no nic \"eth0\" (it declares nic \"roce0\"); name one of those, or declare it in a nic block. Did you mean \"roce0\"?",
	}},
	// No suggestion: the host's uncabled NICs are named in the error.
	{name: "unknown nic of a two-nic host", src: edit("", "\"gpu01:roce0\"", "\"gpu01:eth0\"",
		"    addresses = [\"192.168.100.11/24\"]\n  }\n", "    addresses = [\"192.168.100.11/24\"]\n  }\n  nic \"roce1\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f1\"\n    vlan      = 100\n    addresses = [\"192.168.101.12/24\"]\n  }\n"), want: []string{
		"34:12: Unknown NIC: host \"gpu01\" has no nic \"eth0\" (it declares nic \"roce0\", \"roce1\"); name one of those, or declare it in a nic block. No link cables gpu01:roce0, gpu01:roce1; if this end was meant to be one of them, correcting a fixes both.",
	}},
	{name: "bad port spec", src: edit("", "\"swp1-4\"", "\"swp4-1\""), want: []string{
		"11:8: Invalid port spec: \"swp4-1\": the range counts down (4 > 1); write the lower port first.",
	}},
	{name: "unknown platform", src: edit("", "\"cumulus\"", "\"onxy\""), want: []string{
		"9:14: Unknown platform: switch \"leaf1\" has platform \"onxy\"; fabricc renders \"onyx\", \"eos\" or \"cumulus\". Did you mean \"onyx\"?",
	}},
	{name: "undeclared vlan", src: edit("", "vlans = [100]", "vlans = [100, 200]"), want: []string{
		// 100 is in the list already: not suggested.
		"13:13: Undeclared VLAN: port \"swp1-4\" on switch \"leaf1\" uses VLAN 200, which no vlan block declares; add vlan \"name\" { id = 200 }.",
	}},
	{name: "misspelt vlan", src: edit("", "vlans = [100]", "vlans = [10]"), want: []string{
		"13:13: Undeclared VLAN: port \"swp1-4\" on switch \"leaf1\" uses VLAN 10, which no vlan block declares; add vlan \"name\" { id = 10 }. Did you mean 100?",
	}},
	{name: "vlan id 5000", src: edit("vlan \"big\" {\n  id = 5000\n}\n"), want: []string{
		"33:8: Invalid VLAN id: vlan \"big\" has id 5000; 802.1Q VLAN ids are 1-4094.",
	}},
	{name: "access port with two vlans", src: edit("", "vlans = [100]", "mode  = \"access\"\n    vlans = [100, 101]"), want: []string{
		"14:13: Undeclared VLAN: port \"swp1-4\" on switch \"leaf1\" uses VLAN 101, which no vlan block declares; add vlan \"name\" { id = 101 }.",
		"14:13: Access port needs one VLAN: port \"swp1-4\" on switch \"leaf1\" is an access port, which carries exactly one VLAN, but its vlans list 2; write vlans = [ID], or mode = \"trunk\" for several.",
	}},
	{name: "bad mtu", src: edit("", "vlans = [100]", "vlans = [100]\n    mtu   = 10000"), want: []string{
		"14:13: Invalid MTU: MTU 10000 is out of range; ports on switch \"leaf1\" take 552-9216 bytes (the platform's maximum).",
	}},
	{name: "unknown nic model", src: edit("", "\"ConnectX-6 Dx\"", "\"ConnectX-8\""), want: []string{
		"20:17: Unknown NIC model: nic \"roce0\" of host \"gpu01\" has model \"ConnectX-8\"; fabricc knows \"ConnectX-3 Pro\", \"ConnectX-4\", \"ConnectX-4 Lx\", \"ConnectX-5\", \"ConnectX-6\", \"ConnectX-6 Dx\", \"ConnectX-7\" or \"QL45212\". Host scripts exist for these models only (docs/models.md, NIC models): write one of them, or leave this host out of the fabric.",
	}},
	{name: "winof on connectx-4", src: edit("", "os = \"linux\"\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"", "os = \"windows\"\n  nic \"roce0\" {\n    model     = \"ConnectX-4\"\n    driver    = \"winof\""), want: []string{
		"21:17: Driver does not fit the NIC: WinOF supports ConnectX-3 and ConnectX-3 Pro only; a ConnectX-4 needs WinOF-2: write driver = \"winof2\" (Mellanox WinOF User Manual and Release Notes, Rev 5.50, §3.3.1).",
	}},
	{name: "winof2 on connectx-3 pro", src: edit("", "os = \"linux\"\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"", "os = \"windows\"\n  nic \"roce0\" {\n    model     = \"ConnectX-3 Pro\"\n    driver    = \"winof2\"\n    speed     = \"40G\""), want: []string{
		"21:17: Driver does not fit the NIC: WinOF-2 supports ConnectX-4 and later only; a ConnectX-3 Pro needs driver = \"winof\" (Mellanox WinOF-2 User Manual, Rev 1.21, §2.3).",
	}},
	{name: "iwarp on connectx", src: edit("", "vlan      = 100\n", "vlan      = 100\n    transport = \"iwarp\"\n"), want: []string{
		"23:17: iWARP needs a QLogic NIC: nic \"roce0\" of host \"gpu01\" is a ConnectX-6 Dx, which runs RoCE only; iWARP is available on QLogic FastLinQ (QL45212). Remove transport or write \"roce\".",
	}},
	{name: "duplicate address", src: edit("host \"gpu02\" {\n  os = \"linux\"\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f0\"\n    vlan      = 100\n    addresses = [\"192.168.100.11/24\"]\n  }\n}\nlink {\n  a      = \"gpu02:roce0\"\n  b      = \"leaf1:swp3\"\n  length = 3\n}\n"), want: []string{
		"38:17: Duplicate IP address: gpu02:roce0 has address 192.168.100.11, which gpu01:roce0 already has; every NIC needs its own address. Change one of them.",
		"  note 23:17: gpu01:roce0 has 192.168.100.11/24",
	}},
	{name: "bad address", src: edit("", "192.168.100.11/24", "192.168.100.300/24"), want: []string{
		"23:17: Invalid address: nic \"roce0\" of host \"gpu01\": \"192.168.100.300/24\" is not an address in CIDR form; write it like \"192.168.10.11/24\" or \"fd00::11/64\".",
	}},
	{name: "broadcast address", src: edit("", "192.168.100.11/24", "192.168.100.255/24"), want: []string{
		"23:17: Not a host address: nic \"roce0\" of host \"gpu01\": 192.168.100.255/24 is the broadcast address of subnet 192.168.100.0/24: IP stacks read an address whose host part is all zeros or all ones as the subnet itself or its broadcast, not as a host (RFC 1122, section 3.2.1.3), so the NIC cannot use it. Write an address from 192.168.100.1 to 192.168.100.254.",
	}},
	{name: "network address", src: edit("", "192.168.100.11/24", "192.168.100.0/24"), want: []string{
		"23:17: Not a host address: nic \"roce0\" of host \"gpu01\": 192.168.100.0/24 is the network address of subnet 192.168.100.0/24: IP stacks read an address whose host part is all zeros or all ones as the subnet itself or its broadcast, not as a host (RFC 1122, section 3.2.1.3), so the NIC cannot use it. Write an address from 192.168.100.1 to 192.168.100.254.",
	}},
	{name: "broadcast address of a /30", src: edit("", "192.168.100.11/24", "192.168.100.7/30"), want: []string{
		"23:17: Not a host address: nic \"roce0\" of host \"gpu01\": 192.168.100.7/30 is the broadcast address of subnet 192.168.100.4/30: IP stacks read an address whose host part is all zeros or all ones as the subnet itself or its broadcast, not as a host (RFC 1122, section 3.2.1.3), so the NIC cannot use it. Write an address from 192.168.100.5 to 192.168.100.6.",
	}},
	// A /31 has no network or broadcast address (RFC 3021), a /32 and
	// IPv6 neither.
	{name: "both addresses of a /31", src: edit("", "192.168.100.11/24", "192.168.100.0/31"), want: nil},
	{name: "upper address of a /31", src: edit("", "192.168.100.11/24", "192.168.100.1/31"), want: nil},
	{name: "host route", src: edit("", "192.168.100.11/24", "192.168.100.255/32"), want: nil},
	{name: "IPv6 all-zeros host part", src: edit("", "192.168.100.11/24", "fd00::/64"), want: nil},
	{name: "unknown application", src: edit("", "vlan      = 100\n", "vlan      = 100\n    applications = [\"smb\"]\n"), want: []string{
		"23:20: Unknown application: nic \"roce0\" of host \"gpu01\" lists application \"smb\"; fabricc knows \"iscsi\", \"iser\", \"lustre\", \"mpi\", \"nccl\", \"nfs-rdma\", \"nvme-of\", \"nvme-tcp\" or \"smb-direct\".",
	}},
	{name: "nic without speed", src: edit("", "b      = \"leaf1:swp2\"", "b      = \"leaf1:swp2\"\n  cable  = \"dac\"", "addresses = [\"192.168.100.11/24\"]\n  }\n", "addresses = [\"192.168.100.11/24\"]\n  }\n  nic \"roce1\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f1\"\n  }\n"), want: []string{
		"25:3: NIC not cabled: no link block cables nic \"roce1\" of host \"gpu01\", so it has no switch port to take its speed from. Add a link block with a = \"SWITCH:PORT\" and b = \"gpu01:roce1\"; if the NIC is cabled to a device the fabric does not describe, set its speed instead (e.g. speed = \"25G\").",
	}},
	{name: "link to unknown port", src: edit("", "leaf1:swp2", "leaf1:swp22"), want: []string{
		"29:12: Unknown port: switch \"leaf1\" has no port swp22; declare it in a port block. Did you mean \"swp2\"?",
	}},
	{name: "link to unknown device", src: edit("", "leaf1:swp2", "leaf2:swp2"), want: []string{
		"29:12: Unknown device: no switch or host is named \"leaf2\". Did you mean \"leaf1\"?",
	}},
	// Devices named 0, 1 by a dynamic block over a list: the hint says why.
	{name: "link to unknown device, devices named by index", src: edit("switch \"0\" {\n  platform = \"eos\"\n  model    = \"7050CX3-32S\"\n}\nswitch \"1\" {\n  platform = \"eos\"\n  model    = \"7050CX3-32S\"\n}\n", "leaf1:swp2", "spine-a:swp2"), want: []string{
		"29:12: Unknown device: no switch or host is named \"spine-a\". The fabric has devices named only by digits (\"0\", \"1\"): a dynamic block whose for_each is a list, such as keys(...), gives each instance its index as key, so labels = [x.key] names them 0, 1, 2, ...; label them with x.value, or write for_each = toset(...).",
	}},
	{name: "link to unknown nic", src: edit("", "gpu01:roce0", "gpu01:roce1"), want: []string{
		"28:12: Unknown NIC: host \"gpu01\" has no nic \"roce1\" (it declares nic \"roce0\"); name one of those, or declare it in a nic block. Did you mean \"roce0\"?",
	}},
	// The NIC a misspelt link end means gets no follow-on error for the
	// missing link; a NIC no link end means does.
	{name: "link to misspelt host", src: edit("", "gpu01:roce0", "gpu02:roce0"), want: []string{
		"28:12: Unknown device: no switch or host is named \"gpu02\". Did you mean \"gpu01\"?",
	}},
	{name: "link to unknown host", src: edit("", "gpu01:roce0", "storage:roce0"), want: []string{
		"28:12: Unknown device: no switch or host is named \"storage\".",
		"19:3: NIC not cabled: no link block cables nic \"roce0\" of host \"gpu01\", so it has no switch port to take its speed from. Add a link block with a = \"SWITCH:PORT\" and b = \"gpu01:roce0\"; if the NIC is cabled to a device the fabric does not describe, set its speed instead (e.g. speed = \"25G\").",
	}},
	{name: "link to misspelt host and NIC", src: edit("", "gpu01:roce0", "gpu02:roce9"), want: []string{
		"28:12: Unknown device: no switch or host is named \"gpu02\". Did you mean \"gpu01\"?",
		"19:3: NIC not cabled: no link block cables nic \"roce0\" of host \"gpu01\", so it has no switch port to take its speed from. Add a link block with a = \"SWITCH:PORT\" and b = \"gpu01:roce0\"; if the NIC is cabled to a device the fabric does not describe, set its speed instead (e.g. speed = \"25G\").",
	}},
	{name: "bad link end", src: edit("", "leaf1:swp2", "leaf:swp2:"), want: []string{
		"29:12: Unknown device: no switch or host is named \"leaf\". Did you mean \"leaf1\"?",
	}},
	{name: "link end without a colon", src: edit("", "leaf1:swp2", "leaf1swp2"), want: []string{
		"29:12: Invalid link end: link end \"leaf1swp2\" is not \"device:port\"; write it like \"leaf1:swp1\" or \"gpu01:roce0\".",
	}},
	{name: "link end naming a switch only", src: edit("", "leaf1:swp2", "leaf1"), want: []string{
		"29:12: Invalid link end: link end \"leaf1\" names switch \"leaf1\" but none of its ports; write b = \"leaf1:PORT\", with the port's name for PORT.",
	}},
	// The NIC a link end naming its host (but no NIC) leaves without a
	// link is named in that end's error, not reported again.
	{name: "link end naming a host only", src: edit("", "a      = \"gpu01:roce0\"", "a      = \"gpu01\""), want: []string{
		"28:12: Invalid link end: link end \"gpu01\" names host \"gpu01\" but none of its NICs; write a = \"gpu01:NIC\", with the name of its nic block for NIC (the host declares nic \"roce0\"). No link cables nic \"roce0\" of host \"gpu01\"; if this end was meant to be it, a = \"gpu01:roce0\" fixes both.",
	}},
	// A link from a port to itself: a is right, b repeats it. The NIC
	// left without a link is the one b most likely meant.
	{name: "link joining a port to itself", src: edit("", "a      = \"gpu01:roce0\"", "a      = \"leaf1:swp2\""), want: []string{
		"29:12: Link joins a port to itself: a and b both name \"leaf1:swp2\"; a link is one cable between two different ports. Write the far end of the cable in b: \"HOST:NIC\" for a host, \"SWITCH:PORT\" for a switch. No link cables nic \"roce0\" of host \"gpu01\"; if this end was meant to be it, b = \"gpu01:roce0\" fixes both.",
		"  note 28:12: a names the same end",
	}},
	// Two NICs without a link and one self-link: which one it meant is
	// unknown, so each NIC keeps its error.
	{name: "link joining a port to itself, two NICs uncabled", src: edit("host \"gpu02\" {\n  os = \"linux\"\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f0\"\n  }\n}\n", "a      = \"gpu01:roce0\"", "a      = \"leaf1:swp2\""), want: []string{
		"29:12: Link joins a port to itself: a and b both name \"leaf1:swp2\"; a link is one cable between two different ports. Write the far end of the cable in b: \"HOST:NIC\" for a host, \"SWITCH:PORT\" for a switch.",
		"  note 28:12: a names the same end",
		"19:3: NIC not cabled: no link block cables nic \"roce0\" of host \"gpu01\", so it has no switch port to take its speed from. Add a link block with a = \"SWITCH:PORT\" and b = \"gpu01:roce0\"; if the NIC is cabled to a device the fabric does not describe, set its speed instead (e.g. speed = \"25G\").",
		"34:3: NIC not cabled: no link block cables nic \"roce0\" of host \"gpu02\", so it has no switch port to take its speed from. Add a link block with a = \"SWITCH:PORT\" and b = \"gpu02:roce0\"; if the NIC is cabled to a device the fabric does not describe, set its speed instead (e.g. speed = \"25G\").",
	}},
	// A NIC with a speed and no link is a warning in a fabric with
	// switches (its path is checked against no port).
	{name: "nic with speed and no link", src: edit("host \"gpu02\" {\n  os = \"linux\"\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f0\"\n    speed     = \"100G\"\n  }\n}\n"), want: []string{
		"34:3: NIC not cabled: no link block cables nic \"roce0\" of host \"gpu02\", so its speed, MTU, VLAN tagging and PFC are checked against no switch port, though its host script configures it. Add a link block with a = \"SWITCH:PORT\" and b = \"gpu02:roce0\", or acknowledge this warning if the NIC is cabled to a device the fabric does not describe.",
	}},
	{name: "two NICs on one interface", src: edit("", "addresses = [\"192.168.100.11/24\"]\n  }\n", "addresses = [\"192.168.100.11/24\"]\n  }\n  nic \"roce1\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f0\"\n    speed     = \"100G\"\n  }\n", "  length = 3\n}\n", "  length = 3\n}\nlink {\n  a      = \"gpu01:roce1\"\n  b      = \"leaf1:swp3\"\n  length = 3\n}\n"), want: []string{
		"27:17: Two NICs on one interface: nic \"roce1\" of host \"gpu01\" has interface \"ens1f0\", which nic \"roce0\" of the same host already has; each nic block is one port of the host and needs its own OS interface, or the host script configures that interface twice (MTU, VLAN and addresses of both NICs on one device). Write the interface this NIC really is, or remove one of the two nic blocks.",
		"  note 21:17: nic \"roce0\" has interface \"ens1f0\"",
	}},
	// Windows adapter names are not case-sensitive.
	{name: "two NICs on one Windows adapter", src: edit("", "os = \"linux\"", "os = \"windows\"", "\"ens1f0\"", "\"Ethernet 4\"", "addresses = [\"192.168.100.11/24\"]\n  }\n", "addresses = [\"192.168.100.11/24\"]\n  }\n  nic \"roce1\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ethernet 4\"\n    speed     = \"100G\"\n  }\n", "  length = 3\n}\n", "  length = 3\n}\nlink {\n  a      = \"gpu01:roce1\"\n  b      = \"leaf1:swp3\"\n  length = 3\n}\n"), want: []string{
		"27:17: Two NICs on one interface: nic \"roce1\" of host \"gpu01\" has interface \"ethernet 4\", which nic \"roce0\" of the same host already has; each nic block is one port of the host and needs its own OS interface, or the host script configures that interface twice (MTU, VLAN and addresses of both NICs on one device). Write the interface this NIC really is, or remove one of the two nic blocks.",
		"  note 21:17: nic \"roce0\" has interface \"Ethernet 4\"",
	}},
	{name: "two Linux NICs whose interfaces differ in case", src: edit("", "addresses = [\"192.168.100.11/24\"]\n  }\n", "addresses = [\"192.168.100.11/24\"]\n  }\n  nic \"roce1\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ENS1F0\"\n    speed     = \"100G\"\n  }\n", "  length = 3\n}\n", "  length = 3\n}\nlink {\n  a      = \"gpu01:roce1\"\n  b      = \"leaf1:swp3\"\n  length = 3\n}\n"), want: nil},
	{name: "port used by two links", src: edit("link {\n  a      = \"leaf1:swp2\"\n  b      = \"gpu01:roce0\"\n  length = 1\n}\n"), want: []string{
		"33:12: Cabled twice: port swp2 of switch \"leaf1\" is already cabled by another link; one end takes one cable.",
		"  note 29:12: the other link is here",
		"34:12: Cabled twice: nic \"roce0\" of host \"gpu01\" is already cabled by another link; one end takes one cable.",
		"  note 28:12: the other link is here",
	}},
	{name: "bad cable", src: edit("", "length = 3", "length = 3\n  cable  = \"copper\""), want: []string{
		"31:12: Invalid cable kind: cable \"copper\" is not known; write \"dac\", \"aoc\" or \"fibre\".",
	}},
	{name: "bad length", src: edit("", "length = 3", "length = 0"), want: []string{
		"30:12: Invalid cable length: length 0 is out of range; write the cable length in metres, more than 0 and at most 10000.",
	}},
	{name: "unknown profile", src: edit("qos {\n  profile = \"nvidia\"\n}\n"), want: []string{
		"33:13: Unknown QoS profile: profile \"nvidia\" is not a built-in profile; write \"nvidia-roce\" or \"none\".",
	}},
	{name: "priority 9", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"roce\" {\n    priority = 9\n  }\n}\n"), want: []string{
		"35:16: Invalid priority: class \"roce\" priority 9 is out of range; 802.1p priorities are 0-7.",
	}},
	{name: "DSCP 70", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"roce\" {\n    dscp = [70]\n  }\n}\n"), want: []string{
		"35:12: Invalid DSCP: class \"roce\" DSCP 70 is out of range; DSCP values are 0-63.",
	}},
	{name: "DSCP in two classes", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"cnp\" {\n    dscp = [48, 26]\n  }\n}\n"), want: []string{
		"35:12: DSCP in two classes: DSCP 26 is in class \"roce\" and in class \"cnp\"; each DSCP belongs to one class only.",
		"  note 33:13: class \"roce\" has DSCP 26",
	}},
	{name: "priority in two classes", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"cnp\" {\n    priorities = [3]\n  }\n}\n"), want: []string{
		"35:18: Priority in two classes: priority 3 is in class \"roce\" and in class \"cnp\"; each priority belongs to one class only. Take 3 out of class \"cnp\"'s priorities, or put a priority no class names in its place (1, 2, 4, 5 or 7).",
		"  note 33:13: class \"roce\" has priority 3",
	}},
	// storage's traffic_class is not written, so it is its priority: the
	// shared queue follows from the shared priority and is not reported
	// again; the profile's shares are named with the override.
	{name: "priority in two classes, queue follows", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"storage\" {\n    priority  = 3\n    dscp      = [34]\n    bandwidth = 20\n  }\n}\n"), want: []string{
		"35:17: Priority in two classes: priority 3 is in class \"roce\" and in class \"storage\"; each priority belongs to one class only. Give class \"storage\" a priority no class names, 1, 2, 4, 5 or 7 (priority = 1, say); the class's dscp values follow it.",
		"  note 33:13: class \"roce\" has priority 3",
		"37:17: ETS bandwidths do not sum to 100: The WRR classes share the link: roce 50 (profile) + default 50 (profile) + storage 20 = 120 %; make the bandwidths sum to 100. The profile \"nvidia-roce\" gives roce and default their shares; a class block of the same name overrides only what it sets: class \"default\" { bandwidth = 30 }.",
	}},
	// A written traffic_class is a choice of its own: still reported.
	{name: "priority in two classes, queue written", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"storage\" {\n    priority      = 3\n    traffic_class = 3\n    dscp          = [34]\n    strict        = true\n  }\n}\n"), want: []string{
		"35:21: Priority in two classes: priority 3 is in class \"roce\" and in class \"storage\"; each priority belongs to one class only. Give class \"storage\" a priority no class names, 1, 2, 4, 5 or 7 (priority = 1, say); the class's dscp values follow it.",
		"  note 33:13: class \"roce\" has priority 3",
		"36:21: Traffic class used twice: classes \"roce\" and \"storage\" both use traffic class 3; give each class its own egress queue (traffic_class 0-7).",
		"  note 33:13: class \"roce\" uses traffic class 3",
	}},
	{name: "traffic class 9", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"cnp\" {\n    traffic_class = 9\n  }\n}\n"), want: []string{
		"35:21: Invalid traffic class: class \"cnp\" traffic_class 9 is out of range; traffic classes (egress queues) are 0-7.",
	}},
	{name: "traffic class used twice", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"cnp\" {\n    traffic_class = 3\n  }\n}\n"), want: []string{
		"35:21: Traffic class used twice: classes \"roce\" and \"cnp\" both use traffic class 3; give each class its own egress queue (traffic_class 0-7).",
		"  note 33:13: class \"roce\" uses traffic class 3",
	}},
	{name: "ETS bandwidths sum to 90", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"default\" {\n    bandwidth = 40\n  }\n}\n"), want: []string{
		"35:17: ETS bandwidths do not sum to 100: The WRR classes share the link: roce 50 (profile) + default 40 = 90 %; make the bandwidths sum to 100. The profile \"nvidia-roce\" gives roce its share; a class block of the same name overrides only what it sets: class \"roce\" { bandwidth = 60 }.",
	}},
	{name: "strict class with bandwidth", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"cnp\" {\n    strict    = true\n    bandwidth = 10\n  }\n}\n"), want: []string{
		"36:17: Strict class with bandwidth: class \"cnp\" has strict = true and bandwidth = 10; a strict class is served first and has no WRR share. Remove one of the two.",
	}},
	{name: "wrr class without bandwidth", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"bulk\" {\n    priority = 1\n    dscp     = [10]\n  }\n}\n"), want: []string{
		"34:3: Class has no bandwidth: class \"bulk\" is scheduled by WRR but has no bandwidth; set bandwidth (percent of the link) or strict = true.",
	}},
	{name: "lossless class without ECN", src: edit("qos {\n  profile = \"none\"\n  class \"rdma\" {\n    priority  = 3\n    dscp      = [26]\n    lossless  = true\n    bandwidth = 60\n  }\n  class \"rest\" {\n    priority  = 0\n    default   = true\n    bandwidth = 40\n  }\n}\n"), want: []string{
		"34:3: Lossless class without ECN: class \"rdma\" is lossless but has no ecn block; lossless classes need ECN marking (DCQCN) so senders slow down before PFC pauses the link. Add ecn { min = \"150KB\" max = \"1500KB\" }.",
	}},
	{name: "no default class", src: edit("qos {\n  class \"rdma\" {\n    priority  = 3\n    dscp      = [26]\n    lossless  = true\n    bandwidth = 100\n    ecn {\n      min = \"150KB\"\n      max = \"1500KB\"\n    }\n  }\n}\n"), want: []string{
		"32:1: No default class: No class has default = true; exactly one class must take the DSCP values and priorities no other class names.",
	}},
	{name: "two default classes", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"default\" {\n    bandwidth = 25\n  }\n  class \"bulk\" {\n    priority  = 1\n    default   = true\n    bandwidth = 25\n  }\n}\n"), want: []string{
		"37:3: Two default classes: classes \"default\" and \"bulk\" both have default = true; exactly one class takes the DSCP values and priorities no other class names.",
		"  note 34:3: class \"default\" is the default class",
	}},
	{name: "ambiguous roce class", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"default\" {\n    bandwidth = 25\n  }\n  class \"storage\" {\n    priority  = 2\n    dscp      = [18]\n    lossless  = true\n    bandwidth = 25\n    ecn {\n      min = \"100KB\"\n      max = \"1MB\"\n    }\n  }\n}\n"), want: []string{
		"32:1: Ambiguous RoCE class: Classes \"roce\" and \"storage\" are both lossless, so fabricc cannot tell which is the RoCE class; set roce_class to one of them. roce_class is the class a NIC without class rides (its RoCE priority and DSCP), the class cluster_class must not name, and the class the fabric document and the OpenConfig notes call RoCE's; a NIC with class rides that class whatever roce_class says.",
	}},
	{name: "ambiguous roce class, three lossless", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"default\" {\n    bandwidth = 20\n  }\n  class \"storage\" {\n    priority  = 2\n    dscp      = [18]\n    lossless  = true\n    bandwidth = 15\n    ecn {\n      min = \"100KB\"\n      max = \"1MB\"\n    }\n  }\n  class \"compute\" {\n    priority  = 4\n    dscp      = [34]\n    lossless  = true\n    bandwidth = 15\n    ecn {\n      min = \"100KB\"\n      max = \"1MB\"\n    }\n  }\n}\n"), want: []string{
		"32:1: Ambiguous RoCE class: Classes \"roce\", \"storage\" and \"compute\" are all lossless, so fabricc cannot tell which is the RoCE class; set roce_class to one of them. roce_class is the class a NIC without class rides (its RoCE priority and DSCP), the class cluster_class must not name, and the class the fabric document and the OpenConfig notes call RoCE's; a NIC with class rides that class whatever roce_class says.",
	}},
	{name: "unknown roce class", src: edit("qos {\n  roce_class = \"rcoe\"\n}\n"), want: []string{
		"33:16: Unknown RoCE class: roce_class \"rcoe\" names no class; the classes are \"default\", \"roce\" or \"cnp\". Did you mean \"roce\"?",
	}},
	{name: "class without priority", src: edit("qos {\n  class \"rdma\" {\n    dscp = [26]\n  }\n}\n"), want: []string{
		"33:3: Class has no priority: class \"rdma\" has no priority; set priority (0-7), or start from the built-in classes with profile = \"nvidia-roce\" in the qos block.",
		"33:3: Class has no bandwidth: class \"rdma\" is scheduled by WRR but has no bandwidth; set bandwidth (percent of the link) or strict = true.",
	}},
	{name: "bad ECN size", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"roce\" {\n    ecn {\n      min         = \"150 KiB\"\n      probability = 0\n    }\n  }\n}\n"), want: []string{
		"36:21: Invalid size: class \"roce\" ecn min: \"150 KiB\" is not a size; write a number of bytes (153600) or a string with a unit B, KB or MB (\"150KB\", \"1.5MB\"; KB = 1024 bytes).",
		"37:21: Invalid ECN probability: class \"roce\" ecn probability 0 is out of range; write a percentage from 1 to 100.",
	}},
	{name: "ECN size in kilobits", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"roce\" {\n    ecn {\n      min = \"150kb\"\n    }\n  }\n}\n"), want: []string{
		"36:13: Invalid size: class \"roce\" ecn min: \"150kb\" reads as kilobits (a lowercase b means bits), an eighth of what fabricc would take it for, since fabricc sizes are bytes; write \"150KB\" (KB = 1024 bytes, MB = 1024 KB).",
	}},
	{name: "duplicate class", src: edit("qos {\n  profile = \"nvidia-roce\"\n  class \"roce\" {\n    priority = 3\n  }\n  class \"roce\" {\n    priority = 4\n  }\n}\n"), want: []string{
		"37:3: Duplicate class: class \"roce\" is declared twice; merge the two blocks.",
		"  note 34:3: class \"roce\" is first declared here",
	}},
	// Switches and hosts are lowered on two goroutines; their errors,
	// and the users of an undeclared VLAN, come in the order of lowering
	// one after the other.
	{name: "switch and host errors", src: edit("", "\"100G\"", "\"25Gb\"", "os = \"linux\"", "os = \"linx\""), want: []string{
		"12:13: Invalid speed: \"25Gb\" is not a port speed; write one of 100M, 1G, 10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G. Did you mean \"25G\"?",
		"18:8: Unknown host OS: host \"gpu01\" has os \"linx\"; fabricc renders \"linux\", \"windows\" or \"freebsd\". Did you mean \"linux\"?",
	}},
	{name: "duplicate vlan id with undeclared users", src: edit("vlan \"storage\" {\n  id = 100\n}\n", "vlans = [100]", "vlans = [200]", "vlan      = 100", "vlan      = 200"), want: []string{
		"33:8: Duplicate VLAN id: VLAN id 100 is declared twice; give each vlan block its own id. No vlan block declares VLAN 200 (port \"swp1-4\" on switch \"leaf1\", nic \"roce0\" of host \"gpu01\"), which ports or NICs use; if the duplicate was meant to declare one of those, correcting its id fixes both.",
		"  note 4:1: VLAN 100 is first declared here",
	}},
	{name: "invalid vlan id with undeclared users", src: edit("", "id = 100", "id = 0"), want: []string{
		"5:8: Invalid VLAN id: vlan \"rdma\" has id 0; 802.1Q VLAN ids are 1-4094. No vlan block declares VLAN 100 (port \"swp1-4\" on switch \"leaf1\", nic \"roce0\" of host \"gpu01\"), which ports or NICs use; if vlan \"rdma\" was meant to declare one of those, correcting its id fixes both.",
	}},
	{name: "duplicate vlan id", src: edit("vlan \"storage\" {\n  id = 100\n}\n"), want: []string{
		"33:8: Duplicate VLAN id: VLAN id 100 is declared twice; give each vlan block its own id.",
		"  note 4:1: VLAN 100 is first declared here",
	}},
}

func TestLowerErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, got := lowerSrc(t, tc.src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// TestEOSFirstLaneRange lowers "Ethernet1/1-3/1", lane 1 of three
// multi-lane EOS ports, as `fabricc models` prints such ranges.
func TestEOSFirstLaneRange(t *testing.T) {
	src := edit("", `"cumulus"`, `"eos"`, `"SN2700"`, `"7050CX3-32S"`, `"swp1-4"`, `"Ethernet1/1-3/1"`, `"leaf1:swp2"`, `"leaf1:Ethernet2/1"`)
	f, _, diags := lowerSrc(t, src)
	if len(diags) != 0 {
		t.Fatalf("diagnostics:\n%s", joinLines(diags))
	}
	var got []string
	for _, p := range f.Switches[0].Ports {
		got = append(got, p.Name)
	}
	if want := []string{"Ethernet1/1", "Ethernet2/1", "Ethernet3/1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ports = %q, want %q", got, want)
	}
	if peer := f.Switches[0].Ports[1].Peer; peer == nil || peer.Device != "gpu01" {
		t.Errorf("Ethernet2/1's peer = %+v, want gpu01:roce0", peer)
	}
}
