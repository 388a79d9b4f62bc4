package cumulus

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// PFCBuffer is the buffer part of the NVUE PFC profile fabricc renders
// for a port, in NVUE's meaning (Cumulus Linux user guide, Quality of
// Service, Priority Flow Control: port_buffer_bytes, xoff_size and
// xon_delta of qos_features.conf, which NVUE writes). Sizes are bytes; a
// zero is a value fabricc does not write.
type PFCBuffer struct {
	// CableMeters is cable-length: the cable the headroom was computed
	// for, rounded up to NVUE's whole meters.
	CableMeters int
	// PortBuffer is port-buffer: the lossless priority group's buffer.
	PortBuffer int64
	// XoffThreshold is xoff-threshold, the buffer limit that starts PFC
	// frames: the group's buffer less the bytes still in flight after
	// PAUSE, which the rest of port-buffer holds.
	XoffThreshold int64
	// XonThreshold is xon-threshold, how far below xoff-threshold the
	// buffer must drain before PFC frames stop (xon_delta); fabricc sets
	// it equal to XoffThreshold, as Cumulus's own RoCE configuration on
	// Spectrum does (Cumulus Linux 4.0 user guide, RDMA over Converged
	// Ethernet: xoff_size 18000, xon_delta 18000).
	XonThreshold int64
}

// PortPFCBuffer is the buffer of the PFC profile fabricc renders for
// port, from its first lossless priority group; false when the port has
// no PFC and so no profile. Without a lossless group only the cable is
// written, and NVUE derives the rest itself.
func PortPFCBuffer(port *model.Port) (PFCBuffer, bool) {
	if len(port.PFCPriorities) == 0 {
		return PFCBuffer{}, false
	}
	pg := firstLossless(port)
	b := PFCBuffer{CableMeters: ceilMeters(cableOf(port, pg))}
	if pg != nil && pg.SizeBytes > 0 {
		pause := pg.SizeBytes - pg.XoffBytes
		b.PortBuffer, b.XoffThreshold, b.XonThreshold = pg.SizeBytes, pause, pause
	}
	return b, true
}

// WrittenPFCBuffer is the buffer of the PFC profile fabricc writes for
// port: PortPFCBuffer, or where the switch sizes headroom itself
// (model.Switch.HeadroomLeftToSwitch, headroom mode "platform") its
// cable-length alone, the zero port-buffer, xoff and xon
// thresholds being values fabricc does not write (and unsets, so that
// switchd derives them from the cable length: Cumulus Linux 5.9 User
// Guide, Quality of Service, Priority Flow Control, "NVIDIA recommends
// that you do not change these settings but, instead, let Cumulus Linux
// configure the settings dynamically").
func WrittenPFCBuffer(leftToSwitch bool, port *model.Port) (PFCBuffer, bool) {
	b, ok := PortPFCBuffer(port)
	if ok && leftToSwitch {
		b = PFCBuffer{CableMeters: b.CableMeters}
	}
	return b, ok
}

// firstLossless is the port's first lossless priority group, or nil.
func firstLossless(port *model.Port) *model.PriorityGroup {
	for i := range port.PriorityGroups {
		if port.PriorityGroups[i].Lossless {
			return &port.PriorityGroups[i]
		}
	}
	return nil
}

// pfcProfile is one NVUE PFC profile: the switch priorities it makes
// lossless and the lossless priority group's buffer (see writePFC).
type pfcProfile struct {
	name     string
	prios    string // "3" or "3,4"
	buf      PFCBuffer
	inFlight int64 // the bytes that still arrive after PAUSE (model xoff)
	ports    []string
	// formula names the headroom algorithm the model used; assumes says
	// what it assumed (cable, speed, MTUs, small-packet share).
	formula, assumes string
	// pg is the index of the lossless priority group the numbers come
	// from (on the profile's first port); -1 for none.
	pg int
	// speedMbps is the speed the name gives (pfcName).
	speedMbps int
}

