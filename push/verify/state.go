// Package verify reads a switch's configuration back in model terms and
// compares it with what the fabric model intends. Each platform has a
// parser from the OS's own output (EOS `show running-config`, as block
// text or `| json`, and `show interfaces | json`; Onyx `show
// running-config` flat lines and `show dcb priority-flow-control |
// json-print`; NVUE `nv config show -o json`, with `nv show interface
// -o json` and `nv show qos pfc -o json` for the operational state) into
// a State; Expect builds the State the model asks for; Compare lists
// every difference as device, port, field, intended and actual.
package verify

import (
	"maps"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/cumulus"
	"github.com/fabricc/fabricc/targets/eos"
	"github.com/fabricc/fabricc/targets/onyx"
)

// State is what verification compares: the fabric-owned settings of one
// switch, in model units (bytes, priorities, traffic classes).
type State struct {
	// VLANs present, by id, with their names.
	VLANs map[int]string
	// Ports by name (the model's port names).
	Ports map[string]*Port
	// Pools are the ingress shared-buffer pools by type ("lossy",
	// "lossless"); nil when the platform's read-back has no pools to
	// compare (EOS sizes buffers through a system-wide MMU profile).
	Pools map[string]Pool
	// EgressPools are NVUE's egress service pools (`qos
	// advance-buffer-config default-global egress-pool <ID>`,
	// egress-service-pool from Cumulus Linux 5.11) by pool ID, as
	// targets/cumulus writes them (cumulus.EgressPools); nil where
	// nothing is compared (other platforms, releases before 5.4).
	EgressPools map[int]EgressPool
	// NoVLANNames is set when the platform keeps no VLAN names (NVUE), so
	// names are not compared.
	NoVLANNames bool
	// UsedTCs are the traffic classes some priority maps to, in the
	// intended State only (Expect); nil compares every traffic class.
	// Compare leaves out the per-TC settings (ETS, ECN) of the others:
	// see unusedTCs.
	UsedTCs map[int]bool
	// AllETS: the renderer writes the ETS of every traffic class 0-7
	// (Cumulus: cumulus.SchedulerETS, the idle ones at cumulus.IdleETS), so Compare compares
	// all eight, not only UsedTCs. Intended State only.
	AllETS bool
	// MMUProfile are the priority-group and unicast-queue settings of the
	// EOS MMU queue profile applied to the platform, by setting
	// (targets/eos SplitProfileLine: "ingress priority-group 0 reserved"
	// -> "bytes 10240"); a setting without a line is at EOS's default.
	// nil where no profile is intended (Expect) or read (other
	// platforms).
	MMUProfile map[string]string
	// UnusedProfiles are the NVUE profiles named as fabricc names its own
	// (cumulus.OwnedProfiles) that no interface attaches, as "qos pfc
	// pfc-sp4-100g-1m", in the read-back State only: an earlier fabric's,
	// which push removes (Unowned notes any left).
	UnusedProfiles []string
	// Conflicts are what the read-back shows the switch running against
	// any fabric, in the read-back State only: on Onyx a second lossless
	// traffic pool, pools above 100 % of the buffer, RoCE mode on; on
	// NVUE its RoCE mode and a lossless pool other than fabricc's, each
	// as switch-wide QoS that takes the lossless class from fabricc.
	// Compare reports each (Device filled in).
	Conflicts []Difference
	// Bundled says, for each port the read-back shows as a member of a
	// bond (NVUE `interface <bond> bond member`), which bond it is in, as
	// "a member of MLAG bond bond1 (bond mlag id 1)": a member is no
	// interface of its own in NVUE's configuration, so Compare finds no
	// port and names the bond instead. Read-back State only; nil elsewhere.
	Bundled map[string]string
	// VXLANDSCP are NVUE's VXLAN tunnel DSCP actions, by path ("nve
	// vxlan encapsulation dscp action" -> "copy"), compared once for the
	// switch (compareVXLANDSCP). Intended: the actions targets/cumulus
	// writes on a VTEP (expectVXLANDSCP), nil on any other switch, which
	// is not compared. Read back from NVUE: the actions the configuration
	// sets, a path left unset missing (NVUE's default, derive); nil for
	// other platforms.
	VXLANDSCP map[string]string
	// NVUE is the NVUE applied configuration a read-back State was read
	// from (NVUEConfig.State), decoded once, so that what else reads the
	// same read (push's checks before staging) does not decode it again;
	// nil for other platforms and for the intended State. Compare does
	// not read it.
	NVUE *NVUEConfig
	// LLDP is whether the switch runs LLDP at all, Onyx's global `lldp`
	// ("on", "off"): intended on where the release runs it by default
	// (3.8.2000 and later) or the fabric turns it on for a NIC that takes
	// its PFC by DCBX (targets/onyx writeLLDP); read from `show lldp
	// local` (ApplyOnyxLLDP). "" where it is not intended or not read
	// (other platforms); then it is not compared.
	LLDP string
	// DCBXPorts are the ports whose NIC takes its PFC from the switch by
	// DCBX (model.Port.DCBX), in the intended State only (Expect):
	// Compare marks the lldp differences with them (Difference.DCBX).
	DCBXPorts map[string]bool
	// Lossless are the fabric's lossless classes, each as the DSCP its
	// hosts mark RoCE with and the priority the switch must put it in,
	// in the intended State only (Expect); Compare gives them to the
	// trust and DSCP map differences, whose impact names them.
	Lossless LosslessMarks
}

