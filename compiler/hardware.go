package compiler

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// asic holds the constants of one switch ASIC that the headroom and
// buffer physics need.
type asic struct {
	name        string
	bufferBytes int64
	// usableBytes is the part of the buffer software may carve into
	// pools and headroom, where a public source gives it; 0 where none
	// does (the budget then uses bufferBytes).
	usableBytes int64
	cellBytes   int
	// pipelineBytes and macPHYBytes are SONiC's pipeline_latency and
	// mac_phy_delay (asic_table.j2 gives them in KB; converted here as
	// the headroom lua does, KB * 1024, mac_phy 0.8 KB = 819.2 B rounded
	// to 819 B because model.Hardware holds whole bytes).
	pipelineBytes int
	macPHYBytes   int
	source        string
}

// Sources of the constants below.
//
//   - Spectrum cell sizes, pipeline latency (19 KB) and MAC/PHY delay
//     (0.8 KB): sonic-net/sonic-buildimage platform/mellanox/asic_table.j2
//     @086b03bd70 (SPECTRUM 96 B, SPECTRUM-2/-3 144 B, SPECTRUM-4 192 B).
//   - Spectrum buffer sizes: NVIDIA/Mellanox switch datasheets (SN2000
//     16 MB, SN3000 42 MB, SN4000 64 MB, SN5000 160 MB shared buffer).
//     The datasheet figure is the total memory, not the part software may
//     carve: SONiC sizes the egress lossless pool, all usable memory, at
//     13945824 B on Spectrum (ACS-MSN2700 buffers_defaults_t1.j2; sonic-
//     utilities scripts/mellanox_buffer_migrator.py, spc1 pools) and
//     35966016 B on Spectrum-2 (the same migrator, spc2 pools), 60817392 B
//     on Spectrum-3 (sonic-net/sonic-buildimage device/mellanox/
//     x86_64-mlnx_msn4600c-r0/Mellanox-SN4600C-C64/buffers_defaults_t1.j2,
//     egress_lossless_pool_size; the migrator's spc3 pools give the same)
//     and 158229504 B on Spectrum-4 (sonic-net/sonic-buildimage
//     device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600/
//     buffers_defaults_t1.j2, egress_lossless_pool_size). The budget uses
//     these; the Broadcom ASICs have no public usable figure and are
//     budgeted at the datasheet total (Tomahawk5: see below).
//   - Broadcom buffer sizes: Arista 7050X3 datasheet ("fully shared packet
//     buffer of up to 32MB", Trident3), 7060CX datasheet (16 MB,
//     Tomahawk), 7280R3 architecture white paper (Jericho2: 8 GB HBM plus
//     16 MB on-chip).
//   - Broadcom cell sizes are inferred from SONiC buffer tables, whose
//     sizes are whole multiples of the cell: Tomahawk 208 B
//     (device/common/profiles/th/gen/BALANCED/pg_profile_lookup.ini: size
//     1248 = 6 x 208, xon 2288 = 11 x 208); Trident3 256 B
//     (Arista-7050CX3-32S pg_profile_lookup.ini 4608 = 18 x 256,
//     egress_lossy_profile 1792 = 7 x 256).
//   - Broadcom pipeline latency and MAC/PHY delay are not published; the
//     Spectrum values (19 KB, 0.8 KB) stand in as a conservative proxy
//     (Broadcom shallow-buffer ASICs have pipelines of the same order, and
//     a larger xon only makes the headroom bigger, never too small).
var (
	spectrum1 = asic{"Spectrum", 16 << 20, 13945824, 96, 19 * 1024, 819,
		"NVIDIA SN2000 datasheet (16 MB); sonic-buildimage platform/mellanox/asic_table.j2 MELLANOX-SPECTRUM (cell 96 B, pipeline 19 KB, mac_phy 0.8 KB)"}
	spectrum2 = asic{"Spectrum-2", 42 << 20, 35966016, 144, 19 * 1024, 819,
		"NVIDIA SN3000 datasheet (42 MB); sonic-buildimage platform/mellanox/asic_table.j2 MELLANOX-SPECTRUM-2 (cell 144 B, pipeline 19 KB, mac_phy 0.8 KB)"}
	spectrum3 = asic{"Spectrum-3", 64 << 20, 60817392, 144, 19 * 1024, 819,
		"NVIDIA SN4000 datasheet (64 MB); usable 60817392 B: sonic-buildimage device/mellanox/x86_64-mlnx_msn4600c-r0/Mellanox-SN4600C-C64/buffers_defaults_t1.j2 egress_lossless_pool_size; sonic-buildimage platform/mellanox/asic_table.j2 MELLANOX-SPECTRUM-3 (cell 144 B, pipeline 19 KB, mac_phy 0.8 KB)"}
	spectrum4 = asic{"Spectrum-4", 160 << 20, 158229504, 192, 19 * 1024, 819,
		"NVIDIA SN5000 datasheet (160 MB); usable 158229504 B: sonic-buildimage device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600/buffers_defaults_t1.j2 egress_lossless_pool_size; sonic-buildimage platform/mellanox/asic_table.j2 MELLANOX-SPECTRUM-4 (cell 192 B, pipeline 19 KB, mac_phy 0.8 KB)"}
	trident3 = asic{"Trident3", 32 << 20, 0, 256, 19 * 1024, 819,
		"Arista 7050X3 datasheet (32 MB shared); cell 256 B inferred from SONiC Arista-7050CX3-32S buffer tables; pipeline and mac_phy: Spectrum values as a conservative proxy (not published for Trident3)"}
	tomahawk = asic{"Tomahawk", 16 << 20, 0, 208, 19 * 1024, 819,
		"Arista 7060CX datasheet (16 MB); cell 208 B inferred from SONiC th/gen pg_profile_lookup.ini; pipeline and mac_phy: Spectrum values as a conservative proxy (not published for Tomahawk)"}
	// Jericho2 buffers in 8 GB of HBM behind 16 MB of on-chip SRAM; PFC
	// headroom is taken from the on-chip part, so the budget uses 16 MB.
	// No public cell size: the Trident3 256 B cell stands in (the larger
	// of the Broadcom cells found, so occupancy is not underestimated).
	jericho2 = asic{"Jericho2", 16 << 20, 0, 256, 19 * 1024, 819,
		"Arista 7280R3 white paper (Jericho2: 16 MB on-chip, 8 GB HBM deep buffer not counted for headroom); cell 256 B stand-in (Trident3); pipeline and mac_phy: Spectrum values as a conservative proxy"}
	// Tomahawk5 (7060X6): no Arista datasheet figure was reachable; the
	// SONiC buffer table of the same switch gives the whole buffer as
	// the lossless profiles' static threshold (167546528 B) and the
	// carvable pool (165660324 B). fabricc budgets 157 MiB (164626432
	// B), the largest whole MiB below that pool, so the budget never
	// counts more than SONiC carves. Its sizes are whole multiples of a
	// 254 B cell (pg_profile_lookup.ini 18796 = 74 x 254, xon_offset
	// 3556 = 14 x 254; egress_lossy_profile 1778 = 7 x 254).
	tomahawk5 = asic{"Tomahawk5", 157 << 20, 0, 254, 19 * 1024, 819,
		"sonic-buildimage device/arista/x86_64-arista_7060x6_64pe Arista-7060X6-64PE-O128S2 buffers_defaults_t1.j2 (buffer 167546528 B, pools 165660324 B; budgeted at 157 MiB, the whole MiB below the pool) and pg_profile_lookup.ini (cell 254 B inferred); pipeline and mac_phy: Spectrum values as a conservative proxy (not published for Tomahawk5)"}
)

