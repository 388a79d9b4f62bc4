package compiler

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// platformInfo is what the lowering knows about a switch platform.
type platformInfo struct {
	// osVersion is the default os_version: a current release of each OS
	// that has every feature fabricc renders (Onyx traffic pools and
	// `roce` need >= 3.8.2000, NVUE QoS profiles and the PFC watchdog
	// need Cumulus >= 5.6; NVIDIA Onyx User Manual, RoCE Commands; NVUE
	// command reference, QoS, version history).
	osVersion string
	// maxMTU is the largest MTU the OS accepts on a port, and the default:
	// Onyx and NVUE take up to 9216 (NVUE command reference,
	// `nv set interface <if> link mtu`, 552-9216); EOS's
	// `mtu` is the IP MTU and stops at 9214 (Arista EOS Central forum
	// "Jumbo frame MTU sizes", show interfaces); its switchports bridge up
	// to a fixed L2 MTU of 9234 B whatever the mtu (checkSwitchMTU).
	maxMTU int
	// ports is the platform's port naming, and portForm says it in words.
	ports    portSyntax
	portForm string
}

// portMaxMTU is the largest mtu a port of the platform takes, and its
// default: maxMTU, or fallbackMTU where the platform gives none.
func (i platformInfo) portMaxMTU() int { return cmp.Or(i.maxMTU, fallbackMTU) }

// platforms maps platform names to their defaults and port naming.
var platforms = map[model.Platform]platformInfo{
	model.PlatformOnyx: {
		osVersion: "3.9.3202",
		maxMTU:    9216,
		ports:     portSyntax{prefix: "1/", sep: '/'},
		portForm:  `Onyx ports are "1/N", or "1/N/M" for a split port (rendered "ethernet 1/N")`,
	},
	model.PlatformEOS: {
		osVersion: "4.32.2F",
		maxMTU:    9214,
		ports:     portSyntax{prefix: "Ethernet", sep: '/', slotted: true},
		portForm:  `EOS ports are "EthernetN" on single-lane (SFP) ports and "EthernetN/M", lane M, on multi-lane ports, and "EthernetS/N/M" on the line card in slot S of a modular chassis`,
	},
	model.PlatformCumulus: {
		osVersion: "5.9.2",
		maxMTU:    9216,
		ports:     portSyntax{prefix: "swp", sep: 's', subFromZero: true},
		portForm:  `Cumulus ports are "swpN", or "swpNsM" for a breakout port`,
	},
}

// platformTitles are the platforms' product names, for messages.
var platformTitles = map[model.Platform]string{
	model.PlatformOnyx:    "Onyx",
	model.PlatformEOS:     "EOS",
	model.PlatformCumulus: "Cumulus Linux",
}

// platformTitle is the product name of p, or p itself.
func platformTitle(p model.Platform) string {
	if t, ok := platformTitles[p]; ok {
		return t
	}
	return string(p)
}

// platformNames lists the platforms for messages.
var platformNames = []string{string(model.PlatformOnyx), string(model.PlatformEOS), string(model.PlatformCumulus)}

// Port defaults.
const (
	// A port's MTU defaults to its platform's maximum (platformInfo.maxMTU),
	// jumbo so a RoCE frame (4096-byte payload plus RoCEv2, IP, UDP and
	// VLAN headers) fits with room to spare. fallbackMTU stands in when
	// the platform is unknown (an error is reported then anyway).
	fallbackMTU = 9216
	// minPortMTU is the smallest MTU NVUE accepts for "link mtu"
	// (NVUE command reference, `nv set interface <if> link mtu`).
	minPortMTU = 552
)

// PFC watchdog defaults. A peer stuck sending PAUSE (a PFC storm) would
// otherwise freeze the lossless queue and spread back through the
// fabric; the watchdog notices a queue paused for longer than the
// timeout and drops its traffic until the storm ends. NVUE's default
// polling interval is 100 ms (NVUE command reference, `nv set qos
// pfc-watchdog polling-interval`); the 200 ms timeout and restore sit
// between EOS's 50 ms example (Arista AVD eos_cli_config_gen, qos.cfg:
// `priority-flow-control pause watchdog default timeout 0.05`) and SONiC's
// 400 ms detection (sonic-net/sonic-buildimage issue #8181).
var defaultWatchdog = model.PFCWatchdog{
	Enabled:           true,
	Action:            "drop",
	TimeoutMs:         200,
	PollingIntervalMs: 100,
	RestoreMs:         200,
}

