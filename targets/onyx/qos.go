package onyx

import (
	"slices"

	"github.com/fabricc/fabricc/model"
)

// trustKeyword maps the model's trust to Onyx `qos trust` (case matters:
// "L2"/"L3"; ansible onyx_qos.py choices port|L2|L3|both).
var trustKeyword = map[model.Trust]string{
	model.TrustDSCP: "L3",
	model.TrustPCP:  "L2",
	model.TrustBoth: "both",
}

// qosPorts returns the ports the fabric-wide maps, ETS and ECN are
// written on: every port, a shut one too. Verification expects them on
// every port, and a push merges: a port shut now keeps what it has until
// the fabric brings it up again, so it is given the fabric's values
// while down.
func qosPorts(sw *model.Switch) []*model.Port {
	out := make([]*model.Port, len(sw.Ports))
	for i := range sw.Ports {
		out[i] = &sw.Ports[i]
	}
	return out
}

// switchPFC returns the union of the ports' PFC priorities, ascending.
// Onyx enables PFC per priority for the whole switch
// (`dcb priority-flow-control priority 3 enable`) and per port only by mode.
func switchPFC(sw *model.Switch) []int {
	var on [8]bool
	for _, p := range sw.Ports {
		for _, prio := range p.PFCPriorities {
			on[prio] = true
		}
	}
	var out []int
	for prio, ok := range on {
		if ok {
			out = append(out, prio)
		}
	}
	return out
}

// writePFC writes the "DCBX PFC configuration" section (the running-config
// header of the CSM sample): global PFC, PFC per priority, per-port PFC
// mode, and the PFC watchdog. Commands as in the Demartek RoCE Deployment
// Guide ("Deploying RoCE on a Network Switch" steps 5-6).
//
// A push merges its lines into the running configuration, so each setting
// is written in both states: every priority enabled or not (`no dcb
// priority-flow-control priority N enable`), and each port's PFC mode on
// or off (`no dcb priority-flow-control mode force`, what mellanox.onyx
// onyx_pfc_interface sends for state disabled); otherwise a priority or
// port an earlier fabric made lossless would stay so.
func writePFC(w *writer, f *model.Fabric, sw *model.Switch) {
	prios := switchPFC(sw)
	w.section("DCBX PFC configuration")
	// The switch-wide PFC lines follow from the lossless classes.
	w.b.At("qos")
	if w.b.Mapped() {
		for _, c := range lossless(f) {
			w.b.Also("qos", "class", c)
		}
	}
	if len(prios) > 0 {
		w.cmd("dcb priority-flow-control enable force")
	} else {
		w.cmd("no dcb priority-flow-control enable force")
	}
	for prio := 0; prio < 8; prio++ {
		if slices.Contains(prios, prio) {
			w.cmd("dcb priority-flow-control priority %d enable", prio)
		} else {
			w.cmd("no dcb priority-flow-control priority %d enable", prio)
		}
	}
	for i := range sw.Ports {
		p := &sw.Ports[i]
		w.port(p, "pfc")
		if len(p.PFCPriorities) == 0 {
			w.cmd("%s no dcb priority-flow-control mode force", iface(p))
			continue
		}
		if !slices.Equal(p.PFCPriorities, prios) {
			w.note("ethernet %s wants PFC on priorities %s only; Onyx enables PFC per priority switch-wide, so it also gets %s", p.Name, ints(p.PFCPriorities), ints(prios))
		}
		w.cmd("%s dcb priority-flow-control mode on force", iface(p))
	}
	writeWatchdog(w, sw)
}

// writeWatchdog enables the PFC watchdog on covered ports with
// `interface ethernet 1/1 pfc-wd` (SmartX SMTX OS Mellanox switch guide).
// No source shows Onyx keywords for the watchdog's action or timers, so
// the model's values are written as a comment.
func writeWatchdog(w *writer, sw *model.Switch) {
	first := true
	for i := range sw.Ports {
		p := &sw.Ports[i]
		if !p.PFCWatchdog {
			// Off is written too, so the watchdog an earlier fabric
			// enabled does not stay on.
			w.port(p, "pfc")
			w.cmd("%s no pfc-wd", iface(p))
			continue
		}
		if first && sw.PFCWatchdog.Enabled {
			w.b.At("switch", sw.Name, "pfc_watchdog")
			wd := sw.PFCWatchdog
			w.note("PFC watchdog: model action %s, timeout %d ms, polling %d ms, restore %d ms; Onyx pfc-wd takes no such arguments and uses its own", wd.Action, wd.TimeoutMs, wd.PollingIntervalMs, wd.RestoreMs)
		}
		first = false
		w.port(p, "pfc")
		w.b.Also("switch", sw.Name, "pfc_watchdog")
		w.cmd("%s pfc-wd", iface(p))
	}
}

// writeQoS writes trust, the switch-priority -> traffic-class binding,
// ETS and ECN for every port in service. The DSCP -> switch-priority map
// is Onyx's default, which the compiler has checked against the fabric's.
func writeQoS(w *writer, f *model.Fabric, sw *model.Switch) {
	ports := qosPorts(sw)
	if len(ports) == 0 {
		return
	}
	// Header as running-config prints the trust lines (CSM/Cerebras
	// startup-config sample "QoS switch configuration").
	w.section("QoS switch configuration")
	for _, p := range ports {
		if kw, ok := trustKeyword[p.Trust]; ok {
			w.port(p, "trust")
			w.cmd("%s qos trust %s", iface(p), kw)
		}
	}
	writeDSCPNote(w, ports)
	writeTCBind(w, &f.QoS, ports)
	writeETS(w, &f.QoS, ports)
	writeECN(w, &f.QoS, ports)
}