// LosslessMark is one lossless class of the fabric as RoCE meets a
// switch: the DSCP its hosts mark it with (model.Class.MarkDSCP) and the
// priority it is paused in (model.Class.Priority).
type LosslessMark struct {
	DSCP, Priority int
}

// LosslessMarks are the fabric's lossless classes, in the order of its
// classes.
type LosslessMarks []LosslessMark

// Pool is one shared-buffer pool: its share of the buffer, as the
// platform configures it (a whole percent on NVUE, two decimals on Onyx),
// and the priorities mapped to it.
type Pool struct {
	Percent    float64
	Priorities []int
}

// EgressPool is one NVUE egress service pool's `infinite true` or
// `memory-percent N`, as targets/cumulus writes it; the zero value is
// neither set, the pool taking its traffic pool's memory-percent.
type EgressPool = cumulus.EgressPoolSetting

// Operational is what a switch reports it runs for a port, where its OS
// keeps that apart from the configuration (NVUE's operational state, `nv
// show` without --applied): the link MTU and the switch priorities of
// the PFC profile the port uses. Compared with what the model intends, so
// a revision NVUE applied that the switch did not take up is a
// difference.
type Operational struct {
	MTU int
	PFC []int
}

// TrustPort is a port's trust as read back when it classifies by neither
// mark: Onyx `qos trust port`, NVUE trust `port` (every frame to the
// port's default priority). The model never intends it, so verify
// reports it against the intended trust.
const TrustPort model.Trust = "port"

