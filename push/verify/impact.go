package verify

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// ImpactClass is what a difference does to the fabric's RoCE traffic,
// chosen by the setting that differs (impactOfSetting), so that the
// on-call reads the differences that lose RoCE frames first.
type ImpactClass string

// The impact classes, in the order verify prints them: most harmful
// first.
const (
	// ImpactLossless: the lossless class is not lossless on this hop
	// (PFC, the maps that put RoCE in its priority, the buffers that
	// absorb what is in flight when a pause is sent).
	ImpactLossless ImpactClass = "lossless"
	// ImpactMTU: frames larger than the port's MTU are dropped.
	ImpactMTU ImpactClass = "mtu"
	// ImpactCongestion: ECN, ETS and DCQCN decide how fast and how
	// fairly RoCE is sent under load; they lose no frame.
	ImpactCongestion ImpactClass = "congestion"
	// ImpactCabling: a link is not cabled, or not up, as the fabric says.
	ImpactCabling ImpactClass = "cabling"
	// ImpactOther: everything else (VLANs, ports, descriptions, routes,
	// speed): its effect is not one of the above, or not one alone (a
	// missing VLAN or port carries no traffic at all).
	ImpactOther ImpactClass = "other"
)

// ImpactClasses are the classes in the order verify prints them.
var ImpactClasses = []ImpactClass{ImpactLossless, ImpactMTU, ImpactCongestion, ImpactCabling, ImpactOther}

// impactSummary is the one sentence that heads a class's differences in
// verify's text output.
var impactSummary = map[ImpactClass]string{
	ImpactLossless:   "RoCE may be dropped instead of paused",
	ImpactMTU:        "RoCE frames over the port's MTU are dropped",
	ImpactCongestion: "RoCE slows or is unfair under load, no loss",
	ImpactCabling:    "links are not cabled, or not up, as the fabric says",
	ImpactOther:      "not classed by its effect on RoCE",
}

// Summary is the class's one-sentence effect on RoCE, as verify's text
// output heads its group: "RoCE may be dropped instead of paused".
func (c ImpactClass) Summary() string { return impactSummary[c] }

// Rank is c's place in ImpactClasses (an unknown class last).
func (c ImpactClass) Rank() int {
	for i, x := range ImpactClasses {
		if x == c {
			return i
		}
	}
	return len(ImpactClasses)
}

// Impact is a difference's class and its effect on RoCE in words.
type Impact struct {
	Class ImpactClass `json:"class"`
	Text  string      `json:"text"`
}

// impactOfSetting is the table that classes a difference: the first
// words of its setting (Field, lower case, without "operational ": the
// switch's operational state has the setting's effect) to its class.
// The longest match wins ("pfc watchdog" before "pfc"). The settings are
// the switches' (fieldNames) and the host checks' (DIFF lines of the
// host scripts' --check).
var impactOfSetting = map[string]ImpactClass{
	// PFC itself, as the switch or the host holds it or negotiates it.
	"pfc priorities": ImpactLossless, "pfc": ImpactLossless, "negotiated pfc": ImpactLossless,
	// A PFC profile's tx/rx and its headroom (cable-length, port-buffer,
	// xoff, xon): too little headroom drops what is in flight after the
	// pause is sent (Cumulus Linux user guide, RoCE).
	"pfc profile": ImpactLossless, "ingress-buffer": ImpactLossless, "ingress headroom": ImpactLossless,
	"mmu": ImpactLossless, "pool": ImpactLossless, "lossless traffic pools": ImpactLossless,
	"traffic pools total": ImpactLossless, "buffer mode": ImpactLossless, "egress pool": ImpactLossless,
	// The lossy class's own buffers: RoCE's lossless class has its own.
	"pool lossy": ImpactOther, "egress pool 0": ImpactOther,
	// What puts RoCE in the lossless priority and class: a frame
	// classified elsewhere travels lossy.
	"trust": ImpactLossless, "dscp": ImpactLossless, "switch priority": ImpactLossless,
	"cos of": ImpactLossless, "qos rewrite": ImpactLossless, "dscp map": ImpactLossless,
	"ets prio-tc": ImpactLossless, "traffic_class": ImpactLossless, "default_roce_tos": ImpactLossless,
	"global traffic class": ImpactLossless, "nccl_ib_tc": ImpactLossless, "conf nccl_ib_tc": ImpactLossless,
	// DCBX carries PFC to a willing peer, which then takes its PFC from it
	// (IEEE 802.1Q clause 38, DCBX).
	"pfc advertised by dcbx": ImpactLossless, "dcbx": ImpactLossless, "dcbx mode": ImpactLossless,
	"dcbx agent": ImpactLossless, "roce mode": ImpactLossless,
	// The watchdog acts only in a PFC storm, which it ends by dropping:
	// a difference in it changes nothing while the fabric is healthy.
	"pfc watchdog": ImpactOther,
	"mtu":          ImpactMTU,
	// ECN marks, ETS shares and DCQCN's reaction decide the rate under
	// load; none of them drops a frame of the lossless class.
	"ecn": ImpactCongestion, "ets": ImpactCongestion, "bandwidth": ImpactCongestion,
	"guaranteed bandwidth": ImpactCongestion, "dcqcn": ImpactCongestion, "cnp dscp": ImpactCongestion,
	"neighbor": ImpactCabling, "link": ImpactCabling, "carrier": ImpactCabling,
	// A fabric port shut by hand carries nothing: its host is cut off, or
	// ECMP sends the link's share over the others.
	"admin state": ImpactCabling,
	// LLDP carries DCBX, and verify's cabling check reads its neighbors
	// (lldpOff).
	"lldp": ImpactCabling,
}

