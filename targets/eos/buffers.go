package eos

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// profileName names the MMU queue profile fabricc writes.
const profileName = "fabricc"

// eosThresholds are the dynamic-threshold (alpha) values an MMU queue
// profile accepts for ingress priority groups and egress queues (AVD schema
// platform.trident.mmu.queue_profiles: 1/128 .. 8).
var eosThresholds = map[string]bool{
	"1/128": true, "1/64": true, "1/32": true, "1/16": true, "1/8": true,
	"1/4": true, "1/2": true, "1": true, "2": true, "4": true, "8": true,
}

// writeBuffers writes the buffer section: on Trident/Tomahawk an MMU queue
// profile with the model's numbers (returning true so the caller applies
// it), elsewhere comment lines only, since EOS computes headroom there.
// The model's pools and per-port numbers are always listed as comments,
// each lossless group with what its headroom assumes, and the comments
// say what is left to EOS defaults.
func writeBuffers(w *writer, sw *model.Switch) (bool, error) {
	if !hasPGs(sw) && len(sw.Pools) == 0 {
		return false, nil
	}
	w.sep()
	mmu := sw.Hardware.HasEOSMMUProfile()
	// What EOS does with buffers follows from the switch model's ASIC.
	w.At("switch", sw.Name, "model")
	if mmu {
		w.comment(0, "buffers: MMU queue profile (AVD platform-trident.j2: ingress headroom, ingress priority-group,")
		w.comment(0, "egress unicast queue lines), applied to the whole platform (\"... apply\", AVD platform-apply.j2),")
		w.comment(0, "so each line takes the largest per-port value.")
		w.comment(0, "ingress headroom = the room above the pause threshold for bytes in flight after PFC is sent.")
		writeEstimateNote(w, sw)
		if h, ok := ProfileHeadroomOf(sw); ok {
			writeHeadroomAssumption(w, h)
		}
		w.comment(0, "Left to EOS defaults: ingress resume (xon), the lossless priority group's reserved size, the")
		w.comment(0, "shared pool sizes (the profile has no pool command) and any threshold EOS does not accept.")
	} else {
		w.comment(0, "buffers: EOS sizes PFC headroom and buffer pools itself on ASIC %s; no buffer command is", orUnknown(sw.Hardware.ASIC))
		w.comment(0, "documented for this platform family, so every buffer setting is left to EOS defaults.")
		writeEstimateNote(w, sw)
		w.comment(0, "fabricc's computed values, for review only, bytes:")
	}
	writeBufferComments(w, sw)
	if !mmu {
		return false, nil
	}
	return true, writeMMUProfile(w, sw)
}

// writeEstimateNote says that the headroom figures below are an upper
// bound and from what: Broadcom publishes neither its pipeline latency
// nor its headroom rule, so the compiler applies SONiC's Mellanox formula
// with Spectrum's constants (compiler hardware.go, headroom.go; docs/
// language.md puts the result at about three times SONiC's Broadcom
// profiles, e.g. the Arista-7050CX3-32S pg_profile_lookup.ini).
func writeEstimateNote(w *writer, sw *model.Switch) {
	hw := sw.Hardware
	w.comment(0, "PFC headroom figures here are upper-bound estimates, not measured needs: Broadcom publishes")
	w.comment(0, "neither its pipeline latency nor its headroom rule, so fabricc applies SONiC's Mellanox formula")
	w.comment(0, "(sonic-swss cfgmgr/buffer_headroom_mellanox.lua) with Spectrum's pipeline latency (%d B) and", hw.PipelineLatencyBytes)
	w.comment(0, "MAC/PHY delay (%d B) as proxies and a %d B cell (sources: fabricc models, docs/language.md).", hw.MACPHYDelayBytes, hw.CellBytes)
}

// hasPGs reports whether any port of sw carries buffer settings.
func hasPGs(sw *model.Switch) bool {
	for _, p := range sw.Ports {
		if len(p.PriorityGroups) > 0 || len(p.EgressQueues) > 0 {
			return true
		}
	}
	return false
}

