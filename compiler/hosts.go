package compiler

import (
	"encoding/binary"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// nicFamily groups adapters that share drivers.
type nicFamily int

// NIC families: the ConnectX-3 generation (mlx4), ConnectX-4 and later
// (mlx5), and QLogic FastLinQ.
const (
	familyCX3 nicFamily = iota
	familyCX4
	familyQLogic
)

// nicInfo is one known NIC model.
type nicInfo struct {
	vendor string
	family nicFamily
	// speedsG are the Ethernet speeds the adapter runs, in Gb/s,
	// ascending (NVIDIA ConnectX product briefs; Marvell FastLinQ
	// QL45212 datasheet). 56G (ConnectX-3 Pro, -4) is not a speed the
	// language takes.
	speedsG []int
}

// nicModels lists the adapters fabricc knows, in the order shown in
// messages. The QLogic model may also be written by its full name.
var nicModels = []struct {
	name string
	info nicInfo
}{
	{"ConnectX-3 Pro", nicInfo{"mellanox", familyCX3, []int{1, 10, 40}}},
	{"ConnectX-4", nicInfo{"mellanox", familyCX4, []int{1, 10, 25, 40, 50, 100}}},
	{"ConnectX-4 Lx", nicInfo{"mellanox", familyCX4, []int{1, 10, 25, 40, 50}}},
	{"ConnectX-5", nicInfo{"mellanox", familyCX4, []int{1, 10, 25, 40, 50, 100}}},
	{"ConnectX-6", nicInfo{"mellanox", familyCX4, []int{10, 25, 40, 50, 100, 200}}},
	{"ConnectX-6 Dx", nicInfo{"mellanox", familyCX4, []int{10, 25, 40, 50, 100, 200}}},
	{"ConnectX-7", nicInfo{"mellanox", familyCX4, []int{10, 25, 40, 50, 100, 200, 400}}},
	{"QL45212", nicInfo{"qlogic", familyQLogic, []int{10, 25}}},
}

// nicRuns reports whether a NIC model runs speedMbps.
func nicRuns(info nicInfo, speedMbps int) bool {
	return speedMbps%1000 == 0 && slices.Contains(info.speedsG, speedMbps/1000)
}

// nicsFor lists the known NIC models that run speedMbps.
func nicsFor(speedMbps int) []string {
	var out []string
	for _, m := range nicModels {
		if nicRuns(m.info, speedMbps) {
			out = append(out, m.name)
		}
	}
	return out
}

// nicAliases maps other accepted spellings to a model name.
var nicAliases = map[string]string{"QLogic FastLinQ QL45212": "QL45212"}

// lookupNIC returns the canonical model name and its info.
func lookupNIC(name string) (string, nicInfo, bool) {
	if a, ok := nicAliases[name]; ok {
		name = a
	}
	for _, m := range nicModels {
		if m.name == name {
			return m.name, m.info, true
		}
	}
	return "", nicInfo{}, false
}

// nicModelNames lists the known models for messages.
func nicModelNames() []string {
	names := make([]string, len(nicModels))
	for i, m := range nicModels {
		names[i] = m.name
	}
	return names
}

// drivers returns the valid drivers for a NIC family on an OS, the
// default first. WinOF is the Windows driver for ConnectX-3/3 Pro and
// WinOF-2 for ConnectX-4 and later, neither supports the other
// generation (Mellanox WinOF-2 User Manual, Rev 1.21, §2.3; Mellanox WinOF
// User Manual and Release Notes, Rev 5.50, §3.3.1); FreeBSD uses mlx4en
// for ConnectX-3 and mlx5en for later adapters; QLogic FastLinQ uses qede
// on Linux and the QLogic driver on Windows (Demartek RoCE Deployment
// Guide, QLogic sections).
func drivers(os model.OS, f nicFamily) []string {
	switch os {
	case model.OSLinux:
		if f == familyQLogic {
			return []string{"qede"}
		}
		return []string{"mlnx_ofed", "inbox"}
	case model.OSWindows:
		return [...][]string{familyCX3: {"winof"}, familyCX4: {"winof2"}, familyQLogic: {"qlogic"}}[f]
	case model.OSFreeBSD:
		return [...][]string{familyCX3: {"mlx4en"}, familyCX4: {"mlx5en"}, familyQLogic: nil}[f]
	}
	return nil
}

// hostOSes lists the accepted host operating systems.
var hostOSes = []string{string(model.OSLinux), string(model.OSWindows), string(model.OSFreeBSD)}

// applicationPorts maps application kinds to the port that identifies
// their traffic: SMB Direct 445, iSER 3260, NVMe-oF 4420 and NFS over
// RDMA 20049 (IANA); MPI, NCCL and Lustre (LNet o2ib, Linux only:
// checkLinuxOnlyApps) have none (NCCL's has the Linux host script write
// NCCL_IB_TC: checkNCCL). NVMe/TCP and iSCSI run over TCP on the same
// IANA ports as NVMe-oF (4420, "nvme", for RDMA and TCP alike) and iSER
// (3260, "iscsi-target"); NVMe/TCP's discovery controller listens on
// 8009, whose few discovery log pages are left in the default class.
var applicationPorts = map[string]int{
	"smb-direct":     445,
	"iser":           3260,
	"nvme-of":        4420,
	"nfs-rdma":       20049,
	"mpi":            0,
	model.AppNCCL:    0,
	"lustre":         0,
	model.AppNVMeTCP: 4420,
	model.AppISCSI:   3260,
}

// Host defaults.
const (
	// defaultNICMTU leaves headroom under the switch's 9216 for VLAN
	// and RoCE headers.
	defaultNICMTU = 9000
	// roceV2UDPPort is the IANA RoCEv2 destination port.
	roceV2UDPPort = 4791
)

// lowerHosts lowers every host block, sorted by name.
func (l *lowering) lowerHosts() {
	switches := map[string]dsl.Range{}
	for i := range l.cfg.Switches {
		switches[l.cfg.Switches[i].Name] = l.cfg.Switches[i].LabelRange.Or(l.cfg.Switches[i].DefRange)
	}
	seen := map[string]dsl.Range{}
	for i := range l.cfg.Hosts {
		h := &l.cfg.Hosts[i]
		if first, dup := seen[h.Name]; dup {
			d := l.errorf(h.LabelRange.Or(h.DefRange), "Duplicate host", "host %q is declared twice; rename one or merge the blocks.", h.Name)
			also(d, fmt.Sprintf("host %q is first declared here", h.Name), first)
			l.badPorts[h.Name] = true // links to the second block's NICs are not follow-on errors
			continue
		}
		if sw, dup := switches[h.Name]; dup {
			d := l.errorf(h.LabelRange.Or(h.DefRange), "Duplicate device name",
				"host %q has the name of a switch; links name devices, so every switch and host needs its own name.", h.Name)
			also(d, fmt.Sprintf("switch %q is declared here", h.Name), sw)
			continue
		}
		seen[h.Name] = h.LabelRange.Or(h.DefRange)
		l.f.Hosts = append(l.f.Hosts, l.lowerHost(h))
	}
	sort.Slice(l.f.Hosts, func(i, j int) bool { return l.f.Hosts[i].Name < l.f.Hosts[j].Name })
	l.hosts = map[string]*model.Host{}
	for i := range l.f.Hosts {
		l.hosts[l.f.Hosts[i].Name] = &l.f.Hosts[i]
	}
}

// lowerHost lowers one host and its NICs.
func (l *lowering) lowerHost(h *dsl.Host) model.Host {
	defer l.within(h.Name)()
	l.src.setBlock(Key("host", h.Name), h.DefRange, []attrRange{{"os", h.OSRange}, {"os_version", h.OSVersionRange}, {"cluster_class", h.ClusterClassRange}})
	out := model.Host{Name: h.Name, OS: model.OS(h.OS), Tuning: h.Tuning != nil && *h.Tuning, NICs: []model.NIC{}}
	if h.OSVersion != nil {
		out.OSVersion = *h.OSVersion
	}
	osOK := drivers(out.OS, familyCX4) != nil
	if !osOK {
		l.errorf(h.OSRange.Or(h.DefRange), "Unknown host OS",
			"host %q has os %q; fabricc renders %s.%s", h.Name, h.OS, dsl.QuoteList(hostOSes), didYouMean(h.OS, hostOSes))
	}
	l.checkWindowsRelease(h)
	seen := map[string]dsl.Range{}
	interfaces := map[string]*dsl.NIC{}
	var units map[string]*dsl.NIC // by driver name; made for the first FreeBSD NIC
	for i := range h.NICs {
		n := &h.NICs[i]
		if first, dup := seen[n.Name]; dup {
			d := l.errorf(n.DefRange, "Duplicate NIC", "host %q declares nic %q twice; rename one.", h.Name, n.Name)
			also(d, fmt.Sprintf("nic %q is first declared here", n.Name), first)
			continue
		}
		seen[n.Name] = n.DefRange
		out.NICs = append(out.NICs, l.lowerNIC(h.Name, out.OS, osOK, n))
		l.checkSharedInterface(h.Name, out.OS, n, interfaces)
		if out.OS == model.OSFreeBSD {
			units = l.checkSharedDriverInterface(h.Name, n, &out.NICs[len(out.NICs)-1], units)
		}
	}
	if out.OS == model.OSLinux {
		l.checkVLANNames(h)
		l.checkInboxIproute2(h, &out)
	}
	sort.Slice(out.NICs, func(i, j int) bool { return out.NICs[i].Name < out.NICs[j].Name })
	l.hostCluster(h, &out, osOK)
	l.checkNCCL(h, &out, osOK)
	l.checkLustre(h, &out, osOK)
	l.checkTCPApps(h, &out)
	return out
}

// checkSharedInterface reports a NIC whose OS interface an earlier NIC
// of the same host (in seen, by interfaceKey) already names. A NIC block
// is one physical port, cabled by its own link: two blocks on one
// interface would have the host script configure that one device twice
// (the second NIC's MTU, VLAN and addresses over the first's), and its
// check mode could never pass.
func (l *lowering) checkSharedInterface(host string, os model.OS, n *dsl.NIC, seen map[string]*dsl.NIC) {
	k := interfaceKey(os, n.Interface)
	first := seen[k]
	if first == nil {
		seen[k] = n
		return
	}
	d := l.errorf(n.InterfaceRange.Or(n.DefRange), "Two NICs on one interface",
		"nic %q of host %q has interface %q, which nic %q of the same host already has; each nic block is one port of the host and needs its own OS interface, or the host script configures that interface twice (MTU, VLAN and addresses of both NICs on one device). Write the interface this NIC really is, or remove one of the two nic blocks.",
		n.Name, host, n.Interface, first.Name)
	also(d, fmt.Sprintf("nic %q has interface %q", first.Name, first.Interface), first.InterfaceRange.Or(first.DefRange))
}

// checkVLANNames reports a Linux NIC whose VLAN interface (its
// vlan_interface, or interface.VID) is the name of another NIC's
// interface or VLAN interface on the host: the script would find that
// device where it creates the VLAN and stop, or configure one device for
// two NICs.
func (l *lowering) checkVLANNames(h *dsl.Host) {
	type use struct {
		n    *dsl.NIC
		what string // "interface" or "VLAN interface"
		r    dsl.Range
	}
	owner := map[string]use{}
	for i := range h.NICs {
		n := &h.NICs[i]
		if _, ok := owner[n.Interface]; !ok {
			owner[n.Interface] = use{n, "interface", n.InterfaceRange.Or(n.DefRange)}
		}
	}
	for i := range h.NICs {
		n := &h.NICs[i]
		if owner[n.Interface].n != n {
			continue // checkSharedInterface's: one error for the shared interface
		}
		name, _ := vlanIfName(n.Interface, n.VLAN)
		r := n.VLANRange.Or(n.DefRange)
		if n.VLANInterface != nil {
			name, r = *n.VLANInterface, n.VLANInterfaceRange.Or(n.DefRange)
		}
		if name == "" || name == n.Interface {
			continue // untagged, or checkVLANInterface's
		}
		if first, ok := owner[name]; ok {
			d := l.errorf(r, "Two NICs on one interface",
				"nic %q of host %q has VLAN interface %q, which is the %s of nic %q of the same host; the script would configure one device for both. Give this VLAN interface another name with vlan_interface.",
				n.Name, h.Name, name, first.what, first.n.Name)
			also(d, fmt.Sprintf("nic %q has %s %q", first.n.Name, first.what, name), first.r)
			continue
		}
		owner[name] = use{n, "VLAN interface", r}
	}
}

// checkSharedDriverInterface reports a FreeBSD NIC whose driver_interface
// an earlier NIC of the host (in seen, by the driver's name) already
// names, as its driver_interface or as its interface: the script would
// set that one unit's sysctls for both. The name is out's, n lowered;
// the ranges are n's. It returns seen, made on the first call (only
// FreeBSD hosts need it: driver_interface is an error elsewhere).
func (l *lowering) checkSharedDriverInterface(host string, n *dsl.NIC, out *model.NIC, seen map[string]*dsl.NIC) map[string]*dsl.NIC {
	name := out.DriverName()
	first := seen[name]
	if first == nil {
		if seen == nil {
			seen = map[string]*dsl.NIC{}
		}
		seen[name] = n
		return seen
	}
	if n.DriverInterface == nil && first.DriverInterface == nil {
		return seen // checkSharedInterface's
	}
	d := l.errorf(n.DriverInterfaceRange.Or(n.InterfaceRange).Or(n.DefRange), "Two NICs on one driver interface",
		"nic %q of host %q is the driver's %q, which nic %q of the same host already is; the script would set that interface's sysctls for both. Write the driver's name of each renamed interface as its driver_interface.",
		n.Name, host, name, first.Name)
	also(d, fmt.Sprintf("nic %q is the driver's %q", first.Name, name), first.DriverInterfaceRange.Or(first.InterfaceRange).Or(first.DefRange))
	return seen
}

// interfaceKey is the name by which os tells interfaces apart: the
// Windows script finds its adapters with the NetAdapter cmdlets, whose
// -Name is a PowerShell wildcard pattern, and PowerShell matches those
// without regard to case (PowerShell documentation, about_Wildcards), so
// "ethernet 4" is "Ethernet 4" there; Linux and FreeBSD interface names
// are case-sensitive.
func interfaceKey(os model.OS, name string) string {
	if os == model.OSWindows {
		return strings.ToLower(name)
	}
	return name
}

// recordNIC records the ranges of a NIC's written attributes.
func (l *lowering) recordNIC(host string, n *dsl.NIC) {
	k := []string{"host", host, "nic", n.Name}
	l.src.setBlock(Key(k...), n.DefRange, []attrRange{
		{"model", n.ModelRange}, {"driver", n.DriverRange}, {"speed", n.SpeedRange}, {"mtu", n.MTURange},
		{"vlan", n.VLANRange}, {"addresses", n.AddressesRange}, {"roce_mode", n.RoCEModeRange},
		{"transport", n.TransportRange}, {"class", n.ClassRange}, {"priority", n.PriorityRange},
		{"dscp", n.DSCPRange}, {"cnp_priority", n.CNPPriorityRange}, {"cnp_dscp", n.CNPDSCPRange},
		{"pfc_priorities", n.PFCPrioritiesRange}, {"trust", n.TrustRange}, {"applications", n.ApplicationsRange},
		{"interface", n.InterfaceRange}, {"gateway", n.GatewayRange}, {"driver_interface", n.DriverInterfaceRange},
		{"vlan_interface", n.VLANInterfaceRange},
	})
	if n.Speed != nil {
		l.written[Key(append(k, "speed")...)] = true
	}
}

// lowerNIC lowers one NIC. Its speed may default to the linked switch
// port's, which finishNICs fills once the links are known.
func (l *lowering) lowerNIC(host string, os model.OS, osOK bool, n *dsl.NIC) model.NIC {
	defer l.within(host + ":" + n.Name)()
	l.recordNIC(host, n)
	out := model.NIC{Name: n.Name, Interface: n.Interface, MTU: defaultNICMTU, Addresses: []string{}}
	l.nicModel(host, os, osOK, n, &out)
	l.checkInterface(host, os, n, &out)
	l.nicTransport(host, n, &out)
	if n.Speed != nil {
		v, err := parseSpeed(*n.Speed)
		if err != nil {
			l.errorf(n.SpeedRange.Or(n.DefRange), "Invalid speed", "%s", err)
		}
		out.SpeedMbps = v
	}
	if n.MTU != nil {
		out.MTU = *n.MTU
	}
	if n.VLAN != nil {
		out.VLAN = *n.VLAN
		if n.VLANInterface != nil && os == model.OSLinux {
			out.VLANInterface = *n.VLANInterface
		}
		l.checkVLAN(out.VLAN, n.VLANRange.Or(n.DefRange), fmt.Sprintf("nic %q of host %q", n.Name, host))
	}
	for _, a := range n.Addresses {
		p, err := netip.ParsePrefix(a)
		if err != nil {
			l.errorf(n.AddressesRange.Or(n.DefRange), "Invalid address",
				"nic %q of host %q: %q is not an address in CIDR form; write it like \"192.168.10.11/24\" or \"fd00::11/64\".", n.Name, host, a)
			continue
		}
		if what, first, last := notHostAddress(p); what != "" {
			l.errorf(n.AddressesRange.Or(n.DefRange), "Not a host address",
				"nic %q of host %q: %s is the %s address of subnet %s: IP stacks read an address whose host part is all zeros or all ones as the subnet itself or its broadcast, not as a host (RFC 1122, section 3.2.1.3), so the NIC cannot use it. Write an address from %s to %s.",
				n.Name, host, p, what, p.Masked(), first, last)
			continue
		}
		out.Addresses = append(out.Addresses, p.String())
	}
	out.RoCE = l.nicRoCE(host, n, out.Transport)
	l.pcpOnlyTrust(host, os, n, &out)
	out.Applications = l.nicApplications(host, n, out.RoCE.Priority)
	l.nicGateway(host, os, n, &out)
	return out
}

// pcpOnlyTrust gives a RoCE NIC whose driver classifies received frames
// by PCP only (model.DriverQoS.PCPOnly) its one trust, pcp, and reports a
// trust written otherwise: the driver has no setting that would make the
// NIC read the DSCP.
func (l *lowering) pcpOnlyTrust(host string, os model.OS, n *dsl.NIC, out *model.NIC) {
	d := model.NICDriverQoS(os, out.Driver)
	if !d.PCPOnly || out.Transport != model.TransportRoCE {
		return
	}
	if out.RoCE.Trust != model.TrustPCP && n.Trust != nil {
		l.errorf(n.TrustRange.Or(n.DefRange), "Trust not available on driver",
			"nic %q of host %q has trust %q, but its driver %s (%s on %s) classifies received frames by their 802.1Q PCP only: it has no DSCP trust or DSCP map to set (%s), so the NIC cannot classify RoCE by DSCP. Write trust = \"pcp\" or remove trust, and give the NIC a vlan that its link carries tagged, since an untagged frame carries no PCP and lands in priority 0.",
			n.Name, host, *n.Trust, out.Driver, out.Model, os, d.Source)
	}
	out.RoCE.Trust = model.TrustPCP
}

// notHostAddress tells whether an IPv4 prefix of /30 or shorter names its
// subnet's network or broadcast address ("network", "broadcast"; "" for
// a host address, an IPv6 one, and /31 and /32, which have neither: RFC
// 3021), with the first and last host address of the subnet.
func notHostAddress(p netip.Prefix) (what string, first, last netip.Addr) {
	if !p.Addr().Is4() || p.Bits() > 30 {
		return "", first, last
	}
	a := p.Addr().As4()
	v := binary.BigEndian.Uint32(a[:])
	hostMask := uint32(1)<<(32-p.Bits()) - 1
	switch v & hostMask {
	case 0:
		what = "network"
	case hostMask:
		what = "broadcast"
	default:
		return "", first, last
	}
	addr := func(u uint32) netip.Addr {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], u)
		return netip.AddrFrom4(b)
	}
	net := v &^ hostMask
	return what, addr(net + 1), addr((net | hostMask) - 1)
}

