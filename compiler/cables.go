package compiler

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// plannedHeadroom is the headroom sw's pools reserve when planned for
// cables of meters: the size of every lossless priority group at that
// length (see planningMeters).
func plannedHeadroom(f *model.Fabric, sw *model.Switch, meters float64) int64 {
	var sum int64
	policy := headroomPolicy(f.QoS.Headroom)
	for i := range sw.Ports {
		p := &sw.Ports[i]
		for _, pg := range p.PriorityGroups {
			if !pg.Lossless {
				continue
			}
			policy.LosslessMTUBytes = pg.Headroom.LosslessMTUBytes // the port's own (losslessMTUs)
			sum += computeHeadroom(headroomInput{
				speedMbps: p.SpeedMbps, cableMeters: meters, portMTU: p.MTU,
				policy: policy, hw: sw.Hardware, lanes: p.Lanes,
			}).SizeBytes
		}
	}
	return sum
}

// longestFit is the longest planning length at which fits(meters) holds:
// the floor, or a whole 100 m above it up to upTo; 0 when even the floor
// does not fit.
func longestFit(floor, upTo float64, fits func(float64) bool) float64 {
	if !fits(floor) {
		return 0
	}
	best := floor
	lo, hi := int(math.Floor(floor/100))+1, int(math.Ceil(upTo/100))
	for lo <= hi {
		mid := (lo + hi) / 2
		if fits(float64(mid) * 100) {
			best, lo = float64(mid)*100, mid+1
		} else {
			hi = mid - 1
		}
	}
	return best
}

// longLink is a port of a switch whose cable is longer than a limit.
type longLink struct {
	port *model.Port
}

// name is "sw:port - peer:port".
func (l longLink) name(sw string) string {
	return fmt.Sprintf("%s:%s - %s:%s", sw, l.port.Name, l.port.Peer.Device, l.port.Peer.Port)
}

// linksLongerThan lists the cabled ports of sw whose cable exceeds
// meters, longest first (then by port).
func linksLongerThan(sw *model.Switch, meters float64) []longLink {
	var out []longLink
	for i := range sw.Ports {
		p := &sw.Ports[i]
		if p.Peer != nil && cableMeters(p) > meters {
			out = append(out, longLink{p})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return cableMeters(out[i].port) > cableMeters(out[j].port) })
	return out
}

// cableBudgetErrors blames the switch's over-long cables for a buffer
// budget it misses, when planning for shorter cables would fit: each
// such link gets an error at its length naming the limit it breaks. It
// returns nil when the budget misses even at the floor length (then the
// ports and the buffer are the problem, not one cable).
func cableBudgetErrors(f *model.Fabric, sw *model.Switch, src Sources) hcl.Diagnostics {
	b := sw.Buffer
	fits := func(m float64) bool { return b.TotalBytes-plannedHeadroom(f, sw, m)-b.ReservedBytes >= 0 }
	limit := longestFit(planningFloor(f.QoS.Headroom), b.PlanningCableMeters, fits)
	if limit == 0 {
		return nil
	}
	limit = math.Min(limit, b.PlanningCableMeters)
	var diags hcl.Diagnostics
	for _, ll := range linksLongerThan(sw, limit) {
		if !anyLosslessPG(ll.port) {
			continue // no headroom: its cable does not set the planning length
		}
		detail := fmt.Sprintf("Link %s is %g m long. Switch %q (%s, %s) reserves PFC headroom on every lossless priority group for its longest cable, so that recabling never resizes its pools: at %g m that is %d bytes, more than the %d bytes of buffer left after %d bytes of other reservations (the switch buffer limit). Up to %g m it fits. Use a shorter cable, fewer lossless ports on the switch, or a switch with a larger buffer.",
			ll.name(sw.Name), cableMeters(ll.port), sw.Name, sw.Hardware.Model, sw.Hardware.ASIC, b.PlanningCableMeters, b.HeadroomReserveBytes, b.TotalBytes-b.ReservedBytes, b.ReservedBytes, limit)
		diags = append(diags, cableDiag(sw, ll, src, "Cable too long for the switch buffer", detail))
	}
	return diags
}

// cableDiag is an error at a long link's length attribute.
func cableDiag(sw *model.Switch, ll longLink, src Sources, summary, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail,
		Subject: src.At(portPath(sw.Name, ll.port.Name, "link", "length")...)}
	return dsl.SetInstance(d, ll.instance(sw.Name))
}

// instance names the link alike from both its ends, so that a cable
// too long at each end of a switch-to-switch link counts once where the
// reports are collapsed.
func (l longLink) instance(sw string) string {
	ends := []string{sw + ":" + l.port.Name, l.port.Peer.Device + ":" + l.port.Peer.Port}
	slices.Sort(ends)
	return ends[0] + " - " + ends[1]
}