// writeBufferComments lists the model's pools and each port's priority
// groups and egress queues as comment lines.
func writeBufferComments(w *writer, sw *model.Switch) {
	for _, pl := range sw.Pools {
		w.At("switch", sw.Name, "pool", pl.Name, pl.Direction)
		w.comment(0, "pool %s: %s %s, %d (%.1f%%), %s, priorities %s",
			pl.Name, pl.Direction, pl.Type, pl.SizeBytes, pl.Percent, pl.Mode, intList(pl.Priorities))
	}
	for _, p := range sw.Ports {
		for i := range p.PriorityGroups {
			pg := &p.PriorityGroups[i]
			w.pg(p.Name, pg.Index)
			if pg.Lossless {
				w.comment(0, "%s pg %d (priorities %s) lossless: %d in flight after PFC (headroom), %d below the pause threshold, pool %s, alpha %s%s",
					p.Name, pg.Index, intList(pg.Priorities), pg.XoffBytes, pg.SizeBytes-pg.XoffBytes, pg.Pool, pg.SharedAlpha, assumed(pg))
				continue
			}
			w.comment(0, "%s pg %d (priorities %s) lossy: reserved %d, pool %s, alpha %s",
				p.Name, pg.Index, intList(pg.Priorities), pg.SizeBytes, pg.Pool, pg.SharedAlpha)
		}
		for _, eq := range p.EgressQueues {
			w.queue(p.Name, eq.TrafficClass)
			w.comment(0, "%s egress queue %d: reserved %d, pool %s, alpha %s",
				p.Name, eq.TrafficClass, eq.ReservedBytes, eq.Pool, eq.SharedAlpha)
		}
	}
}

// assumed is "; for <what the headroom assumes>", or "".
func assumed(pg *model.PriorityGroup) string {
	if a := targets.HeadroomAssumption(pg); a != "" {
		return "; for " + a
	}
	return ""
}

// mmuIndexes is how many ingress priority groups and egress unicast
// queues an MMU queue profile holds: ids 0-7 (AVD schema
// platform.trident.mmu.queue_profiles[].ingress.priority_groups[].id and
// unicast_queues[].id, "Min: 0, Max: 7").
const mmuIndexes = 8

// writeMMUProfile writes "platform trident mmu queue profile fabricc"
// with the sub-commands in the order AVD platform-trident.j2 prints them:
// ingress headroom, ingress priority-group lines by id, egress unicast
// queue lines by id. Units are given explicitly as "bytes" (AVD intended
// platform.cfg: "egress unicast queue 3 reserved bytes 0").
//
// A push merges into the running configuration, so every setting the
// profile can hold is written in both states: the model's value, or the
// no-form that returns EOS's default ("no ingress headroom", "no ingress
// priority-group N reserved", "no ... threshold"; the EOS configuration
// is additive and a command is removed by entering it with no, Arista
// Warrior, 2nd ed., chapter 9; no public sample of these no-forms was
// found: the public profiles, AVD's and a DCQCN tool's for 7060X6, only
// add lines). Every group and queue 0-7 is written, so those an earlier
// fabric used and this one does not return to EOS's defaults.
func writeMMUProfile(w *writer, sw *model.Switch) error {
	pgs, err := mergePGs(sw)
	if err != nil {
		return err
	}
	queues, err := mergeQueues(sw)
	if err != nil {
		return err
	}
	w.At("switch", sw.Name, "buffer")
	w.line(0, "platform trident mmu queue profile %s", profileName)
	if h, p := maxHeadroom(sw); h > 0 {
		w.port(p)
		for _, pg := range p.PriorityGroups {
			if pg.Lossless {
				w.Also("switch", sw.Name, "port", p.Name, "pg", strconv.Itoa(pg.Index))
			}
		}
		w.raw(profileIndent, "ingress headroom bytes %d", h)
	} else {
		w.raw(profileIndent, "no ingress headroom")
	}
	byIndex := func(ms []merged) map[int]*merged {
		out := map[int]*merged{}
		for i := range ms {
			out[ms[i].index] = &ms[i]
		}
		return out
	}
	pgOf, queueOf := byIndex(pgs), byIndex(queues)
	for i := 0; i < mmuIndexes; i++ {
		writeProfilePG(w, i, pgOf[i])
	}
	for i := 0; i < mmuIndexes; i++ {
		writeProfileQueue(w, i, queueOf[i])
	}
	return nil
}

// writeProfilePG writes the lines of ingress priority group index: a
// lossy group's size is its guaranteed reservation; a lossless group's
// room after PFC is "ingress headroom", and its reservation is left to
// EOS. pg is nil for a group no port of the fabric has.
func writeProfilePG(w *writer, index int, pg *merged) {
	what := fmt.Sprintf("ingress priority-group %d", index)
	if pg == nil {
		writeProfileUnused(w, what)
		return
	}
	w.pg(pg.port, pg.index)
	writeMixed(w, what, *pg)
	if pg.lossless {
		w.raw(profileIndent, "no %s reserved", what)
	} else {
		w.raw(profileIndent, "%s reserved bytes %d", what, pg.size)
	}
	writeThreshold(w, what, pg.alpha)
}