// portDecl is one declared port before resolution: the merged attributes
// of its port block and any overrides.
type portDecl struct {
	name  string
	attrs dsl.Port
	// block is the def range of the declaring port block.
	block dsl.Range
}

// lowerSwitches lowers every switch block, sorted by name.
func (l *lowering) lowerSwitches() {
	seen := map[string]dsl.Range{}
	for i := range l.cfg.Switches {
		s := &l.cfg.Switches[i]
		if first, dup := seen[s.Name]; dup {
			d := l.errorf(s.LabelRange.Or(s.DefRange), "Duplicate switch", "switch %q is declared twice; rename one or merge the blocks.", s.Name)
			also(d, fmt.Sprintf("switch %q is first declared here", s.Name), first)
			l.badPorts[s.Name] = true // links to the second block's ports are not follow-on errors
			continue
		}
		seen[s.Name] = s.LabelRange.Or(s.DefRange)
		l.f.Switches = append(l.f.Switches, l.lowerSwitch(s))
	}
	sort.Slice(l.f.Switches, func(i, j int) bool { return l.f.Switches[i].Name < l.f.Switches[j].Name })
	l.switches = map[string]*model.Switch{}
	for i := range l.f.Switches {
		l.switches[l.f.Switches[i].Name] = &l.f.Switches[i]
	}
}

// lowerSwitch lowers one switch and its ports.
func (l *lowering) lowerSwitch(s *dsl.Switch) model.Switch {
	defer l.within(s.Name)()
	l.src.Set(s.DefRange, "switch", s.Name)
	l.src.Set(s.PlatformRange, "switch", s.Name, "platform")
	l.src.Set(s.ModelRange, "switch", s.Name, "model")
	l.src.Set(s.OSVersionRange, "switch", s.Name, "os_version")
	sw := model.Switch{Name: s.Name, Platform: model.Platform(s.Platform), Hardware: model.Hardware{Model: s.Model}}
	info, ok := platforms[sw.Platform]
	if !ok {
		l.badPorts[s.Name] = true
		l.errorf(s.PlatformRange.Or(s.DefRange), "Unknown platform",
			"switch %q has platform %q; fabricc renders %s.%s", s.Name, s.Platform, dsl.QuoteList(platformNames), didYouMean(s.Platform, platformNames))
	}
	sw.OSVersion = info.osVersion
	sw.HeadroomLeftToSwitch = sw.Platform == model.PlatformCumulus && l.f.QoS.Headroom.LeftToPlatform()
	if s.OSVersion != nil {
		sw.OSVersion = *s.OSVersion
	}
	hw := l.checkSwitchModel(s, sw, ok)
	sw.PFCWatchdog = l.watchdog(s)
	decls := l.declarePorts(s, info, ok, hw)
	l.applyOverrides(s, decls)
	if len(decls) > 0 { // a switch without ports keeps nil ports, as before
		sw.Ports = make([]model.Port, 0, len(decls))
	}
	for _, d := range decls {
		sw.Ports = append(sw.Ports, l.resolvePort(s.Name, sw.Platform, info, d, sw.PFCWatchdog.Enabled, hw))
	}
	// The names are unique (declarePorts), so any sort gives one order.
	slices.SortFunc(sw.Ports, func(a, b model.Port) int { return naturalCompare(a.Name, b.Name) })
	return sw
}

// watchdog merges the defaults, the qos-level pfc_watchdog block and the
// switch's own.
func (l *lowering) watchdog(s *dsl.Switch) model.PFCWatchdog {
	w := defaultWatchdog
	if q := l.cfg.QoS; q != nil && q.Watchdog != nil {
		l.src.Set(q.Watchdog.DefRange, "qos", "pfc_watchdog")
		l.src.Set(q.Watchdog.ActionRange, "qos", "pfc_watchdog", "action")
		l.overlayWatchdog(&w, q.Watchdog)
	}
	if s.Watchdog != nil {
		l.src.Set(s.Watchdog.DefRange, "switch", s.Name, "pfc_watchdog")
		l.src.Set(s.Watchdog.ActionRange, "switch", s.Name, "pfc_watchdog", "action")
		l.overlayWatchdog(&w, s.Watchdog)
	}
	if !w.Enabled {
		return model.PFCWatchdog{}
	}
	l.warnIgnoredWatchdog(model.Platform(s.Platform), w, s.Watchdog)
	l.checkWatchdogTimes(model.Platform(s.Platform), w, s.Watchdog)
	return w
}