// Port is the per-port part of State.
type Port struct {
	MTU        int
	Mode       model.PortMode
	AccessVLAN int
	TrunkVLANs []int
	Trust      model.Trust
	// PFC priorities with PFC on, ascending.
	PFC []int
	// ETS by traffic class.
	ETS map[int]model.ETS
	// ECN thresholds by traffic class (bytes).
	ECN map[int]ECN
	// PFCWatchdog is true when the PFC storm watchdog covers the port.
	PFCWatchdog bool
	// DCBX is what the port advertises of its PFC by DCBX, in the
	// platform's words: EOS's `dcbx mode` ("ieee", "cee", "off" without
	// the line), NVUE's `lldp dcbx-pfc-tlv` ("on", "off"). "" where it is
	// not read (Onyx, whose LLDP switch is switch-wide and on by default
	// from 3.8.2000); then it is not compared.
	DCBX string
	// LLDP is whether the port receives and transmits LLDP, Onyx's
	// `lldp receive` and `lldp transmit` (both on by default): "on",
	// "off", "receive off" or "transmit off". Intended on, on every
	// port, where the switch is intended to run LLDP (State.LLDP); read
	// from `show lldp interfaces` (ApplyOnyxLLDP); "" where it is not
	// intended or not read, and then not compared.
	LLDP string
	// DSCPToTC is the traffic class each DSCP value lands in (DSCP ->
	// switch priority -> traffic class). nil when the platform's read-back
	// does not show the maps; then it is not compared. EOS prints only
	// the non-default `qos map` lines, so its parser fills the rest from
	// EOS's default map (see eosDefaultDSCPTC).
	DSCPToTC map[int]int
	// DSCPToPriority and PriorityToTC are the two stages of DSCPToTC on a
	// platform that keeps them as two tables: NVUE's `qos mapping` (DSCP
	// -> switch priority) and `qos egress-queue-mapping` (switch priority
	// -> traffic class; Cumulus Linux 5.9 User Guide, Quality of
	// Service, Classification and Egress Queues), Onyx's per-port `qos map
	// dscp ... to switch-priority` and `traffic-class N bind
	// switch-priority` (NVIDIA Onyx User Manual, QoS). Where both states
	// have PriorityToTC, Compare compares the stages, each where both
	// states have it, and not DSCPToTC, so a difference names the table
	// that holds it, once ("switch priority 3 traffic class"), not as
	// every DSCP value it reaches. nil on EOS, whose `qos map dscp ... to
	// traffic-class` is one table.
	DSCPToPriority, PriorityToTC map[int]int
	// TCToCoS is the CoS (802.1p priority) each traffic class 0-7 is
	// paused by and leaves with: EOS's `qos map traffic-class T to cos P`,
	// which ties a lossless class's queue to its PFC priority. nil where
	// the platform ties them otherwise (Onyx binds traffic classes to
	// switch priorities per port, NVUE maps switch priorities to traffic
	// classes); then it is not compared. As with DSCPToTC, EOS prints only
	// the entries that differ from its default map, so the parser fills
	// the rest from it (eosDefaultTCCoS).
	TCToCoS map[int]int
	// GuaranteedPercent is EOS's `bandwidth guaranteed percent N` by
	// traffic class, 0 for none: the PFC watchdog monitors only lossless
	// queues that have one (targets/eos GuaranteePercent). nil where the
	// platform has no such setting; then it is not compared.
	GuaranteedPercent map[int]int

	// The port settings push writes in both states (README, Scope: EOS
	// `no shutdown`, `no description`, `flowcontrol receive off`; Onyx
	// `no shutdown`, `flowcontrol ... off force`; NVUE `nv unset` of the
	// description, link state and link-pause attachment), read from the
	// same running configuration as the rest: a port shut by hand, forced
	// to another speed or running 802.3x pause on a lossless port was
	// verified before (r2 #7). Shutdown is the administrative state,
	// Speed the configured (forced) speed, compared only where the model
	// gives one, LinkPause 802.3x pause in either direction.
	Shutdown    AdminDown
	Speed       Mbps
	LinkPause   bool
	Description string
	// SpeedLanes is the electrical lane count of the forced speed, on
	// EOS only (targets/eos SpeedLanes; `speed 100g-2` 2, `speed forced
	// 100gfull` 4): 100G over 4 lanes does not come up against a peer
	// running it over 2. 0 elsewhere and for auto-negotiation; compared
	// where the model forces a speed, as Speed is.
	SpeedLanes int

	// The PFC buffer settings fabricc renders for the port, each in its
	// platform's own terms; nil where the platform's configuration holds
	// none for the port, and then not compared. Compare looks only at
	// what the model intends: a setting the model has no value for is
	// not compared either.
	//
	// PFCProfile is the buffer part of the NVUE PFC profile the port uses
	// (its switch-priority set is PFC above).
	PFCProfile *PFCProfile
	// IngressBuffers are Onyx's `ingress-buffer iPort.pgN` lines of the
	// advanced buffer mode (releases before 3.6.5000), by priority group.
	// From 3.6.5000 fabricc writes traffic pools only: Onyx computes each
	// port's headroom itself and fabricc renders no per-port buffer line
	// (targets/onyx writeTrafficPools), so nothing per port is compared.
	IngressBuffers map[int]IngressBuffer
	// MMU is what the EOS MMU queue profile in effect says for a port with
	// a lossless priority group (Trident and Tomahawk; other EOS
	// platforms size buffers themselves and have none).
	MMU *MMU
	// Operational is the port's operational state; nil where the
	// platform's read-back has none apart from its configuration (then it
	// is not compared).
	Operational *Operational

	// Rewrite is the port's egress remarking, read on Onyx only; nil
	// elsewhere, and then not compared.
	Rewrite *Rewrite

	// Notes say, by field (State field name: "PFC", "MTU"), why the
	// read-back holds the value it does where the switch's lines alone
	// would mislead the reader: an EOS port whose no-drop lines stay
	// while its `priority-flow-control on` is gone runs no PFC, an Onyx
	// port without an mtu line runs Onyx's default. Compare appends the
	// note to the actual value of a difference in that field. Read-back
	// State only; not compared itself.
	Notes map[string]string

	// SwitchWide are the fields above (by name: "DSCPToTC", "Trust",
	// ...) that the port takes from a setting the switch holds once for
	// every port, not from a line of its own: Compare reports a
	// difference in a field both states mark once for the switch
	// (ScopeSwitchWide). Which fields are switch-wide is the platform's
	// definition (eosSwitchWide, nvueSwitchWide, Onyx's PFC priorities);
	// shared by ports, never written through. Not compared itself.
	SwitchWide map[string]bool
}

// eosSwitchWide are the fields an EOS port takes from global lines: `qos
// map dscp ... to traffic-class` and `qos map traffic-class ... to cos`
// are global configuration mode commands that apply to every port
// (Arista EOS User Manual, Quality of Service chapter, the qos map
// commands); `qos trust`, the tx-queues and the PFC lines are interface
// (or qos profile) settings and stay per port.
var eosSwitchWide = map[string]bool{"DSCPToTC": true, "TCToCoS": true}