// writeProfileQueue writes the lines of egress unicast queue index; q is
// nil for a queue no port of the fabric has.
func writeProfileQueue(w *writer, index int, q *merged) {
	what := fmt.Sprintf("egress unicast queue %d", index)
	if q == nil {
		writeProfileUnused(w, what)
		return
	}
	w.queue(q.port, q.index)
	writeMixed(w, what, *q)
	w.raw(profileIndent, "%s reserved bytes %d", what, q.size)
	writeThreshold(w, what, q.alpha)
}

// writeProfileUnused returns a group or queue the fabric does not use to
// EOS's defaults.
func writeProfileUnused(w *writer, what string) {
	w.At("switch", w.sw, "buffer")
	w.raw(profileIndent, "no %s reserved", what)
	w.raw(profileIndent, "no %s threshold", what)
}

// writeMixed notes a group or queue that is lossless on some ports and
// lossy on others.
func writeMixed(w *writer, what string, m merged) {
	if m.mixed {
		w.raw(profileIndent, "! %s: lossless on some ports, lossy on others; the lossless settings are used", what)
	}
}

// writeThreshold writes "<what> threshold <alpha>" when EOS accepts the
// alpha, and otherwise "no <what> threshold" (after a comment when the
// model has an alpha EOS does not take).
func writeThreshold(w *writer, what, alpha string) {
	switch {
	case eosThresholds[alpha]:
		w.raw(profileIndent, "%s threshold %s", what, alpha)
		return
	case alpha != "":
		w.raw(profileIndent, "! %s: model alpha %s is not an EOS threshold (1/128 .. 8); left at the EOS default", what, alpha)
	}
	w.raw(profileIndent, "no %s threshold", what)
}

// ProfileSettings are the values the MMU queue profile fabricc writes for
// sw sets, by setting (SplitProfileLine): "ingress headroom" -> "bytes
// 47104", "ingress priority-group 0 reserved" -> "bytes 10240",
// "egress unicast queue 3 threshold" -> "8". Every other group and
// queue setting is written in its no-form, so EOS's default is intended
// for it. nil when no profile is written (not EOS on a Trident or
// Tomahawk ASIC, no buffer settings, or a model the profile refuses).
func ProfileSettings(sw *model.Switch) map[string]string {
	if sw == nil || sw.Platform != model.PlatformEOS || !sw.Hardware.HasEOSMMUProfile() || (!hasPGs(sw) && len(sw.Pools) == 0) {
		return nil
	}
	w := &writer{Text: targets.NewText(false), sw: sw.Name}
	if writeMMUProfile(w, sw) != nil {
		return nil
	}
	out := map[string]string{}
	for _, l := range strings.Split(w.String(), "\n") {
		if !strings.HasPrefix(l, profileIndent) {
			continue
		}
		if k, v, ok := SplitProfileLine(l); ok {
			out[k] = v
		}
	}
	return out
}

// SplitProfileLine splits an MMU queue profile sub-command that sets a
// value into the setting and its value: "ingress priority-group 3
// threshold 1/2" is ("ingress priority-group 3 threshold", "1/2"),
// "egress unicast queue 0 reserved bytes 9216" is ("egress unicast queue
// 0 reserved", "bytes 9216"); a unit left out is bytes (AVD schema:
// "If not specified, default is bytes"). ok is false for a comment, a
// no-form or a line without a value.
func SplitProfileLine(line string) (setting, value string, ok bool) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] == "no" || f[0] == "default" || strings.HasPrefix(f[0], "!") {
		return "", "", false
	}
	for i, t := range f {
		if t != "headroom" && t != "reserved" && t != "threshold" {
			continue
		}
		v := f[i+1:]
		if len(v) == 0 {
			return "", "", false
		}
		if t != "threshold" && len(v) == 1 {
			v = []string{"bytes", v[0]}
		}
		return strings.Join(f[:i+1], " "), strings.Join(v, " "), true
	}
	return "", "", false
}

// ProfileThresholds are the `ingress priority-group N threshold A` lines
// of the MMU queue profile fabricc writes for sw for the groups it writes
// as lossless, by group index; nil when it writes no profile (see
// writeMMUProfile and writeThreshold: an alpha EOS does not accept is a
// comment, not a line).
func ProfileThresholds(sw *model.Switch) map[int]string {
	if sw == nil || sw.Platform != model.PlatformEOS || !sw.Hardware.HasEOSMMUProfile() {
		return nil
	}
	pgs, err := mergePGs(sw)
	if err != nil {
		return nil
	}
	var out map[int]string
	for _, pg := range pgs {
		if pg.lossless && eosThresholds[pg.alpha] {
			if out == nil {
				out = map[int]string{}
			}
			out[pg.index] = pg.alpha
		}
	}
	return out
}