// watchdogBlock is the pfc_watchdog block whose value of st the switch
// takes: its own block if it writes it, else the qos block's if that
// does; nil when the value is the default.
func (l *lowering) watchdogBlock(st watchdogSetting, own *dsl.Watchdog) *dsl.Watchdog {
	if own != nil && st.written(own) {
		return own
	}
	if q := l.cfg.QoS; q != nil && q.Watchdog != nil && st.written(q.Watchdog) {
		return q.Watchdog
	}
	return nil
}

// watchdogTime is one PFC watchdog time a platform limits: the setting
// (its index in watchdogSettings), its range in ms and the step its
// configuration takes.
type watchdogTime struct {
	setting        int
	value          func(model.PFCWatchdog) int
	min, max, step int
}

// watchdogTimes are the times each platform takes, in ms.
//
// EOS: `priority-flow-control pause watchdog default timeout` and
// `recovery-time` take 0.01-60 s, `polling-interval` 0.005-30 s (Arista
// EOS User Manual, DCBX and Flow Control, PFC watchdog, as summarised in
// a public RoCE-on-EOS write-up; second-hand); timeout and recovery-time
// have at most two decimals, so whole 10 ms (Arista AVD
// eos_cli_config_gen schema, priority_flow_control.watchdog.timeout and
// recovery_time, pattern ^\d+(\.\d{1,2})?$; polling_interval takes three).
//
// NVUE: `nv set qos pfc-watchdog polling-interval` takes 100-5000 ms
// (NVIDIA Cumulus Linux 5.9 NVUE Command Reference, `nv set qos
// pfc-watchdog polling-interval`); the timeout becomes a robustness (a
// count of polls) and restore_ms is not taken (watchdogIgnored).
var watchdogTimes = map[model.Platform][]watchdogTime{
	model.PlatformEOS: {
		{wdTimeout, func(w model.PFCWatchdog) int { return w.TimeoutMs }, 10, 60000, 10},
		{wdRestore, func(w model.PFCWatchdog) int { return w.RestoreMs }, 10, 60000, 10},
		{wdPolling, func(w model.PFCWatchdog) int { return w.PollingIntervalMs }, 5, 30000, 1},
	},
	model.PlatformCumulus: {
		{wdPolling, func(w model.PFCWatchdog) int { return w.PollingIntervalMs }, 100, 5000, 1},
	},
}

// nearest is v moved into [min, max] and onto a multiple of step.
func (t watchdogTime) nearest(v int) int {
	v = max(t.min, min(t.max, v))
	if r := v % t.step; r != 0 {
		if r*2 >= t.step {
			v += t.step - r
		} else {
			v -= r
		}
	}
	return max(t.min, min(t.max, v))
}

// checkWatchdogTimes reports, at the pfc_watchdog block that sets it,
// each watchdog time switch platform p cannot take (watchdogTimes), with
// the nearest it can; on EOS a polling interval above half the shorter
// of timeout and recovery-time, which EOS replaces with its own
// (the write-up above: "polling-interval <= min(timeout, recovery-time) /
// 2"; otherwise "EOS can substitute an automatically calculated
// interval"); and, as a warning, an NVUE detection time (polling
// interval x robustness, the robustness rounded up as targets/cumulus
// writes it) that is not the timeout.
func (l *lowering) checkWatchdogTimes(p model.Platform, w model.PFCWatchdog, own *dsl.Watchdog) {
	// The refused times are set in at most two blocks, the switch's own
	// and the qos block; each is reported once, in the order first met.
	var bad watchdogFlags
	var qos *dsl.Watchdog
	var inOwn, inQoS []watchdogTime
	ownFirst := false
	for _, t := range watchdogTimes[p] {
		b := l.watchdogBlock(watchdogSettings[t.setting], own)
		if v := t.value(w); b == nil || v == t.nearest(v) {
			continue
		}
		bad[t.setting] = true
		if b == own {
			ownFirst = ownFirst || inQoS == nil
			inOwn = append(inOwn, t)
		} else {
			qos = b
			inQoS = append(inQoS, t)
		}
	}
	if ownFirst {
		l.errorOnce(own.DefRange, refusesSummary(p), refusedTimes(p, w, inOwn))
	}
	if inQoS != nil {
		l.errorOnce(qos.DefRange, refusesSummary(p), refusedTimes(p, w, inQoS))
	}
	if inOwn != nil && !ownFirst {
		l.errorOnce(own.DefRange, refusesSummary(p), refusedTimes(p, w, inOwn))
	}
	switch p {
	case model.PlatformEOS:
		l.checkEOSPolling(w, own, bad)
	case model.PlatformCumulus:
		l.warnNVUEDetection(w, own, bad)
	}
}

