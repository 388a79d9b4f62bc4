// Package model is fabricc's intermediate representation: one checked,
// fully resolved description of a lossless RDMA fabric.
//
// The model is the contract between the compiler and every target. Nothing
// in it is left to guess: every default is resolved, every unit is in the
// field name (Bytes, Mbps, Meters, Percent), every port carries its own PFC,
// trust and buffer settings, and every host NIC carries the priorities and
// DSCP values its RoCE and CNP traffic use. Targets read only this package;
// they never look at the language or invent values.
//
// Slices are kept in a canonical order by the compiler (switches, hosts and
// links by name, ports in the platform's natural order, numbers ascending),
// so the JSON form (see Marshal) is byte-stable.
package model

import "strings"

// Platform names a switch operating system.
type Platform string

// Switch platforms fabricc renders.
const (
	PlatformOnyx    Platform = "onyx"
	PlatformEOS     Platform = "eos"
	PlatformCumulus Platform = "cumulus"
)

// OS names a host operating system.
type OS string

// Host operating systems fabricc renders.
const (
	OSLinux   OS = "linux"
	OSWindows OS = "windows"
	OSFreeBSD OS = "freebsd"
)

// Trust says which header field a port classifies ingress traffic by.
type Trust string

// Trust modes. RoCEv2 fabrics trust DSCP (L3) because the 802.1p bits are
// lost when a packet is routed; RoCEv1 and VLAN-tagged L2 fabrics trust PCP.
const (
	TrustDSCP Trust = "dscp" // Onyx "L3", EOS "qos trust dscp", NVUE "l3"
	TrustPCP  Trust = "pcp"  // Onyx "L2", EOS "qos trust cos", NVUE "l2"
	TrustBoth Trust = "both" // Onyx "both", NVUE "both": DSCP for IP, PCP otherwise
)

// PortMode is the layer-2 mode of a switch port.
type PortMode string

// Port modes.
const (
	ModeAccess PortMode = "access"
	ModeTrunk  PortMode = "trunk"
	ModeRouted PortMode = "routed"
)

// Fabric is the whole compiled fabric.
type Fabric struct {
	// Name is the fabric's label from the `fabric "name"` block.
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// QoS is the fabric-wide traffic-class policy every port and NIC
	// refers to.
	QoS      QoS      `json:"qos"`
	VLANs    []VLAN   `json:"vlans"`
	Switches []Switch `json:"switches"`
	Hosts    []Host   `json:"hosts"`
	Links    []Link   `json:"links"`
	// Accepted lists the warnings the fabric acknowledges (its `accept`
	// blocks), by code, with the reason given and how many were raised.
	Accepted []AcceptedWarning `json:"accepted,omitempty"`
}

// AcceptedWarning is one acknowledged warning.
type AcceptedWarning struct {
	Warning string `json:"warning"`
	Reason  string `json:"reason"`
	Count   int    `json:"count"`
}

// QoS is the resolved traffic policy: the classes and the complete maps
// from DSCP to priority and from priority to traffic class (egress queue).
type QoS struct {
	// Profile names the built-in profile the classes started from
	// ("nvidia-roce"), or is empty when every class was written out.
	Profile string `json:"profile,omitempty"`
	// Classes in ascending order of TrafficClass.
	Classes []Class `json:"classes"`
	// DSCPToPriority has exactly 64 entries: DSCP value -> 802.1p priority.
	DSCPToPriority []int `json:"dscp_to_priority"`
	// PriorityToTC has exactly 8 entries: priority -> traffic class.
	PriorityToTC []int `json:"priority_to_tc"`
	// PFCPriorities are the priorities that are lossless (PFC on),
	// ascending.
	PFCPriorities []int `json:"pfc_priorities"`
	// RoCEClass and CNPClass name the classes that RoCE data and DCQCN
	// congestion notification packets ride in.
	RoCEClass string `json:"roce_class"`
	CNPClass  string `json:"cnp_class,omitempty"`
	// Headroom holds the fabric-wide inputs to the PFC headroom formula.
	Headroom HeadroomPolicy `json:"headroom"`
	// DCQCN holds the DCQCN reaction point parameters written in the qos
	// block's dcqcn block, once for the fabric (DCQCNSpecs order); a
	// parameter not written is absent and keeps the NIC firmware's value.
	DCQCN []DCQCNParam `json:"dcqcn,omitempty"`
}

