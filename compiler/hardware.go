package compiler

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// asic holds the constants of one switch ASIC that the headroom and
// buffer physics need.
type asic struct {
	name        string
	bufferBytes int64
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
//     SONiC's ACS-MSN2700 buffers_defaults_t1.j2 gives 13945824 B as the
//     usable egress lossless pool, so the datasheet figure is the total
//     memory, not the part software may carve.
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
	spectrum1 = asic{"Spectrum", 16 << 20, 96, 19 * 1024, 819,
		"NVIDIA SN2000 datasheet (16 MB); sonic-buildimage platform/mellanox/asic_table.j2 MELLANOX-SPECTRUM (cell 96 B, pipeline 19 KB, mac_phy 0.8 KB)"}
	spectrum2 = asic{"Spectrum-2", 42 << 20, 144, 19 * 1024, 819,
		"NVIDIA SN3000 datasheet (42 MB); sonic-buildimage platform/mellanox/asic_table.j2 MELLANOX-SPECTRUM-2 (cell 144 B, pipeline 19 KB, mac_phy 0.8 KB)"}
	spectrum3 = asic{"Spectrum-3", 64 << 20, 144, 19 * 1024, 819,
		"NVIDIA SN4000 datasheet (64 MB); sonic-buildimage platform/mellanox/asic_table.j2 MELLANOX-SPECTRUM-3 (cell 144 B, pipeline 19 KB, mac_phy 0.8 KB)"}
	spectrum4 = asic{"Spectrum-4", 160 << 20, 192, 19 * 1024, 819,
		"NVIDIA SN5000 datasheet (160 MB); sonic-buildimage platform/mellanox/asic_table.j2 MELLANOX-SPECTRUM-4 (cell 192 B, pipeline 19 KB, mac_phy 0.8 KB)"}
	trident3 = asic{"Trident3", 32 << 20, 256, 19 * 1024, 819,
		"Arista 7050X3 datasheet (32 MB shared); cell 256 B inferred from SONiC Arista-7050CX3-32S buffer tables; pipeline and mac_phy: Spectrum values as a conservative proxy (not published for Trident3)"}
	tomahawk = asic{"Tomahawk", 16 << 20, 208, 19 * 1024, 819,
		"Arista 7060CX datasheet (16 MB); cell 208 B inferred from SONiC th/gen pg_profile_lookup.ini; pipeline and mac_phy: Spectrum values as a conservative proxy (not published for Tomahawk)"}
	// Jericho2 buffers in 8 GB of HBM behind 16 MB of on-chip SRAM; PFC
	// headroom is taken from the on-chip part, so the budget uses 16 MB.
	// No public cell size: the Trident3 256 B cell stands in (the larger
	// of the Broadcom cells found, so occupancy is not underestimated).
	jericho2 = asic{"Jericho2", 16 << 20, 256, 19 * 1024, 819,
		"Arista 7280R3 white paper (Jericho2: 16 MB on-chip, 8 GB HBM deep buffer not counted for headroom); cell 256 B stand-in (Trident3); pipeline and mac_phy: Spectrum values as a conservative proxy"}
)

// switchModel is one row of the hardware table.
type switchModel struct {
	vendor string // "nvidia", "arista" or "dell"
	asic   asic
}

// hardwareTable maps a model name (upper case) to its vendor and ASIC.
// Cumulus Linux runs on the same SN-series hardware as Onyx, so a Cumulus
// switch with model SN2700 or SN3700 uses the Spectrum rows; the Dell
// S5248F-ON (Trident3, on Cumulus Linux's hardware list up to 4.x; SONiC
// td3-s5248f-25g.config.bcm, 32744448 B ingress pool) is the
// non-Spectrum Cumulus row.
var hardwareTable = map[string]switchModel{
	"SN2010":         {"nvidia", spectrum1},
	"SN2100":         {"nvidia", spectrum1},
	"SN2410":         {"nvidia", spectrum1},
	"SN2700":         {"nvidia", spectrum1},
	"SN2740":         {"nvidia", spectrum1},
	"SN3420":         {"nvidia", spectrum2},
	"SN3700":         {"nvidia", spectrum2},
	"SN3700C":        {"nvidia", spectrum2},
	"SN3800":         {"nvidia", spectrum2},
	"SN4410":         {"nvidia", spectrum3},
	"SN4600":         {"nvidia", spectrum3},
	"SN4600C":        {"nvidia", spectrum3},
	"SN4700":         {"nvidia", spectrum3},
	"SN5400":         {"nvidia", spectrum4},
	"SN5600":         {"nvidia", spectrum4},
	"7050CX3-32S":    {"arista", trident3},
	"7050SX3-48YC8":  {"arista", trident3},
	"7050SX3-48YC12": {"arista", trident3},
	"7060CX-32S":     {"arista", tomahawk},
	"7280CR3-32P4":   {"arista", jericho2},
	"7280CR3-32D4":   {"arista", jericho2},
	"7280SR3-48YC8":  {"arista", jericho2},
	"S5248F-ON":      {"dell", trident3},
}