// onyxSwitchWide is the field an Onyx port with `dcb
// priority-flow-control mode on force` takes from global lines: the
// priorities of the global `dcb priority-flow-control priority N
// enable` (NVIDIA Onyx User Manual, Priority Flow Control: the priority
// is enabled switch-wide, the mode per interface). Onyx's trust, DSCP and
// traffic-class maps, ETS and ECN are `interface ethernet` lines and stay
// per port.
var onyxSwitchWide = map[string]bool{"PFC": true}

// nvueSwitchWide are the fields an NVUE port takes from a QoS profile
// kind, when it names no profile of that kind (or names default-global)
// and so uses default-global,
// which "applies to all ports" (Cumulus Linux 5.9 User Guide, Quality of
// Service: Classification, Egress Scheduler, Congestion Control (ECN);
// a custom profile applies to the ports attached to it, "Port Groups",
// and is then the port's own). PFC is left out: fabricc attaches a
// profile of its own to every PFC port group and never uses
// default-global (targets/cumulus).
var nvueSwitchWide = map[string][]string{
	"mapping":            {"Trust", "DSCPToTC", "DSCPToPriority"},
	"egress-scheduler":   {"ETS"},
	"congestion-control": {"ECN"},
	// NVUE has only default-global here (NVUE command reference, qos
	// egress-queue-mapping): every port takes it.
	"egress-queue-mapping": {"PriorityToTC"},
}

// Rewrite is Onyx's per-port egress remarking, `interface ethernet X
// qos rewrite dscp` and `... qos rewrite pcp` (NVIDIA Onyx User Manual,
// QoS, "Rewrite"): DSCP (PCP) true rewrites the DSCP (PCP) of every
// packet leaving the port from its switch priority, so a host receives
// markings the fabric never planned. fabricc writes neither (both off,
// Onyx's default); Expect wants both off on every Onyx fabric port.
type Rewrite struct {
	DSCP, PCP bool
}

// AdminDown is a port's administrative state: true when shut down.
type AdminDown bool

// Mbps is a configured port speed in Mb/s; 0 is none configured.
type Mbps int

// Bytes is a buffer size in bytes.
type Bytes int64

// Meters is a cable length in whole meters.
type Meters int

// PFCProfile is the buffer of an NVUE PFC profile (`qos pfc NAME`), in
// the Cumulus Linux user guide's meaning (Quality of Service, Priority
// Flow Control; the port_buffer_bytes, xoff_size and xon_delta of
// qos_features.conf): PortBuffer is port-buffer, the buffer of the port's
// lossless priority group; XoffThreshold is xoff-threshold, the buffer
// limit that starts PFC frames, so port-buffer less it is the room for
// the bytes still in flight after PAUSE; XonThreshold is xon-threshold,
// how far the buffer must drain below xoff-threshold before PFC frames
// stop; CableMeters is cable-length. Tx and Rx are the profile's `tx`
// and `rx`, "enable" or "disable" ("Turns sending PFC frames on and
// off", "Turns receiving PFC frames on and off": NVUE Command Reference,
// Set and Unset Commands, QoS, `nv set qos pfc <profile-id> tx|rx`): a
// profile with `tx disable` keeps its switch priorities and buffer but
// the switch sends no PFC frames, so the lossless class drops.
type PFCProfile struct {
	CableMeters                             Meters
	PortBuffer, XoffThreshold, XonThreshold Bytes
	Tx, Rx                                  string
}

// IngressBuffer is one Onyx priority group's `ingress-buffer iPort.pgN
// bind switch-priority LIST` and `... map pool P type T reserved R [xoff
// X xon Y] ...` lines, in the meaning of the Spectrum PBMC register Onyx
// programs (Linux mlxsw reg.h): Reserved is the group's buffer
// (buf_size); Xoff the occupancy above which the port starts sending PFC
// frames for the group's priorities (buf_xoff_threshold); Xon the one
// below which it stops (buf_xon_threshold). A lossy group has no Xoff or
// Xon.
type IngressBuffer struct {
	Priorities          []int
	Reserved, Xoff, Xon Bytes
}