// nicModel resolves the model, vendor and driver.
func (l *lowering) nicModel(host string, os model.OS, osOK bool, n *dsl.NIC, out *model.NIC) {
	name, info, ok := lookupNIC(n.Model)
	if !ok {
		l.errorf(n.ModelRange.Or(n.DefRange), "Unknown NIC model",
			"nic %q of host %q has model %q; fabricc knows %s.%s Host scripts exist for these models only (docs/models.md, NIC models): write one of them, or leave this host out of the fabric.", n.Name, host, n.Model, dsl.QuoteList(nicModelNames()), didYouMean(n.Model, nicModelNames()))
		return
	}
	out.Model, out.Vendor = name, info.vendor
	if !osOK {
		return
	}
	valid := drivers(os, info.family)
	if len(valid) == 0 {
		l.errorf(n.ModelRange.Or(n.DefRange), "Unsupported NIC",
			"fabricc knows no %s driver for the %s of nic %q on host %q; use a ConnectX adapter or another OS.", os, name, n.Name, host)
		return
	}
	out.Driver = valid[0]
	if n.Driver == nil {
		return
	}
	out.Driver = *n.Driver
	for _, v := range valid {
		if v == *n.Driver {
			return
		}
	}
	l.errorf(n.DriverRange.Or(n.DefRange), "Driver does not fit the NIC", "%s", driverAdvice(*n.Driver, name, os, valid))
}

