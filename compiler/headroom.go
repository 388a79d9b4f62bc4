package compiler

import (
	"math"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// headroomFormula cites the algorithm computeHeadroom reimplements.
const headroomFormula = "SONiC Mellanox headroom (sonic-swss cfgmgr/buffer_headroom_mellanox.lua @422271e7e): xoff = ceil1K(lossless_mtu + propagation x cell_occupancy) [+2 KB small-packet compensation], xon = ceil1K(pipeline_latency), size = ceil1K(xoff + xon)"

// defaultCableMeters is used for a lossless port with no link: SONiC's
// default cable length (buffers_defaults_*.j2 `default_cable = '5m'` on
// the Mellanox SKUs).
const defaultCableMeters = 5.0

// planningCableFloor is the default shortest cable length the pools are
// planned for (see planningMeters): SONiC's longest default cable class.
// qos.headroom.planning_length changes it.
const planningCableFloor = 300.0

// maxPlanningMeters bounds planning_length: 100 km, beyond any cable a
// lossless link runs over.
const maxPlanningMeters = 100000

// Constants of the formula (buffer_headroom_mellanox.lua).
const (
	// speedOfLight is the signal speed in a cable, m/s (about 2/3 c).
	speedOfLight = 198000000.0
	// minimalPacketBytes is the smallest Ethernet frame.
	minimalPacketBytes = 64
	// headroomCompensation is added to xoff when the small-packet share
	// assumed is below 100 % and the result is still more than 2 KB under
	// the all-small-packets worst case.
	headroomCompensation = 2 * 1024
)

// pauseQuantaPerSpeed is the number of 512-bit-time pause quanta a peer
// may take to react to a PFC frame at each speed (IEEE 802.3 Annex
// 31B.3.7, as tabulated in the lua), keyed by Mb/s.
var pauseQuantaPerSpeed = map[int]int{
	800000: 905, 400000: 905, 200000: 453, 100000: 394,
	50000: 147, 40000: 118, 25000: 80, 10000: 67, 1000: 2, 100: 1,
}

// headroomInput is what the formula needs for one lossless PG.
type headroomInput struct {
	speedMbps   int
	cableMeters float64
	portMTU     int
	policy      model.HeadroomPolicy
	hw          model.Hardware
	// lanes is the port's lane count (model.Port.Lanes).
	lanes int
}

// computeHeadroom returns the PFC headroom of one lossless priority group.
//
// When a port sends PFC pause, bytes keep arriving until the peer stops.
// xoff is the room above the pause threshold for those bytes:
//
//   - port MTU: the frame the peer is already transmitting when the pause
//     arrives cannot be cut short;
//   - cable: 2 x length x speed / signal speed, the bytes on the wire
//     during the pause frame's round trip (pause travels to the peer while
//     data keeps coming back over the same length);
//   - MAC/PHY delay: bytes in the serialiser/deserialiser of both ends
//     (ASIC constant);
//   - peer response: the peer may finish up to pause_quanta x 512 bit
//     times of work before it obeys, pause_quanta x 512 / 8 bytes;
//   - tile (Spectrum-4/-5 only): speed/1000 x 120/8 bytes buffered in the
//     ASIC's tile crossing, as the lua adds;
//   - gearbox delay: 0 (no gearbox on the SKUs in the hardware table).
//
// These sum to the propagation bytes. The buffer allocates whole cells,
// so a small packet occupies a whole cell: the cell occupancy factor
// scales propagation by the share of small packets (by bytes) times the
// worst-case cells per small packet. xoff = lossless MTU (the frame that
// triggered the pause) + propagation x occupancy, rounded up to 1 KB,
// plus 2 KB when that is still more than 2 KB below the all-small-packets
// case.
//
// xon is the hysteresis below the threshold: the ASIC pipeline latency,
// i.e. the bytes still inside the switch pipeline when resume is decided,
// so the queue does not run dry before traffic resumes.
//
// size = xoff + xon (rounded to 1 KB). No shared headroom pool is used
// (each PG reserves its full headroom), which is the conservative choice.
// For 8-lane ports the lua doubles the pipeline latency and adds one
// port MTU: its lane-count argument is the port's lanes from the PORT
// table, and only "8" counts (SONiC buffer_headroom_mellanox.lua,
// is_8lane; Linux mlxsw "spectrum: Adjust headroom buffers for 8x
// ports": on Spectrum-3 an 8-lane port splits its headroom over two
// buffers). Lanes, not speed: 400G is 8 x 50G on an SN4700 but 4 x 100G
// on an SN5600. The rule is a Spectrum buffer split, so it applies to
// Spectrum ASICs only; a Broadcom port's estimate leaves it out.
func computeHeadroom(in headroomInput) model.Headroom {
	h := model.Headroom{
		SpeedMbps:            in.speedMbps,
		Lanes:                in.lanes,
		CableMeters:          in.cableMeters,
		PortMTUBytes:         in.portMTU,
		LosslessMTUBytes:     in.policy.LosslessMTUBytes,
		SmallPacketPercent:   in.policy.SmallPacketPercent,
		CellBytes:            in.hw.CellBytes,
		PipelineLatencyBytes: in.hw.PipelineLatencyBytes,
		MACPHYDelayBytes:     in.hw.MACPHYDelayBytes,
		PauseQuanta:          pauseQuanta(in.speedMbps),
		Formula:              headroomFormula,
	}
	pipeline, speedOverhead := float64(in.hw.PipelineLatencyBytes), 0.0
	if in.lanes == 8 && strings.HasPrefix(in.hw.ASIC, "Spectrum") {
		pipeline *= 2
		speedOverhead = float64(in.portMTU)
		h.Formula += "; 8-lane port: pipeline x 2, + port MTU"
	}
	wcf := worstCaseFactor(in.hw.CellBytes)
	h.CellOccupancy = cellOccupancy(in.policy, wcf)
	peer := float64(h.PauseQuanta) * 512 / 8
	cable := 2 * in.cableMeters * float64(in.speedMbps) * 1e9 / speedOfLight / (8 * 1000)
	prop := float64(in.portMTU) + cable + float64(in.hw.MACPHYDelayBytes) + peer + tileBytes(in.hw.ASIC, in.speedMbps)
	h.PeerResponseBytes = int(math.Ceil(peer))
	h.CableBytes = int(math.Ceil(cable))
	h.PropagationBytes = int(math.Ceil(prop))

	lossless := float64(in.policy.LosslessMTUBytes)
	xoff := ceilKB(lossless + prop*h.CellOccupancy)
	if in.policy.SmallPacketPercent != 100 {
		if full := ceilKB(lossless + prop*wcf); xoff+headroomCompensation < full {
			xoff += headroomCompensation
		}
	}
	xon := ceilKB(pipeline)
	h.XoffBytes, h.XonBytes = xoff, xon
	h.SizeBytes = ceilKB(float64(xoff+xon) + speedOverhead)
	return h
}

// pauseQuanta returns the pause quanta for a speed; a speed missing from
// the table takes the value of the next faster speed listed (more quanta:
// conservative), and anything above 800G the 800G value.
func pauseQuanta(speedMbps int) int {
	if q, ok := pauseQuantaPerSpeed[speedMbps]; ok {
		return q
	}
	speeds := make([]int, 0, len(pauseQuantaPerSpeed))
	for s := range pauseQuantaPerSpeed {
		speeds = append(speeds, s)
	}
	sort.Ints(speeds)
	for _, s := range speeds {
		if s > speedMbps {
			return pauseQuantaPerSpeed[s]
		}
	}
	return pauseQuantaPerSpeed[speeds[len(speeds)-1]]
}

// worstCaseFactor is how many cells a minimal packet can take, worst
// case: a cell bigger than two minimal packets wastes cell/64; smaller
// cells waste at most 2 x cell / (1 + cell). Rounded up as in the lua.
func worstCaseFactor(cell int) float64 {
	c := float64(cell)
	if cell > 2*minimalPacketBytes {
		return math.Ceil(c / minimalPacketBytes)
	}
	return math.Ceil(2 * c / (1 + c))
}

// cellOccupancy turns the small-packet share by count into a share by
// bytes, then averages the worst-case factor over it:
// spp_b = 100 x 64 / ((spp x 64 + (100 - spp) x lossless_mtu) / 100),
// occupancy = (100 - spp_b + spp_b x factor) / 100.
func cellOccupancy(p model.HeadroomPolicy, wcf float64) float64 {
	spp := float64(p.SmallPacketPercent)
	mtu := float64(p.LosslessMTUBytes)
	byBytes := 100 * minimalPacketBytes / ((spp*minimalPacketBytes + (100-spp)*mtu) / 100)
	return (100 - byBytes + byBytes*wcf) / 100
}

// tileBytes is the Spectrum-4/-5 tile term of the lua.
func tileBytes(asicName string, speedMbps int) float64 {
	if asicName == "Spectrum-4" || asicName == "Spectrum-5" {
		return float64(speedMbps) / 1000 * 120 / 8
	}
	return 0
}

// ceilKB rounds bytes up to a whole KB (1024 B).
func ceilKB(b float64) int64 {
	return int64(math.Ceil(b/1024)) * 1024
}
