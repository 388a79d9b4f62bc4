package eos

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// dscpToTC folds the model's DSCP -> priority and priority -> traffic-class
// maps into the DSCP -> traffic-class map EOS configures directly ("qos map
// dscp ... to traffic-class N"; EOS has no separate switch-priority stage).
func dscpToTC(q *model.QoS) ([]int, error) {
	if err := targets.CheckQoSMaps(q); err != nil {
		return nil, err
	}
	out := make([]int, 64)
	for d, p := range q.DSCPToPriority {
		out[d] = q.PriorityToTC[p]
	}
	return out, nil
}

// writeQoSMaps writes the global classification maps: "qos map cos" (only
// when a port trusts the PCP/CoS field) then "qos map dscp", one line per
// traffic class in ascending order, values space separated, then "qos map
// traffic-class ... to cos" (AVD qos.j2 and intended qos.cfg print cos,
// dscp, then traffic-class; AVD qos.map.traffic_class, e.g. "qos map
// traffic-class 2 4 5 to cos 7"). Each map is written whole, not only the
// entries that differ from the EOS defaults, so the result does not depend
// on the platform's default map.
//
// The traffic-class -> CoS map is what ties a class's PFC priority to its
// queue: EOS pauses and marks by CoS (802.1p) while its queues are
// traffic classes (Arista EOS User Manual, Quality of Service, "QoS Data
// Fields and Traffic Classes"), and a DSCP-trusted frame gets its CoS from
// its traffic class. Without the map, a class with traffic_class 4 and
// priority 3 would sit in tx-queue 4 while `priority-flow-control priority
// 3 no-drop` pauses whatever EOS's default map sends to CoS 3.
func writeQoSMaps(w *writer, q *model.QoS, sw *model.Switch, tcOfDSCP []int) {
	w.sep()
	w.At("qos")
	if usesCoS(sw) {
		for _, l := range groupByTC(q.PriorityToTC) {
			w.line(0, "qos map cos %s to traffic-class %d", l.values, l.tc)
		}
	}
	for _, l := range groupByTC(tcOfDSCP) {
		w.line(0, "qos map dscp %s to traffic-class %d", l.values, l.tc)
	}
	w.comment(0, "traffic class -> CoS: PFC pauses, and tagged frames leave with, the CoS of the frame's traffic class")
	for _, l := range groupByTC(TCToCoS(q)) {
		w.line(0, "qos map traffic-class %s to cos %d", l.values, l.tc)
	}
}

// TCToCoS is the CoS (802.1p priority) each traffic class 0-7 leaves
// with, as targets/eos writes it in "qos map traffic-class T to cos P":
// a class's own priority for its traffic class (so PFC on that priority
// pauses the class's queue), else the lowest priority the model maps to
// the traffic class, else the traffic class itself (no frame is
// classified there, so the value only has to be the same on every push).
func TCToCoS(q *model.QoS) []int {
	out := make([]int, 8)
	for tc := range out {
		out[tc] = tc
		for p := len(q.PriorityToTC) - 1; p >= 0; p-- {
			if q.PriorityToTC[p] == tc {
				out[tc] = p
			}
		}
	}
	for i := len(q.Classes) - 1; i >= 0; i-- {
		c := &q.Classes[i]
		if c.TrafficClass >= 0 && c.TrafficClass < 8 && c.Priority >= 0 && c.Priority < 8 {
			out[c.TrafficClass] = c.Priority
		}
	}
	return out
}

// usesCoS reports whether any port of sw classifies by the 802.1p field.
func usesCoS(sw *model.Switch) bool {
	for _, p := range sw.Ports {
		if p.Trust == model.TrustPCP {
			return true
		}
	}
	return false
}

// tcGroup is one "qos map" line: the values mapped to one traffic class.
type tcGroup struct {
	tc     int
	values string
}

// groupByTC inverts an index -> traffic-class table into one group per
// traffic class, ascending, each listing its indexes ascending.
func groupByTC(tcOf []int) []tcGroup {
	var out []tcGroup
	for tc := 0; tc <= 7; tc++ {
		var vals []string
		for i, t := range tcOf {
			if t == tc {
				vals = append(vals, strconv.Itoa(i))
			}
		}
		if len(vals) > 0 {
			out = append(out, tcGroup{tc: tc, values: strings.Join(vals, " ")})
		}
	}
	return out
}