// Class is one traffic class: a set of priorities sharing one egress queue.
type Class struct {
	Name string `json:"name"`
	// Priority is the 802.1p priority this class's traffic is marked with
	// (the PCP hosts put in the VLAN tag, and the switch priority).
	Priority int `json:"priority"`
	// Priorities are all priorities mapped into this class, Priority
	// included, ascending.
	Priorities []int `json:"priorities"`
	// TrafficClass is the egress queue index (0-7).
	TrafficClass int `json:"traffic_class"`
	// DSCP values classified into this class, ascending.
	DSCP []int `json:"dscp"`
	// MarkDSCP is the DSCP hosts mark this class's traffic with.
	MarkDSCP int  `json:"mark_dscp"`
	Lossless bool `json:"lossless"`
	// CNP is true for the class carrying congestion notification packets.
	CNP bool `json:"cnp,omitempty"`
	ETS ETS  `json:"ets"`
	// ECN is set for classes that mark ECN (all lossless classes).
	ECN *ECN `json:"ecn,omitempty"`
}

// ETSMode is how a traffic class is scheduled.
type ETSMode string

// ETS modes.
const (
	ETSStrict ETSMode = "strict"
	ETSWRR    ETSMode = "wrr"
)

// ETS is a class's share of the link (802.1Qaz enhanced transmission
// selection).
type ETS struct {
	Mode ETSMode `json:"mode"`
	// BandwidthPercent is the guaranteed share under WRR; the WRR shares
	// of all classes sum to 100. Zero for strict classes.
	BandwidthPercent int `json:"bandwidth_percent"`
}

// ECN holds the WRED/ECN marking thresholds of one egress queue.
type ECN struct {
	MinBytes int64 `json:"min_bytes"`
	MaxBytes int64 `json:"max_bytes"`
	// MarkProbabilityPercent is the marking probability at MaxBytes.
	MarkProbabilityPercent int `json:"mark_probability_percent"`
}

// HeadroomPolicy holds the traffic assumptions of the headroom formula.
type HeadroomPolicy struct {
	// LosslessMTUBytes is the largest frame expected in a lossless queue
	// (SONiC LOSSLESS_TRAFFIC_PATTERN mtu).
	LosslessMTUBytes int `json:"lossless_mtu_bytes"`
	// LosslessMTUFromNICs is true when lossless_mtu was not written: each
	// port then takes the largest RoCE path MTU of the NICs it receives
	// lossless traffic from, LosslessMTUBytes (4096, the largest RoCE
	// path MTU) when it knows none. Each Headroom records the value used.
	LosslessMTUFromNICs bool `json:"lossless_mtu_from_nics,omitempty"`
	// SmallPacketPercent is the share of small (64 B) packets assumed
	// when estimating cell occupancy.
	SmallPacketPercent int `json:"small_packet_percent"`
	// PlanningMeters is the written planning_length: the cable length
	// the buffer pools are planned for, raised per switch to its longest
	// cable; 0 for the default, 300 m.
	PlanningMeters float64 `json:"planning_meters,omitempty"`
	// Mode is the written headroom mode: HeadroomPlatform where each
	// switch derives its lossless ports' headroom itself from the cable
	// length, empty (the language's "computed", the default) where
	// fabricc writes the headroom it computes wherever a platform takes
	// it. The model's priority groups, pools and buffer budget hold
	// fabricc's computation either way.
	Mode string `json:"mode,omitempty"`
}

// Headroom modes (HeadroomPolicy.Mode, qos.headroom.mode).
const (
	// HeadroomComputed is the default mode as the language writes it;
	// the model holds it as "".
	HeadroomComputed = "computed"
	// HeadroomPlatform leaves each port's headroom to the switch: on
	// Cumulus Linux the PFC profiles carry the cable length and no
	// port-buffer, xoff-threshold or xon-threshold.
	HeadroomPlatform = "platform"
)

// LeftToPlatform reports whether the switches derive the lossless
// ports' headroom themselves (HeadroomPlatform).
func (p HeadroomPolicy) LeftToPlatform() bool { return p.Mode == HeadroomPlatform }

