package dsl

// Config is a decoded fabric: every .hcl file of a folder merged, with
// variables, locals, functions and dynamic blocks already evaluated.
// Optional attributes are pointers (nil: not written), so the compiler can
// tell a written value from a default. Each block carries the source range
// of its definition and of the attributes the checks point at.
type Config struct {
	Fabric   *Fabric
	QoS      *QoS
	VLANs    []VLAN
	Switches []Switch
	Hosts    []Host
	Links    []Link
}

// Fabric is the `fabric "name" {}` block; exactly one per fabric.
type Fabric struct {
	Name        string  `hcl:"name,label"`
	Description *string `hcl:"description,optional"`
	// Accepts acknowledge warnings, each with its reason.
	Accepts []Accept `hcl:"accept,block"`

	DefRange Range `hcl:",def_range"`

	LabelRange       Range `hcl:"name,label_range"`
	DescriptionRange Range `hcl:"description,attr_value_range"`
}

// Accept is `accept "warning-code" { reason = "..." }` inside the fabric
// block: the warning with that code (printed with every warning) is
// acknowledged and no longer reported; the reason is kept in model.json.
type Accept struct {
	Warning string `hcl:"warning,label"`
	Reason  string `hcl:"reason"`

	DefRange    Range `hcl:",def_range"`
	LabelRange  Range `hcl:"warning,label_range"`
	ReasonRange Range `hcl:"reason,attr_value_range"`
}

// QoS is the `qos {}` block: the traffic classes, usually started from a
// built-in profile (`profile = "nvidia-roce"`) and overridden per class.
type QoS struct {
	Profile   *string   `hcl:"profile,optional"`
	RoCEClass *string   `hcl:"roce_class,optional"`
	CNPClass  *string   `hcl:"cnp_class,optional"`
	Classes   []Class   `hcl:"class,block"`
	Headroom  *Headroom `hcl:"headroom,block"`
	Watchdog  *Watchdog `hcl:"pfc_watchdog,block"`
	DCQCN     *DCQCN    `hcl:"dcqcn,block"`

	DefRange       Range `hcl:",def_range"`
	ProfileRange   Range `hcl:"profile,attr_value_range"`
	RoCEClassRange Range `hcl:"roce_class,attr_value_range"`
	CNPClassRange  Range `hcl:"cnp_class,attr_value_range"`
}

// Class is `class "name" {}` inside qos.
type Class struct {
	Name string `hcl:"name,label"`
	// Priority is the 802.1p priority the class is marked with.
	Priority *int `hcl:"priority,optional"`
	// Priorities lists further priorities mapped into the class.
	Priorities []int `hcl:"priorities,optional"`
	// TrafficClass is the egress queue; defaults to Priority.
	TrafficClass *int `hcl:"traffic_class,optional"`
	// DSCP values classified into the class; the first is the marking.
	DSCP     []int `hcl:"dscp,optional"`
	Lossless *bool `hcl:"lossless,optional"`
	// Bandwidth is the ETS WRR share in percent; Strict makes the class
	// strict priority instead.
	Bandwidth *int  `hcl:"bandwidth,optional"`
	Strict    *bool `hcl:"strict,optional"`
	// Default marks the class that takes every DSCP and priority no
	// other class names.
	Default *bool `hcl:"default,optional"`
	ECN     *ECN  `hcl:"ecn,block"`

	DefRange          Range `hcl:",def_range"`
	LabelRange        Range `hcl:"name,label_range"`
	PriorityRange     Range `hcl:"priority,attr_value_range"`
	PrioritiesRange   Range `hcl:"priorities,attr_value_range"`
	TrafficClassRange Range `hcl:"traffic_class,attr_value_range"`
	DSCPRange         Range `hcl:"dscp,attr_value_range"`
	BandwidthRange    Range `hcl:"bandwidth,attr_value_range"`
}

