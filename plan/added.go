package plan

import (
	"strconv"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/docs"
)

// addedPort is the changes of a port only the head has: its summary,
// then the inputs its headroom follows from (its cable and PFC
// priorities), each with "none" before.
func addedPort(p *model.Port) []Change {
	out := added(portSummary(p))
	if p.Peer != nil {
		out = append(out, Change{Field: "cable", Before: "none", After: peerCable(p.Peer)})
	}
	if len(p.PFCPriorities) > 0 {
		out = append(out, Change{Field: "PFC", Before: "none", After: docs.Ranges(p.PFCPriorities)})
	}
	return out
}

// addedBuffers is what an added port's lossless priority groups
// reserve, as a cable change shows it: the bytes in flight after PAUSE
// (its headroom) and the group's buffer, each with "none" before.
func addedBuffers(p *model.Port) []Change {
	var out []Change
	for _, g := range p.PriorityGroups {
		if !g.Lossless {
			continue
		}
		name := "PG" + strconv.Itoa(g.Index)
		inFlight := newAmount(name+" in flight after PAUSE", g.XoffBytes)
		if p.Peer == nil && g.Headroom != nil {
			// The compiler's default length (the
			// pfc-port-without-a-cable-length warning says which).
			inFlight.Note = "for " + docs.Meters(g.Headroom.CableMeters) + ": the port has no cable"
		}
		out = append(out, inFlight, newAmount(name+" buffer", g.SizeBytes))
	}
	return out
}

// newAmount is an amount in bytes that the base does not have.
func newAmount(field string, v int64) Change {
	return Change{Field: field, Before: "none", After: docs.Thousands(v), Unit: "B", AfterValue: &v}
}

// addedText is a change of an added subject without its "none" before,
// with its note: "cable 5 m aoc", "PG3 in flight after PAUSE 234,496 B".
func addedText(c Change) string {
	s := c.Field + " " + c.After
	if c.Unit != "" {
		s += " " + c.Unit
	}
	if c.Note != "" {
		s += " (" + c.Note + ")"
	}
	return s
}