// VLAN is one 802.1Q VLAN.
type VLAN struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	// Overlay is OverlayVXLAN when EVPN-VXLAN, outside the description,
	// stretches the VLAN between the switches that carry it; "" for none.
	Overlay string `json:"overlay,omitempty"`
}

// OverlayVXLAN is the VLAN overlay of EVPN-VXLAN (RFC 7348, RFC 8365).
const OverlayVXLAN = "vxlan"

// VXLANOverheadIPv4 is the bytes VXLAN adds to a host's IP packet on an
// IPv4 underlay: the inner Ethernet header (14), VXLAN (8), UDP (8) and
// the outer IPv4 header (20) (RFC 7348 §5, the VXLAN frame format). An
// IPv6 underlay adds 20 B more (its 40 B header).
const VXLANOverheadIPv4 = 14 + 8 + 8 + 20

// OverlayVLANs returns the ids of the VLANs with an overlay that a
// port of sw carries (tagged or untagged), ascending: the VLANs sw is a
// VTEP for.
func (f *Fabric) OverlayVLANs(sw *Switch) []int {
	var ids []int
	for _, v := range f.VLANs {
		if v.Overlay == "" {
			continue
		}
		for i := range sw.Ports {
			if sw.Ports[i].CarriesVLAN(v.ID) {
				ids = append(ids, v.ID)
				break
			}
		}
	}
	return ids
}

// Switch is one switch with every port resolved.
type Switch struct {
	Name     string   `json:"name"`
	Platform Platform `json:"platform"`
	// OSVersion is the declared OS release ("3.6.8190", "4.32.1F",
	// "5.9.1"); targets pick syntax by it.
	OSVersion string   `json:"os_version"`
	Hardware  Hardware `json:"hardware"`
	// PFCWatchdog is the switch-wide PFC storm watchdog.
	PFCWatchdog PFCWatchdog `json:"pfc_watchdog"`
	// BufferStyle is how buffers are configured: "traffic-pool" (Onyx
	// >= 3.6.5000), "advanced" (older Onyx ingress-buffer commands) or
	// "profile" (EOS, Cumulus).
	BufferStyle string `json:"buffer_style"`
	// HeadroomLeftToSwitch is true on a Cumulus switch of a fabric whose
	// qos.headroom.mode is "platform": its PFC profiles carry the cable
	// length and no port-buffer or thresholds, and switchd derives each
	// lossless port's headroom. The priority groups keep fabricc's
	// computation, which the pools and the buffer budget count.
	HeadroomLeftToSwitch bool `json:"headroom_left_to_switch,omitempty"`
	// Pools are the shared buffer pools, ingress first, by name.
	Pools []BufferPool `json:"pools"`
	// Buffer is the budget check result for this switch.
	Buffer BufferBudget `json:"buffer"`
	Ports  []Port       `json:"ports"`
}

// Hardware is the switch model and the ASIC constants the physics uses.
type Hardware struct {
	Model string `json:"model"`
	ASIC  string `json:"asic"`
	// BufferBytes is the ASIC's total packet buffer (the datasheet's).
	BufferBytes int64 `json:"buffer_bytes"`
	// UsableBufferBytes is the part software may carve into pools and
	// headroom, which the buffer budget uses: a SONiC SKU's figure where
	// one is public, else BufferBytes.
	UsableBufferBytes int64 `json:"usable_buffer_bytes"`
	// CellBytes is the buffer allocation unit.
	CellBytes int `json:"cell_bytes"`
	// PipelineLatencyBytes, MACPHYDelayBytes: ASIC constants of the
	// headroom formula (SONiC asic_table.j2, given there in KB).
	PipelineLatencyBytes int `json:"pipeline_latency_bytes"`
	MACPHYDelayBytes     int `json:"mac_phy_delay_bytes"`
	// Source cites where the numbers come from.
	Source string `json:"source"`
}

// HasEOSMMUProfile reports whether the ASIC is in the Broadcom Trident
// or Tomahawk families (7050X/7060X/7260X), the EOS platforms with a user
// MMU queue profile ("platform trident mmu queue profile", AVD
// platform-trident.j2). Jericho-based platforms (7280R/7500R/7800R) have
// no such command; EOS sizes their PFC headroom itself, and one rejected
// line would abort the whole configuration session.
func (h Hardware) HasEOSMMUProfile() bool {
	a := strings.ToLower(h.ASIC)
	return strings.Contains(a, "trident") || strings.Contains(a, "tomahawk")
}