// refusesSummary is the summary of a watchdog time platform p refuses;
// one per platform, so that two platforms' errors at one block are not
// taken for one.
func refusesSummary(p model.Platform) string {
	return fmt.Sprintf("PFC watchdog time %s refuses", platformTitle(p))
}

// refusedTimes says which of the times ts (set in one block) platform p
// does not take, its ranges and the nearest values it takes.
func refusedTimes(p model.Platform, w model.PFCWatchdog, ts []watchdogTime) string {
	var written, ranges, nearest []string
	for _, t := range ts {
		name := watchdogSettings[t.setting].name
		written = append(written, fmt.Sprintf("%s = %d", name, t.value(w)))
		ranges = append(ranges, fmt.Sprintf("%s %d-%d ms%s", name, t.min, t.max, stepText(t.step)))
		nearest = append(nearest, fmt.Sprintf("%s = %d", name, t.nearest(t.value(w))))
	}
	it := "it"
	if len(ts) > 1 {
		it = "them"
	}
	return fmt.Sprintf("pfc_watchdog %s: %s switches take %s. Write %s (the nearest they take), or set %s in the pfc_watchdog block of the switches that take %s.",
		strings.Join(written, " and "), platformTitle(p), strings.Join(ranges, " and "), strings.Join(nearest, " and "), it, it)
}

// stepText says a step other than 1 ms.
func stepText(step int) string {
	if step == 1 {
		return ""
	}
	return fmt.Sprintf(" in steps of %d ms", step)
}

// eosPollingSummary is the summary of an EOS polling interval too long
// for its timeout or recovery-time.
const eosPollingSummary = "PFC watchdog polling interval EOS replaces"

// checkEOSPolling reports an EOS polling interval above half the shorter
// of timeout and recovery-time (bad: settings already reported).
func (l *lowering) checkEOSPolling(w model.PFCWatchdog, own *dsl.Watchdog, bad watchdogFlags) {
	if bad[wdPolling] || bad[wdTimeout] || bad[wdRestore] || w.PollingIntervalMs == 0 || w.TimeoutMs == 0 || w.RestoreMs == 0 {
		return
	}
	limit := min(w.TimeoutMs, w.RestoreMs) / 2
	if w.PollingIntervalMs <= limit {
		return
	}
	b := l.watchdogBlock(watchdogSettings[wdPolling], own)
	if b == nil {
		b = l.watchdogBlock(watchdogSettings[wdTimeout], own)
	}
	if b == nil {
		b = l.watchdogBlock(watchdogSettings[wdRestore], own)
	}
	if b == nil {
		return
	}
	if limit < 5 {
		l.errorOnce(b.DefRange, eosPollingSummary,
			fmt.Sprintf("pfc_watchdog polling_ms = %d with timeout_ms = %d and restore_ms = %d: EOS takes a polling interval of at most half the shorter of timeout and recovery-time, and at least 5 ms, so the shorter must be at least 10 ms. Write timeout_ms and restore_ms = 10 or more, and polling_ms = 5.",
				w.PollingIntervalMs, w.TimeoutMs, w.RestoreMs))
		return
	}
	l.errorOnce(b.DefRange, eosPollingSummary,
		fmt.Sprintf("pfc_watchdog polling_ms = %d with timeout_ms = %d and restore_ms = %d: EOS takes a polling interval of at most half the shorter of timeout and recovery-time, %d ms here, and replaces a longer one with its own. Write polling_ms = %d, or a timeout_ms and restore_ms of %d or more.",
			w.PollingIntervalMs, w.TimeoutMs, w.RestoreMs, limit, limit, 2*w.PollingIntervalMs))
}