// ECN is `ecn {}` inside a class. Sizes are strings with a unit ("150KB",
// "1.5MB"; KB = 1024 bytes, as Onyx, EOS and NVUE count) or plain numbers
// of bytes.
type ECN struct {
	Min         *string `hcl:"min,optional"`
	Max         *string `hcl:"max,optional"`
	Probability *int    `hcl:"probability,optional"`

	DefRange         Range `hcl:",def_range"`
	MinRange         Range `hcl:"min,attr_value_range"`
	MaxRange         Range `hcl:"max,attr_value_range"`
	ProbabilityRange Range `hcl:"probability,attr_value_range"`
}

// Headroom is `headroom {}` inside qos: the traffic assumptions of the
// PFC headroom formula.
type Headroom struct {
	LosslessMTU        *int `hcl:"lossless_mtu,optional"`
	SmallPacketPercent *int `hcl:"small_packet_percent,optional"`
	// PlanningLength is the cable length in metres the buffer pools are
	// planned for (at least each switch's longest cable).
	PlanningLength *float64 `hcl:"planning_length,optional"`
	// Mode is "computed" (fabricc writes the headroom it computes, the
	// default) or "platform" (the switch derives it from the cable).
	Mode *string `hcl:"mode,optional"`

	DefRange  Range `hcl:",def_range"`
	ModeRange Range `hcl:"mode,attr_value_range"`
}

// Watchdog is `pfc_watchdog {}` inside qos (fabric-wide) or inside a
// switch (overrides).
type Watchdog struct {
	Enabled   *bool   `hcl:"enabled,optional"`
	Action    *string `hcl:"action,optional"`
	TimeoutMs *int    `hcl:"timeout_ms,optional"`
	PollingMs *int    `hcl:"polling_ms,optional"`
	RestoreMs *int    `hcl:"restore_ms,optional"`

	DefRange    Range `hcl:",def_range"`
	ActionRange Range `hcl:"action,attr_value_range"`
}

// VLAN is `vlan "name" { id = N }`.
type VLAN struct {
	Name string `hcl:"name,label"`
	ID   int    `hcl:"id"`
	// Overlay "vxlan" says an overlay outside the description
	// (EVPN-VXLAN between the leaves' VTEPs) stretches the VLAN across
	// switches no link carrying it joins.
	Overlay *string `hcl:"overlay,optional"`

	DefRange     Range `hcl:",def_range"`
	IDRange      Range `hcl:"id,attr_value_range"`
	OverlayRange Range `hcl:"overlay,attr_value_range"`

	LabelRange Range `hcl:"name,label_range"`
}

// Switch is `switch "name" {}`.
type Switch struct {
	Name string `hcl:"name,label"`
	// Platform is "onyx", "eos" or "cumulus".
	Platform string `hcl:"platform"`
	// Model is the hardware model ("SN2410", "7050CX3-32S", ...); it
	// selects the ASIC constants.
	Model     string    `hcl:"model"`
	OSVersion *string   `hcl:"os_version,optional"`
	Watchdog  *Watchdog `hcl:"pfc_watchdog,block"`
	Ports     []Port    `hcl:"port,block"`
	Overrides []Port    `hcl:"override,block"`

	DefRange       Range `hcl:",def_range"`
	LabelRange     Range `hcl:"name,label_range"`
	PlatformRange  Range `hcl:"platform,attr_value_range"`
	ModelRange     Range `hcl:"model,attr_value_range"`
	OSVersionRange Range `hcl:"os_version,attr_value_range"`
}