// TxQueueKeyword is the interface sub-mode of a switch's egress queues.
// On the Broadcom Strata ASICs (Trident, Tomahawk) EOS splits each port's
// egress queues into unicast and multicast queues, configured under
// `uc-tx-queue N` and `mc-tx-queue N`; on the Sand ASICs (Arad, Jericho)
// the queues are not split and the sub-mode is `tx-queue N` (Arista EOS
// User Manual, Quality of Service, "QoS Configuration: Trident and
// Tomahawk Platform Switches" against "QoS Configuration: Arad Platform
// Switches" and "Jericho"; Arista AVD keeps them apart as
// ethernet_interfaces[].uc_tx_queues and tx_queues, templates
// ethernet-interface-uc-tx-queues.j2 and ethernet-interface-tx-queues.j2;
// AMD's ROCm cluster networking guide, "DCQCN configuration on an Arista
// 7388 switch", puts ECN under `uc-tx-queue 3`). RoCE is unicast, so
// fabricc configures the unicast queues.
func TxQueueKeyword(hw model.Hardware) string {
	if hw.HasEOSMMUProfile() { // Trident or Tomahawk
		return "uc-tx-queue"
	}
	return "tx-queue"
}

// writeTxQueues writes one egress-queue sub-block per traffic class,
// headed by keyword (TxQueueKeyword). The traffic class is used as the
// queue number: EOS maps traffic class N to tx-queue N unless "qos map
// traffic-class N to tx-queue M" says otherwise, and fabricc writes no
// such map (check with `show qos maps`).
//
// Scheduling: EOS tx-queues are strict priority by default; "no priority"
// makes a queue round-robin and "bandwidth percent N" sets its share
// (Arista AVD template ethernet-interface-tx-queues.j2). Strict classes get
// an explicit "priority strict" so the file states the intent.
//
// guaranteePercent, when above 0, is the `bandwidth guaranteed percent`
// of the lossless classes' queues on a port whose PFC watchdog is on
// (GuaranteePercent); every other queue gets the no-form, so a guarantee
// an earlier push wrote does not stay. `no bandwidth guaranteed` is the
// line EOS itself prints for a queue without one (public `show
// running-config all` captures: "uc-tx-queue 7 / priority strict / no
// bandwidth percent / no shape rate / no bandwidth guaranteed"), and
// `priority strict` / `no priority` are the two values of AVD's
// tx-queue `priority` field. Unconfirmed: a WRR lossless queue gets both
// `bandwidth percent N` and `bandwidth guaranteed percent M`, while
// AVD's ethernet-interface-uc-tx-queues.j2 writes the second only when
// the first is not set; no public sample shows EOS keeping both in one
// queue (README, "EOS lines and their public sources").
func writeTxQueues(w *writer, q *model.QoS, keyword string, guaranteePercent int) error {
	for i := range q.Classes {
		c := &q.Classes[i]
		if c.TrafficClass < 0 || c.TrafficClass > 7 {
			return fmt.Errorf("class %q: traffic class %d; EOS tx-queues are 0-7", c.Name, c.TrafficClass)
		}
		w.At("qos", "class", c.Name)
		w.line(1, "!")
		w.line(1, "%s %d", keyword, c.TrafficClass)
		if err := writeScheduling(w, c); err != nil {
			return fmt.Errorf("class %q: %w", c.Name, err)
		}
		if c.Lossless && guaranteePercent > 0 {
			w.line(2, "bandwidth guaranteed percent %d", guaranteePercent)
		} else {
			w.line(2, "no bandwidth guaranteed")
		}
		if err := writeECN(w, c); err != nil {
			return fmt.Errorf("class %q: %w", c.Name, err)
		}
	}
	return nil
}

// writeECN writes the tx-queue's ECN lines in both states, since a push
// merges into the running configuration: for a marking class the
// counter and the thresholds, for any other class their no-forms, so a
// class that marked in an earlier push stops marking.
//
// No-forms: `no random-detect ecn minimum-threshold` inside a tx-queue
// is how a public DCQCN tool for Arista 7060 switches turns ECN off
// (GitHub michaely-cb/cluster-cp, deployment_manager network_config
// templates, arista 7060X6 dcqcn_disable_iface_template.txt, under
// `uc-tx-queue 5`; its test_switch_configs.py "DCQCN disable"); `no
// random-detect ecn count` is the no-form of the counter AVD writes
// (ethernet-interface-tx-queues.j2), by the EOS rule that a command is
// removed by entering it with `no` (Arista Warrior, 2nd ed., chapter 9,
// "Configuration Management": the EOS configuration is additive); no
// public sample of that line was found.
func writeECN(w *writer, c *model.Class) error {
	if c.ECN == nil {
		w.At("qos", "class", c.Name)
		w.line(2, "no random-detect ecn count")
		w.line(2, "no random-detect ecn minimum-threshold")
		return nil
	}
	line, err := ecnLine(c.ECN)
	if err != nil {
		return err
	}
	w.At("qos", "class", c.Name, "ecn")
	// Counting marked packets feeds `show qos interfaces ecn counters
	// queue` (aristanetworks/anta, VerifyInterfacesECNCounters).
	w.line(2, "random-detect ecn count")
	w.line(2, "%s", line)
	return nil
}