// warnNVUEDetection warns when NVUE's detection time, polling interval x
// robustness (robustness = timeout / polling rounded up, as targets/cumulus
// writes it), is not the timeout the model asks for.
func (l *lowering) warnNVUEDetection(w model.PFCWatchdog, own *dsl.Watchdog, bad watchdogFlags) {
	if bad[wdPolling] || w.PollingIntervalMs <= 0 || w.TimeoutMs <= 0 || w.TimeoutMs%w.PollingIntervalMs == 0 {
		return
	}
	b := l.watchdogBlock(watchdogSettings[wdTimeout], own)
	if b == nil {
		b = l.watchdogBlock(watchdogSettings[wdPolling], own)
	}
	if b == nil {
		return
	}
	rob := (w.TimeoutMs + w.PollingIntervalMs - 1) / w.PollingIntervalMs
	below := (rob - 1) * w.PollingIntervalMs
	alt := ""
	if below > 0 {
		alt = fmt.Sprintf("%d or ", below)
	}
	l.warnOnce(b.DefRange, "PFC watchdog time the switch rounds",
		fmt.Sprintf("pfc_watchdog timeout_ms = %d with polling_ms = %d: NVUE counts the timeout in polls (robustness %d), so Cumulus Linux switches detect a PFC storm after %d ms, not %d. Write timeout_ms = %s%d, a multiple of polling_ms, to say what the switch does.",
			w.TimeoutMs, w.PollingIntervalMs, rob, rob*w.PollingIntervalMs, w.TimeoutMs, alt, rob*w.PollingIntervalMs))
}

// watchdogSetting is one written pfc_watchdog attribute.
type watchdogSetting struct {
	name    string
	written func(*dsl.Watchdog) bool
	at      func(*dsl.Watchdog) dsl.Range
}

// The pfc_watchdog settings, by their index in watchdogSettings.
const (
	wdAction = iota
	wdTimeout
	wdPolling
	wdRestore
)

// watchdogFlags holds a flag per pfc_watchdog setting, indexed as
// watchdogSettings.
type watchdogFlags [len(watchdogSettings)]bool

var watchdogSettings = [...]watchdogSetting{
	wdAction:  {"action", func(b *dsl.Watchdog) bool { return b.Action != nil }, func(b *dsl.Watchdog) dsl.Range { return b.ActionRange.Or(b.DefRange) }},
	wdTimeout: {"timeout_ms", func(b *dsl.Watchdog) bool { return b.TimeoutMs != nil }, func(b *dsl.Watchdog) dsl.Range { return b.DefRange }},
	wdPolling: {"polling_ms", func(b *dsl.Watchdog) bool { return b.PollingMs != nil }, func(b *dsl.Watchdog) dsl.Range { return b.DefRange }},
	wdRestore: {"restore_ms", func(b *dsl.Watchdog) bool { return b.RestoreMs != nil }, func(b *dsl.Watchdog) dsl.Range { return b.DefRange }},
}

// watchdogIgnored is why a platform's watchdog cannot take a pfc_watchdog
// setting (w is the merged watchdog), or "": the renderers leave a NOTE
// in the configuration where they drop it.
func watchdogIgnored(p model.Platform, setting string, w model.PFCWatchdog) string {
	switch {
	case p == model.PlatformOnyx:
		return "Onyx's pfc-wd command takes no action, timeout or interval and uses its own"
	case p == model.PlatformCumulus && setting == "action" && w.Action == "no-drop":
		return "NVUE's watchdog always drops the stuck queue's packets"
	case p == model.PlatformCumulus && setting == "restore_ms":
		return "NVUE has no restore timer: it restores PFC after one polling interval without pause frames"
	}
	return ""
}

// warnIgnoredWatchdog warns, once per written attribute and platform,
// about a pfc_watchdog setting the switch cannot honour, at the block
// whose value the switch takes (its own, else the qos block's).
func (l *lowering) warnIgnoredWatchdog(p model.Platform, w model.PFCWatchdog, own *dsl.Watchdog) {
	for _, st := range watchdogSettings {
		b := l.watchdogBlock(st, own)
		if b == nil {
			continue
		}
		if why := watchdogIgnored(p, st.name, w); why != "" {
			l.warnOnce(st.at(b), "PFC watchdog setting the switch ignores",
				fmt.Sprintf("pfc_watchdog %s is written, but %s switches cannot honour it: %s. Their watchdog runs without it; remove the setting, or set it in the pfc_watchdog block of the switches that honour it.", st.name, p, why))
		}
	}
}