// platformVendors lists the hardware vendors each switch OS runs on.
var platformVendors = map[model.Platform][]string{
	model.PlatformOnyx:    {"nvidia"},
	model.PlatformEOS:     {"arista"},
	model.PlatformCumulus: {"nvidia", "dell"},
}

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
	m, ok := hardwareTable[strings.ToUpper(strings.TrimSpace(name))]
	return m, ok
}

// resolveHardware fills sw.Hardware from the table and sets BufferStyle.
func resolveHardware(sw *model.Switch, src Sources) hcl.Diagnostics {
	row, ok := lookupHardware(sw.Hardware.Model)
	if !ok {
		return hcl.Diagnostics{unknownModel(sw, src)}
	}
	if !slices.Contains(platformVendors[sw.Platform], row.vendor) {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Platform does not run on this model",
			Detail: fmt.Sprintf("Switch %q declares platform %q on model %s, which is %s hardware; %s runs on %s hardware. Fix the platform or the model.",
				sw.Name, sw.Platform, sw.Hardware.Model, row.vendor, sw.Platform, strings.Join(platformVendors[sw.Platform], " or ")),
			Subject: src.At("switch", sw.Name, "model"),
		}}
	}
	a := row.asic
	sw.Hardware = model.Hardware{
		Model:                strings.ToUpper(strings.TrimSpace(sw.Hardware.Model)),
		ASIC:                 a.name,
		BufferBytes:          a.bufferBytes,
		CellBytes:            a.cellBytes,
		PipelineLatencyBytes: a.pipelineBytes,
		MACPHYDelayBytes:     a.macPHYBytes,
		Source:               a.source,
	}
	sw.BufferStyle = bufferStyle(sw.Platform, sw.OSVersion)
	return nil
}

// unknownModel is the diagnostic for a model missing from the table.
func unknownModel(sw *model.Switch, src Sources) *hcl.Diagnostic {
	known := knownModels()
	detail := fmt.Sprintf("Switch %q has model %q, which fabricc has no buffer constants for.", sw.Name, sw.Hardware.Model)
	if s := suggest(sw.Hardware.Model, known); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	detail += " Known models: " + strings.Join(known, ", ") + "."
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unknown switch model",
		Detail:   detail,
		Subject:  src.At("switch", sw.Name, "model"),
	}
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
	if version != "" && compareVersions(version, "3.6.5000") < 0 {
		return "advanced"
	}
	return "traffic-pool"
}

// compareVersions compares dotted versions numerically, field by field
// ("3.6.10000" > "3.6.5000"). Non-digit suffixes of a field ("1F") are
// ignored; missing fields count as 0.
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		x, y := versionField(as, i), versionField(bs, i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// versionField returns the leading number of field i, or 0.
func versionField(fields []string, i int) int {
	if i >= len(fields) {
		return 0
	}
	f := fields[i]
	n := 0
	for n < len(f) && f[n] >= '0' && f[n] <= '9' {
		n++
	}
	v, _ := strconv.Atoi(f[:n])
	return v
}

// suggest returns the option closest to name by edit distance, ignoring
// case, if it is close enough to be a likely typo.
func suggest(name string, options []string) string {
	best, bestDist := "", 4
	up := strings.ToUpper(name)
	for _, o := range options {
		if d := distance(up, strings.ToUpper(o)); d < bestDist {
			best, bestDist = o, d
		}
	}
	return best
}