// writeScheduling writes the tx-queue's ETS lines: "priority strict", or
// "no priority" plus "bandwidth percent N" for a WRR class.
func writeScheduling(w *writer, c *model.Class) error {
	w.At("qos", "class", c.Name, "ets")
	switch c.ETS.Mode {
	case model.ETSStrict:
		w.line(2, "priority strict")
	case model.ETSWRR:
		w.line(2, "no priority")
		if c.ETS.BandwidthPercent < 1 || c.ETS.BandwidthPercent > 100 {
			return fmt.Errorf("WRR bandwidth %d%% is outside 1-100", c.ETS.BandwidthPercent)
		}
		w.line(2, "bandwidth percent %d", c.ETS.BandwidthPercent)
	default:
		return fmt.Errorf("ETS mode %q is not strict or wrr", c.ETS.Mode)
	}
	return nil
}

// ecnLine returns the tx-queue ECN marking command. Syntax (AVD
// ethernet-interface-tx-queues.j2 and schema): "random-detect ecn
// minimum-threshold <n> <unit> maximum-threshold <n> <unit>
// max-mark-probability <1-100>", units segments | bytes | kbytes | mbytes,
// thresholds 1-256000000. The thresholds are always in bytes, the model's
// own unit: no public EOS document says whether its kbytes is 1000 or
// 1024 bytes.
func ecnLine(e *model.ECN) (string, error) {
	if e.MinBytes < 1 || e.MaxBytes <= e.MinBytes {
		return "", fmt.Errorf("ECN thresholds %d..%d bytes: need 1 <= minimum < maximum", e.MinBytes, e.MaxBytes)
	}
	if e.MarkProbabilityPercent < 1 || e.MarkProbabilityPercent > 100 {
		return "", fmt.Errorf("ECN mark probability %d%%: EOS max-mark-probability is 1-100", e.MarkProbabilityPercent)
	}
	if e.MaxBytes > 256000000 {
		return "", fmt.Errorf("ECN maximum threshold %d bytes is above the EOS limit 256000000", e.MaxBytes)
	}
	return fmt.Sprintf("random-detect ecn minimum-threshold %d bytes maximum-threshold %d bytes max-mark-probability %d",
		e.MinBytes, e.MaxBytes, e.MarkProbabilityPercent), nil
}

// frameOverhead is what an Ethernet frame adds to EOS's `mtu` (the IP
// MTU): the 14-byte header, an 802.1Q tag and the 4-byte FCS.
const frameOverhead = 14 + 4 + 4

// GuaranteePercent is the `bandwidth guaranteed percent` targets/eos
// writes in the lossless classes' tx-queues of sw's ports that run the
// PFC watchdog, 0 when sw's watchdog is off. EOS's watchdog monitors only
// PFC-enabled queues that also have guaranteed bandwidth, which "is
// needed to ensure starvation due to higher priority traffic is not
// wrongly flagged as a stuck-queue due to congestion" (Arista EOS User
// Manual, DCBX and Flow Control, PFC watchdog, as quoted in a public
// RoCE-on-EOS write-up; Arista's page itself was not read).
//
// The only documented form of the guarantee is a share of the port,
// `bandwidth guaranteed percent N` (Arista AVD schema
// bandwidth_guaranteed_percent, templates ethernet-interface-tx-queues.j2
// and ethernet-interface-uc-tx-queues.j2; no public source shows a unit
// for a bare rate). What the watchdog needs is that a lossless queue
// starved by a strict-priority class (the CNP class) still sends one of
// the switch's largest frames per polling interval (GuaranteeNeedKbps,
// 739 kbps at MTU 9214 and 100 ms), so that starvation is not taken for
// a stuck queue. The percentage is the smallest whole one that covers
// that on the slowest watchdog port: 1 on any port of 1G or faster.
// The trade-off: 1 % (1 Gb/s on a 100G port) is more than the need, and
// a strict-priority class then pre-empts the lossless queue only down
// to that floor; a guarantee is a minimum, so an idle lossless queue
// takes nothing from the others.
func GuaranteePercent(sw *model.Switch) int {
	need := GuaranteeNeedKbps(sw)
	if need == 0 {
		return 0
	}
	slowest := 0
	for i := range sw.Ports {
		p := &sw.Ports[i]
		if WatchdogArmed(p) && p.SpeedMbps > 0 && (slowest == 0 || p.SpeedMbps < slowest) {
			slowest = p.SpeedMbps
		}
	}
	if slowest == 0 {
		return 1
	}
	// need kbps as a share of slowest Mb/s: need*100/(slowest*1000).
	pct := (need*100 + slowest*1000 - 1) / (slowest * 1000)
	return min(max(pct, 1), 100)
}