// MMU is what the EOS MMU queue profile applied to the platform
// (`platform trident mmu queue profile NAME` and its `... apply`) says for
// one port: IngressHeadroom is `ingress headroom bytes N`, which
// targets/eos reads as a port-level setting (Arista TOI, tag mmu; AVD's
// platform.trident.mmu.queue_profiles[].ingress.headroom), the room each
// port may use above its pause threshold for the bytes in flight after it
// sends PFC; Thresholds are the `ingress priority-group N threshold A`
// lines of the port's lossless priority groups, by group index: the
// dynamic (alpha) limit of the group's share of the shared buffer, which
// on a no-drop group is read as its pause threshold (assumed from how
// Broadcom MMUs admit lossless traffic; Arista's public documentation does
// not say it). A profile that gives the headroom in cells is not read (its
// IngressHeadroom is 0).
type MMU struct {
	IngressHeadroom Bytes
	Thresholds      map[int]string
}

// ECN is one queue's congestion control as the switch runs it: its
// marking thresholds and what it does between them.
type ECN struct {
	// MinBytes and MaxBytes are the thresholds in bytes, or in MinUnit
	// and MaxUnit when the switch gives them in a unit that is no byte
	// count.
	MinBytes int64
	MaxBytes int64
	// MinUnit and MaxUnit are "" for bytes, else the unit as the switch
	// names it: EOS's segments (its buffer cells, whose size no public
	// Arista document gives per platform), microseconds and milliseconds
	// (a queueing delay), Onyx's minimum-relative and maximum-relative
	// ("percent", a percentage). Such a threshold cannot
	// be compared with the model's bytes: it is always a difference.
	MinUnit, MaxUnit string
	// Mode is what the queue does to a packet it picks between the
	// thresholds, in Onyx's words (`traffic-class N congestion-control
	// ecn|red|both`: NVIDIA Onyx User Manual, QoS; mellanox.onyx
	// onyx_traffic_class, control red | ecn | both): "ecn" marks it
	// (CE), "red" drops it, "both" marks an ECN-capable packet and drops
	// the others. EOS's `random-detect ecn` and NVUE's `ecn enable` are
	// "ecn".
	Mode string
	// Probability is the marking probability at MaxBytes in percent:
	// EOS's max-mark-probability, NVUE's probability. 0 where there is
	// none (Onyx has no such keyword) or the switch prints none.
	Probability int
	// RED is NVUE's per-traffic-class `red` ("enable" drops packets that
	// are not ECN-capable early; NVIDIA Cumulus Linux 5.9 User Guide,
	// Quality of Service, Congestion Control (ECN)), "disable"; "" where
	// there is none (EOS, Onyx, whose mode says it) or it is unset.
	RED string
}

// expectECN is the ECN the targets render on platform for e: Onyx
// `congestion-control ecn` without a probability (it has no keyword),
// EOS `random-detect ecn ... max-mark-probability P`, NVUE `probability
// P`, `ecn enable` and `red disable`.
func expectECN(platform model.Platform, e *model.ECN) ECN {
	out := ECN{MinBytes: e.MinBytes, MaxBytes: e.MaxBytes, Mode: "ecn"}
	switch platform {
	case model.PlatformEOS:
		out.Probability = e.MarkProbabilityPercent
	case model.PlatformCumulus:
		out.Probability, out.RED = e.MarkProbabilityPercent, "disable"
	}
	return out
}

// NewState returns an empty State.
func NewState() *State {
	return &State{VLANs: map[int]string{}, Ports: map[string]*Port{}}
}

// Port returns the port called name, creating it.
func (s *State) Port(name string) *Port {
	p := s.Ports[name]
	if p == nil {
		p = &Port{ETS: map[int]model.ETS{}, ECN: map[int]ECN{}}
		s.Ports[name] = p
	}
	return p
}