// usable is the buffer the budget uses: usableBytes where a public source
// gives it, else the datasheet total.
func (a asic) usable() int64 {
	if a.usableBytes > 0 {
		return a.usableBytes
	}
	return a.bufferBytes
}

// switchModel is one row of the hardware table.
type switchModel struct {
	vendor string // "nvidia", "arista" or "dell"
	asic   asic
	// ports are the front-panel ports, in number order.
	ports []portGroup
	// platforms lists the switch operating systems the model runs.
	platforms []platformSupport
	// datasheet cites the port layout.
	datasheet string
}

// platformSupport is one OS a model runs; below, when set, is the first
// OS release that no longer runs on it.
type platformSupport struct {
	platform model.Platform
	below    string
}

// Platform sets of the rows below. Onyx runs on Spectrum, Spectrum-2
// and Spectrum-3 switches; Spectrum-4 (SN5000) ships with Cumulus Linux
// (and SONiC) only (NVIDIA SN5000 series datasheet, "Software": Cumulus
// Linux, SONiC). Cumulus Linux 5.0 dropped Broadcom hardware (Cumulus
// Linux 5.0 release notes: NVIDIA Spectrum switches only), so the Dell
// S5248F-ON needs a 4.x release, and fabricc, which writes the NVUE QoS
// profiles of Cumulus Linux 5.3 and later (minCumulusRelease), cannot
// configure it: it stays in the table, listed as not supported, so that
// `fabricc models` and its error say why.
var (
	onyxCumulus = []platformSupport{{model.PlatformOnyx, ""}, {model.PlatformCumulus, ""}}
	cumulusOnly = []platformSupport{{model.PlatformCumulus, ""}}
	eosOnly     = []platformSupport{{model.PlatformEOS, ""}}
	cumulus4    = []platformSupport{{model.PlatformCumulus, "5.0"}}
)