// ShowMMUCommand is the EOS command that shows the MMU queue profile in
// effect (used as is by public Arista collectors, e.g. AMD nodescraper's
// ScaleOutAristaCollector); its output format is not documented publicly.
const ShowMMUCommand = "show platform trident mmu queue status"

// ProfileHeadroom is the "ingress headroom" line of the MMU queue profile
// fabricc writes for a switch, beside what the switch's ports need.
//
// What EOS does with the value is only partly documented. Public sources:
// the Arista TOI summary under tag "mmu" (arista.com/en/support/toi/tag/mmu)
// says the profile is for the front-panel interfaces and that "On the
// ingress, configuration is supported at both a port level as well as a
// priority-group level"; AVD's eos_cli_config_gen schema
// (platform.trident.mmu.queue_profiles[].ingress.headroom, docs/tables/
// platform.md) has headroom only at the profile's port level, none per
// priority group, bytes unless "cells" is given, and the profile is
// applied "to the platform" (platform.trident.mmu.active_profile), with no
// interface command. fabricc therefore reads the value as a per-port
// headroom: each port with a no-drop priority may hold up to Bytes after
// it sends PFC. Not documented: whether EOS reserves it on every
// front-panel port or only on ports with PFC, and whether it is drawn from
// a shared headroom pool ("platform trident mmu headroom-pool limit", AVD
// issue #4921). IfEveryLosslessPort is the reservation under the reading
// that each port with a lossless group holds Bytes.
type ProfileHeadroom struct {
	// Bytes is the value written: the largest per-port sum of the bytes in
	// flight after PFC over the port's lossless priority groups.
	Bytes int64
	// Port is the port that needs Bytes.
	Port string
	// LosslessPorts is how many ports have at least one lossless group.
	LosslessPorts int
	// OwnBytes is the sum over those ports of their own bytes in flight.
	OwnBytes int64
}

// IfEveryLosslessPort is Bytes for each port with a lossless group.
func (h ProfileHeadroom) IfEveryLosslessPort() int64 {
	return h.Bytes * int64(h.LosslessPorts)
}

// ProfileHeadroomOf returns the "ingress headroom" of the MMU queue profile
// fabricc writes for sw, and false when it writes none: sw is not EOS on a
// Trident or Tomahawk ASIC, or has no lossless priority group.
func ProfileHeadroomOf(sw *model.Switch) (ProfileHeadroom, bool) {
	if sw == nil || sw.Platform != model.PlatformEOS || !sw.Hardware.HasEOSMMUProfile() {
		return ProfileHeadroom{}, false
	}
	most, port := maxHeadroom(sw)
	if most <= 0 {
		return ProfileHeadroom{}, false
	}
	h := ProfileHeadroom{Bytes: most, Port: port.Name}
	for _, p := range sw.Ports {
		own, lossless := int64(0), false
		for _, pg := range p.PriorityGroups {
			if pg.Lossless {
				own += pg.XoffBytes
				lossless = true
			}
		}
		if lossless {
			h.LosslessPorts++
			h.OwnBytes += own
		}
	}
	return h, true
}

// writeHeadroomAssumption says how the profile's ingress headroom is read,
// what that reading reserves and how to check it on the switch.
func writeHeadroomAssumption(w *writer, h ProfileHeadroom) {
	w.comment(0, "ingress headroom is a port-level setting (Arista TOI, tag mmu: ingress configuration \"at both a")
	w.comment(0, "port level as well as a priority-group level\"; AVD has no per-group headroom). Assumed: each port")
	w.comment(0, "with a no-drop priority may hold up to %d bytes (the need of %s). Not documented: whether EOS", h.Bytes, h.Port)
	w.comment(0, "reserves it on every front-panel port or only on PFC ports, or takes it from a shared headroom pool.")
	w.comment(0, "If each of the %d ports with a lossless group reserves it: %d x %d = %d bytes, against %d,",
		h.LosslessPorts, h.LosslessPorts, h.Bytes, h.IfEveryLosslessPort(), h.OwnBytes)
	w.comment(0, "the sum of each port's own bytes in flight. Check on the switch: %s", ShowMMUCommand)
}