// PFCWatchdog detects a queue stuck in PFC pause and breaks the storm.
type PFCWatchdog struct {
	Enabled bool `json:"enabled"`
	// Action is "drop" (discard the stuck queue's packets) or "no-drop".
	Action            string `json:"action,omitempty"`
	TimeoutMs         int    `json:"timeout_ms,omitempty"`
	PollingIntervalMs int    `json:"polling_interval_ms,omitempty"`
	RestoreMs         int    `json:"restore_ms,omitempty"`
}

// BufferPool is one shared buffer pool.
type BufferPool struct {
	Name string `json:"name"`
	// Direction is "ingress" or "egress".
	Direction string `json:"direction"`
	// Type is "lossless" or "lossy".
	Type      string `json:"type"`
	SizeBytes int64  `json:"size_bytes"`
	// Percent is SizeBytes as a share of the switch buffer, to one
	// decimal (Onyx "traffic pool NAME memory percent").
	Percent float64 `json:"percent"`
	// Mode is "dynamic" (alpha-based sharing) or "static".
	Mode string `json:"mode"`
	// Priorities mapped to this pool, ascending.
	Priorities []int `json:"priorities"`
}

// BufferBudget is what the switch's ports reserve against its pools.
type BufferBudget struct {
	TotalBytes int64 `json:"total_bytes"`
	// HeadroomBytes is the sum of lossless PG headroom over all ports.
	HeadroomBytes int64 `json:"headroom_bytes"`
	// PlanningCableMeters is the cable length the pools are planned for:
	// every lossless PG gets room for the headroom it would need at this
	// length, so recabling a port within it changes only that port's
	// headroom, never the pools.
	PlanningCableMeters float64 `json:"planning_cable_meters"`
	// HeadroomReserveBytes is that planned room, summed over all ports;
	// it is at least HeadroomBytes.
	HeadroomReserveBytes int64 `json:"headroom_reserve_bytes"`
	// ReservedBytes is the sum of guaranteed (non-headroom) reservations.
	ReservedBytes int64 `json:"reserved_bytes"`
	// SharedBytes is what is left for the shared pools.
	SharedBytes int64 `json:"shared_bytes"`
}

// Port is one switch port with everything a target needs.
type Port struct {
	// Name in the platform's own naming: "1/1" (Onyx, rendered
	// "ethernet 1/1"), "Ethernet1" or "Ethernet1/1" (EOS), "swp1" (Cumulus).
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	SpeedMbps   int    `json:"speed_mbps"`
	// Lanes is how many electrical lanes (SerDes) the port uses at its
	// speed: 4 for 100G on QSFP28, 8 for 400G on QSFP-DD (8 x 50G), 4
	// for 400G on Spectrum-4 (4 x 100G). The headroom formula sizes
	// 8-lane ports differently.
	Lanes int      `json:"lanes"`
	MTU   int      `json:"mtu"`
	Mode  PortMode `json:"mode"`
	// AccessVLAN is the VLAN of an access port (0 otherwise).
	AccessVLAN int `json:"access_vlan,omitempty"`
	// TrunkVLANs are the allowed VLANs of a trunk port, ascending.
	TrunkVLANs []int `json:"trunk_vlans,omitempty"`
	// NativeVLAN is the untagged VLAN of a trunk port (0: none).
	NativeVLAN int   `json:"native_vlan,omitempty"`
	Trust      Trust `json:"trust"`
	// PFCPriorities with PFC enabled on this port, ascending; empty
	// means PFC is off on the port.
	PFCPriorities []int `json:"pfc_priorities"`
	// LinkPause is 802.3x global pause; always false where PFC is on
	// because the two are mutually exclusive.
	LinkPause bool `json:"link_pause"`
	// PFCWatchdog is true when the switch watchdog covers this port.
	PFCWatchdog bool `json:"pfc_watchdog"`
	// Shutdown is true for administratively disabled ports.
	Shutdown bool `json:"shutdown,omitempty"`
	// Ingress priority groups, by PG index.
	PriorityGroups []PriorityGroup `json:"priority_groups"`
	// Egress queue buffers, by traffic class.
	EgressQueues []EgressQueue `json:"egress_queues"`
	// Peer is what the port is cabled to; nil for an unused port.
	Peer *Peer `json:"peer,omitempty"`
	// DCBX is true when the peer NIC takes its PFC settings from this
	// port by DCBX (IEEE 802.1Qaz), so the port must advertise them: a
	// QLogic FastLinQ NIC set to "Dynamic" DCBX in its UEFI setup
	// (Demartek RoCE Deployment Guide, QLogic adapter set-up, step 6).
	DCBX bool `json:"dcbx,omitempty"`
}