// hardwareTable maps a model name (upper case) to its vendor, ASIC,
// ports and platforms. Cumulus Linux runs on the same SN-series hardware
// as Onyx, so a Cumulus switch with model SN2700 or SN3700 uses the
// Spectrum rows; the Dell S5248F-ON (Trident3, on Cumulus Linux's
// hardware list up to 4.x; SONiC td3-s5248f-25g.config.bcm, 32744448 B
// ingress pool) is the non-Spectrum Cumulus row. Port layouts are the
// vendors' datasheets (front-panel cages, numbered from 1).
var hardwareTable = map[string]switchModel{
	"SN2010": {"nvidia", spectrum1, ports(group(1, 18, sfp28), group(19, 22, qsfp28)), onyxCumulus, "NVIDIA Spectrum SN2000 series datasheet"},
	"SN2100": {"nvidia", spectrum1, ports(group(1, 16, qsfp28)), onyxCumulus, "NVIDIA Spectrum SN2000 series datasheet"},
	"SN2410": {"nvidia", spectrum1, ports(group(1, 48, sfp28), group(49, 56, qsfp28)), onyxCumulus, "NVIDIA Spectrum SN2000 series datasheet"},
	"SN2700": {"nvidia", spectrum1, ports(group(1, 32, qsfp28)), onyxCumulus, "NVIDIA Spectrum SN2000 series datasheet"},
	"SN2740": {"nvidia", spectrum1, ports(group(1, 32, qsfp28)), onyxCumulus, "NVIDIA Spectrum SN2000 series datasheet"},

	"SN3420":  {"nvidia", spectrum2, ports(group(1, 48, sfp28), group(49, 60, qsfp28)), onyxCumulus, "NVIDIA Spectrum-2 SN3000 series datasheet"},
	"SN3700":  {"nvidia", spectrum2, ports(group(1, 32, qsfp56)), onyxCumulus, "NVIDIA Spectrum-2 SN3000 series datasheet"},
	"SN3700C": {"nvidia", spectrum2, ports(group(1, 32, qsfp28)), onyxCumulus, "NVIDIA Spectrum-2 SN3000 series datasheet"},
	"SN3800":  {"nvidia", spectrum2, ports(group(1, 64, qsfp28)), onyxCumulus, "NVIDIA Spectrum-2 SN3000 series datasheet"},

	"SN4410":  {"nvidia", spectrum3, ports(group(1, 24, qsfp28dd), group(25, 32, qsfpDD)), onyxCumulus, "NVIDIA Spectrum-3 SN4000 series datasheet"},
	"SN4600":  {"nvidia", spectrum3, ports(group(1, 64, qsfp56)), onyxCumulus, "NVIDIA Spectrum-3 SN4000 series datasheet"},
	"SN4600C": {"nvidia", spectrum3, ports(group(1, 64, qsfp28)), onyxCumulus, "NVIDIA Spectrum-3 SN4000 series datasheet"},
	"SN4700":  {"nvidia", spectrum3, ports(group(1, 32, qsfpDD)), onyxCumulus, "NVIDIA Spectrum-3 SN4000 series datasheet"},

	"SN5400": {"nvidia", spectrum4, ports(group(1, 64, qsfp112)), cumulusOnly, "NVIDIA Spectrum-4 SN5000 series datasheet"},
	"SN5600": {"nvidia", spectrum4, ports(group(1, 64, osfp800), group(65, 65, sfp28)), cumulusOnly, "NVIDIA Spectrum-4 SN5000 series datasheet"},

	"7050CX3-32S":    {"arista", trident3, ports(group(1, 32, qsfp28), group(33, 34, sfpPlus)), eosOnly, "Arista 7050X3 series datasheet"},
	"7050SX3-48YC8":  {"arista", trident3, ports(group(1, 48, sfp28), group(49, 56, qsfp28)), eosOnly, "Arista 7050X3 series datasheet"},
	"7050SX3-48YC12": {"arista", trident3, ports(group(1, 48, sfp28), group(49, 60, qsfp28)), eosOnly, "Arista 7050X3 series datasheet"},
	"7060CX-32S":     {"arista", tomahawk, ports(group(1, 32, qsfp28), group(33, 34, sfpPlus)), eosOnly, "Arista 7060X series datasheet"},
	"7280CR3-32P4":   {"arista", jericho2, ports(group(1, 32, qsfp28), group(33, 36, osfp400)), eosOnly, "Arista 7280R3 series datasheet"},
	"7280CR3-32D4":   {"arista", jericho2, ports(group(1, 32, qsfp28), group(33, 36, qsfpDD)), eosOnly, "Arista 7280R3 series datasheet"},
	"7280SR3-48YC8":  {"arista", jericho2, ports(group(1, 48, sfp28), group(49, 56, qsfp28)), eosOnly, "Arista 7280R3 series datasheet"},
	// The rest of the 7280R3 series and the K models (external TCAM, the
	// same ports and buffer): Arista 7280R3 switch architecture white
	// paper, "System Specifications" (7280PR3-24 and 7280DR3-24: 24 x
	// 400G; 7280CR3-96: 96 x 100G; every model with a K twin).
	"7280CR3K-32P4":  {"arista", jericho2, ports(group(1, 32, qsfp28), group(33, 36, osfp400)), eosOnly, "Arista 7280R3 switch architecture white paper"},
	"7280CR3K-32D4":  {"arista", jericho2, ports(group(1, 32, qsfp28), group(33, 36, qsfpDD)), eosOnly, "Arista 7280R3 switch architecture white paper"},
	"7280SR3K-48YC8": {"arista", jericho2, ports(group(1, 48, sfp28), group(49, 56, qsfp28)), eosOnly, "Arista 7280R3 switch architecture white paper"},
	"7280PR3-24":     {"arista", jericho2, ports(group(1, 24, osfp400)), eosOnly, "Arista 7280R3 switch architecture white paper"},
	"7280PR3K-24":    {"arista", jericho2, ports(group(1, 24, osfp400)), eosOnly, "Arista 7280R3 switch architecture white paper"},
	"7280DR3-24":     {"arista", jericho2, ports(group(1, 24, qsfpDD)), eosOnly, "Arista 7280R3 switch architecture white paper"},
	"7280DR3K-24":    {"arista", jericho2, ports(group(1, 24, qsfpDD)), eosOnly, "Arista 7280R3 switch architecture white paper"},
	"7280CR3-96":     {"arista", jericho2, ports(group(1, 96, qsfp28)), eosOnly, "Arista 7280R3 switch architecture white paper"},
	"7280CR3K-96":    {"arista", jericho2, ports(group(1, 96, qsfp28)), eosOnly, "Arista 7280R3 switch architecture white paper"},
	// 64 x 800G OSFP (8 x 100G lanes) and two SFP+ ports (sonic-
	// buildimage x86_64-arista_7060x6_64pe platform.json: chassis
	// "DCS-7060X6-64PE", osfp1-64, sfp65-66).
	"7060X6-64PE": {"arista", tomahawk5, ports(group(1, 64, osfp800), group(65, 66, sfpPlus)), eosOnly, "sonic-buildimage device/arista/x86_64-arista_7060x6_64pe platform.json (chassis DCS-7060X6-64PE: osfp1-64, sfp65-66)"},
	// The 7800R3 modular chassis: line cards from slot 3 (slots 1 and 2
	// are the supervisors), each line card 36 x 400G (8 x 50G PAM4 lanes)
	// on Jericho2, the 7800R3 white paper's densities (7804R3: 144 x
	// 400G in 4 slots; 7808R3: 288 x 400G in 8 slots). Every slot is
	// taken to hold a 36-port 400G QSFP-DD line card; the table has no
	// chassis with 100G line cards.
	"7804R3": {"arista", jericho2, onCards(3, 6, group(1, 36, qsfpDD)), eosOnly, "Arista 7800R3 platform architecture white paper (7804R3: 4 line card slots, 144 x 400G)"},
	"7808R3": {"arista", jericho2, onCards(3, 10, group(1, 36, qsfpDD)), eosOnly, "Arista 7800R3 platform architecture white paper (7808R3: 8 line card slots, 288 x 400G)"},

	"S5248F-ON": {"dell", trident3, ports(group(1, 48, sfp28), group(49, 52, qsfp28), group(53, 54, qsfp28dd)), cumulus4, "Dell EMC PowerSwitch S5248F-ON specification sheet"},
}