// maxHeadroom returns the largest per-port sum of the bytes in flight
// after PFC over the port's lossless priority groups: the EOS "ingress
// headroom" value that covers every port, and the port that needs it.
func maxHeadroom(sw *model.Switch) (int64, *model.Port) {
	var most int64
	var port *model.Port
	for i, p := range sw.Ports {
		var sum int64
		for _, pg := range p.PriorityGroups {
			if pg.Lossless {
				sum += pg.XoffBytes
			}
		}
		if sum > most {
			most, port = sum, &sw.Ports[i]
		}
	}
	return most, port
}

// occurrence is one port's setting of one priority group or egress queue.
type occurrence struct {
	port     string
	lossless bool
	size     int64
	alpha    string
}

// merged is one priority group or egress queue merged over all ports for
// the system-wide MMU profile.
type merged struct {
	index int
	// port is the port whose size was taken (the largest).
	port     string
	lossless bool // the lossless ports' settings were taken
	mixed    bool // lossless on some ports, lossy on others
	size     int64
	alpha    string
}

// mergeAll merges the occurrences of each index. Where an index is
// lossless on some ports and lossy on others (a PFC port next to a port
// without PFC), the lossless settings win, since they protect the no-drop
// traffic; the lossy ones stay listed in the comments. Sizes take the
// largest value; the alpha must be the same on every port of the chosen
// kind.
func mergeAll(what string, byIndex map[int][]occurrence) ([]merged, error) {
	idx := make([]int, 0, len(byIndex))
	for i := range byIndex {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	out := make([]merged, 0, len(idx))
	for _, i := range idx {
		m, err := mergeOne(fmt.Sprintf("%s %d", what, i), i, byIndex[i])
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// mergeOne merges the occurrences of one index; see mergeAll.
func mergeOne(what string, index int, occs []occurrence) (merged, error) {
	m := merged{index: index}
	lossy := false
	for _, o := range occs {
		m.lossless = m.lossless || o.lossless
		lossy = lossy || !o.lossless
	}
	m.mixed = m.lossless && lossy
	alphaPort := ""
	for _, o := range occs {
		if o.lossless != m.lossless {
			continue
		}
		if o.size > m.size || m.port == "" {
			m.size, m.port = max(m.size, o.size), o.port
		}
		switch {
		case o.alpha == "":
		case m.alpha == "":
			m.alpha, alphaPort = o.alpha, o.port
		case m.alpha != o.alpha:
			return m, fmt.Errorf("%s has shared alpha %s on %s but %s on %s; the EOS MMU queue profile is system-wide, so give every port the same alpha",
				what, m.alpha, alphaPort, o.alpha, o.port)
		}
	}
	return m, nil
}

// mergePGs merges each ingress priority group over all ports.
func mergePGs(sw *model.Switch) ([]merged, error) {
	byIndex := map[int][]occurrence{}
	for _, p := range sw.Ports {
		for _, pg := range p.PriorityGroups {
			byIndex[pg.Index] = append(byIndex[pg.Index], occurrence{p.Name, pg.Lossless, pg.SizeBytes, pg.SharedAlpha})
		}
	}
	return mergeAll("priority group", byIndex)
}

// mergeQueues merges each egress queue over all ports. A queue is lossless
// where its pool is a lossless pool of the switch.
func mergeQueues(sw *model.Switch) ([]merged, error) {
	losslessPool := map[string]bool{}
	for _, pl := range sw.Pools {
		losslessPool[pl.Name] = pl.Type == "lossless"
	}
	byTC := map[int][]occurrence{}
	for _, p := range sw.Ports {
		for _, eq := range p.EgressQueues {
			byTC[eq.TrafficClass] = append(byTC[eq.TrafficClass], occurrence{p.Name, losslessPool[eq.Pool], eq.ReservedBytes, eq.SharedAlpha})
		}
	}
	return mergeAll("egress queue", byTC)
}

// intList formats ints space separated, or "none".
func intList(v []int) string {
	if len(v) == 0 {
		return "none"
	}
	return targets.JoinInts(v, " ")
}

// pg says that the lines written next come from priority group index of
// the switch's port.
func (w *writer) pg(port string, index int) {
	if w.Mapped() {
		w.At("switch", w.sw, "port", port, "pg", strconv.Itoa(index))
	}
}

// queue says that the lines written next come from the egress queue of
// traffic class tc of the switch's port.
func (w *writer) queue(port string, tc int) {
	if w.Mapped() {
		w.At("switch", w.sw, "port", port, "queue", strconv.Itoa(tc))
	}
}