// driverAdvice explains why driver d cannot run model m on os.
func driverAdvice(d, m string, os model.OS, valid []string) string {
	switch {
	case d == "winof" && os == model.OSWindows:
		return fmt.Sprintf("WinOF supports ConnectX-3 and ConnectX-3 Pro only; a %s needs WinOF-2: write driver = %q (Mellanox WinOF User Manual and Release Notes, Rev 5.50, §3.3.1).", m, valid[0])
	case d == "winof2" && os == model.OSWindows:
		return fmt.Sprintf("WinOF-2 supports ConnectX-4 and later only; a %s needs driver = %q (Mellanox WinOF-2 User Manual, Rev 1.21, §2.3).", m, valid[0])
	}
	return fmt.Sprintf("driver %q does not run a %s on %s; write %s.", d, m, os, dsl.QuoteList(valid))
}

// nicTransport resolves the transport: RoCE, or iWARP on QLogic NICs.
func (l *lowering) nicTransport(host string, n *dsl.NIC, out *model.NIC) {
	out.Transport = model.TransportRoCE
	if n.Transport == nil {
		return
	}
	out.Transport = model.Transport(*n.Transport)
	r := n.TransportRange.Or(n.DefRange)
	switch {
	case out.Transport == model.TransportRoCE:
	case out.Transport != model.TransportIWARP:
		l.errorf(r, "Invalid transport", "transport %q is not known; write \"roce\" or \"iwarp\".", *n.Transport)
	case out.Vendor != "" && out.Vendor != "qlogic":
		l.errorf(r, "iWARP needs a QLogic NIC",
			"nic %q of host %q is a %s, which runs RoCE only; iWARP is available on QLogic FastLinQ (QL45212). Remove transport or write \"roce\".", n.Name, host, out.Model)
	}
}

