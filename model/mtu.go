package model

// EthernetHeaderBytes is the header an IP packet travels in on an
// untagged Ethernet link: destination and source MAC address and
// EtherType, without the FCS (IEEE 802.3, clause 3.1.1, MAC frame
// format).
const EthernetHeaderBytes = 14

// MTUMeaning says what a device's own mtu number counts, so that the
// numbers of two vendors can be compared and converted (the link checks,
// the OpenConfig interface mtu).
type MTUMeaning struct {
	// HeaderBytes is how much of the Ethernet header the number
	// includes: 0 for the IP MTU (the largest IP packet, header
	// excluded), EthernetHeaderBytes for the Ethernet frame without FCS.
	HeaderBytes int
	// Source is the public document that establishes the meaning.
	Source string
}

// IPMTU is the largest IP packet an interface of mtu carries.
func (m MTUMeaning) IPMTU(mtu int) int { return mtu - m.HeaderBytes }

// FrameBytes is the largest untagged Ethernet frame without FCS an
// interface of mtu carries: what OpenConfig's interface mtu counts
// (openconfig-interfaces.yang, leaf mtu: "1514 bytes on an Ethernet
// interface" for the 1500-byte IP MTU).
func (m MTUMeaning) FrameBytes(mtu int) int { return m.IPMTU(mtu) + EthernetHeaderBytes }

// portMTU is what each switch platform's port mtu counts: the one place
// the compiler's MTU checks and the OpenConfig renderer take it from.
// Every platform fabricc renders counts the IP MTU:
//
//   - EOS: `show interfaces` prints a port's mtu as "IP MTU 9214 bytes",
//     and its largest L2 frame is 20 bytes more (Arista EOS Central,
//     "Jumbo frame MTU sizes"); openconfig/featureprofiles records that
//     Arista takes only the L3 MTU (deviation omit_l2_mtu).
//   - Onyx: `show interfaces ethernet` prints the mtu with the largest
//     packet the port passes, 22 bytes more, the Ethernet header (14),
//     a VLAN tag (4) and the FCS (4): "MTU 1500 bytes (Maximum packet
//     size 1522 bytes)" (captures of that command's output from Onyx
//     switches, such as the mellanox.onyx Ansible collection's unit-test
//     fixture of show interfaces ethernet). The mtu command names its
//     argument a frame size (NVIDIA Onyx User Manual, Ethernet Interface
//     Commands, mtu), but the frame it lets through is the number plus
//     the headers, so the number is the IP MTU.
//   - Cumulus Linux: NVUE's `link mtu` is the Linux interface MTU
//     (Cumulus Linux user guide, Interface Configuration and Management,
//     MTU), which excludes the link-layer header (Linux kernel,
//     include/linux/netdevice.h: mtu beside hard_header_len).
var portMTU = map[Platform]MTUMeaning{
	PlatformEOS:     {Source: `Arista EOS: show interfaces prints the port mtu as "IP MTU"`},
	PlatformOnyx:    {Source: `NVIDIA Onyx: show interfaces ethernet prints "MTU 1500 bytes (Maximum packet size 1522 bytes)"`},
	PlatformCumulus: {Source: "Cumulus Linux: link mtu is the Linux interface MTU, without the Ethernet header"},
}

// PortMTU is what a port mtu of platform p counts. An unknown platform's
// is taken as written, the IP MTU (its switch is an error already).
func (p Platform) PortMTU() MTUMeaning { return portMTU[p] }

// NICMTU is what a host NIC's mtu counts: the IP MTU on every OS fabricc
// renders (Linux `ip link set mtu`, the net_device MTU; FreeBSD ifconfig
// mtu, if_mtu; Windows, whose script writes *JumboPacket as the mtu plus
// the 14-byte header: "Keywords That Can Be Edited", *JumboPacket
// includes the header, 1514 for the 1500-byte MTU).
func (o OS) NICMTU() MTUMeaning { return MTUMeaning{} }

// RoCEHeaderBytes is what Linux ib_core takes off a RoCE netdev's MTU
// before picking the RoCE path MTU: IB_GRH_BYTES (40) + IB_UDP_BYTES (8)
// + IB_BTH_BYTES (12) + IB_EXT_XRC_BYTES (4) + IB_EXT_ATOMICETH_BYTES
// (28) + IB_ICRC_BYTES (4) (include/rdma/ib_addr.h iboe_get_mtu; the
// sizes are those of include/rdma/ib_pack.h).
const RoCEHeaderBytes = 40 + 8 + 12 + 4 + 28 + 4

// MaxRoCEPathMTU is the largest RoCE path MTU: RoCE uses the InfiniBand
// MTUs 256-4096 B (Linux ib_core, iboe_get_mtu in include/rdma/ib_addr.h,
// picks among them), so no RoCE frame's payload exceeds 4096 B. A port
// that knows none of its NICs assumes it.
const MaxRoCEPathMTU = 4096

// RoCEPathMTU is the RoCE path MTU a NIC of netdev MTU mtu runs: the
// largest IB MTU (4096, 2048, 1024, 512, 256) not above mtu less the
// RoCE headers (iboe_get_mtu), 0 below 256.
func RoCEPathMTU(mtu int) int {
	for _, m := range []int{MaxRoCEPathMTU, 2048, 1024, 512, 256} {
		if mtu-RoCEHeaderBytes >= m {
			return m
		}
	}
	return 0
}