// lldpOff is what LLDP switched off (Onyx `no lldp`, `no lldp transmit`,
// `no lldp receive`) does to RoCE, by the actual value of an "lldp"
// difference, where LLDP carries DCBX (Difference.DCBX): DCBX rides on
// LLDP (IEEE 802.1Q clause 38), so a switch that sends none advertises
// no PFC to a NIC that takes its PFC from the switch, and one that
// receives none learns no neighbor to check the cabling with.
var lldpOff = map[string]string{
	"off":          "DCBX no longer advertises the switch's PFC to the NIC, and the cabling goes unchecked",
	"transmit off": "DCBX no longer advertises the switch's PFC to the NIC on this port",
	"receive off":  "the switch learns no LLDP neighbor on this port: its cabling goes unchecked",
}

// lldpOffNoDCBX is the same where no NIC takes its PFC by DCBX (its
// host's script sets PFC on the NIC, mlnx_qos): what is lost is verify's
// cabling check, which reads the neighbors the switch receives, so a
// port that only stops transmitting loses the host's view alone.
var lldpOffNoDCBX = map[string]string{
	"off":          "the switch learns no LLDP neighbor: the cabling goes unchecked (no NIC here takes its PFC by DCBX)",
	"transmit off": "the switch sends no LLDP on this port: its host sees no neighbor; RoCE is unaffected, the NIC does not take its PFC by DCBX",
	"receive off":  lldpOff["receive off"],
}

// lldpText is the impact of an "lldp" difference, by whether LLDP
// carries DCBX where it differs; ok false for another difference.
func lldpText(d Difference) (string, bool) {
	if d.Field != "lldp" {
		return "", false
	}
	if d.DCBX {
		t, ok := lldpOff[d.Actual]
		return t, ok
	}
	t, ok := lldpOffNoDCBX[d.Actual]
	return t, ok
}

// markDCBX says on each lldp difference whether LLDP carries DCBX there
// (dcbx: the ports whose NIC takes its PFC by DCBX, State.DCBXPorts):
// switch-wide, when a port of the switch does; on a port, when it does.
func markDCBX(diffs []Difference, dcbx map[string]bool) []Difference {
	for i := range diffs {
		if d := &diffs[i]; d.Field == "lldp" {
			d.DCBX = dcbx[d.Port] || d.Port == "" && len(dcbx) > 0
		}
	}
	return diffs
}

// ImpactOf is d's class, by impactOfSetting, and its effect in words:
// for an MTU lowered to a number, "RoCE frames over 1500 bytes
// dropped"; for PFC priorities missing, "RoCE in priority 3 may be
// dropped instead of paused"; else the class's summary. PFC on more
// priorities than intended, none missing, is ImpactCongestion.
func ImpactOf(d Difference) Impact {
	c := classOf(d.Field)
	text := c.Summary()
	switch c {
	case ImpactMTU:
		if n, ok := lowerMTU(d); ok {
			text = fmt.Sprintf("RoCE frames over %d bytes dropped", n)
		}
	case ImpactCabling:
		if t, ok := lldpText(d); ok {
			text = t
		}
	case ImpactLossless:
		if t := unclassified(d); t != "" {
			text = t
		}
		if !strings.HasSuffix(d.Field, "PFC priorities") {
			break
		}
		// The one refinement of the table: PFC on every intended
		// priority and on more besides loses no RoCE frame; the extra
		// priority's traffic is paused instead of dropped, and its
		// pauses slow what shares the link (IEEE 802.1Q clause 36, PFC).
		missing, extra := priorityMinus(d.Intended, d.Actual), priorityMinus(d.Actual, d.Intended)
		switch {
		case missing != "":
			text = "RoCE in priority " + missing + " may be dropped instead of paused"
		case extra != "":
			return Impact{Class: ImpactCongestion, Text: "priority " + extra + " paused too: no RoCE loss, its pauses slow the link under load"}
		}
	}
	return Impact{Class: c, Text: text}
}

// classifies says whether a setting is one that puts RoCE in its
// priority: the port's trust or an entry of the DSCP map ("DSCP 26
// switch priority", "DSCP 26 traffic class").
func classifies(field string) bool {
	return field == "trust" || strings.HasPrefix(field, "DSCP ")
}