// Port is `port "spec" {}` inside a switch, and `override "spec" {}` with
// the same attributes. Spec is one port or a range in the platform's
// naming: "1/1-1/32" (Onyx), "Ethernet1-32" or "Ethernet1/1-1/4" (EOS),
// "swp1-32" (Cumulus); several specs may be joined with commas.
// A `port` block declares ports (declaring one twice is an error); an
// `override` block changes only the attributes it sets on ports already
// declared.
type Port struct {
	Spec        string  `hcl:"spec,label"`
	Description *string `hcl:"description,optional"`
	// Speed is a string with a unit: "10G", "25G", "40G", "100G", "400G".
	Speed *string `hcl:"speed,optional"`
	MTU   *int    `hcl:"mtu,optional"`
	// Mode is "access", "trunk" or "routed".
	Mode       *string `hcl:"mode,optional"`
	VLANs      []int   `hcl:"vlans,optional"`
	NativeVLAN *int    `hcl:"native_vlan,optional"`
	// Trust is "dscp", "pcp" or "both".
	Trust *string `hcl:"trust,optional"`
	// PFC false turns PFC off on the port (it is on by default on every
	// port a lossless class crosses).
	PFC      *bool `hcl:"pfc,optional"`
	Shutdown *bool `hcl:"shutdown,optional"`
	// Lanes is how many electrical lanes the port uses; by default the
	// fewest that carry its speed on the switch model.
	Lanes *int `hcl:"lanes,optional"`

	DefRange        Range `hcl:",def_range"`
	LabelRange      Range `hcl:"spec,label_range"`
	SpeedRange      Range `hcl:"speed,attr_value_range"`
	MTURange        Range `hcl:"mtu,attr_value_range"`
	ModeRange       Range `hcl:"mode,attr_value_range"`
	VLANsRange      Range `hcl:"vlans,attr_value_range"`
	NativeVLANRange Range `hcl:"native_vlan,attr_value_range"`
	TrustRange      Range `hcl:"trust,attr_value_range"`
	PFCRange        Range `hcl:"pfc,attr_value_range"`
	LanesRange      Range `hcl:"lanes,attr_value_range"`

	DescriptionRange Range `hcl:"description,attr_value_range"`
}

// Host is `host "name" {}`.
type Host struct {
	Name string `hcl:"name,label"`
	// OS is "linux", "windows" or "freebsd".
	OS        string  `hcl:"os"`
	OSVersion *string `hcl:"os_version,optional"`
	Tuning    *bool   `hcl:"tuning,optional"`
	// ClusterClass names the qos class a Windows failover cluster's
	// heartbeat rides in (New-NetQosPolicy -Cluster); host-wide, as the
	// NetQos policies are.
	ClusterClass *string `hcl:"cluster_class,optional"`
	NICs         []NIC   `hcl:"nic,block"`

	DefRange   Range `hcl:",def_range"`
	LabelRange Range `hcl:"name,label_range"`
	OSRange    Range `hcl:"os,attr_value_range"`

	OSVersionRange    Range `hcl:"os_version,attr_value_range"`
	ClusterClassRange Range `hcl:"cluster_class,attr_value_range"`
}

