package explain

import (
	"fmt"
	"strconv"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/docs"
)

// Public sources of the figures the derivations use.
const (
	pauseQuantaSource = "IEEE 802.3 Annex 31B pause quanta for the port speed, as tabulated in SONiC buffer_headroom_mellanox.lua"
	defaultCableText  = "no link: SONiC's default cable length (buffers_defaults_*.j2 default_cable)"
	smallPacketText   = "default: the worst case, every packet small"
	poolSplitText     = "the shared rest is split in half between the lossless and the lossy pools (Cumulus Linux user guide, RoCE, \"Default RoCE Configuration\": the RoCE pool gets 50 % of the memory)"
	planningText      = "qos headroom planning_length when written, else SONiC's longest default cable class, 300 m (sonic-buildimage files/build_templates/cable_length.j2); or the longest cable on the switch rounded up to 100 m"
)

// headroom derives a lossless priority group's xoff, xon and size from
// the inputs recorded in its model.Headroom, each input with its source.
func (b *Build) headroom(sw *model.Switch, p *model.Port, pg *model.PriorityGroup) *Derivation {
	h := pg.Headroom
	port := []string{"switch", sw.Name, "port", p.Name}
	d := &Derivation{Name: "PFC headroom", Formula: h.Formula}
	if u, ok := docs.HeadroomUnconfigured(sw); ok {
		d.Configured = "no: " + u.Who + "; these are fabricc's computed values, for comparison; after a recable check the switch's own headroom, " + u.Check(p.Name)
	}
	d.Inputs = []Term{
		b.input("speed", docs.Speed(h.SpeedMbps), "", append(port, "speed")...),
		b.lanesInput(sw, p, h),
		b.cableInput(p, h),
		b.input("port MTU", docs.Bytes(int64(h.PortMTUBytes)), "", append(port, "mtu")...),
		b.losslessMTUInput(h),
		b.policyInput("small packets", "small_packet_percent", strconv.Itoa(h.SmallPacketPercent)+" %", smallPacketText),
		b.hardwareInput(sw, "cell size", docs.Bytes(int64(h.CellBytes)), true),
		b.hardwareInput(sw, "pipeline latency", docs.Bytes(int64(h.PipelineLatencyBytes)), false),
		b.hardwareInput(sw, "MAC/PHY delay", docs.Bytes(int64(h.MACPHYDelayBytes)), false),
		{Name: "pause quanta", Value: strconv.Itoa(h.PauseQuanta), From: pauseQuantaSource},
	}
	tile := ""
	if sw.Hardware.ASIC == "Spectrum-4" || sw.Hardware.ASIC == "Spectrum-5" {
		tile = " + tile (speed/1000 x 120/8)"
	}
	d.Steps = []Term{
		{Name: "peer response = pause quanta x 512 bits / 8, IEEE 802.3's worst case (NVIDIA tables: 3.8 KB)", Value: docs.Bytes(int64(h.PeerResponseBytes))},
		{Name: "cable = 2 x length x speed / 198,000 km/s / 8", Value: docs.Bytes(int64(h.CableBytes))},
		{Name: "propagation = port MTU + cable + MAC/PHY delay + peer response" + tile, Value: docs.Bytes(int64(h.PropagationBytes))},
		{Name: "cell occupancy (small packets by bytes x cells per small packet)", Value: strconv.FormatFloat(h.CellOccupancy, 'f', 3, 64)},
		{Name: "in flight after PAUSE (SONiC xoff) = lossless MTU + propagation x cell occupancy, rounded up to 1 KiB", Value: docs.Bytes(h.XoffBytes)},
	}
	if h.SizeBytes == h.XoffBytes+h.XonBytes { // no 8-lane overhead (not 8 lanes, or not Spectrum)
		d.Steps = append(d.Steps,
			Term{Name: "PAUSE threshold (SONiC xon) = pipeline latency, rounded up to 1 KiB", Value: docs.Bytes(h.XonBytes)},
			Term{Name: "buffer (SONiC size) = in flight + PAUSE threshold, rounded up to 1 KiB", Value: docs.Bytes(h.SizeBytes)})
		return d
	}
	// An 8-lane port's buffer adds one port MTU that belongs to neither
	// xoff nor xon, so the PAUSE threshold written (buffer - in flight)
	// is SONiC's xon plus that overhead.
	d.Steps = append(d.Steps,
		Term{Name: "SONiC xon = 2 x pipeline latency (8 lanes), rounded up to 1 KiB", Value: docs.Bytes(h.XonBytes)},
		Term{Name: "8-lane overhead = port MTU (" + eightLaneSource + ")", Value: docs.Bytes(int64(h.PortMTUBytes))},
		Term{Name: "buffer (SONiC size) = in flight + SONiC xon + 8-lane overhead, rounded up to 1 KiB", Value: docs.Bytes(h.SizeBytes)},
		Term{Name: "PAUSE threshold written = buffer - in flight = SONiC xon + 8-lane overhead", Value: docs.Bytes(h.SizeBytes - h.XoffBytes)})
	return d
}

// eightLaneSource cites the 8-lane port's extra port MTU.
const eightLaneSource = "sonic-swss cfgmgr/buffer_headroom_mellanox.lua, speed_overhead on an 8-lane port; Linux mlxsw \"spectrum: Adjust headroom buffers for 8x ports\""

