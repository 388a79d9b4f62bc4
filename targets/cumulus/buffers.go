package cumulus

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// inUse reports whether a port carries traffic: cabled and not shut down.
// Only those ports decide the switch-wide buffer settings.
func inUse(port *model.Port) bool { return port.Peer != nil && !port.Shutdown }

// distinct collects values in first-seen order.
type distinct[T comparable] struct {
	vals  []T
	ports [][]string
	// elems are the elements of the first occurrence of each value.
	elems [][]string
}

// add records v for port.
func (d *distinct[T]) add(v T, port string, elem ...string) {
	for i, have := range d.vals {
		if have == v {
			d.ports[i] = append(d.ports[i], port)
			return
		}
	}
	d.vals = append(d.vals, v)
	d.ports = append(d.ports, []string{port})
	d.elems = append(d.elems, elem)
}

// at says that the items added next come from the first occurrences of
// d's values.
func (d *distinct[T]) at(p *plan) {
	p.at()
	for _, e := range d.elems {
		if len(e) > 0 {
			p.also(e...)
		}
	}
}

// describe lists "value (ports)" for a note.
func (d *distinct[T]) describe(format func(T) string) string {
	parts := make([]string, len(d.vals))
	for i, v := range d.vals {
		parts[i] = fmt.Sprintf("%s on %s", format(v), strings.Join(d.ports[i], ","))
	}
	return strings.Join(parts, "; ")
}

// queueBuf is an egress queue's or a PG's reservation and alpha.
type queueBuf struct {
	reserved int64
	alpha    string
}

// String prints the reservation and alpha for a note: "9216 B alpha 1".
func (q queueBuf) String() string { return fmt.Sprintf("%d B alpha %s", q.reserved, q.alpha) }

// renderAdvancedBuffers writes the switch-wide per-PG and per-queue
// reservations and alphas (qos advance-buffer-config default-global, 5.4+).
// NVUE sets these once for all ports, so a value is written only when every
// port in use agrees on it; otherwise a note lists the per-port values.
func renderAdvancedBuffers(p *plan, q *model.QoS, sw *model.Switch, t target) error {
	p.at()
	p.sectionf("Shared-buffer alpha and reservations (advance-buffer-config, bytes)")
	p.at("switch", sw.Name, "os_version")
	if !t.rel.atLeast(sinceAdvanceBuffer) {
		p.notef("per-PG and per-queue alpha/reserved need advance-buffer-config (Cumulus Linux %s); %s keeps its defaults", sinceAdvanceBuffer, t.rel)
		return nil
	}
	lossless := map[int]bool{}
	for _, c := range q.Classes {
		if c.Lossless {
			lossless[c.TrafficClass] = true
		}
	}
	var inAlpha distinct[string]
	var lossyPG distinct[string]
	var egLossless distinct[queueBuf]
	egLossy := make([]distinct[queueBuf], 8)
	for i := range sw.Ports {
		port := &sw.Ports[i]
		if !inUse(port) {
			continue
		}
		for _, pg := range port.PriorityGroups {
			elem := p.elem(port.Name, "pg", strconv.Itoa(pg.Index))
			if pg.Lossless {
				inAlpha.add(pg.SharedAlpha, port.Name, elem...)
				continue
			}
			lossyPG.add(fmt.Sprintf("PG %d (priorities %s) reserved %d B alpha %s", pg.Index, joinInts(pg.Priorities), pg.SizeBytes, pg.SharedAlpha), port.Name, elem...)
		}
		for _, eq := range port.EgressQueues {
			if eq.TrafficClass < 0 || eq.TrafficClass > 7 {
				return fmt.Errorf("port %s: egress queue for traffic class %d, want 0-7", port.Name, eq.TrafficClass)
			}
			b := queueBuf{eq.ReservedBytes, eq.SharedAlpha}
			elem := p.elem(port.Name, "queue", strconv.Itoa(eq.TrafficClass))
			if lossless[eq.TrafficClass] {
				egLossless.add(b, port.Name, elem...)
			} else {
				egLossy[eq.TrafficClass].add(b, port.Name, elem...)
			}
		}
	}
	base := "qos advance-buffer-config " + profileDefault
	if err := writeAlpha(p, &inAlpha, base+" ingress-lossless-buffer shared-alpha", "ingress lossless PG alpha"); err != nil {
		return err
	}
	if len(lossyPG.vals) > 0 {
		lossyPG.at(p)
		p.notef("lossy ingress PGs: %s. NVUE names lossy PGs by alias (bulk, service1..) under ingress-lossy-buffer; fabricc does not guess the alias, the switch keeps its lossy PG defaults", lossyPG.describe(func(s string) string { return s }))
	}
	if err := writeQueue(p, &egLossless, base+" egress-lossless-buffer", "egress lossless queues"); err != nil {
		return err
	}
	for tc := range egLossy {
		what := fmt.Sprintf("egress lossy queue %d", tc)
		if err := writeQueue(p, &egLossy[tc], fmt.Sprintf("%s egress-lossy-buffer traffic-class %d", base, tc), what); err != nil {
			return err
		}
	}
	return nil
}

// writeAlpha sets an alpha when all ports agree, or notes the spread.
func writeAlpha(p *plan, d *distinct[string], path, what string) error {
	d.at(p)
	switch len(d.vals) {
	case 0:
		return nil
	case 1:
		kw, err := alphaKeyword(d.vals[0])
		if err != nil {
			return fmt.Errorf("%s: %v", what, err)
		}
		p.set(path, kw)
	default:
		p.notef("%s differs between ports (%s); NVUE sets it switch-wide, left at the default", what, d.describe(func(s string) string { return s }))
	}
	return nil
}

// writeQueue sets reserved and alpha when all ports agree.
func writeQueue(p *plan, d *distinct[queueBuf], path, what string) error {
	d.at(p)
	switch len(d.vals) {
	case 0:
		return nil
	case 1:
		kw, err := alphaKeyword(d.vals[0].alpha)
		if err != nil {
			return fmt.Errorf("%s: %v", what, err)
		}
		p.set(path+" reserved", d.vals[0].reserved)
		p.set(path+" shared-alpha", kw)
	default:
		p.notef("%s differ between ports (%s); NVUE sets them switch-wide, left at the default", what, d.describe(queueBuf.String))
	}
	return nil
}