// Expect is the State the model intends for sw: the fabric's VLANs and,
// for every port, the settings the targets render.
func Expect(f *model.Fabric, sw *model.Switch) *State {
	s := NewState()
	for _, v := range f.VLANs {
		s.VLANs[v.ID] = v.Name
	}
	s.Pools = map[string]Pool{}
	for _, bp := range sw.Pools {
		if _, dup := s.Pools[bp.Type]; bp.Direction == "ingress" && !dup {
			s.Pools[bp.Type] = Pool{Percent: poolPercent(sw.Platform, bp), Priorities: append([]int(nil), bp.Priorities...)}
		}
	}
	if sw.Platform == model.PlatformCumulus {
		s.EgressPools = cumulus.EgressPools(sw)
	}
	s.VXLANDSCP = expectVXLANDSCP(f, sw)
	// Cumulus: nil, every traffic class compared, since targets/cumulus
	// writes ETS and ECN of all eight (the idle ones DWRR 1 %, ecn disable).
	if len(f.QoS.PriorityToTC) > 0 && sw.Platform != model.PlatformCumulus {
		s.UsedTCs = map[int]bool{}
		for _, tc := range f.QoS.PriorityToTC {
			s.UsedTCs[tc] = true
		}
		for _, c := range f.QoS.Classes {
			s.UsedTCs[c.TrafficClass] = true
		}
	}
	s.AllETS = sw.Platform == model.PlatformCumulus
	s.LLDP = expectOnyxLLDP(sw)
	s.DCBXPorts = map[string]bool{}
	for _, c := range f.QoS.Classes {
		if c.Lossless {
			s.Lossless = append(s.Lossless, LosslessMark{DSCP: c.MarkDSCP, Priority: c.Priority})
		}
	}
	// NVUE's ETS as targets/cumulus writes it: every traffic class, an
	// idle one at 1 % taken from the classes' shares (SchedulerETS).
	// Its error is Render's too, so no configuration was written.
	var nvueETS map[int]model.ETS
	if s.AllETS {
		nvueETS, _, _ = cumulus.SchedulerETS(&f.QoS)
	}
	// Every port's ETS: the classes', then NVUE's over them.
	portETS := map[int]model.ETS{}
	for _, c := range f.QoS.Classes {
		portETS[c.TrafficClass] = c.ETS
	}
	maps.Copy(portETS, nvueETS)
	dscpTC := expectDSCPToTC(f.QoS)
	dscpPrio, prioTC := expectStages(f.QoS)
	// EOS's traffic-class -> CoS map (fabric-wide, every class 0-7) and
	// each class's guaranteed bandwidth: only the lossless classes of a
	// port running the PFC watchdog have one (targets/eos writeTxQueues).
	// Shared by the ports, as dscpTC is: Compare never writes into them.
	var tcCoS, armedPct, unarmedPct map[int]int
	if sw.Platform == model.PlatformEOS {
		s.MMUProfile = groupAndQueueSettings(eos.ProfileSettings(sw))
		tcCoS = map[int]int{}
		for tc, cos := range eos.TCToCoS(&f.QoS) {
			tcCoS[tc] = cos
		}
		armedPct, unarmedPct = expectGuaranteed(f.QoS.Classes, eos.GuaranteePercent(sw)), expectGuaranteed(f.QoS.Classes, 0)
	}
	headroom, mmu := eos.ProfileHeadroomOf(sw)
	thresholds := eos.ProfileThresholds(sw)
	for i := range sw.Ports {
		mp := &sw.Ports[i]
		p := s.Port(mp.Name)
		p.MTU = mp.MTU
		p.Shutdown, p.Speed, p.LinkPause, p.Description = AdminDown(mp.Shutdown), Mbps(mp.SpeedMbps), mp.LinkPause, quote.CLIText(mp.Description)
		p.Mode = mp.Mode
		p.AccessVLAN = mp.AccessVLAN
		p.TrunkVLANs = append([]int(nil), mp.TrunkVLANs...)
		p.Trust = mp.Trust
		p.LLDP = s.LLDP
		p.PFC = append([]int(nil), mp.PFCPriorities...)
		p.PFCWatchdog = mp.PFCWatchdog
		p.DCBX = expectDCBX(sw.Platform, mp.DCBX)
		if mp.DCBX {
			s.DCBXPorts[mp.Name] = true
		}
		p.DSCPToTC = dscpTC
		switch {
		case dscpTC == nil:
		case sw.Platform == model.PlatformCumulus:
			p.DSCPToPriority, p.PriorityToTC = dscpPrio, prioTC
		case sw.Platform == model.PlatformOnyx:
			// targets/onyx writes no DSCP map: the port keeps Onyx's
			// default, which fabricc validate checks leads every DSCP
			// value to the fabric's class (compiler checkOnyxDSCPMap).
			p.DSCPToPriority, p.PriorityToTC = onyxDefaultDSCPPriority, prioTC
		}
		p.SwitchWide = switchWideOf(sw, mp)
		if sw.Platform == model.PlatformOnyx {
			p.Rewrite = &Rewrite{} // no rewrite: targets/onyx writes none
		}
		if sw.Platform == model.PlatformEOS {
			p.SpeedLanes = eos.SpeedLanes(mp)
			p.TCToCoS, p.GuaranteedPercent = tcCoS, unarmedPct
			if eos.WatchdogArmed(mp) {
				p.GuaranteedPercent = armedPct
			}
		}
		switch {
		case sw.Platform == model.PlatformCumulus:
			p.PFCProfile = expectPFCProfile(sw.HeadroomLeftToSwitch, mp)
			p.Operational = &Operational{MTU: mp.MTU, PFC: append([]int(nil), mp.PFCPriorities...)}
		case sw.Platform == model.PlatformOnyx && sw.BufferStyle == onyx.StyleAdvanced:
			p.IngressBuffers = expectIngressBuffers(mp)
		case sw.Platform == model.PlatformEOS && (mmu || thresholds != nil):
			p.MMU = expectMMU(mp, headroom.Bytes, thresholds)
		}
		maps.Copy(p.ETS, portETS)
		for _, c := range f.QoS.Classes {
			// Every renderer marks on every port, PFC or not: EOS in
			// the tx-queues of each interface, Onyx per port, NVUE
			// in the one default-global profile.
			if c.ECN != nil {
				p.ECN[c.TrafficClass] = expectECN(sw.Platform, c.ECN)
			}
		}
	}
	return s
}

