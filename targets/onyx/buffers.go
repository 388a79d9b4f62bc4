package onyx

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// writeBuffers writes the "Interface Ethernet buffer configuration"
// section (the running-config header that holds `traffic pool` lines in
// the Cerebras Onyx 3.9 startup-config sample) in the switch's style.
func writeBuffers(w *writer, sw *model.Switch) {
	if len(sw.Pools) == 0 && !hasBuffers(sw) {
		return
	}
	w.section("Interface Ethernet buffer configuration")
	if sw.BufferStyle == StyleAdvanced {
		writeAdvanced(w, sw)
		return
	}
	writeTrafficPools(w, sw)
}

// hasBuffers reports whether any port has priority groups or egress queues.
func hasBuffers(sw *model.Switch) bool {
	for _, p := range sw.Ports {
		if len(p.PriorityGroups) > 0 || len(p.EgressQueues) > 0 {
			return true
		}
	}
	return false
}

// PoolPercent is the share fabricc writes for a traffic pool, with two
// decimals as running-config prints it ("50.80").
func PoolPercent(p model.BufferPool) string { return fmt.Sprintf("%.2f", p.Percent) }

// PoolSize is what the configuration of sw writes for pool p's size: in
// advanced buffer mode every pool's "size" in bytes (writeAdvanced), in
// traffic-pool mode an ingress pool's "memory percent" (PoolPercent);
// false for an egress traffic pool, which is not set separately (a
// traffic pool serves both directions).
func PoolSize(sw *model.Switch, p model.BufferPool) (field, value string, ok bool) {
	switch {
	case sw.BufferStyle == StyleAdvanced:
		return "size", strconv.FormatInt(p.SizeBytes, 10), true
	case p.Direction == "ingress":
		return "memory percent", PoolPercent(p), true
	}
	return "", "", false
}

// writeTrafficPools writes the MLNX-OS >= 3.6.5000 form: one traffic pool
// per ingress pool (ansible onyx_buffer_pool.py; Onyx Shared Buffer
// Commands, history 3.6.5000). The percent has two decimals, as
// running-config prints it (`traffic pool roce memory percent 50.00`,
// Cerebras 3.9 sample); the model holds one decimal, so nothing is
// rounded. Onyx computes headroom, reserved sizes and egress pools itself
// in this mode, so the model's numbers for them follow as comments.
func writeTrafficPools(w *writer, sw *model.Switch) {
	for _, p := range sw.Pools {
		field, pct, ok := PoolSize(sw, p)
		if !ok {
			continue
		}
		w.pool(p)
		w.cmd("traffic pool %s type %s", p.Name, p.Type)
		w.cmd("traffic pool %s %s %s", p.Name, field, pct)
		if len(p.Priorities) > 0 {
			w.cmd("traffic pool %s map switch-priority %s", p.Name, ints(p.Priorities))
		}
	}
	for _, p := range sw.Pools {
		if p.Direction == "egress" {
			w.pool(p)
			w.note("egress pool %s (%s, %d B, %.1f%%): Onyx traffic pools serve both directions; not set separately", p.Name, p.Type, p.SizeBytes, p.Percent)
		}
	}
	if !hasBuffers(sw) {
		return
	}
	w.b.At()
	w.note("Onyx computes per-port headroom itself in traffic-pool mode; fabricc's computed values, for comparison:")
	for i := range sw.Ports {
		writeBufferNotes(w, &sw.Ports[i])
	}
}

// writeBufferNotes lists one port's model buffers as comments, each
// lossless group with what its headroom assumes.
func writeBufferNotes(w *writer, p *model.Port) {
	for i := range p.PriorityGroups {
		pg := &p.PriorityGroups[i]
		w.pg(p, pg)
		if pg.Lossless {
			w.note("ethernet %s pg%d (priorities %s) lossless: %d B in flight after PAUSE, PAUSE at %d B, size %d B, shared alpha %s%s", p.Name, pg.Index, ints(pg.Priorities), pg.XoffBytes, pg.SizeBytes-pg.XoffBytes, pg.SizeBytes, pg.SharedAlpha, assumed(pg))
			continue
		}
		w.note("ethernet %s pg%d (priorities %s) lossy: reserved %d B, shared alpha %s", p.Name, pg.Index, ints(pg.Priorities), pg.SizeBytes, pg.SharedAlpha)
	}
	for _, q := range p.EgressQueues {
		w.queue(p, q)
		w.note("ethernet %s tc%d egress: reserved %d B, shared alpha %s", p.Name, q.TrafficClass, q.ReservedBytes, q.SharedAlpha)
	}
}

// onyxPoolName is the pool naming advanced buffer mode requires.
var onyxPoolName = regexp.MustCompile(`^([ie])Pool[0-9]+$`)

// advancedNames maps model pool names to Onyx advanced-mode names. Pools
// already named iPoolN (ingress) / ePoolN (egress) keep their names;
// otherwise every pool is numbered in model order per direction
// (iPool0, iPool1, ... and ePool0, ...).
func advancedNames(pools []model.BufferPool) map[string]string {
	names := map[string]string{}
	keep := true
	for _, p := range pools {
		m := onyxPoolName.FindStringSubmatch(p.Name)
		if m == nil || m[1] != p.Direction[:1] {
			keep = false
		}
	}
	next := map[string]int{}
	for _, p := range pools {
		if keep {
			names[p.Direction+"/"+p.Name] = p.Name
			continue
		}
		prefix := p.Direction[:1] + "Pool"
		names[p.Direction+"/"+p.Name] = fmt.Sprintf("%s%d", prefix, next[p.Direction])
		next[p.Direction]++
	}
	return names
}