// nicApplications resolves the application kinds, sorted by kind.
func (l *lowering) nicApplications(host string, n *dsl.NIC, prio int) []model.Application {
	apps := []model.Application{}
	seen := map[string]bool{}
	for _, a := range n.Applications {
		port, ok := applicationPorts[a]
		if !ok {
			kinds := slices.Sorted(maps.Keys(applicationPorts))
			l.errorf(n.ApplicationsRange.Or(n.DefRange), "Unknown application",
				"nic %q of host %q lists application %q; fabricc knows %s.%s", n.Name, host, a, dsl.QuoteList(kinds), didYouMean(a, kinds))
			continue
		}
		if !seen[a] {
			seen[a] = true
			apps = append(apps, model.Application{Kind: a, Port: port, Priority: prio})
		}
	}
	sort.Slice(apps, func(i, j int) bool { return apps[i].Kind < apps[j].Kind })
	return apps
}

// checkNICSpeeds reports NICs set to (or given by their switch port) a
// speed their model does not run.
func (l *lowering) checkNICSpeeds() {
	for _, h := range l.f.Hosts {
		for _, n := range h.NICs {
			_, info, ok := lookupNIC(n.Model)
			if !ok || n.SpeedMbps == 0 || nicRuns(info, n.SpeedMbps) || l.speedFromBadPort(h.Name, n) {
				continue
			}
			l.nicSpeedError(h.Name, n, info)
		}
	}
}