// writeDSCPNote says where the DSCP map comes from. No public Onyx
// document gives the syntax of a DSCP -> switch-priority map, so none is
// written: DSCP-trusting ports use Onyx's default map, DSCP 8n..8n+7 ->
// switch priority n (mellanox.onyx test fixture
// show_qos_interface_ethernet.cfg; att/netarbiter RoCE_Deployment.md:
// "Traffic over DSCP 26 is mapped to switch-priority 3 by default"), and
// fabricc validate refuses a fabric whose map differs from it.
func writeDSCPNote(w *writer, ports []*model.Port) {
	for _, p := range ports {
		if p.Trust == model.TrustDSCP || p.Trust == model.TrustBoth {
			w.b.At("qos")
			w.note("DSCP -> switch priority: Onyx's default map (DSCP 8n..8n+7 -> switch priority n), which equals the fabric's (fabricc validate checks it)")
			return
		}
	}
}

// writeTCBind binds each switch priority to its traffic class
// (`traffic-class 3 bind switch-priority 3`, several priorities
// space-separated; intel mfd test_mellanox.py).
func writeTCBind(w *writer, q *model.QoS, ports []*model.Port) {
	var byTC [8][]int
	for prio, tc := range q.PriorityToTC {
		byTC[tc] = append(byTC[tc], prio)
	}
	for _, p := range ports {
		w.port(p)
		w.b.Also("qos")
		for tc, list := range byTC {
			if len(list) > 0 {
				w.cmd("%s traffic-class %d bind switch-priority %s", iface(p), tc, ints(list))
			}
		}
	}
}

// writeETS writes each class's scheduling. The Onyx WRR number is a
// relative weight (`show dcb ets` prints W and the computed W(%)); the
// model's shares sum to 100, so weight = percent gives the intended split
// among the classes (ansible onyx_traffic_class.py `dcb ets wrr <w>`).
func writeETS(w *writer, q *model.QoS, ports []*model.Port) {
	if len(q.Classes) == 0 {
		return
	}
	w.section("DCBX ETS configuration")
	w.b.At()
	w.note("WRR weights are the model's bandwidth percents; traffic classes with no class keep the Onyx default weight")
	for _, p := range ports {
		for _, c := range q.Classes {
			w.port(p)
			w.b.Also("qos", "class", c.Name, "ets")
			if c.ETS.Mode == model.ETSStrict {
				w.cmd("%s traffic-class %d dcb ets strict", iface(p), c.TrafficClass)
				continue
			}
			w.cmd("%s traffic-class %d dcb ets wrr %d", iface(p), c.TrafficClass, c.ETS.BandwidthPercent)
		}
	}
}

// kb converts bytes to the KB Onyx's ECN thresholds take ("value (in
// KBs)", ansible onyx_traffic_class.py; show prints "1550 KB"), rounding
// up so a threshold is never below the model's intent; validate checks
// min < max after the same rounding.
func kb(bytes int64) int64 { return model.OnyxECNKB(bytes) }

// writeECN writes the ECN thresholds of every class that marks. Onyx has
// no keyword for the marking probability; the model's value is written as
// a comment.
func writeECN(w *writer, q *model.QoS, ports []*model.Port) {
	var marking []model.Class
	for _, c := range q.Classes {
		if c.ECN != nil {
			marking = append(marking, c)
		}
	}
	if len(marking) == 0 && len(q.Classes) == 0 {
		return
	}
	w.section("Congestion control configuration")
	for _, c := range marking {
		w.b.At("qos", "class", c.Name, "ecn")
		w.note("class %s (traffic class %d): ECN min %d B -> %d KB, max %d B -> %d KB (KB = bytes/1024 rounded up)", c.Name, c.TrafficClass, c.ECN.MinBytes, kb(c.ECN.MinBytes), c.ECN.MaxBytes, kb(c.ECN.MaxBytes))
		w.note("class %s: model mark probability %d%% at the maximum threshold; Onyx has no keyword for it and uses its fixed curve", c.Name, c.ECN.MarkProbabilityPercent)
	}
	for _, p := range ports {
		for _, c := range q.Classes {
			w.port(p)
			if c.ECN == nil {
				// A class that does not mark has its marking removed, so
				// an earlier fabric's stays on no port (mellanox.onyx
				// onyx_traffic_class, state disabled: `no traffic-class
				// N congestion-control`).
				w.b.Also("qos", "class", c.Name)
				w.cmd("%s no traffic-class %d congestion-control", iface(p), c.TrafficClass)
				continue
			}
			w.b.Also("qos", "class", c.Name, "ecn")
			w.cmd("%s traffic-class %d congestion-control ecn minimum-absolute %d maximum-absolute %d", iface(p), c.TrafficClass, kb(c.ECN.MinBytes), kb(c.ECN.MaxBytes))
		}
	}
}

// lossless returns the names of the fabric's lossless classes.
func lossless(f *model.Fabric) []string {
	var out []string
	for _, c := range f.QoS.Classes {
		if c.Lossless {
			out = append(out, c.Name)
		}
	}
	return out
}