// PriorityGroup is an ingress priority group of a port with its buffer.
type PriorityGroup struct {
	Index      int    `json:"index"`
	Priorities []int  `json:"priorities"`
	Lossless   bool   `json:"lossless"`
	Pool       string `json:"pool"`
	// SizeBytes is the reserved buffer (for lossless PGs: xoff + xon,
	// i.e. the headroom).
	SizeBytes int64 `json:"size_bytes"`
	// XoffBytes is the room above the pause threshold for bytes still in
	// flight after PFC is sent; XonBytes the hysteresis below it.
	XoffBytes int64 `json:"xoff_bytes"`
	XonBytes  int64 `json:"xon_bytes"`
	// SharedAlpha is the dynamic-threshold factor for the shared pool:
	// "1/128" .. "64" or "inf".
	SharedAlpha string `json:"shared_alpha"`
	// Headroom shows how XoffBytes and XonBytes were computed; nil for
	// lossy groups.
	Headroom *Headroom `json:"headroom,omitempty"`
}

// EgressQueue is the egress buffer of one traffic class on a port.
type EgressQueue struct {
	TrafficClass  int    `json:"traffic_class"`
	Pool          string `json:"pool"`
	ReservedBytes int64  `json:"reserved_bytes"`
	SharedAlpha   string `json:"shared_alpha"`
}

// Headroom records the inputs and named terms of the PFC headroom formula
// for one lossless priority group, so a reviewer can check the arithmetic.
// All byte values; see compiler/headroom.go for the formula.
type Headroom struct {
	// Inputs.
	SpeedMbps int `json:"speed_mbps"`
	// Lanes of the port; 8-lane ports get twice the pipeline latency and
	// one more port MTU.
	Lanes            int     `json:"lanes"`
	CableMeters      float64 `json:"cable_meters"`
	PortMTUBytes     int     `json:"port_mtu_bytes"`
	LosslessMTUBytes int     `json:"lossless_mtu_bytes"`
	// LosslessMTUFrom says where LosslessMTUBytes came from when it is
	// not the written lossless_mtu as is: a NIC's RoCE path MTU, the
	// 4096 B fallback, or the clamp to the port's largest frame.
	LosslessMTUFrom      string `json:"lossless_mtu_from,omitempty"`
	SmallPacketPercent   int    `json:"small_packet_percent"`
	CellBytes            int    `json:"cell_bytes"`
	PipelineLatencyBytes int    `json:"pipeline_latency_bytes"`
	MACPHYDelayBytes     int    `json:"mac_phy_delay_bytes"`
	PauseQuanta          int    `json:"pause_quanta"`
	// Terms.
	PeerResponseBytes int     `json:"peer_response_bytes"`
	CableBytes        int     `json:"cable_bytes"`
	PropagationBytes  int     `json:"propagation_bytes"`
	CellOccupancy     float64 `json:"cell_occupancy"`
	// Results (equal to the owning PriorityGroup's values).
	XoffBytes int64 `json:"xoff_bytes"`
	XonBytes  int64 `json:"xon_bytes"`
	SizeBytes int64 `json:"size_bytes"`
	// Formula names the algorithm and its source.
	Formula string `json:"formula"`
}

// Peer is the far end of a cable.
type Peer struct {
	// Kind is "switch" or "host".
	Kind   string `json:"kind"`
	Device string `json:"device"`
	// Port is the switch port or host NIC name at the far end.
	Port        string  `json:"port"`
	CableMeters float64 `json:"cable_meters"`
	// CableKind is "dac", "aoc" or "fibre".
	CableKind string `json:"cable_kind"`
}