// speedFromBadPort reports whether n took its speed from a switch port
// whose speed is already reported as one the switch cannot run.
func (l *lowering) speedFromBadPort(host string, n model.NIC) bool {
	return n.Peer != nil && !l.written[Key("host", host, "nic", n.Name, "speed")] && l.badSpeeds[Key(n.Peer.Device, n.Peer.Port)]
}

// nicSpeedError reports one NIC whose model cannot run its speed,
// saying where the speed came from.
func (l *lowering) nicSpeedError(host string, n model.NIC, info nicInfo) {
	defer l.within(host + ":" + n.Name)()
	k := []string{"host", host, "nic", n.Name}
	speeds := make([]int, len(info.speedsG))
	for i, g := range info.speedsG {
		speeds[i] = g * 1000
	}
	fix := "Set a speed the NIC runs"
	if others := nicsFor(n.SpeedMbps); len(others) > 0 {
		fix += fmt.Sprintf(", or use a NIC that runs %s (%s)", speedText(n.SpeedMbps), joinAnd(others))
	}
	from := ""
	at := l.src.Place(append(k, "speed")...)
	if !l.written[Key(append(k, "speed")...)] && n.Peer != nil {
		from = fmt.Sprintf(" (taken from its switch port %s:%s; the NIC's speed is not written)", n.Peer.Device, n.Peer.Port)
		at = l.src.Place(append(k, "model")...)
	}
	d := l.errorf(at, "NIC speed not supported by its model",
		"nic %q of host %q runs at %s%s, but a %s runs %s. %s.",
		n.Name, host, speedText(n.SpeedMbps), from, n.Model, speedList(speeds), fix)
	if from != "" {
		also(d, fmt.Sprintf("%s:%s speed %s", n.Peer.Device, n.Peer.Port, speedText(n.SpeedMbps)),
			l.src.Place("switch", n.Peer.Device, "port", n.Peer.Port, "speed"))
	}
}