// NIC is `nic "name" {}` inside a host.
type NIC struct {
	Name string `hcl:"name,label"`
	// Model: "ConnectX-3 Pro", "ConnectX-4", "ConnectX-4 Lx",
	// "ConnectX-5", "ConnectX-6", "ConnectX-6 Dx", "ConnectX-7",
	// "QL45212".
	Model string `hcl:"model"`
	// Driver: "mlnx_ofed" or "inbox" (linux), "winof" or "winof2"
	// (windows), "mlx4en"/"mlx5en" (freebsd); defaulted from model and OS.
	Driver    *string `hcl:"driver,optional"`
	Interface string  `hcl:"interface"`
	// DriverInterface (FreeBSD) is the name the driver gave an interface
	// that rc.conf renames (ifconfig_mce0_name="rdma0": interface
	// "rdma0", driver_interface "mce0"); its sysctls keep that name.
	DriverInterface *string `hcl:"driver_interface,optional"`
	Speed           *string `hcl:"speed,optional"`
	MTU             *int    `hcl:"mtu,optional"`
	VLAN            *int    `hcl:"vlan,optional"`
	// VLANInterface (Linux) names the VLAN device the host script makes
	// for VLAN on Interface (default Interface.VID).
	VLANInterface *string  `hcl:"vlan_interface,optional"`
	Addresses     []string `hcl:"addresses,optional"`
	// RoCEMode is "v1" or "v2" (default v2). Transport "iwarp" marks an
	// iWARP NIC (QLogic FastLinQ can run either).
	RoCEMode  *string `hcl:"roce_mode,optional"`
	Transport *string `hcl:"transport,optional"`
	// Class is the traffic class RoCE rides in (default qos.roce_class).
	Class *string `hcl:"class,optional"`
	// Priority, DSCP, CNPPriority, CNPDSCP, PFCPriorities and Trust
	// override what the class implies; the checks compare them with the
	// switch ports on the NIC's path.
	Priority      *int    `hcl:"priority,optional"`
	DSCP          *int    `hcl:"dscp,optional"`
	CNPPriority   *int    `hcl:"cnp_priority,optional"`
	CNPDSCP       *int    `hcl:"cnp_dscp,optional"`
	PFCPriorities []int   `hcl:"pfc_priorities,optional"`
	Trust         *string `hcl:"trust,optional"`
	// Applications: "smb-direct", "iser", "nvme-of", "nfs-rdma", "mpi",
	// "nccl" (Linux: the host script writes NCCL_IB_TC to /etc/nccl.conf),
	// "lustre" (Linux), and storage over TCP in the NIC's class:
	// "nvme-tcp", "iscsi".
	Applications []string `hcl:"applications,optional"`
	// Gateway is the next hop of the NIC's own routing table (the switch
	// port's address in the NIC's subnet); a NIC on a routed port whose
	// address is a /31 or /30 has it derived.
	Gateway *string `hcl:"gateway,optional"`

	DefRange           Range `hcl:",def_range"`
	LabelRange         Range `hcl:"name,label_range"`
	ModelRange         Range `hcl:"model,attr_value_range"`
	DriverRange        Range `hcl:"driver,attr_value_range"`
	SpeedRange         Range `hcl:"speed,attr_value_range"`
	MTURange           Range `hcl:"mtu,attr_value_range"`
	VLANRange          Range `hcl:"vlan,attr_value_range"`
	AddressesRange     Range `hcl:"addresses,attr_value_range"`
	RoCEModeRange      Range `hcl:"roce_mode,attr_value_range"`
	TransportRange     Range `hcl:"transport,attr_value_range"`
	ClassRange         Range `hcl:"class,attr_value_range"`
	PriorityRange      Range `hcl:"priority,attr_value_range"`
	DSCPRange          Range `hcl:"dscp,attr_value_range"`
	CNPPriorityRange   Range `hcl:"cnp_priority,attr_value_range"`
	CNPDSCPRange       Range `hcl:"cnp_dscp,attr_value_range"`
	PFCPrioritiesRange Range `hcl:"pfc_priorities,attr_value_range"`
	TrustRange         Range `hcl:"trust,attr_value_range"`
	ApplicationsRange  Range `hcl:"applications,attr_value_range"`
	GatewayRange       Range `hcl:"gateway,attr_value_range"`

	InterfaceRange       Range `hcl:"interface,attr_value_range"`
	DriverInterfaceRange Range `hcl:"driver_interface,attr_value_range"`
	VLANInterfaceRange   Range `hcl:"vlan_interface,attr_value_range"`
}

// Link is `link {}`: one cable. A and B are "device:port" for a switch
// port ("leaf1:swp1", "sn2410:1/5") or "host:nic" for a host NIC
// ("gpu01:roce0").
type Link struct {
	// A and B are required; the compiler says so when one is missing
	// (it knows what the other end is and which NIC is left uncabled,
	// which HCL's "Missing required argument" cannot say).
	A string `hcl:"a,optional"`
	B string `hcl:"b,optional"`
	// Length is the cable length in metres.
	Length float64 `hcl:"length"`
	// Cable is "dac", "aoc" or "fibre".
	Cable *string `hcl:"cable,optional"`
	// Override makes this link replace every other link that cables
	// one of its ends (one exception to links a dynamic block writes).
	Override bool `hcl:"override,optional"`

	DefRange    Range `hcl:",def_range"`
	ARange      Range `hcl:"a,attr_value_range"`
	BRange      Range `hcl:"b,attr_value_range"`
	LengthRange Range `hcl:"length,attr_value_range"`
	CableRange  Range `hcl:"cable,attr_value_range"`
	// OverrideRange is where override is written.
	OverrideRange Range `hcl:"override,attr_value_range"`
}