// switchWideOf is the fields the targets render in a switch-wide
// setting for port mp of sw (Port.SwitchWide), a set shared by the
// ports: EOS's global QoS maps; Onyx's PFC priorities of a port with
// PFC; NVUE's default-global egress scheduler and congestion control
// for every port, and its default-global mapping for the ports whose
// trust is the first port's (targets/cumulus renderMapping; another
// trust gets a "trust-" profile of its own).
func switchWideOf(sw *model.Switch, mp *model.Port) map[string]bool {
	switch sw.Platform {
	case model.PlatformEOS:
		return eosSwitchWide
	case model.PlatformOnyx:
		if len(mp.PFCPriorities) > 0 {
			return onyxSwitchWide
		}
	case model.PlatformCumulus:
		if mp.Trust == sw.Ports[0].Trust {
			return nvueSwitchWideMapped
		}
		return nvueSwitchWideUnmapped
	}
	return nil
}

// nvueSwitchWideMapped are the fields of nvueSwitchWide, every kind's;
// nvueSwitchWideUnmapped those of every kind but the mapping, for a
// port with a "trust-" mapping profile of its own (switchWideOf).
var nvueSwitchWideMapped, nvueSwitchWideUnmapped = nvueSwitchWideSets()

// nvueSwitchWideSets makes nvueSwitchWideMapped and
// nvueSwitchWideUnmapped from nvueSwitchWide.
func nvueSwitchWideSets() (mapped, unmapped map[string]bool) {
	mapped, unmapped = map[string]bool{}, map[string]bool{}
	for kind, fields := range nvueSwitchWide {
		for _, f := range fields {
			mapped[f] = true
			if kind != "mapping" {
				unmapped[f] = true
			}
		}
	}
	return mapped, unmapped
}

// poolPercent is the share fabricc configures for pool bp on platform:
// NVUE's whole percent, rounded down, and Onyx's two decimals
// (targets/cumulus and targets/onyx PoolPercent).
func poolPercent(platform model.Platform, bp model.BufferPool) float64 {
	switch platform {
	case model.PlatformCumulus:
		return float64(cumulus.PoolPercent(bp))
	case model.PlatformOnyx:
		v, _ := strconv.ParseFloat(onyx.PoolPercent(bp), 64)
		return v
	}
	return bp.Percent
}

// expectPFCProfile is the buffer of the PFC profile targets/cumulus
// renders for mp (leftToSwitch: the switch sizes headroom itself); nil for a port without PFC.
// With headroom mode "platform" only the cable-length is written, and
// the zero port-buffer and thresholds match a profile without them (push
// unsets them).
func expectPFCProfile(leftToSwitch bool, mp *model.Port) *PFCProfile {
	b, ok := cumulus.WrittenPFCBuffer(leftToSwitch, mp)
	if !ok {
		return nil
	}
	return &PFCProfile{CableMeters: Meters(b.CableMeters), PortBuffer: Bytes(b.PortBuffer),
		XoffThreshold: Bytes(b.XoffThreshold), XonThreshold: Bytes(b.XonThreshold), Tx: "enable", Rx: "enable"}
}

// expectIngressBuffers are the ingress-buffer lines targets/onyx renders
// for mp's priority groups in advanced buffer mode; nil without groups.
func expectIngressBuffers(mp *model.Port) map[int]IngressBuffer {
	if len(mp.PriorityGroups) == 0 {
		return nil
	}
	out := map[int]IngressBuffer{}
	for i := range mp.PriorityGroups {
		pg := &mp.PriorityGroups[i]
		b := onyx.IngressBufferOf(pg)
		out[pg.Index] = IngressBuffer{Priorities: append([]int(nil), pg.Priorities...),
			Reserved: Bytes(b.Reserved), Xoff: Bytes(b.Xoff), Xon: Bytes(b.Xon)}
	}
	return out
}

// expectGuaranteed is each class's `bandwidth guaranteed percent` that
// targets/eos writes in a port's tx-queues when the port's guarantee is
// pct: pct for the lossless classes, 0 for the others.
func expectGuaranteed(classes []model.Class, pct int) map[int]int {
	guaranteed := map[int]int{}
	for _, c := range classes {
		guaranteed[c.TrafficClass] = 0
		if c.Lossless {
			guaranteed[c.TrafficClass] = pct
		}
	}
	return guaranteed
}