// sameAs compares the settings, not the name or ports.
func (a *pfcProfile) sameAs(b *pfcProfile) bool {
	return a.prios == b.prios && a.buf == b.buf && a.inFlight == b.inFlight && a.assumes == b.assumes && a.speedMbps == b.speedMbps
}

// ceilMeters rounds a cable length up to NVUE's whole meters (1-100000):
// rounding up over-reserves headroom instead of under-reserving it.
func ceilMeters(m float64) int {
	if m <= 0 {
		return 0
	}
	return int(math.Ceil(m))
}

// cableOf is the cable the port's headroom was computed for.
func cableOf(port *model.Port, pg *model.PriorityGroup) float64 {
	if pg != nil && pg.Headroom != nil {
		return pg.Headroom.CableMeters
	}
	if port.Peer != nil {
		return port.Peer.CableMeters
	}
	return 0
}

// portPFC builds the profile a PFC port needs,
// or nil when PFC is off. Where the switch sizes headroom itself the profile
// holds the priorities and the cable only (WrittenPFCBuffer), so ports
// of one speed that differ only in fabricc's computed headroom share one.
// The speed is the profile's in either mode, since its name gives it.
func portPFC(p *plan, leftToSwitch bool, port *model.Port) *pfcProfile {
	if len(port.PFCPriorities) == 0 {
		return nil
	}
	buf, _ := WrittenPFCBuffer(leftToSwitch, port)
	prof := &pfcProfile{prios: joinInts(port.PFCPriorities), buf: buf, pg: -1, speedMbps: port.SpeedMbps}
	p.port(port.Name, "pfc")
	if leftToSwitch {
		return prof
	}
	var lossless []*model.PriorityGroup
	for i := range port.PriorityGroups {
		if port.PriorityGroups[i].Lossless {
			lossless = append(lossless, &port.PriorityGroups[i])
		}
	}
	if len(lossless) == 0 {
		p.notef("port %s has PFC on priorities %s but no lossless priority group; NVUE derives port-buffer and thresholds itself", port.Name, prof.prios)
		return prof
	}
	pg := lossless[0]
	prof.pg = pg.Index
	p.port(port.Name, "pg", strconv.Itoa(pg.Index))
	prof.inFlight = pg.XoffBytes
	prof.assumes = targets.HeadroomAssumption(pg)
	if pg.Headroom != nil {
		prof.formula = pg.Headroom.Formula
	}
	for _, other := range lossless[1:] {
		if other.SizeBytes != pg.SizeBytes || other.XoffBytes != pg.XoffBytes || other.XonBytes != pg.XonBytes {
			p.notef("port %s: lossless PG %d (size %d, xoff %d, xon %d B) differs from PG %d; an NVUE PFC profile holds one port-buffer/xoff/xon, PG %d's values are used", port.Name, other.Index, other.SizeBytes, other.XoffBytes, other.XonBytes, pg.Index, pg.Index)
		}
	}
	return prof
}

// pfcName gives a readable, unique profile name: pfc-sp3-100g-3m. Every
// name it gives matches PFCProfileName.
func pfcName(prof *pfcProfile, taken map[string]bool) string {
	base := "pfc-sp" + strings.ReplaceAll(prof.prios, ",", "_")
	if prof.speedMbps > 0 {
		base += "-" + strings.ToLower(speedName(prof.speedMbps))
	}
	if prof.buf.CableMeters > 0 {
		base += fmt.Sprintf("-%dm", prof.buf.CableMeters)
	}
	name := base
	for n := 2; taken[name]; n++ {
		name = fmt.Sprintf("%s-%d", base, n)
	}
	taken[name] = true
	return name
}