// checkWindowsRelease refuses a Windows os_version fabricc writes no
// script for, at the os_version attribute; an absent one is accepted. A
// spelling of a supported release ("Server2022", "2022r2") gets that
// release as its suggestion; only a real release older than the
// supported ones is told why scripts are not written for it.
func (l *lowering) checkWindowsRelease(h *dsl.Host) {
	if model.OS(h.OS) != model.OSWindows || h.OSVersion == nil || slices.Contains(dsl.WindowsReleases, *h.OSVersion) {
		return
	}
	v := *h.OSVersion
	list := dsl.WindowsReleasesHint()
	at := h.OSVersionRange.Or(h.DefRange)
	release, ok, known := dsl.WindowsRelease(v)
	switch {
	case ok:
		l.errorf(at, "Invalid os_version", "host %q has os_version %q, which is not how fabricc names a Windows release. %s Did you mean %q?",
			h.Name, v, list, release)
	case known:
		l.errorf(at, "Unsupported os_version",
			"host %q runs Windows %q, which is not a release fabricc writes scripts for: the script needs Windows PowerShell 4.0 or later "+
				"(its #Requires -RunAsAdministrator line) and the Windows Server 2012 R2 DCB and NetQos cmdlets. %s",
			h.Name, v, list)
	default:
		l.errorf(at, "Invalid os_version", "host %q has os_version %q, which is not a Windows release fabricc knows. %s%s",
			h.Name, v, list, didYouMean(strings.ToLower(v), dsl.WindowsReleases))
	}
}