// overlayWatchdog applies the attributes b sets, checking each.
func (l *lowering) overlayWatchdog(w *model.PFCWatchdog, b *dsl.Watchdog) {
	if b.Enabled != nil {
		w.Enabled = *b.Enabled
	}
	if b.Action != nil {
		if *b.Action != "drop" && *b.Action != "no-drop" {
			l.errorOnce(b.ActionRange.Or(b.DefRange), "Invalid PFC watchdog action",
				fmt.Sprintf("pfc_watchdog action %q is not known; write \"drop\" or \"no-drop\".", *b.Action))
		}
		w.Action = *b.Action
	}
	for _, t := range []struct {
		name string
		v    *int
		dst  *int
	}{{"timeout_ms", b.TimeoutMs, &w.TimeoutMs}, {"polling_ms", b.PollingMs, &w.PollingIntervalMs}, {"restore_ms", b.RestoreMs, &w.RestoreMs}} {
		if t.v == nil {
			continue
		}
		if *t.v < 1 || *t.v > 60000 {
			l.errorOnce(b.DefRange, "Invalid PFC watchdog time",
				fmt.Sprintf("pfc_watchdog %s %d is out of range; write milliseconds from 1 to 60000.", t.name, *t.v))
		}
		*t.dst = *t.v
	}
}

// declarePorts expands the port blocks of s into declared ports, in
// declaration order, checking names against the platform's naming and,
// when the model is known, against the model's ports.
func (l *lowering) declarePorts(s *dsl.Switch, info platformInfo, known bool, hw *switchHW) []*portDecl {
	var decls []*portDecl
	byName := map[string]*portDecl{}
	for _, p := range s.Ports {
		names, err := dsl.ExpandPorts(p.Spec)
		if err != nil {
			l.errorf(p.LabelRange.Or(p.DefRange), "Invalid port spec", "%s.", err)
			l.badPorts[s.Name] = true
			continue
		}
		if known && hw != nil {
			l.checkPortNames(s, p, names, hw)
		}
		for _, n := range names {
			if _, ok := info.ports.parse(n); known && !ok {
				l.errorf(p.LabelRange.Or(p.DefRange), "Invalid port name",
					"switch %q runs %s, and %q is not a port name there: %s.", s.Name, s.Platform, n, info.portForm)
				l.badPorts[s.Name] = true
				break
			}
			if first, dup := byName[n]; dup {
				d := l.errorf(p.LabelRange.Or(p.DefRange), "Duplicate port",
					"port %s of switch %q is declared twice; declare each port in one port block and change it with an override block.", n, s.Name)
				also(d, fmt.Sprintf("port %s is first declared here", n), first.block)
				continue
			}
			d := &portDecl{name: n, attrs: p, block: p.DefRange}
			byName[n] = d
			decls = append(decls, d)
			l.recordPortAttrs(s.Name, n, p)
		}
	}
	return decls
}

// applyOverrides lays the override blocks over the declared ports.
func (l *lowering) applyOverrides(s *dsl.Switch, decls []*portDecl) {
	byName := map[string]*portDecl{}
	names := make([]string, 0, len(decls))
	for _, d := range decls {
		byName[d.name] = d
		names = append(names, d.name)
	}
	for _, o := range s.Overrides {
		ports, err := dsl.ExpandPorts(o.Spec)
		if err != nil {
			l.errorf(o.LabelRange.Or(o.DefRange), "Invalid port spec", "%s.", err)
			continue
		}
		for _, n := range ports {
			d := byName[n]
			if d == nil {
				l.errorf(o.LabelRange.Or(o.DefRange), "Override of an undeclared port",
					"switch %q has no port %s to override; declare it in a port block first.%s", s.Name, n, didYouMean(n, names))
				continue
			}
			overlayPort(&d.attrs, o)
			l.recordPortAttrs(s.Name, n, o)
		}
	}
}

