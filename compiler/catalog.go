package compiler

import (
	"strings"

	"github.com/fabricc/fabricc/model"
)

// Catalog is what fabricc knows about hardware and platforms: every
// switch model, NIC model and switch platform, for `fabricc models` and
// docs/models.md.
type Catalog struct {
	Platforms []PlatformInfo    `json:"platforms"`
	Switches  []SwitchModelInfo `json:"switches"`
	NICs      []NICModelInfo    `json:"nics"`
}

// PlatformInfo is one switch OS and the defaults fabricc applies on it.
type PlatformInfo struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// DefaultOSVersion is the os_version assumed when none is written.
	DefaultOSVersion string `json:"default_os_version"`
	// PortMTU is a port's MTU when none is written, and the largest the
	// OS takes.
	PortMTU int `json:"port_mtu"`
	// Naming says how the OS names ports.
	Naming string `json:"naming"`
}

// SwitchModelInfo is one row of the hardware table.
type SwitchModelInfo struct {
	Name        string `json:"name"`
	Vendor      string `json:"vendor"`
	ASIC        string `json:"asic"`
	BufferBytes int64  `json:"buffer_bytes"`
	// UsableBufferBytes is what the buffer budget uses (model.Hardware).
	UsableBufferBytes int64    `json:"usable_buffer_bytes"`
	CellBytes         int      `json:"cell_bytes"`
	Platforms         []string `json:"platforms"`
	// Unsupported says why fabricc cannot configure the model on a
	// platform it lists as "not usable" (the model runs the platform
	// only in releases fabricc does not configure); "" for the others.
	Unsupported string          `json:"unsupported,omitempty"`
	Ports       []PortGroupInfo `json:"ports"`
	Source      string          `json:"source"`
}

// PortGroupInfo is a run of front-panel ports with one cage.
type PortGroupInfo struct {
	First int    `json:"first"`
	Last  int    `json:"last"`
	Cage  string `json:"cage"`
	Lanes int    `json:"lanes"`
	// LaneGbps is the fastest lane the cage and the ASIC run.
	LaneGbps int `json:"lane_gbps"`
	// Speeds lists the speeds a port runs with the lanes it uses by
	// default.
	Speeds []SpeedLanes `json:"speeds"`
	// Naming is the group as each platform of the model names it.
	Naming map[string]string `json:"naming"`
	// FirstSlot and LastSlot are the line card slots the group is on, on
	// a modular chassis (every slot holds the same line card); 0 on a
	// fixed switch.
	FirstSlot int `json:"first_slot,omitempty"`
	LastSlot  int `json:"last_slot,omitempty"`
}

// SpeedLanes is one speed and its default lane count.
type SpeedLanes struct {
	Speed string `json:"speed"`
	Lanes int    `json:"lanes"`
}

// NICModelInfo is one NIC model.
type NICModelInfo struct {
	Name   string   `json:"name"`
	Vendor string   `json:"vendor"`
	Speeds []string `json:"speeds"`
	// Drivers by host OS, the default first.
	Drivers map[string][]string `json:"drivers"`
}

// platformOrder is the order platforms are listed in.
var platformOrder = []model.Platform{model.PlatformOnyx, model.PlatformEOS, model.PlatformCumulus}

// Models returns the catalog, in a stable order (models by name).
func Models() Catalog {
	var c Catalog
	for _, p := range platformOrder {
		info := platforms[p]
		c.Platforms = append(c.Platforms, PlatformInfo{Name: string(p), Title: platformTitle(p),
			DefaultOSVersion: info.osVersion, PortMTU: info.maxMTU, Naming: info.portForm})
	}
	for _, name := range knownModels() {
		c.Switches = append(c.Switches, switchInfo(name, hardwareTable[name]))
	}
	for _, m := range nicModels {
		n := NICModelInfo{Name: m.name, Vendor: m.info.vendor, Drivers: map[string][]string{}}
		for _, g := range m.info.speedsG {
			n.Speeds = append(n.Speeds, speedText(g*1000))
		}
		for _, os := range hostOSes {
			if d := drivers(model.OS(os), m.info.family); len(d) > 0 {
				n.Drivers[os] = d
			}
		}
		c.NICs = append(c.NICs, n)
	}
	return c
}

// SwitchModel returns the hardware table row of the switch model name
// (any case): vendor, ASIC and the front-panel port groups with their
// cages, lanes and lane rates. The simulators (package sim) build their
// ports from it.
func SwitchModel(name string) (SwitchModelInfo, bool) {
	m, ok := lookupHardware(name)
	if !ok {
		return SwitchModelInfo{}, false
	}
	return switchInfo(canonicalModel(name), m), true
}

// switchInfo describes one hardware table row.
func switchInfo(name string, m switchModel) SwitchModelInfo {
	s := SwitchModelInfo{Name: name, Vendor: m.vendor, ASIC: m.asic.name, BufferBytes: m.asic.bufferBytes, UsableBufferBytes: m.asic.usable(),
		CellBytes: m.asic.cellBytes, Source: m.datasheet}
	var why []string
	for _, ps := range m.platforms {
		s.Platforms = append(s.Platforms, ps.listed())
		if u := ps.unsupported(); u != "" {
			why = append(why, u)
		}
	}
	s.Unsupported = strings.Join(why, "; ")
	for _, g := range m.ports {
		gi := PortGroupInfo{First: g.first, Last: g.last, Cage: g.cage.name, Lanes: g.cage.lanes,
			LaneGbps: min(g.cage.maxLaneG, maxRate(m.asic.name)), Naming: map[string]string{}, FirstSlot: g.firstSlot, LastSlot: g.lastSlot}
		speeds, lanes := groupSpeeds(m.asic.name, g)
		for _, sp := range speeds {
			gi.Speeds = append(gi.Speeds, SpeedLanes{Speed: speedText(sp), Lanes: lanes[sp]})
		}
		for _, ps := range m.platforms {
			gi.Naming[string(ps.platform)] = groupRange(ps.platform, g)
		}
		s.Ports = append(s.Ports, gi)
	}
	return s
}
