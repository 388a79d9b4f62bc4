package plan

import (
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/fabricc/fabricc/targets/docs"
	"github.com/fabricc/fabricc/targets/freebsd"
)

// A host script changes only the NICs its fabric names, and nothing
// runs on a host the fabric no longer has: what an earlier script set
// on a NIC the fabric dropped stays, and on a Linux host that ran the
// script with --install its boot unit sets it again at every boot. The
// notes below say what stays and give the commands that clear it, in
// the vocabulary of the host's own script. Interface names and
// addresses are the fabric's, which the compiler validated
// (compiler/names.go: a Linux name is 1-15 of [A-Za-z0-9_.-], not
// starting with '-'), and each still goes through the quoting rule of
// its shell: quote.ShellWord, quote.PowerShell.

// hostLeftNote follows a removed host's summary: how its settings
// come back at boot, and how to stop that.
func hostLeftNote(h *model.Host) string {
	script := quote.ShellWord(targets.HostScriptName(h))
	switch h.OS {
	case model.OSLinux:
		return "its NICs keep the script's settings, and a copy installed with --install re-applies them at every boot: on the host run the previous build's " +
			script + " --uninstall, which disables and removes fabricc-host-settings.service and /usr/local/sbin/fabricc-host-settings and leaves the settings in force; then clear each NIC as below"
	case model.OSFreeBSD:
		return "its NICs keep the script's settings, and /etc/rc.conf, /boot/loader.conf and /etc/sysctl.conf, where the script wrote them, apply them again at every boot (the script has no --uninstall): remove the lines of the previous build's " +
			quote.ShellWord(h.Name+".rc.conf") + ", " + quote.ShellWord(h.Name+".loader.conf") + " and, where it wrote one, " + quote.ShellWord(h.Name+".sysctl.conf") + " from those files; then clear each NIC as below"
	case model.OSWindows:
		s := "the script's QoS policies, traffic classes and PFC are in Windows' persistent store and stay across reboots (the script has no uninstall): remove the fabric's with Remove-NetQosPolicy and Remove-NetQosTrafficClass"
		if p := hostPFC(h); len(p) > 0 {
			s += ", Disable-NetQosFlowControl -Priority " + joinInts(p, ",")
		}
		return s + "; then clear each NIC as below"
	}
	return "nothing removes what its script set: clear it by hand"
}

// hostPFC is the union of the PFC priorities of h's NICs, ascending.
func hostPFC(h *model.Host) []int {
	var seen [8]bool
	for _, n := range h.NICs {
		for _, p := range n.RoCE.PFCPriorities {
			if p >= 0 && p < 8 {
				seen[p] = true
			}
		}
	}
	var out []int
	for p, ok := range seen {
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// joinInts is "3,4".
func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, sep)
}

// nicLeftNote follows a NIC whose host's script no longer sets it: what
// it keeps, and the commands that clear it on its host's OS.
func nicLeftNote(h *model.Host, n *model.NIC) string {
	s := "no script of the fabric sets " + n.Interface + " any more, so its " + nicKept(h, n) + " stay"
	if cmds := nicClear(h, n); len(cmds) > 0 {
		s += "; clear them on the host: " + strings.Join(cmds, "; ")
	}
	return s
}

// keptNICLeftNote is nicLeftNote for a NIC removed from a host that
// stays, whose script runs again: the routes and rule an earlier run
// wrote for the NIC are the host's script's to remove, which a script
// that marks its routes does; the note gives the commands for any still
// there after that run.
func keptNICLeftNote(h *model.Host, n *model.NIC) string {
	if h.OS != model.OSLinux || n.Route == nil {
		return nicLeftNote(h, n)
	}
	bare := *n
	bare.Route = nil
	return nicLeftNote(h, &bare) + "; if its " + english.Or(routeKept(n)) + " are still there once the host's script ran, delete them: " + strings.Join(routeClear(n), "; ")
}

