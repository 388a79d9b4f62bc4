package eos

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/model"
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

// hasMMUProfile reports whether the ASIC is in the Broadcom Trident or
// Tomahawk families, the only EOS platforms found where a user sets
// ingress headroom and queue reservations ("platform trident mmu queue
// profile", vendors.md 2.1). Jericho-based (7280R/7500R/7800R) and other
// platforms size PFC headroom themselves.
func hasMMUProfile(asic string) bool {
	a := strings.ToLower(asic)
	return strings.Contains(a, "trident") || strings.Contains(a, "tomahawk")
}

// writeBuffers writes the buffer section: on Trident/Tomahawk an MMU queue
// profile with the model's numbers (returning true so the caller applies
// it), elsewhere comment lines listing the model's computed headroom, since
// EOS computes it. The model's pools and per-port numbers are always
// listed as comments so none is silently dropped.
func writeBuffers(w *writer, sw *model.Switch) (bool, error) {
	if !hasPGs(sw) && len(sw.Pools) == 0 {
		return false, nil
	}
	w.sep()
	mmu := hasMMUProfile(sw.Hardware.ASIC)
	if mmu {
		w.comment(0, "buffers: MMU queue profile from the model (vendors.md 2.1, AVD platform-trident.j2); the profile is")
		w.comment(0, "system-wide, so each line takes the largest per-port value; per-port values below, bytes")
	} else {
		w.comment(0, "buffers: EOS sizes PFC headroom and buffer pools itself on ASIC %s (no user setting found;", orUnknown(sw.Hardware.ASIC))
		w.comment(0, "vendors.md 2.1); fabricc's computed values are listed for review only, bytes")
	}
	writeBufferComments(w, sw)
	if !mmu {
		return false, nil
	}
	return true, writeMMUProfile(w, sw)
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
		w.comment(0, "pool %s: %s %s, %d (%.1f%%), %s, priorities %s",
			pl.Name, pl.Direction, pl.Type, pl.SizeBytes, pl.Percent, pl.Mode, intList(pl.Priorities))
	}
	for _, p := range sw.Ports {
		for _, pg := range p.PriorityGroups {
			if pg.Lossless {
				w.comment(0, "%s pg %d (priorities %s) lossless: headroom %d = xoff %d + xon %d, pool %s, alpha %s",
					p.Name, pg.Index, intList(pg.Priorities), pg.SizeBytes, pg.XoffBytes, pg.XonBytes, pg.Pool, pg.SharedAlpha)
				continue
			}
			w.comment(0, "%s pg %d (priorities %s) lossy: reserved %d, pool %s, alpha %s",
				p.Name, pg.Index, intList(pg.Priorities), pg.SizeBytes, pg.Pool, pg.SharedAlpha)
		}
		for _, eq := range p.EgressQueues {
			w.comment(0, "%s egress queue %d: reserved %d, pool %s, alpha %s",
				p.Name, eq.TrafficClass, eq.ReservedBytes, eq.Pool, eq.SharedAlpha)
		}
	}
}

// pgMerge is one ingress priority group merged over all ports.
type pgMerge struct {
	index       int
	reserved    int64 // largest lossy reservation
	hasReserved bool
	alpha       string
	alphaPort   string
}

// queueMerge is one egress unicast queue merged over all ports.
type queueMerge struct {
	tc        int
	reserved  int64
	alpha     string
	alphaPort string
}

// writeMMUProfile writes "platform trident mmu queue profile fabricc" with
// the sub-commands in the order AVD platform-trident.j2 prints them:
// ingress headroom, ingress priority-group lines by id, egress unicast
// queue lines by id. Units are given explicitly as "bytes" (the default
// unit; AVD schema).
func writeMMUProfile(w *writer, sw *model.Switch) error {
	pgs, err := mergePGs(sw)
	if err != nil {
		return err
	}
	queues, err := mergeQueues(sw)
	if err != nil {
		return err
	}
	w.line(0, "platform trident mmu queue profile %s", profileName)
	if h := maxHeadroom(sw); h > 0 {
		w.raw(profileIndent, "ingress headroom bytes %d", h)
	}
	for _, pg := range pgs {
		if pg.hasReserved {
			w.raw(profileIndent, "ingress priority-group %d reserved bytes %d", pg.index, pg.reserved)
		}
		writeThreshold(w, fmt.Sprintf("ingress priority-group %d", pg.index), pg.alpha)
	}
	for _, q := range queues {
		w.raw(profileIndent, "egress unicast queue %d reserved bytes %d", q.tc, q.reserved)
		writeThreshold(w, fmt.Sprintf("egress unicast queue %d", q.tc), q.alpha)
	}
	return nil
}