// GuaranteeNeedKbps is the rate (kbps) that sends one of sw's largest
// frames (the largest port MTU plus frameOverhead) per watchdog polling
// interval, 0 when sw's watchdog is off: the frame in bits over the
// interval in ms is kbit/s. GuaranteePercent covers it.
func GuaranteeNeedKbps(sw *model.Switch) int {
	wd := sw.PFCWatchdog
	if !wd.Enabled {
		return 0
	}
	mtu := 0
	for i := range sw.Ports {
		mtu = max(mtu, sw.Ports[i].MTU)
	}
	if mtu == 0 {
		mtu = eosMaxMTU
	}
	poll := wd.PollingIntervalMs
	if poll <= 0 {
		poll = defaultPollingMs
	}
	bits := (mtu + frameOverhead) * 8
	return (bits + poll - 1) / poll
}

// defaultPollingMs stands in for a watchdog without a polling interval in
// the model: fabricc's own default (compiler defaultWatchdog).
const defaultPollingMs = 100

// WatchdogArmed reports whether port p runs the PFC watchdog, the
// condition under which writePFC writes `priority-flow-control pause
// watchdog`.
func WatchdogArmed(p *model.Port) bool {
	return p.PFCWatchdog && len(p.PFCPriorities) > 0
}

// writeWatchdog writes the global PFC watchdog (AVD
// priority-flow-control.j2): timeout, recovery-time, polling-interval (all
// in seconds; the model holds milliseconds) and the action, `drop` or
// `no-drop` (AVD's intended configurations print `priority-flow-control
// pause watchdog action no-drop`, with `drop` the schema's other value;
// later AVD schema versions list other actions, not offered here). pct
// is GuaranteePercent(sw).
func writeWatchdog(w *writer, sw *model.Switch, pct int) error {
	wd := &sw.PFCWatchdog
	if !wd.Enabled {
		return nil
	}
	w.sep()
	w.At("switch", sw.Name, "pfc_watchdog")
	w.comment(0, "EOS's watchdog monitors only PFC queues with guaranteed bandwidth (Arista EOS User Manual, DCBX and Flow Control),")
	w.comment(0, "so the lossless tx-queues of watchdog ports have bandwidth guaranteed percent %d, at least one largest frame per polling", pct)
	w.comment(0, "interval (%d kbps) on the slowest of them: a queue starved by a strict-priority class still moves and is not taken for a stuck one", GuaranteeNeedKbps(sw))
	if wd.TimeoutMs > 0 {
		w.line(0, "priority-flow-control pause watchdog default timeout %s", seconds(wd.TimeoutMs))
	}
	if wd.RestoreMs > 0 {
		w.line(0, "priority-flow-control pause watchdog default recovery-time %s", seconds(wd.RestoreMs))
	}
	if wd.PollingIntervalMs > 0 {
		w.line(0, "priority-flow-control pause watchdog default polling-interval %s", seconds(wd.PollingIntervalMs))
	}
	switch wd.Action {
	case "drop", "no-drop":
		w.line(0, "priority-flow-control pause watchdog action %s", wd.Action)
	case "":
	default:
		return fmt.Errorf("PFC watchdog action %q: EOS accepts drop or no-drop", wd.Action)
	}
	return nil
}

// seconds formats milliseconds as EOS's decimal seconds ("0.05", "1.22",
// "10.001" in AVD intended configs): exact, no trailing zeros.
func seconds(ms int) string {
	s := fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