// Host is one server with its RDMA NICs.
type Host struct {
	Name string `json:"name"`
	OS   OS     `json:"os"`
	// OSVersion as declared ("2012r2", "2016", "rhel7", "12.1").
	OSVersion string `json:"os_version,omitempty"`
	NICs      []NIC  `json:"nics"`
	// Tuning enables the optional host tuning of the Demartek RoCE
	// Deployment Guide (CPU governor, memlock limits).
	Tuning bool `json:"tuning"`
	// Cluster is the class a Windows failover cluster's heartbeat rides
	// in (host cluster_class); nil when the host names none.
	Cluster *ClusterTraffic `json:"cluster,omitempty"`
}

// ClusterTraffic is a Windows failover cluster's own traffic (heartbeats,
// UDP 3343), which Windows classifies with New-NetQosPolicy -Cluster: a
// lossy class of its own with a small ETS share, so that heartbeats are
// neither starved nor paused by storage traffic (Microsoft, "Host network
// requirements for Azure Stack HCI", Cluster traffic class).
type ClusterTraffic struct {
	// Class is the model class the heartbeat rides in.
	Class string `json:"class"`
	// Priority is the 802.1p priority the host tags it with (the class's).
	Priority int `json:"priority"`
	// MarkDSCP is the class's DSCP mark, which the host also sets where
	// its NICs' peers trust DSCP (RoCE.Trust dscp or both).
	MarkDSCP int `json:"mark_dscp"`
}

// Transport is the RDMA transport of a NIC.
type Transport string

// RDMA transports.
const (
	TransportRoCE  Transport = "roce"
	TransportIWARP Transport = "iwarp"
)

// NIC is one RDMA-capable network interface of a host.
type NIC struct {
	// Name is the NIC's label in the fabric ("roce0").
	Name string `json:"name"`
	// Interface is the OS interface name ("ens1f0", "Ethernet 4",
	// "mlxen0"). For a VLAN, the parent interface.
	Interface string `json:"interface"`
	// DriverInterface is, on FreeBSD, the name the driver gave Interface
	// when rc.conf renames it (ifconfig_<driver name>_name, rc.conf(5)):
	// its sysctls and loader tunables keep that name (dev.mce.N,
	// hw.mlxenN). Empty when the interface has the driver's name.
	DriverInterface string `json:"driver_interface,omitempty"`
	// Model is the adapter family: "ConnectX-3 Pro", "ConnectX-4",
	// "ConnectX-4 Lx", "ConnectX-5", "ConnectX-6", "ConnectX-6 Dx",
	// "ConnectX-7", "QL45212".
	Model string `json:"model"`
	// Vendor is "mellanox" or "qlogic".
	Vendor string `json:"vendor"`
	// Driver is the driver stack: "mlnx_ofed" or "inbox" (Linux),
	// "winof" or "winof2" (Windows), "mlx4en" or "mlx5en" (FreeBSD),
	// "qede" (QLogic on Linux), "qlogic" (QLogic on Windows).
	Driver    string    `json:"driver"`
	Transport Transport `json:"transport"`
	SpeedMbps int       `json:"speed_mbps"`
	MTU       int       `json:"mtu"`
	// VLAN is the 802.1Q VLAN the RDMA traffic is tagged with (0: untagged).
	VLAN int `json:"vlan,omitempty"`
	// VLANInterface is, on Linux, the name of the VLAN device the host
	// script creates on Interface for VLAN ("vl200"): the nic's
	// vlan_interface. Empty for the default, Interface.VID (VLANName).
	VLANInterface string `json:"vlan_interface,omitempty"`
	// Addresses in CIDR form, in the order written.
	Addresses []string `json:"addresses"`
	RoCE      RoCE     `json:"roce"`
	// Applications that ride RDMA on this NIC, by kind.
	Applications []Application `json:"applications"`
	// Peer is what the NIC is cabled to.
	Peer *Peer `json:"peer,omitempty"`
	// Route is the NIC's policy route, nil when it has none: a NIC on a
	// routed switch port reaches nothing beyond its own subnet (a /31
	// holds the NIC and the switch port only, RFC 3021) without one.
	Route *NICRoute `json:"route,omitempty"`
}