// input is a term written at parts (or inherited from the block there).
func (b *Build) input(name, value, from string, parts ...string) Term {
	t := Term{Name: name, Value: value, From: from, Source: b.source(name, parts...)}
	if t.Source != nil && !t.Source.Written && from == "" {
		t.From = "not written: the default"
	}
	return t
}

// lanesInput is the port's lanes: written on the port, or the switch
// model's default for the speed.
func (b *Build) lanesInput(sw *model.Switch, p *model.Port, h *model.Headroom) Term {
	if s := b.exact("lanes", "switch", sw.Name, "port", p.Name, "lanes"); s != nil {
		return Term{Name: "lanes", Value: strconv.Itoa(h.Lanes), Source: s}
	}
	return Term{Name: "lanes", Value: strconv.Itoa(h.Lanes), From: "not written: the fewest lanes that carry the speed on " + sw.Hardware.Model,
		Source: b.source("model", "switch", sw.Name, "model")}
}

// cableInput is the cable length the headroom was computed for.
func (b *Build) cableInput(p *model.Port, h *model.Headroom) Term {
	value := docs.Meters(h.CableMeters)
	if p.Peer == nil || p.Peer.CableMeters <= 0 {
		return Term{Name: "cable length", Value: value, From: defaultCableText}
	}
	t := Term{Name: "cable length", Value: value + " " + p.Peer.CableKind}
	for _, sw := range b.Fabric.Switches {
		if sw.Port(p.Name) == p {
			t.Source = b.source("length of the link", "switch", sw.Name, "port", p.Name, "link", "length")
		}
	}
	return t
}

// policyInput is a headroom assumption: the qos headroom block when it
// writes attr, else its default (a headroom block that writes only the
// other attribute is named as the block holding it).
func (b *Build) policyInput(name, attr, value, def string) Term {
	if s := b.exact("qos headroom block", "qos", "headroom"); s != nil {
		if blockWrites(s.Range, attr) {
			return Term{Name: name, Value: value, Source: s}
		}
		s.Written = false
		return Term{Name: name, Value: value, From: def, Source: s}
	}
	return Term{Name: name, Value: value, From: def}
}

// losslessMTUInput is the lossless MTU of a port: the written
// lossless_mtu, or the RoCE path MTU of its NICs when not written, and
// the clamp to the port's largest frame (model.Headroom.LosslessMTUFrom).
func (b *Build) losslessMTUInput(h *model.Headroom) Term {
	t := b.policyInput("lossless MTU", "lossless_mtu", docs.Bytes(int64(h.LosslessMTUBytes)), h.LosslessMTUFrom)
	if h.LosslessMTUFrom != "" {
		t.From = h.LosslessMTUFrom
	}
	return t
}

// hardwareInput is an ASIC constant of the switch model; cite adds the
// public source of the hardware table's figures.
func (b *Build) hardwareInput(sw *model.Switch, name, value string, cite bool) Term {
	hw := sw.Hardware
	from := fmt.Sprintf("hardware table: %s (%s)", hw.Model, hw.ASIC)
	if cite {
		from += ", from " + hw.Source
	}
	return Term{Name: name, Value: value, From: from, Source: b.source("model", "switch", sw.Name, "model")}
}

// budget derives the switch's buffer budget and, when pl is given, that
// pool's size (compiler/buffers.go switchBuffers).
func budget(sw *model.Switch, pl *model.BufferPool) *Derivation {
	bb := sw.Buffer
	hw := sw.Hardware
	d := &Derivation{Name: "buffer budget", Formula: "shared = buffer - planned headroom - other reservations; " + poolSplitText}
	d.Inputs = []Term{
		{Name: "buffer", Value: docs.Bytes(bb.TotalBytes), From: fmt.Sprintf("hardware table: %s (%s): %s", hw.Model, hw.ASIC, hw.Source)},
		{Name: "headroom in use (every lossless priority group)", Value: docs.Bytes(bb.HeadroomBytes)},
		{Name: "planning cable length", Value: docs.Meters(bb.PlanningCableMeters), From: planningText},
		{Name: "headroom planned (every lossless priority group at the planning length)", Value: docs.Bytes(bb.HeadroomReserveBytes)},
		{Name: "other reservations (lossy priority groups, egress queues)", Value: docs.Bytes(bb.ReservedBytes)},
	}
	d.Steps = []Term{{Name: "shared = buffer - headroom planned - other reservations", Value: docs.Bytes(bb.SharedBytes)}}
	if pl == nil {
		return d
	}
	d.Name = "pool size"
	share := poolShare(sw, pl)
	d.Steps = append(d.Steps,
		Term{Name: "this pool's share of the shared rest", Value: docs.Bytes(share)},
		Term{Name: fmt.Sprintf("reservations held in the pool (%s %s)", pl.Direction, pl.Type), Value: docs.Bytes(pl.SizeBytes - share)},
		Term{Name: "size = reservations + share", Value: docs.Bytes(pl.SizeBytes)},
		Term{Name: "share of the buffer", Value: docs.Percent(pl.Percent)})
	return d
}

// poolShare is the part of the shared rest pool pl holds: half for the
// lossless pools, the other half (all, without lossless pools) for the
// lossy ones.
func poolShare(sw *model.Switch, pl *model.BufferPool) int64 {
	shared := sw.Buffer.SharedBytes
	half := shared / 2
	if pl.Type == "lossless" {
		return half
	}
	for _, other := range sw.Pools {
		if other.Type == "lossless" {
			return shared - half
		}
	}
	return shared
}