// writeAdvanced writes the pre-3.6.5000 form of the Demartek RoCE
// Deployment Guide (step 9) and att/netarbiter RoCE_Deployment.md: pools
// with sizes in bytes, then per port the ingress priority-group bindings
// and maps and the egress queue maps, with the model's numbers.
func writeAdvanced(w *writer, sw *model.Switch) {
	names := advancedNames(sw.Pools)
	// The OS version picks the advanced buffer style.
	w.b.At("switch", sw.Name, "os_version")
	w.cmd("advanced buffer management force")
	for _, p := range sw.Pools {
		w.pool(p)
		n := names[p.Direction+"/"+p.Name]
		if n != p.Name {
			w.note("model %s pool %s is Onyx pool %s", p.Direction, p.Name, n)
		}
		_, size, _ := PoolSize(sw, p)
		w.cmd("pool %s size %s type %s", n, size, p.Mode)
	}
	w.b.At()
	w.note("lossless priority groups: reserved = the group's buffer; xoff = the occupancy at which PAUSE is sent = reserved - the bytes in flight after PAUSE; xon = the occupancy at which it stops = xoff (bytes; Linux mlxsw programs the same Spectrum register as size = threshold + delay)")
	for i := range sw.Ports {
		writePortBuffers(w, &sw.Ports[i], names)
	}
}

// IngressBuffer is the numbers of an advanced-mode `ingress-buffer
// iPort.pgN map pool ... reserved R [xoff X xon Y]` line, bytes, in the
// meaning of the Spectrum PBMC register Onyx programs (Linux mlxsw
// reg.h): reserved is the group's buffer (buf_size), xoff the occupancy
// above which the port sends PFC frames (buf_xoff_threshold), xon the one
// below which it stops (buf_xon_threshold). Xoff and Xon are zero for a
// lossy group, whose line has none.
type IngressBuffer struct {
	Reserved, Xoff, Xon int64
}

// IngressBufferOf is what fabricc writes for pg: its size as reserved
// and, for a lossless group, xoff = xon = the size less the bytes still
// in flight after PAUSE, which the rest of the group holds (xon = xoff,
// as Linux mlxsw programs Spectrum and the Demartek RoCE Deployment Guide
// sets Onyx: reserved 90000 xoff 17000 xon 17000).
func IngressBufferOf(pg *model.PriorityGroup) IngressBuffer {
	if !pg.Lossless {
		return IngressBuffer{Reserved: pg.SizeBytes}
	}
	pause := pg.SizeBytes - pg.XoffBytes
	return IngressBuffer{Reserved: pg.SizeBytes, Xoff: pause, Xon: pause}
}

// writePortBuffers writes one port's advanced-mode buffer commands.
func writePortBuffers(w *writer, p *model.Port, names map[string]string) {
	for i := range p.PriorityGroups {
		pg := &p.PriorityGroups[i]
		w.pg(p, pg)
		if len(pg.Priorities) > 0 {
			w.cmd("%s ingress-buffer iPort.pg%d bind switch-priority %s", iface(p), pg.Index, ints(pg.Priorities))
		}
		pool := names["ingress/"+pg.Pool]
		b := IngressBufferOf(pg)
		if pg.Lossless {
			w.note("ethernet %s pg%d: %d B in flight after PAUSE%s", p.Name, pg.Index, pg.XoffBytes, assumed(pg))
			w.cmd("%s ingress-buffer iPort.pg%d map pool %s type lossless reserved %d xoff %d xon %d shared alpha %s", iface(p), pg.Index, pool, b.Reserved, b.Xoff, b.Xon, pg.SharedAlpha)
			continue
		}
		w.cmd("%s ingress-buffer iPort.pg%d map pool %s type lossy reserved %d shared alpha %s", iface(p), pg.Index, pool, b.Reserved, pg.SharedAlpha)
	}
	for _, q := range p.EgressQueues {
		w.queue(p, q)
		w.cmd("%s egress-buffer ePort.tc%d map pool %s reserved %d shared alpha %s", iface(p), q.TrafficClass, names["egress/"+q.Pool], q.ReservedBytes, q.SharedAlpha)
	}
}

// assumed is "; for <what the headroom assumes>", or "" when the model
// holds no computation for pg.
func assumed(pg *model.PriorityGroup) string {
	if a := targets.HeadroomAssumption(pg); a != "" {
		return "; for " + a
	}
	return ""
}

// pool says that the lines written next come from buffer pool p.
func (w *writer) pool(p model.BufferPool) {
	w.b.At("switch", w.sw, "pool", p.Name, p.Direction)
}

// pg says that the lines written next come from priority group pg of
// port p.
func (w *writer) pg(p *model.Port, pg *model.PriorityGroup) {
	if w.b.Mapped() {
		w.b.At("switch", w.sw, "port", p.Name, "pg", strconv.Itoa(pg.Index))
	}
}

// queue says that the lines written next come from egress queue q of
// port p.
func (w *writer) queue(p *model.Port, q model.EgressQueue) {
	if w.b.Mapped() {
		w.b.At("switch", w.sw, "port", p.Name, "queue", strconv.Itoa(q.TrafficClass))
	}
}