// nicKept is "PFC 3, trust dscp, RoCE ToS 106, MTU 9000 and address
// 10.0.10.21/24", and on Linux a routed NIC's rule, table and main
// routes (routeKept).
func nicKept(h *model.Host, n *model.NIC) string {
	var parts []string
	if len(n.RoCE.PFCPriorities) > 0 {
		parts = append(parts, "PFC "+docs.Ranges(n.RoCE.PFCPriorities))
	}
	if n.RoCE.Trust != "" {
		parts = append(parts, "trust "+string(n.RoCE.Trust))
	}
	if h.OS == model.OSLinux && n.RoCE.Mode != "" {
		parts = append(parts, "RoCE ToS "+strconv.Itoa(n.RoCE.TOS))
	}
	if h.OS == model.OSLinux && targets.SetsGlobalTClass(n) {
		parts = append(parts, "global traffic class "+strconv.Itoa(targets.GlobalTClass(n)))
	}
	parts = append(parts, "MTU "+strconv.Itoa(n.MTU))
	if v := leftVLANIf(h, n); v != "" {
		parts = append(parts, "VLAN interface "+v)
	}
	switch len(n.Addresses) {
	case 0:
	case 1:
		parts = append(parts, "address "+n.Addresses[0])
	default:
		parts = append(parts, "addresses "+strings.Join(n.Addresses, ", "))
	}
	if h.OS == model.OSLinux {
		parts = append(parts, routeKept(n)...)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// leftVLANIf is the VLAN interface the script created for n, "" for an
// untagged NIC or on Windows (the adapter's VLAN ID is a property).
func leftVLANIf(h *model.Host, n *model.NIC) string {
	switch {
	case n.VLAN == 0:
		return ""
	case h.OS == model.OSLinux:
		return n.VLANName()
	case h.OS == model.OSFreeBSD:
		return freebsd.L3Name(n)
	}
	return ""
}

// nicClear are the commands that clear n on its host's OS.
func nicClear(h *model.Host, n *model.NIC) []string {
	switch h.OS {
	case model.OSLinux:
		return linuxClear(n)
	case model.OSFreeBSD:
		return freebsdClear(h, n)
	case model.OSWindows:
		return windowsClear(n)
	}
	return nil
}

// linuxEthernetMTU is Ethernet's default MTU, which an interface has
// before anything sets it (ip-link(8) mtu).
const linuxEthernetMTU = 1500

// linuxClear: PFC off and trust back to the mlx5 default, PCP, with the
// tool the script used (mlnx_qos under MLNX_OFED; iproute2's dcb, which
// takes "all:off", dcb-pfc(8), and flushes the DSCP app table, dcb-app(8),
// otherwise; QLogic's qede keeps DCB in firmware), the VLAN interface
// deleted with its addresses (ip-link(8)) or each address deleted
// (ip-address(8)) after a routed NIC's rule and routes (routeClear),
// the MTU back to Ethernet's, RDMA-CM's default ToS
// back to 0 (Linux kernel documentation, configfs-rdma_cm) and, under
// MLNX_OFED, the port's global traffic class cleared (globalTClassClear).
func linuxClear(n *model.NIC) []string {
	ifc := quote.ShellWord(n.Interface)
	var out []string
	switch n.Driver {
	case "mlnx_ofed":
		out = append(out, "mlnx_qos -i "+ifc+" --pfc 0,0,0,0,0,0,0,0 --trust pcp")
	case "qede":
		out = append(out, "its DCB is in the adapter's firmware (UEFI System Setup)")
	default:
		out = append(out, "dcb pfc set dev "+ifc+" prio-pfc all:off", "dcb app flush dev "+ifc+" dscp-prio")
	}
	out = append(out, routeClear(n)...)
	if n.VLAN != 0 {
		out = append(out, "ip link del "+quote.ShellWord(n.VLANName()))
	} else {
		for _, a := range n.Addresses {
			out = append(out, "ip addr del "+a+" dev "+ifc)
		}
	}
	out = append(out, "ip link set dev "+ifc+" mtu "+strconv.Itoa(linuxEthernetMTU))
	if n.RoCE.Mode != "" {
		out = append(out, "set default_roce_tos of its RDMA device back to 0 (configfs rdma_cm, /sys/kernel/config/rdma_cm/<device>/ports/1/default_roce_tos; rdma link show names the device of "+ifc+")")
	}
	if targets.SetsGlobalTClass(n) {
		out = append(out, globalTClassClear(ifc, n.RoCE.Mode != ""))
	}
	return out
}

// globalTClassClear clears the global traffic class the script wrote
// for an MLNX_OFED mlx5 NIC (targets.SetsGlobalTClass): mlx5_ib takes
// -1 as "no global class" (traffic_class_store keeps it, traffic_class_show
// then prints no "Global tclass=" line, and queue pairs get their own
// class again; mlnx-ofa_kernel, drivers/infiniband/hw/mlx5/main_ext.c).
// Nothing else clears it before the driver reloads. named: the
// default_roce_tos line before it says how to find the device.
func globalTClassClear(ifc string, named bool) string {
	s := "echo -1 > /sys/class/infiniband/<device>/tc/1/traffic_class, which clears the port's global traffic class (MLNX_OFED's mlx5_ib, mlnx-ofa_kernel drivers/infiniband/hw/mlx5/main_ext.c, traffic_class_store"
	if !named {
		s += "; rdma link show names the device of " + ifc
	}
	return s + ")"
}

// freebsdClear: the rc.conf variables the script set with sysrc(8),
// removed with sysrc -x (a VLAN taken out of vlans_<if> with -=), and
// the address or VLAN interface taken away now (ifconfig(8) -alias,
// destroy); its loader.conf and sysctl.conf lines are the previous
// build's files'.
func freebsdClear(h *model.Host, n *model.NIC) []string {
	ifc := n.Interface
	l3 := ifc
	var out []string
	if v := leftVLANIf(h, n); v != "" {
		l3 = v
		out = append(out, "sysrc "+quote.ShellWord("vlans_"+freebsd.RCVar(ifc)+"-="+strconv.Itoa(n.VLAN)), "sysrc -x "+quote.ShellWord("ifconfig_"+freebsd.RCVar(ifc)))
	}
	out = append(out, "sysrc -x "+quote.ShellWord("ifconfig_"+freebsd.RCVar(l3)))
	if n.VLAN != 0 {
		out = append(out, "ifconfig "+quote.ShellWord(l3)+" destroy")
	} else {
		for _, a := range n.Addresses {
			fam := "inet"
			if strings.Contains(a, ":") {
				fam = "inet6"
			}
			out = append(out, "ifconfig "+quote.ShellWord(ifc)+" "+fam+" "+a+" -alias")
		}
	}
	return append(out, "remove the lines of "+quote.ShellWord(n.DriverName())+" from /boot/loader.conf and /etc/sysctl.conf (the previous build's "+
		quote.ShellWord(h.Name+".loader.conf")+" and "+quote.ShellWord(h.Name+".sysctl.conf")+" list them); they take effect at the next boot")
}

// windowsClear: the adapter's DCB off (Disable-NetAdapterQos, the
// opposite of the script's Enable-NetAdapterQos), its addresses removed
// and its jumbo frames back to the standard frame (Microsoft Learn,
// NetAdapter and NetTCPIP modules; *JumboPacket 1514 is the 1500-byte
// MTU with its 14-byte header).
func windowsClear(n *model.NIC) []string {
	name := quote.PowerShell(n.Interface)
	out := []string{"Disable-NetAdapterQos -Name " + name}
	for _, a := range n.Addresses {
		ip, _, _ := strings.Cut(a, "/")
		out = append(out, "Remove-NetIPAddress -InterfaceAlias "+name+" -IPAddress "+ip+" -Confirm:$false")
	}
	return append(out, "Set-NetAdapterAdvancedProperty -Name "+name+" -RegistryKeyword '*JumboPacket' -RegistryValue 1514")
}

// osChangeNote follows the OS change of a host re-imaged or booted into
// another OS: the new OS's script sets its own settings and removes
// nothing the old OS's script set, for it runs on the other OS. A
// re-imaged host has none of the old settings left; a host that still
// boots the old OS finds them there, applied again at boot as on a
// removed host (hostLeftNote).
func osChangeNote(a, b *model.Host) string {
	return "run " + quote.ShellWord(targets.HostScriptName(b)) + ", the " + string(b.OS) + " script: it removes nothing " +
		quote.ShellWord(targets.HostScriptName(a)) + " set under " + string(a.OS) + "; a re-imaged host has none of that left, but on a host that still boots " +
		string(a.OS) + " it stays there: under " + string(a.OS) + ", " + hostLeftNote(a)
}

// oldOSNICNote follows a NIC of a host whose OS changes: the commands
// that clear what the old OS's script set on it, for a host that still
// boots the old OS.
func oldOSNICNote(a *model.Host, n *model.NIC) string {
	s := "under " + string(a.OS) + ", " + n.Interface + " keeps its " + nicKept(a, n)
	if cmds := nicClear(a, n); len(cmds) > 0 {
		s += ": clear them there with " + strings.Join(cmds, "; ")
	}
	return s
}