// recordPortAttrs records the ranges of the attributes block p writes for
// port n (a port block also records the port itself).
func (l *lowering) recordPortAttrs(sw, n string, p dsl.Port) {
	k := []string{"switch", sw, "port", n}
	l.src.setBlock(Key(k...), p.DefRange, []attrRange{
		{"speed", p.SpeedRange}, {"mtu", p.MTURange}, {"mode", p.ModeRange}, {"vlans", p.VLANsRange},
		{"native_vlan", p.NativeVLANRange}, {"trust", p.TrustRange}, {"pfc", p.PFCRange},
		{"lanes", p.LanesRange}, {"description", p.DescriptionRange},
	})
	if p.Trust != nil {
		l.written[Key(append(k, "trust")...)] = true
	}
	if p.Description != nil {
		l.written[Key(append(k, "description")...)] = true
	}
}

// overlayPort copies every attribute o sets onto p, with its range.
func overlayPort(p *dsl.Port, o dsl.Port) {
	if o.Description != nil {
		p.Description, p.DescriptionRange = o.Description, o.DescriptionRange
	}
	if o.Speed != nil {
		p.Speed, p.SpeedRange = o.Speed, o.SpeedRange
	}
	if o.MTU != nil {
		p.MTU, p.MTURange = o.MTU, o.MTURange
	}
	if o.Mode != nil {
		p.Mode, p.ModeRange = o.Mode, o.ModeRange
	}
	if o.VLANs != nil {
		p.VLANs, p.VLANsRange = o.VLANs, o.VLANsRange
	}
	if o.NativeVLAN != nil {
		p.NativeVLAN, p.NativeVLANRange = o.NativeVLAN, o.NativeVLANRange
	}
	if o.Trust != nil {
		p.Trust, p.TrustRange = o.Trust, o.TrustRange
	}
	if o.PFC != nil {
		p.PFC, p.PFCRange = o.PFC, o.PFCRange
	}
	if o.Shutdown != nil {
		p.Shutdown = o.Shutdown
	}
	if o.Lanes != nil {
		p.Lanes, p.LanesRange = o.Lanes, o.LanesRange
	}
}

// trustModes maps the trust attribute's values.
var trustModes = map[string]model.Trust{"dscp": model.TrustDSCP, "pcp": model.TrustPCP, "both": model.TrustBoth}

// resolvePort resolves one declared port. Trust and Description defaults
// depend on the port's peer and are filled by finishPorts.
func (l *lowering) resolvePort(sw string, platform model.Platform, info platformInfo, d *portDecl, watchdog bool, hw *switchHW) model.Port {
	defer l.within(sw + ":" + d.name)()
	a := d.attrs
	maxMTU := info.portMaxMTU()
	p := model.Port{Name: d.name, MTU: maxMTU}
	who := fmt.Sprintf("port %q on switch %q", a.Spec, sw)
	if a.Speed == nil {
		l.errorOnce(d.block, "Port has no speed",
			fmt.Sprintf("port %q on switch %q has no speed; set speed (e.g. speed = \"100G\") in its port block or an override.", a.Spec, sw))
	} else if v, err := parseSpeed(*a.Speed); err != nil {
		l.errorOnce(a.SpeedRange.Or(d.block), "Invalid speed", err.Error())
	} else {
		p.SpeedMbps = v
		p.Lanes = l.portLanes(sw, d, hw, v)
	}
	if a.MTU != nil {
		p.MTU = *a.MTU
		if p.MTU < minPortMTU || p.MTU > maxMTU {
			l.errorOnce(a.MTURange.Or(d.block), "Invalid MTU",
				fmt.Sprintf("MTU %d is out of range; ports on switch %q take %d-%d bytes (the platform's maximum).", p.MTU, sw, minPortMTU, maxMTU))
		}
	}
	l.resolveMode(&p, a, d.block, who)
	if a.Trust != nil {
		t, ok := trustModes[*a.Trust]
		if !ok {
			l.errorOnce(a.TrustRange.Or(d.block), "Invalid trust",
				fmt.Sprintf("trust %q is not known; write \"dscp\", \"pcp\" or \"both\".%s", *a.Trust, didYouMean(*a.Trust, []string{"dscp", "pcp", "both"})))
		}
		p.Trust = t
		l.checkTrustOnPlatform(who, platform, t, a.TrustRange.Or(d.block))
	}
	if a.PFC == nil || *a.PFC {
		p.PFCPriorities = append([]int{}, l.f.QoS.PFCPriorities...)
	} else {
		p.PFCPriorities = []int{}
	}
	// LinkPause stays false: 802.3x global pause and PFC are mutually
	// exclusive on a port (intel/mfd-switchmanagement test_mellanox.py,
	// prepare_for_pfc_on_port: "flowcontrol send|receive off force").
	p.LinkPause = false
	p.PFCWatchdog = watchdog && len(p.PFCPriorities) > 0
	if a.Description != nil {
		p.Description = *a.Description
	}
	p.Shutdown = a.Shutdown != nil && *a.Shutdown
	return p
}

