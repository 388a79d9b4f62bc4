package model

import (
	"net/netip"
	"regexp"
	"slices"
	"strconv"

	"github.com/fabricc/fabricc/internal/natural"
)

// Switch returns the switch called name, or nil.
func (f *Fabric) Switch(name string) *Switch {
	for i := range f.Switches {
		if f.Switches[i].Name == name {
			return &f.Switches[i]
		}
	}
	return nil
}

// Host returns the host called name, or nil.
func (f *Fabric) Host(name string) *Host {
	for i := range f.Hosts {
		if f.Hosts[i].Name == name {
			return &f.Hosts[i]
		}
	}
	return nil
}

// VLAN returns the VLAN with the given id, or nil.
func (f *Fabric) VLAN(id int) *VLAN {
	for i := range f.VLANs {
		if f.VLANs[i].ID == id {
			return &f.VLANs[i]
		}
	}
	return nil
}

// Class returns the traffic class called name, or nil.
func (q *QoS) Class(name string) *Class {
	for i := range q.Classes {
		if q.Classes[i].Name == name {
			return &q.Classes[i]
		}
	}
	return nil
}

// tos2prio is Linux's ip_tos2prio table (net/ipv4/route.c): the skb
// priority rt_tos2priority gives a ToS, indexed by the ToS's bits 1-4
// (IPTOS_TOS(tos) >> 1): TC_PRIO_BESTEFFORT 0, TC_PRIO_BULK 2,
// TC_PRIO_INTERACTIVE 6, TC_PRIO_INTERACTIVE_BULK 4. The tc_wrap.py
// output in the Demartek RoCE Deployment Guide ("Linux: Deploying iSER
// over RoCE", step 5) shows the same pairs: ToS 8 -> skprio 2, 24 -> 4,
// 16 -> 6.
var tos2prio = [16]int{0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4}

// ECTZero is ECT(0), the ECN field's "ECN-capable transport" codepoint
// in the low two bits of the ToS byte (RFC 3168, section 5).
const ECTZero = 2

// SkbPriority is the skb priority Linux (and so RDMA-CM) gives packets of
// ToS tos.
func SkbPriority(tos int) int { return tos2prio[(tos&0x1e)>>1] }

// DefaultClassPriority is the priority of the class that holds priority
// 0, where traffic no policy marks lands (0 when none does).
func (q *QoS) DefaultClassPriority() int {
	if cl := q.ClassOfPriority(0); cl != nil {
		return cl.Priority
	}
	return 0
}

// ClassOfDSCP returns the class DSCP d is classified into, or nil.
func (q *QoS) ClassOfDSCP(d int) *Class {
	for i := range q.Classes {
		if slices.Contains(q.Classes[i].DSCP, d) {
			return &q.Classes[i]
		}
	}
	return nil
}

// ClassOfPriority returns the class priority p is mapped into, or nil.
func (q *QoS) ClassOfPriority(p int) *Class {
	for i := range q.Classes {
		if slices.Contains(q.Classes[i].Priorities, p) {
			return &q.Classes[i]
		}
	}
	return nil
}

// ClassForTC returns the class whose egress queue is tc, or nil.
func (q *QoS) ClassForTC(tc int) *Class {
	for i := range q.Classes {
		if q.Classes[i].TrafficClass == tc {
			return &q.Classes[i]
		}
	}
	return nil
}

// RoCE returns the class RoCE data rides in.
func (q *QoS) RoCE() *Class { return q.Class(q.RoCEClass) }

// CNP returns the class congestion notification packets ride in, or nil.
func (q *QoS) CNP() *Class { return q.Class(q.CNPClass) }

// Port returns the port called name, or nil.
func (s *Switch) Port(name string) *Port {
	for i := range s.Ports {
		if s.Ports[i].Name == name {
			return &s.Ports[i]
		}
	}
	return nil
}

// NIC returns the NIC called name, or nil.
func (h *Host) NIC(name string) *NIC {
	for i := range h.NICs {
		if h.NICs[i].Name == name {
			return &h.NICs[i]
		}
	}
	return nil
}

// CarriesVLAN reports whether the port carries VLAN v, tagged or
// untagged.
func (p *Port) CarriesVLAN(v int) bool {
	switch p.Mode {
	case ModeTrunk:
		return slices.Contains(p.TrunkVLANs, v) || p.NativeVLAN == v
	case ModeAccess:
		return p.AccessVLAN == v
	}
	return false
}

// CarriedVLANs is every VLAN the port carries, tagged or untagged (a
// trunk's native VLAN even when its vlans do not list it), ascending;
// VLAN 0 (none) is left out.
func (p *Port) CarriedVLANs() []int {
	var out []int
	switch p.Mode {
	case ModeAccess:
		if p.AccessVLAN != 0 {
			out = append(out, p.AccessVLAN)
		}
	case ModeTrunk:
		out = append(out, p.TrunkVLANs...)
		if p.NativeVLAN != 0 && !slices.Contains(out, p.NativeVLAN) {
			out = append(out, p.NativeVLAN)
		}
	}
	slices.Sort(out)
	return out
}