// PFCProfileName matches every name pfcName gives, and only such names:
// "pfc-sp", the lossless priorities ascending and joined with "_", then
// optionally the port's speed in lower case ("-100g"; "-12000m" for a
// speed NVUE has no keyword for), the cable in whole meters ("-3m") and
// the number that tells two profiles of one name apart ("-2"). It is
// anchored at both ends, so an operator's "pfc-sp3-storage" or
// "my-pfc-sp3" is not fabricc's.
var PFCProfileName = regexp.MustCompile(`^pfc-sp[0-7](?:_[0-7])*(?:-[0-9]+[gm])?(?:-[0-9]+m)?(?:-[0-9]+)?$`)

// trustProfileName matches the custom mapping profiles renderMapping
// names ("trust-" and a trust keyword).
var trustProfileName = regexp.MustCompile(`^trust-(?:l2|l3|both)$`)

// OwnedProfile is a kind of NVUE QoS profile (`qos <Kind> <name>`) that
// fabricc creates under names of its own pattern and attaches to ports
// (`interface <if> qos <Kind> profile <name>`).
type OwnedProfile struct {
	Kind string
	Name *regexp.Regexp
}

// OwnedProfiles are the profiles fabricc names itself: a profile of
// these names that the fabric no longer has is an earlier fabric's, and
// push removes it once no port uses it (`nv unset qos pfc <profile-id>`,
// NVUE Command Reference, Set and Unset Commands, QoS: `nv unset`
// removes what the equivalent `nv set qos pfc <profile-id>` configured).
// The link-pause profile ("link-pause") is not here: its name is too
// plain to be told from an operator's, and unattached it pauses nothing.
var OwnedProfiles = []OwnedProfile{{"pfc", PFCProfileName}, {"mapping", trustProfileName}}

// renderPFC writes the PFC profiles and returns the profile to attach per
// port ("" for none): each distinct setting gets a custom profile attached
// to its ports (QoS guide, "Port Groups" > "PFC"), also when every port
// has the same settings. default-global is never written: it applies to
// every port without a profile of its own (Cumulus Linux 5.9 User Guide,
// Quality of Service, PFC: "To apply PFC settings on all ports, modify the
// default PFC profile"), ports outside the fabric and fabric ports without
// PFC included, and the push unsets what an earlier fabricc wrote there
// (renderClears).
//
// Where the switch sizes headroom itself (sw.HeadroomLeftToSwitch, headroom mode "platform") a profile is switch-priority, tx, rx
// and cable-length only, and the port-buffer, xoff-threshold and
// xon-threshold an earlier push wrote are unset (writePFC).
func renderPFC(p *plan, sw *model.Switch, t target) []string {
	p.at()
	p.sectionf("PFC: lossless switch priorities and the lossless PG buffer per port group")
	// default-global reaches every port without a profile of its own; an
	// earlier fabricc wrote a uniform fabric's PFC there.
	p.unsetPath("qos pfc " + profileDefault)
	attach := make([]string, len(sw.Ports))
	per := make([]*pfcProfile, len(sw.Ports))
	for i := range sw.Ports {
		per[i] = portPFC(p, sw.HeadroomLeftToSwitch, &sw.Ports[i])
	}
	var profiles []*pfcProfile
	taken := map[string]bool{}
	for i := range sw.Ports {
		prof := per[i]
		if prof == nil {
			continue
		}
		var found *pfcProfile
		for _, q := range profiles {
			if q.sameAs(prof) {
				found = q
			}
		}
		if found == nil {
			found = prof
			found.name = pfcName(prof, taken)
			profiles = append(profiles, found)
		}
		found.ports = append(found.ports, sw.Ports[i].Name)
		attach[i] = found.name
	}
	p.at()
	if len(profiles) == 0 {
		p.commentf("PFC is off on every port")
		return attach
	}
	if sw.HeadroomLeftToSwitch {
		platformPFCComments(p)
	} else {
		computedPFCComments(p)
	}
	formula := ""
	for _, prof := range profiles {
		if prof.formula != "" && prof.formula != formula {
			formula = prof.formula
			p.at()
			p.commentf("headroom: %s", formula)
		}
		writePFC(p, prof, t)
	}
	return attach
}