// ModelNames returns the switch model names fabricc knows (what a
// fabric's `model` takes), sorted.
func ModelNames() []string { return knownModels() }

// knownModels returns the model names of the table, sorted.
func knownModels() []string {
	names := make([]string, 0, len(hardwareTable))
	for name := range hardwareTable {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// lookupHardware returns the table row for a model name, ignoring case.
func lookupHardware(name string) (switchModel, bool) {
	m, ok := hardwareTable[canonicalModel(name)]
	return m, ok
}

// canonicalModel is the table key of a model name. Arista's full model
// names carry a "DCS-" prefix (what EOS's `show version` prints as the
// model, "Arista DCS-7280CR3-32D4", and the name inventories and
// CloudVision use); the table holds them without it, so a name whose
// rest is an Arista model is that model.
func canonicalModel(name string) string {
	n := strings.ToUpper(strings.TrimSpace(name))
	if rest, ok := strings.CutPrefix(n, "DCS-"); ok {
		if row, known := hardwareTable[rest]; known && row.vendor == "arista" {
			return rest
		}
	}
	return n
}

// usable reports whether fabricc can configure the platform on the model
// at all: a model the platform runs only before the first release
// fabricc configures (minRelease) runs no release fabricc takes.
func (s platformSupport) usable() bool {
	least := minRelease[s.platform]
	return s.below == "" || least == "" || model.CompareVersions(s.below, least) > 0
}

// text names the platform as messages show it: "cumulus", "cumulus
// (before 5.0)", or for one fabricc cannot configure, why not.
func (s platformSupport) text() string {
	switch {
	case s.below == "":
		return string(s.platform)
	case !s.usable():
		return fmt.Sprintf("%s (%s)", s.platform, s.unsupported())
	}
	return fmt.Sprintf("%s (before %s)", s.platform, s.below)
}

// listed names the platform as the model listing shows it (`fabricc
// models`, docs/models.md): as text does, but one fabricc cannot
// configure only as "not usable", whose reason is the listing's
// unsupported field. The listing is a table whose columns stay as wide
// as the widest platform cell ("cumulus (before 5.0)").
func (s platformSupport) listed() string {
	if !s.usable() {
		return fmt.Sprintf("%s (not usable)", s.platform)
	}
	return s.text()
}

// unsupported says why fabricc cannot configure the platform on the
// model ("" when it can).
func (s platformSupport) unsupported() string {
	if s.usable() {
		return ""
	}
	return fmt.Sprintf("runs %s only before %s; fabricc configures %s %s or later", platformTitle(s.platform), s.below, platformTitle(s.platform), minRelease[s.platform])
}

// support returns the row's entry for platform p.
func (m switchModel) support(p model.Platform) (platformSupport, bool) {
	for _, s := range m.platforms {
		if s.platform == p {
			return s, true
		}
	}
	return platformSupport{}, false
}

// runs reports whether the row's model runs platform p at OS release
// version, and if not, the releases it needs ("" when p never runs it).
func (m switchModel) runs(p model.Platform, version string) (ok bool, below string) {
	for _, s := range m.platforms {
		if s.platform != p {
			continue
		}
		if s.below == "" || model.CompareVersions(version, s.below) < 0 {
			return true, ""
		}
		return false, s.below
	}
	return false, ""
}

// platformList names the platforms of the row ("onyx, cumulus").
func (m switchModel) platformList() string {
	names := make([]string, len(m.platforms))
	for i, s := range m.platforms {
		names[i] = s.text()
	}
	return strings.Join(names, ", ")
}

// modelsRunning lists the models that run platform p at its default
// release, sorted, for messages.
func modelsRunning(p model.Platform) []string {
	var out []string
	for _, name := range knownModels() {
		if ok, _ := hardwareTable[name].runs(p, platforms[p].osVersion); ok {
			out = append(out, name)
		}
	}
	return out
}

// resolveHardware fills sw.Hardware from the table and sets BufferStyle.
// The model and its fit to the platform were checked while lowering
// (checkSwitchModel); an unknown model leaves the hardware unresolved.
func resolveHardware(sw *model.Switch) bool {
	row, ok := lookupHardware(sw.Hardware.Model)
	if !ok {
		return false
	}
	a := row.asic
	sw.Hardware = model.Hardware{
		Model:                canonicalModel(sw.Hardware.Model),
		ASIC:                 a.name,
		BufferBytes:          a.bufferBytes,
		UsableBufferBytes:    a.usable(),
		CellBytes:            a.cellBytes,
		PipelineLatencyBytes: a.pipelineBytes,
		MACPHYDelayBytes:     a.macPHYBytes,
		Source:               a.source,
	}
	sw.BufferStyle = bufferStyle(sw.Platform, sw.OSVersion)
	return true
}

// bufferStyle picks how a switch's buffers are configured. Onyx gained
// traffic pools in MLNX-OS 3.6.5000 (NVIDIA Onyx User Manual, Shared
// Buffer Commands; att/netarbiter nvmf/RoCE_Deployment.md); older releases
// use the advanced ingress-buffer commands (Demartek RoCE Deployment
// Guide, "Deploying RoCE on a Network Switch" step 9). EOS and Cumulus
// configure buffers by profile.
// An Onyx switch without a version is taken to be current.
func bufferStyle(p model.Platform, version string) string {
	if p != model.PlatformOnyx {
		return "profile"
	}
	if version != "" && model.CompareVersions(version, model.OnyxTrafficPoolRelease) < 0 {
		return "advanced"
	}
	return "traffic-pool"
}