// UntaggedVLAN is the VLAN the port sends untagged: an access port's, a
// trunk's native VLAN; 0 for none.
func (p *Port) UntaggedVLAN() int {
	switch p.Mode {
	case ModeAccess:
		return p.AccessVLAN
	case ModeTrunk:
		return p.NativeVLAN
	}
	return 0
}

// Lossless reports whether PFC is on for priority p on the port.
func (p *Port) Lossless(prio int) bool {
	for _, q := range p.PFCPriorities {
		if q == prio {
			return true
		}
	}
	return false
}

// NaturalLess orders names so that embedded numbers compare by value:
// "1/2" < "1/10", "Ethernet2" < "Ethernet10", "swp2" < "swp10". It is
// the order of ports in the model and in everything fabricc prints.
func NaturalLess(a, b string) bool { return natural.Less(a, b) }

// NaturalCompare is NaturalLess as -1, 0 or +1, for slices.SortFunc.
func NaturalCompare(a, b string) int { return natural.Compare(a, b) }

// AppNCCL is the application kind of NCCL (Application.Kind): a NIC that
// lists it has the Linux host script own NCCL_IB_TC in /etc/nccl.conf.
const AppNCCL = "nccl"

// Application kinds carried by the host's TCP/IP stack rather than by
// RDMA: NVMe/TCP (NVMe-oF's TCP transport, IANA port 4420 for I/O
// controllers, as for RDMA) and iSCSI (IANA port 3260). The host scripts
// tag their TCP port with the NIC's class, not a NetworkDirect or RDMA-CM
// setting, which only RDMA traffic passes through.
const (
	AppNVMeTCP = "nvme-tcp"
	AppISCSI   = "iscsi"
)

// OverTCP reports whether the application runs over TCP, not RDMA
// (AppNVMeTCP, AppISCSI).
func (a Application) OverTCP() bool { return a.Kind == AppNVMeTCP || a.Kind == AppISCSI }

// NCCLToS is the ToS NCCL marks on h: that of the first RoCE NIC that
// lists the nccl application (the compiler gives every such NIC of a
// host one ToS, since NCCL_IB_TC is one value per process); ok is false
// when no NIC lists it.
func (h *Host) NCCLToS() (tos int, ok bool) {
	for i := range h.NICs {
		n := &h.NICs[i]
		if n.Transport != TransportIWARP && n.ListsApp(AppNCCL) {
			return n.RoCE.TOS, true
		}
	}
	return 0, false
}

// IPv4Rails is the NICs of h that have an IPv4 address, in the host's
// order, when there are two or more of them (a multi-rail host); nil
// otherwise. Under Linux's defaults every interface of such a host answers
// ARP for every address of the host and strict reverse-path filtering
// drops replies that arrive by another rail, which the Linux host script
// sets right per interface. ARP is IPv4's only (IPv6 resolves neighbours
// per interface, RFC 4861), so IPv6-only NICs do not count.
func (h *Host) IPv4Rails() []*NIC {
	var out []*NIC
	for i := range h.NICs {
		if n := &h.NICs[i]; n.HasIPv4() {
			out = append(out, n)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// HasIPv4 reports whether one of the NIC's addresses is an IPv4 one.
func (n *NIC) HasIPv4() bool {
	for _, a := range n.Addresses {
		if p, err := netip.ParsePrefix(a); err == nil && p.Addr().Is4() {
			return true
		}
	}
	return false
}

// ListsApp reports whether the NIC lists an application of the kind
// (Application.Kind).
func (n *NIC) ListsApp(kind string) bool {
	for _, a := range n.Applications {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

// VLANName is the name of the VLAN device of a tagged NIC on Linux: its
// VLANInterface, else Interface.VID ("ens1f0.100", vconfig(8)'s
// DEV_PLUS_VID_NO_PAD name type); "" for an untagged NIC.
func (n *NIC) VLANName() string {
	switch {
	case n.VLAN == 0:
		return ""
	case n.VLANInterface != "":
		return n.VLANInterface
	}
	return n.Interface + "." + strconv.Itoa(n.VLAN)
}

// DriverName is the name the driver gave the NIC's interface: its
// DriverInterface when rc.conf renames the interface, else Interface.
// The FreeBSD drivers name their sysctl nodes and loader tunables by it
// when they attach (dev.mce.N, hw.mlxenN), and they keep it after a
// rename.
func (n *NIC) DriverName() string {
	if n.DriverInterface != "" {
		return n.DriverInterface
	}
	return n.Interface
}

// freebsdRenamedIf is IsFreeBSDRenamedIf's rule.
var freebsdRenamedIf = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,14}$`)

// IsFreeBSDRenamedIf reports whether name is one fabricc takes for the
// name rc.conf gives a renamed FreeBSD interface (ifconfig_<if>_name,
// rc.conf(5)): 1-15 bytes (IFNAMSIZ 16), a letter first, then letters,
// digits or '_', so that ifconfig_<name> and vlans_<name> are rc.conf
// variables as written and the name is one shell word in the script.
// The compiler checks it, and the FreeBSD target refuses others.
func IsFreeBSDRenamedIf(name string) bool { return freebsdRenamedIf.MatchString(name) }