// platformPFCComments say why a profile of headroom mode "platform"
// has no port-buffer or thresholds.
func platformPFCComments(p *plan) {
	p.commentf("headroom mode platform: switchd derives port-buffer, xoff-threshold and xon-threshold from the cable-length, as NVIDIA recommends (Cumulus Linux 5.9 user guide, Quality of Service, PFC);")
	p.commentf("fabricc writes the priorities and the cable only and unsets the three values an earlier push wrote; its own computed headroom, for comparison, is in the switch document and model.json")
}

// computedPFCComments say what a profile's port-buffer and thresholds
// mean.
func computedPFCComments(p *plan) {
	p.commentf("port-buffer = the lossless priority group's buffer; xoff-threshold = the reserved buffer consumed before PAUSE is sent, so port-buffer - xoff-threshold is the room for bytes in flight after PAUSE;")
	p.commentf("xon-threshold = how far below xoff-threshold consumption must drop before PAUSE stops (qos_features.conf xon_delta), set equal to xoff-threshold as Cumulus sets it for RoCE on Spectrum")
	p.commentf("(Cumulus Linux 4.0 user guide, RDMA over Converged Ethernet: xoff_size 18000, xon_delta 18000); all in bytes (Cumulus Linux 5.9 user guide, Quality of Service, PFC: all PFC commands); cable-length is rounded up to whole meters")
}

// writePFC writes one profile.
func writePFC(p *plan, prof *pfcProfile, t target) {
	p.at()
	if p.mapped {
		for _, port := range prof.ports {
			p.also("switch", p.sw, "port", port, "pfc")
		}
	}
	p.commentf("profile %s: ports %s", prof.name, strings.Join(prof.ports, ","))
	// The profile's numbers are those of its first port: the ports of one
	// profile have the same.
	if prof.pg >= 0 {
		p.port(prof.ports[0], "pg", strconv.Itoa(prof.pg))
	} else {
		p.port(prof.ports[0], "pfc")
	}
	base := "qos pfc " + prof.name
	// The profile's priority set is cleared first, as each traffic
	// pool's is (renderPools): a patch only adds members, so a priority
	// an operator added to a profile of fabricc's name (`nv set qos pfc
	// pfc-sp3-100g-5m switch-priority 3-4`) stayed paused after every
	// push, and verification then rolled the fabric back.
	p.unsetPath(base + " switch-priority")
	p.member(base + " switch-priority " + prof.prios)
	p.set(base+" tx", t.enable)
	p.set(base+" rx", t.enable)
	b := prof.buf
	if b.CableMeters > 0 {
		p.set(base+" cable-length", b.CableMeters)
	}
	if b.PortBuffer == 0 {
		// Left to switchd: a patch only adds, so what an earlier push
		// (headroom mode computed) wrote is unset, and verification
		// compares the three with none.
		for _, k := range pfcBufferKeys {
			p.unsetPath(base + " " + k)
		}
		return
	}
	p.notef("pfc profile %s: %d B in flight after PAUSE; port-buffer %d B - xoff-threshold %d B leaves %d B%s", prof.name, prof.inFlight, b.PortBuffer, b.XoffThreshold, b.PortBuffer-b.XoffThreshold, forText(prof.assumes))
	p.set(base+" port-buffer", b.PortBuffer)
	p.set(base+" xoff-threshold", b.XoffThreshold)
	p.set(base+" xon-threshold", b.XonThreshold)
}

// pfcBufferKeys are the PFC profile's buffer settings, which switchd
// derives from the cable-length where they are not set.
var pfcBufferKeys = []string{"port-buffer", "xoff-threshold", "xon-threshold"}

// pauseProfile is the link-pause profile fabricc creates.
const pauseProfile = "link-pause"