// checkTrustOnPlatform reports a trust mode the switch's platform has
// no command for. EOS trusts DSCP, CoS or nothing (`qos trust dscp`,
// `qos trust cos`, `no qos trust`: Arista EOS User Manual, Quality of
// Service, "Port Settings - Trust Mode and Traffic Class"; Arista AVD
// schema ethernet_interfaces[].qos.trust: dscp, cos, disabled), so
// "both" cannot be rendered there: DSCP trust alone would put RoCE v1,
// which has no IP header, in the port's default traffic class.
func (l *lowering) checkTrustOnPlatform(who string, platform model.Platform, t model.Trust, at dsl.Range) {
	if platform != model.PlatformEOS || t != model.TrustBoth {
		return
	}
	l.errorOnce(at, "Trust mode not available on EOS",
		fmt.Sprintf("%s has trust \"both\", but EOS has no combined trust mode: an Arista port trusts DSCP or CoS (qos trust dscp or qos trust cos), never both, so RoCE v1 (no IP header) would fall into the port's default traffic class. Write trust = \"dscp\" toward RoCE v2 NICs, or trust = \"pcp\" toward RoCE v1 NICs.", who))
}

// portModes lists the mode attribute's values.
var portModes = []string{string(model.ModeAccess), string(model.ModeTrunk), string(model.ModeRouted)}

// resolveMode sets the port's mode and VLANs: trunk when VLANs are given,
// else routed; access takes exactly one VLAN.
func (l *lowering) resolveMode(p *model.Port, a dsl.Port, block dsl.Range, who string) {
	p.Mode = model.ModeRouted
	if len(a.VLANs) > 0 {
		p.Mode = model.ModeTrunk
	}
	if a.Mode != nil {
		p.Mode = model.PortMode(*a.Mode)
	}
	vr := a.VLANsRange.Or(block)
	for _, v := range a.VLANs {
		l.checkVLAN(v, vr, who, a.VLANs...)
	}
	if a.NativeVLAN != nil && p.Mode != model.ModeTrunk {
		l.errorOnce(a.NativeVLANRange.Or(block), "Native VLAN on a non-trunk port",
			fmt.Sprintf("%s has native_vlan, which applies to trunk ports, but it is %s; remove native_vlan or use mode = \"trunk\".", who, p.Mode))
	}
	switch p.Mode {
	case model.ModeAccess:
		if len(a.VLANs) != 1 {
			l.errorOnce(a.VLANsRange.Or(a.ModeRange.Or(block)), "Access port needs one VLAN",
				fmt.Sprintf("%s is an access port, which carries exactly one VLAN, but its vlans list %d; write vlans = [ID], or mode = \"trunk\" for several.", who, len(a.VLANs)))
			return
		}
		p.AccessVLAN = a.VLANs[0]
	case model.ModeTrunk:
		if len(a.VLANs) == 0 {
			l.errorOnce(a.ModeRange.Or(block), "Trunk port without VLANs",
				fmt.Sprintf("%s is a trunk, which needs the VLANs it carries; write vlans = [ID, ...], or use mode = \"routed\".", who))
		}
		p.TrunkVLANs = sortedUnique(a.VLANs)
		if a.NativeVLAN != nil {
			p.NativeVLAN = *a.NativeVLAN
			l.checkVLAN(p.NativeVLAN, a.NativeVLANRange.Or(block), who)
		}
	case model.ModeRouted:
		if len(a.VLANs) > 0 {
			l.errorOnce(a.ModeRange.Or(block), "Routed port with VLANs",
				fmt.Sprintf("%s is a routed port, which carries no VLANs; remove vlans, or use mode = \"trunk\" or \"access\".", who))
		}
	default:
		l.errorOnce(a.ModeRange.Or(block), "Invalid port mode",
			fmt.Sprintf("%s has mode %q, which is not known; write %s.%s", who, *a.Mode, dsl.QuoteList(portModes), didYouMean(*a.Mode, portModes)))
	}
}