// NICRoute is a NIC's own routing table: a default route via Gateway on
// the NIC's interface in table Table, which a rule at Priority selects
// for the packets from Source, so that each NIC's traffic leaves by its
// own link (ip-rule(8), ip-route(8)).
type NICRoute struct {
	// Gateway is the next hop: the NIC's nic gateway attribute, or the
	// other address of its /31 (RFC 3021) or /30. A written gateway may
	// be an IPv6 link-local address (fe80::/10, on-link on every IPv6
	// interface, RFC 4861 §4.2), also for an IPv4 Source (RFC 5549).
	Gateway string `json:"gateway"`
	// Written is true when the gateway is the nic's gateway attribute.
	Written bool `json:"written"`
	// Source is the NIC's address in the gateway's subnet, without its
	// prefix length.
	Source string `json:"source"`
	// Table and Priority are RouteBase plus the NIC's position among its
	// host's NICs (1 for the first, by name).
	Table    int `json:"table"`
	Priority int `json:"priority"`
	// Prefixes are the main-table routes via Gateway on the NIC: the
	// other fabric NICs' subnets of Source's family that this NIC carries
	// (same connected component, same rail), merged into the fewest
	// exact CIDR prefixes, host bits clear, in address order. Initiators
	// that resolve with no source address look up the main table only,
	// which the rule for Source never selects.
	Prefixes []string `json:"prefixes,omitempty"`
}

// RouteBase is where the NICs' routing tables and rule priorities start:
// NIC i of a host (1-based, by name) has table and priority RouteBase+i,
// clear of the kernel's own tables (253-255) and rules (0, 32766, 32767;
// ip-rule(8)).
const RouteBase = 1000

// RoCE is the host side of the lossless contract.
type RoCE struct {
	// Mode is "v1" (Ethernet, L2 only) or "v2" (UDP/IP, routable).
	Mode string `json:"mode"`
	// UDPPort is the RoCEv2 destination port (4791, IANA).
	UDPPort int `json:"udp_port,omitempty"`
	// Priority and DSCP mark RoCE data traffic; TOS is the ToS byte as
	// cma_roce_tos and RDMA-CM's default_roce_tos take it: DSCP<<2, with
	// ECT(0) (ECTZero) on RoCE v2.
	Priority int `json:"priority"`
	DSCP     int `json:"dscp"`
	TOS      int `json:"tos"`
	// CNPPriority and CNPDSCP mark DCQCN congestion notification packets.
	CNPPriority int `json:"cnp_priority"`
	CNPDSCP     int `json:"cnp_dscp"`
	// PFCPriorities enabled on the NIC, ascending.
	PFCPriorities []int `json:"pfc_priorities"`
	Trust         Trust `json:"trust"`
	// ECNPriorities have DCQCN (ECN reaction and notification point)
	// enabled, ascending: every priority (compiler/roce.go says why).
	ECNPriorities []int `json:"ecn_priorities"`
	// ETS is the NIC's bandwidth split per traffic class, indexed by TC
	// (8 entries; strict classes have Mode strict).
	ETS []ETS `json:"ets"`
}

// Application is a protocol that needs host QoS policy: one that rides
// RDMA, or storage over TCP (OverTCP) that the host tags into the NIC's
// class.
type Application struct {
	// Kind is "smb-direct", "iser", "nvme-of", "nfs-rdma", "mpi",
	// "nccl" (AppNCCL), "lustre", or over TCP "nvme-tcp" (AppNVMeTCP)
	// or "iscsi" (AppISCSI).
	Kind string `json:"kind"`
	// Port is the TCP/UDP or NetworkDirect port that identifies the
	// traffic (445 for SMB Direct, 3260 for iSER and iSCSI, 4420 for
	// NVMe-oF and NVMe/TCP).
	Port int `json:"port"`
	// Priority is the 802.1p priority the host tags it with.
	Priority int `json:"priority"`
}

// Link is one cable.
type Link struct {
	A           Endpoint `json:"a"`
	B           Endpoint `json:"b"`
	CableMeters float64  `json:"cable_meters"`
	CableKind   string   `json:"cable_kind"`
}

// Endpoint is one end of a link.
type Endpoint struct {
	// Kind is "switch" or "host".
	Kind   string `json:"kind"`
	Device string `json:"device"`
	// Port is a switch port name or a host NIC name.
	Port string `json:"port"`
}