// renderLinkPause writes 802.3x pause for the ports that want it and
// returns the profile per port. PFC and link pause exclude each other on a
// port (QoS guide, "Flow Control").
func renderLinkPause(p *plan, sw *model.Switch, t target) ([]string, error) {
	attach := make([]string, len(sw.Ports))
	var ports []string
	cable := 0
	p.at()
	for i := range sw.Ports {
		port := &sw.Ports[i]
		if !port.LinkPause {
			continue
		}
		if len(port.PFCPriorities) > 0 {
			return nil, fmt.Errorf("port %s has both PFC and 802.3x link pause; they are mutually exclusive, turn one off", port.Name)
		}
		attach[i] = pauseProfile
		ports = append(ports, port.Name)
		p.also("switch", sw.Name, "port", port.Name, "pfc")
		if c := ceilMeters(cableOf(port, nil)); c > cable {
			cable = c
		}
	}
	elems := p.cur
	p.at()
	p.sectionf("802.3x link pause")
	p.cur = elems
	if len(ports) == 0 {
		p.at()
		p.commentf("off on every port: no link-pause profile is attached (NVUE default)")
		return attach, nil
	}
	if !t.rel.atLeast(sinceAdvanceBuffer) {
		p.notef("ports %s want 802.3x link pause; NVUE link-pause profiles need Cumulus Linux %s", strings.Join(ports, ","), sinceAdvanceBuffer)
		return make([]string, len(sw.Ports)), nil
	}
	p.commentf("profile %s: ports %s; cable-length is the longest of their cables", pauseProfile, strings.Join(ports, ","))
	p.set("qos link-pause "+pauseProfile+" tx", t.enable)
	p.set("qos link-pause "+pauseProfile+" rx", t.enable)
	if cable > 0 {
		p.set("qos link-pause "+pauseProfile+" cable-length", cable)
	}
	return attach, nil
}

// renderWatchdog writes the switch-wide PFC watchdog timers. NVUE has a
// polling interval (ms) and a robustness (polls before the storm is
// mitigated); it restores PFC after a polling interval with no pause
// frames and always discards the stuck queue's packets (QoS guide, "PFC
// Watchdog", Cumulus 5.6+).
func renderWatchdog(p *plan, sw *model.Switch, t target) bool {
	wd := sw.PFCWatchdog
	p.at()
	p.sectionf("PFC watchdog")
	p.at("switch", sw.Name, "pfc_watchdog")
	if !wd.Enabled {
		p.commentf("off")
		return false
	}
	if !t.rel.atLeast(sincePFCWatchdog) {
		p.notef("the PFC watchdog (timeout %d ms, polling %d ms, restore %d ms, action %s) needs Cumulus Linux %s; %s has none", wd.TimeoutMs, wd.PollingIntervalMs, wd.RestoreMs, wd.Action, sincePFCWatchdog, t.rel)
		return false
	}
	if wd.PollingIntervalMs > 0 {
		p.set("qos pfc-watchdog polling-interval", wd.PollingIntervalMs)
		if wd.TimeoutMs > 0 {
			rob := (wd.TimeoutMs + wd.PollingIntervalMs - 1) / wd.PollingIntervalMs
			p.commentf("robustness = timeout %d ms / polling %d ms, rounded up", wd.TimeoutMs, wd.PollingIntervalMs)
			p.set("qos pfc-watchdog robustness", rob)
		}
	} else if wd.TimeoutMs > 0 {
		p.notef("PFC watchdog timeout %d ms has no polling interval in the model; NVUE expresses detection as polling-interval x robustness, both left at their defaults", wd.TimeoutMs)
	}
	if wd.RestoreMs > 0 {
		p.notef("PFC watchdog restore %d ms: NVUE has no restore timer; it restores PFC after one polling interval without pause frames", wd.RestoreMs)
	}
	if wd.Action != "" && wd.Action != "drop" {
		p.notef("PFC watchdog action %q: NVUE's watchdog always drops the stuck queue's packets", wd.Action)
	}
	return true
}

// forText is "; for <assumption>", or "" when there is none.
func forText(assumes string) string {
	if assumes == "" {
		return ""
	}
	return "; for " + assumes
}