// expectMMU is what the MMU queue profile targets/eos renders says for
// mp: the switch's ingress headroom and the thresholds of mp's lossless
// groups; nil for a port without a lossless group.
func expectMMU(mp *model.Port, headroom int64, thresholds map[int]string) *MMU {
	var m *MMU
	for _, pg := range mp.PriorityGroups {
		if !pg.Lossless {
			continue
		}
		if m == nil {
			m = &MMU{IngressHeadroom: Bytes(headroom), Thresholds: map[int]string{}}
		}
		if a, ok := thresholds[pg.Index]; ok {
			m.Thresholds[pg.Index] = a
		}
	}
	return m
}

// expectDSCPToTC composes the model's DSCP -> priority and priority ->
// TC maps; nil when the model does not hold complete maps. Every port
// shares it: the QoS maps are fabric-wide, and Compare only reads them.
func expectDSCPToTC(q model.QoS) map[int]int {
	if len(q.DSCPToPriority) != 64 || len(q.PriorityToTC) != 8 {
		return nil
	}
	out := map[int]int{}
	for d, prio := range q.DSCPToPriority {
		if prio >= 0 && prio < 8 {
			out[d] = q.PriorityToTC[prio]
		}
	}
	return out
}

// onyxDefaultDSCPPriority is Onyx's default DSCP -> switch priority map,
// DSCP 8n..8n+7 -> switch priority n (the mellanox.onyx fixture
// show_qos_interface_ethernet.cfg; onyxPortLines.compose reads a port
// without map lines so). Shared by the ports; never written through.
var onyxDefaultDSCPPriority = func() map[int]int {
	m := map[int]int{}
	for d := 0; d < 64; d++ {
		m[d] = d / 8
	}
	return m
}()

// expectStages are the model's DSCP -> priority and priority -> TC maps
// as the two stages of Port.DSCPToPriority and Port.PriorityToTC; nil
// when the model does not hold complete maps. Shared by the ports.
func expectStages(q model.QoS) (dscpPrio, prioTC map[int]int) {
	if expectDSCPToTC(q) == nil {
		return nil, nil
	}
	dscpPrio, prioTC = map[int]int{}, map[int]int{}
	for d, prio := range q.DSCPToPriority {
		dscpPrio[d] = prio
	}
	for prio, tc := range q.PriorityToTC {
		prioTC[prio] = tc
	}
	return dscpPrio, prioTC
}

// groupAndQueueSettings keeps the ingress priority-group and egress
// unicast queue settings of an MMU profile's settings: every one of them
// is written in both states by targets/eos, so each is compared whole.
// The ingress headroom is compared per port (MMU). nil stays nil.
func groupAndQueueSettings(all map[string]string) map[string]string {
	if all == nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range all {
		if strings.HasPrefix(k, "ingress priority-group ") || strings.HasPrefix(k, "egress unicast queue ") {
			out[k] = v
		}
	}
	return out
}

// onyxLLDPSince is the Onyx release from which LLDP is on by default
// (NVIDIA Onyx User Manual, Link Layer Discovery Protocol (LLDP): "From
// version 3.8.2000, LLDP is now enabled by default").
const onyxLLDPSince = "3.8.2000"

// expectOnyxLLDP is "on" for an Onyx switch that runs LLDP as the fabric
// configures it: by default from 3.8.2000, or by the `lldp` targets/onyx
// writes before that for a port whose NIC takes its PFC by DCBX
// (model.Port.DCBX); "" elsewhere (an older release without such a
// port keeps its default, off, which is not compared).
func expectOnyxLLDP(sw *model.Switch) string {
	if sw.Platform != model.PlatformOnyx {
		return ""
	}
	on := model.CompareVersions(sw.OSVersion, onyxLLDPSince) >= 0
	for i := range sw.Ports {
		on = on || sw.Ports[i].DCBX
	}
	if !on {
		return ""
	}
	return "on"
}

// expectDCBX is the DCBX advertisement the targets write for a port
// (model.Port.DCBX): EOS `dcbx mode ieee` or `no dcbx mode`, NVUE `lldp
// dcbx-pfc-tlv on` or its unset; "" on Onyx, where it is not compared.
func expectDCBX(platform model.Platform, advertise bool) string {
	switch {
	case platform != model.PlatformEOS && platform != model.PlatformCumulus:
		return ""
	case !advertise:
		return "off"
	case platform == model.PlatformEOS:
		return "ieee"
	}
	return "on"
}