// writeThreshold writes "<what> threshold <alpha>" when EOS accepts the
// alpha, and a comment saying it was not set otherwise.
func writeThreshold(w *writer, what, alpha string) {
	switch {
	case alpha == "":
	case eosThresholds[alpha]:
		w.raw(profileIndent, "%s threshold %s", what, alpha)
	default:
		w.raw(profileIndent, "! %s: model alpha %s is not an EOS threshold (1/128 .. 8); left at the EOS default", what, alpha)
	}
}

// maxHeadroom returns the largest per-port sum of lossless priority-group
// headroom: the EOS "ingress headroom" value that covers every port.
func maxHeadroom(sw *model.Switch) int64 {
	var most int64
	for _, p := range sw.Ports {
		var sum int64
		for _, pg := range p.PriorityGroups {
			if pg.Lossless {
				sum += pg.SizeBytes
			}
		}
		most = max(most, sum)
	}
	return most
}

// mergePGs merges each priority-group index over all ports: the largest
// lossy reservation, and the shared alpha, which must be the same on every
// port because the profile is system-wide.
func mergePGs(sw *model.Switch) ([]pgMerge, error) {
	byIndex := map[int]*pgMerge{}
	for _, p := range sw.Ports {
		for _, pg := range p.PriorityGroups {
			m := byIndex[pg.Index]
			if m == nil {
				m = &pgMerge{index: pg.Index}
				byIndex[pg.Index] = m
			}
			if !pg.Lossless {
				m.reserved, m.hasReserved = max(m.reserved, pg.SizeBytes), true
			}
			if err := sameAlpha(&m.alpha, &m.alphaPort, pg.SharedAlpha, p.Name, fmt.Sprintf("priority group %d", pg.Index)); err != nil {
				return nil, err
			}
		}
	}
	out := make([]pgMerge, 0, len(byIndex))
	for _, m := range byIndex {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out, nil
}

// mergeQueues merges each egress queue over all ports like mergePGs.
func mergeQueues(sw *model.Switch) ([]queueMerge, error) {
	byTC := map[int]*queueMerge{}
	for _, p := range sw.Ports {
		for _, eq := range p.EgressQueues {
			m := byTC[eq.TrafficClass]
			if m == nil {
				m = &queueMerge{tc: eq.TrafficClass}
				byTC[eq.TrafficClass] = m
			}
			m.reserved = max(m.reserved, eq.ReservedBytes)
			if err := sameAlpha(&m.alpha, &m.alphaPort, eq.SharedAlpha, p.Name, fmt.Sprintf("egress queue %d", eq.TrafficClass)); err != nil {
				return nil, err
			}
		}
	}
	out := make([]queueMerge, 0, len(byTC))
	for _, m := range byTC {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].tc < out[j].tc })
	return out, nil
}

// sameAlpha records the first non-empty alpha seen and fails when a later
// port disagrees.
func sameAlpha(alpha, firstPort *string, got, port, what string) error {
	if got == "" {
		return nil
	}
	if *alpha == "" {
		*alpha, *firstPort = got, port
		return nil
	}
	if *alpha != got {
		return fmt.Errorf("%s has shared alpha %s on %s but %s on %s; the EOS MMU queue profile is system-wide, so give every port the same alpha",
			what, *alpha, *firstPort, got, port)
	}
	return nil
}

// intList formats ints space separated, or "none".
func intList(v []int) string {
	if len(v) == 0 {
		return "none"
	}
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, " ")
}
