package compiler

import (
	"fmt"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// lowerDCQCN checks the qos block's dcqcn parameters against their
// ranges (model.DCQCNSpecs, from NVIDIA "DCQCN CC Parameters") and keeps
// the written ones once for the fabric, in model.QoS.DCQCN: the host
// scripts write them on every NIC that has them. A parameter not written
// keeps the firmware's value.
func (l *lowering) lowerDCQCN() {
	q := l.cfg.QoS
	if q == nil || q.DCQCN == nil {
		return
	}
	l.src.Set(q.DCQCN.DefRange, "qos", "dcqcn")
	var params []model.DCQCNParam
	for _, v := range q.DCQCN.Written() {
		l.src.Set(v.Range, "qos", "dcqcn", v.Name)
		s, ok := model.DCQCNSpecOf(v.Name)
		if !ok {
			l.errorf(v.Range.Or(q.DCQCN.DefRange), "Unknown DCQCN parameter", "dcqcn %s has no range in fabricc's table; this is a fabricc bug.", v.Name)
			continue
		}
		if int64(v.Value) < s.Min || int64(v.Value) > s.Max {
			l.errorf(v.Range.Or(q.DCQCN.DefRange), "DCQCN parameter out of range",
				"dcqcn %s = %d is out of range; it takes %s (%s). Write a value in that range, or remove it to keep the firmware's %d.",
				v.Name, v.Value, dcqcnRangeText(s), model.DCQCNSource, s.Default)
			continue
		}
		params = append(params, model.DCQCNParam{Name: v.Name, Value: int64(v.Value)})
	}
	l.f.QoS.DCQCN = params
}

// dcqcnRangeText is a parameter's range with its unit: "1-100 %",
// "1 Mb/s to the NIC's line rate".
func dcqcnRangeText(s model.DCQCNSpec) string {
	if s.LineRate {
		return fmt.Sprintf("%d %s to the NIC's line rate", s.Min, s.Unit)
	}
	return fmt.Sprintf("%d-%d %s", s.Min, s.Max, s.Unit)
}

// checkDCQCNLineRate reports a dcqcn rate above the line rate of a NIC
// that takes it (NVIDIA "DCQCN CC Parameters": rate_to_set_on_first_cnp
// and rpg_min_rate run up to the line rate), once per parameter, at the
// slowest such NIC.
func (l *lowering) checkDCQCNLineRate() {
	for _, p := range l.f.QoS.DCQCN {
		s, _ := model.DCQCNSpecOf(p.Name)
		if !s.LineRate {
			continue
		}
		var slowHost, slowNIC string
		slowest, above := 0, 0
		for i := range l.f.Hosts {
			h := &l.f.Hosts[i]
			for j := range h.NICs {
				n := &h.NICs[j]
				if !n.TakesDCQCNParams() || n.SpeedMbps == 0 || int64(n.SpeedMbps) >= p.Value {
					continue
				}
				above++
				if slowHost == "" || n.SpeedMbps < slowest {
					slowHost, slowNIC, slowest = h.Name, n.Name, n.SpeedMbps
				}
			}
		}
		if above == 0 {
			continue
		}
		more := ""
		if above > 1 {
			more = fmt.Sprintf(" (and %d more NICs)", above-1)
		}
		d := l.errorf(l.dcqcnRange(p.Name), "DCQCN rate above the line rate",
			"dcqcn %s = %d Mb/s is above the %d Mb/s line rate of host %q NIC %q%s; it takes %s (%s). Write at most %d.",
			p.Name, p.Value, slowest, slowHost, slowNIC, more, dcqcnRangeText(s), model.DCQCNSource, slowest)
		if sp, ok := l.src.Get(Key("host", slowHost, "nic", slowNIC)); ok {
			dsl.Also(d, fmt.Sprintf("NIC %s:%s", slowHost, slowNIC), sp.Range())
		}
	}
}

// dcqcnRange is where the dcqcn block writes name.
func (l *lowering) dcqcnRange(name string) dsl.Range {
	for _, v := range l.cfg.QoS.DCQCN.Written() {
		if v.Name == name {
			return v.Range.Or(l.cfg.QoS.DCQCN.DefRange)
		}
	}
	return l.cfg.QoS.DCQCN.DefRange
}