// unclassified is the impact of a trust or DSCP map difference in the
// words of the fabric's lossless classes it carries (Difference.Lossless):
// "RoCE's DSCP 26 no longer reaches priority 3: its traffic is dropped,
// not paused". A port that does not trust DSCP classifies RoCE by its
// VLAN tag's PCP, or, trusting the port, by neither mark: every frame
// takes the port's default priority, 0 (NVIDIA Onyx User Manual, QoS,
// "Trust"); a DSCP map entry moves its own DSCP only. "" when the
// difference reaches no lossless class's DSCP: trust "both" still
// classifies IP traffic by DSCP. A fabric that trusts PCP (Onyx L2, EOS
// `qos trust cos`, NVUE l2) is spoken of in its own mark, PCP.
func unclassified(d Difference) string {
	if d.Lossless == nil || !classifies(d.Field) {
		return ""
	}
	var hit LosslessMarks
	switch {
	case d.Field == "trust" && (d.Actual == string(model.TrustDSCP) || d.Actual == string(model.TrustBoth)):
		// Still trusts DSCP: RoCE lands where the DSCP map puts it, and
		// the DSCP map's own entries say so if it moved.
		return ""
	case d.Field == "trust" && d.Intended == string(model.TrustPCP):
		// RoCE's VLAN tag carries its priority as PCP (IEEE 802.1Q,
		// priority code point), which a port trusting neither mark
		// ignores.
		return noLongerReaches("PCP", *d.Lossless, func(m LosslessMark) int { return m.Priority })
	case d.Field == "trust":
		hit = *d.Lossless
	default:
		n, err := strconv.Atoi(strings.Fields(d.Field)[1])
		if err != nil {
			return ""
		}
		for _, m := range *d.Lossless {
			if m.DSCP == n {
				hit = append(hit, m)
			}
		}
	}
	return noLongerReaches("DSCP", hit, func(m LosslessMark) int { return m.DSCP })
}

// noLongerReaches is "RoCE's DSCP 26 no longer reaches priority 3, DSCP
// 24 priority 4: its traffic is dropped, not paused", the mark named
// field (DSCP, PCP) of each class hit taken by mark; "" for none.
func noLongerReaches(field string, hit LosslessMarks, mark func(LosslessMark) int) string {
	if len(hit) == 0 {
		return ""
	}
	parts := make([]string, len(hit))
	for i, m := range hit {
		parts[i] = fmt.Sprintf("%s %d no longer reaches priority %d", field, mark(m), m.Priority)
		if i > 0 {
			parts[i] = fmt.Sprintf("%s %d priority %d", field, mark(m), m.Priority)
		}
	}
	return "RoCE's " + strings.Join(parts, ", ") + ": its traffic is dropped, not paused"
}

// classOf looks a setting up in impactOfSetting, its longest leading
// words first; ImpactOther when none matches.
func classOf(field string) ImpactClass {
	words := strings.Fields(strings.ToLower(strings.TrimPrefix(field, "operational ")))
	for n := len(words); n > 0; n-- {
		if c, ok := impactOfSetting[strings.Join(words[:n], " ")]; ok {
			return c
		}
	}
	return ImpactOther
}

// lowerMTU is the actual MTU when both sides are numbers and the actual
// is the lower: the size over which frames are dropped.
func lowerMTU(d Difference) (int, bool) {
	want, err1 := strconv.Atoi(d.Intended)
	got, err2 := strconv.Atoi(d.Actual)
	return got, err1 == nil && err2 == nil && got < want
}

// priorityMinus are the priorities of list a ("3" or "3,4") that list
// b lacks, as "3" or "3, 4"; "" when none ("none" is no priority).
func priorityMinus(a, b string) string {
	have := map[string]bool{}
	for _, p := range strings.Split(b, ",") {
		have[strings.TrimSpace(p)] = true
	}
	var out []string
	for _, p := range strings.Split(a, ",") {
		p = strings.TrimSpace(p)
		if _, err := strconv.Atoi(p); err == nil && !have[p] {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// MarshalJSON writes d with its impact ("impact": {"class": "mtu",
// "text": "RoCE frames over 1500 bytes dropped"}) after its own fields,
// which it leaves as they were.
func (d Difference) MarshalJSON() ([]byte, error) {
	type fields Difference // without this method
	return json.Marshal(struct {
		fields
		Impact Impact `json:"impact"`
	}{fields(d), ImpactOf(d)})
}

// SortByImpact orders diffs as verify prints them: by impact class
// (ImpactClasses' order), then device, then port, each name in natural
// order (leaf2 before leaf10); differences that tie keep their order.
func SortByImpact(diffs []Difference) {
	slices.SortStableFunc(diffs, func(a, b Difference) int {
		return cmp.Or(ImpactOf(a).Class.Rank()-ImpactOf(b).Class.Rank(),
			naturalCmp(a.Device, b.Device), naturalCmp(a.Port, b.Port))
	})
}
