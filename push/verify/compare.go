package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// Difference is one setting that is not what the model intends.
type Difference struct {
	Device   string `json:"device"`
	Port     string `json:"port,omitempty"`
	Field    string `json:"field"`
	Intended string `json:"intended"`
	Actual   string `json:"actual"`
}

// String is "leaf1 Ethernet1 MTU: intended 9214, actual 9114".
func (d Difference) String() string {
	where := d.Device
	if d.Port != "" {
		where += " " + d.Port
	}
	return fmt.Sprintf("%s %s: intended %s, actual %s", where, d.Field, d.Intended, d.Actual)
}

// ECN thresholds are compared with a tolerance: Onyx takes them in KB
// (mellanox.onyx onyx_traffic_class.py: "value (in KBs)", so 150000 B is
// configured as 146 KB), and Spectrum
// programs thresholds in buffer cells, rounding up: NVIDIA's Cumulus docs
// show a configured 150000 B min threshold as HW-programmed 159744 B on
// Spectrum-4/5 (Cumulus Linux user guide, RoCE, "Default RoCE
// Configuration"), +6.5 %.
// The tolerance allows one KiB below and 7 % above the intended value.
const (
	ecnSlackBelow   = 1024
	ecnSlackAbovePc = 7
)

func ecnClose(want, got ECN) bool {
	ok := func(w, g int64) bool {
		return g >= w-ecnSlackBelow && g <= w+w*ecnSlackAbovePc/100+ecnSlackBelow
	}
	return ok(want.MinBytes, got.MinBytes) && ok(want.MaxBytes, got.MaxBytes)
}

// Compare lists the differences between the intended and the actual
// state of device, ports in name order. Only ports the model has are
// compared: the rest of the switch is not the fabric's business.
func Compare(device string, want, got *State) []Difference {
	var out []Difference
	// Int lists are compared whole, so a difference reports the list,
	// not an element; nil and empty are equal.
	opts := cmp.Options{cmp.Comparer(ecnClose), cmp.Comparer(slices.Equal[[]int])}
	for _, id := range slices.Sorted(maps.Keys(want.VLANs)) {
		name, ok := got.VLANs[id]
		switch {
		case !ok:
			out = append(out, Difference{Device: device, Field: fmt.Sprintf("VLAN %d", id), Intended: "present", Actual: "missing"})
		case want.VLANs[id] != "" && !got.NoVLANNames && name != want.VLANs[id]:
			out = append(out, Difference{Device: device, Field: fmt.Sprintf("VLAN %d name", id), Intended: want.VLANs[id], Actual: name})
		}
	}
	out = append(out, comparePools(device, want.Pools, got.Pools)...)
	for _, n := range slices.Sorted(maps.Keys(want.Ports)) {
		var g Port // copies: the DSCP map may be dropped below
		if got.Ports[n] != nil {
			g = *got.Ports[n]
		}
		w := *want.Ports[n]
		if g.DSCPToTC == nil || w.DSCPToTC == nil {
			w.DSCPToTC, g.DSCPToTC = nil, nil // not readable on this platform, or no map in the model
		}
		var r reporter
		cmp.Equal(w, g, opts, cmp.Reporter(&r))
		for _, d := range r.diffs {
			d.Device, d.Port = device, n
			out = append(out, d)
		}
	}
	return out
}

// reporter collects go-cmp's differing leaves as Differences.
type reporter struct {
	path  cmp.Path
	diffs []Difference
}

func (r *reporter) PushStep(ps cmp.PathStep) { r.path = append(r.path, ps) }
func (r *reporter) PopStep()                 { r.path = r.path[:len(r.path)-1] }

func (r *reporter) Report(rs cmp.Result) {
	if rs.Equal() {
		return
	}
	want, got := r.path.Last().Values()
	r.diffs = append(r.diffs, Difference{Field: fieldName(r.path), Intended: show(want), Actual: show(got)})
}

// fieldName turns a go-cmp path into "ECN[3]" / "MTU" / "ETS[6].Mode".
func fieldName(p cmp.Path) string {
	var b strings.Builder
	for _, s := range p[1:] {
		switch s := s.(type) {
		case cmp.StructField:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name())
		case cmp.MapIndex:
			fmt.Fprintf(&b, "[%v]", s.Key())
		}
	}
	return b.String()
}

func show(v interface {
	IsValid() bool
	Interface() any
}) string {
	if !v.IsValid() {
		return "(none)"
	}
	x := v.Interface()
	switch x := x.(type) {
	case ECN:
		return fmt.Sprintf("min %d B max %d B", x.MinBytes, x.MaxBytes)
	case string:
		if x == "" {
			return `""`
		}
	}
	return fmt.Sprintf("%v", x)
}

// poolSlackPercent is how far a pool's share may be from the model's: the
// Cumulus target writes whole percents rounded down (NVUE memory-percent
// is an integer), Onyx two decimals.
const poolSlackPercent = 1.0

// comparePools compares ingress pools by type; nothing when got has no
// pools to compare.
func comparePools(device string, want, got map[string]Pool) []Difference {
	if got == nil {
		return nil
	}
	var out []Difference
	for _, typ := range []string{"lossless", "lossy"} {
		w, ok := want[typ]
		if !ok {
			continue
		}
		g, ok := got[typ]
		field := "pool " + typ
		switch {
		case !ok:
			out = append(out, Difference{Device: device, Field: field, Intended: fmt.Sprintf("%.1f%% priorities %v", w.Percent, w.Priorities), Actual: "missing"})
			continue
		case g.Percent < w.Percent-poolSlackPercent || g.Percent > w.Percent+poolSlackPercent:
			out = append(out, Difference{Device: device, Field: field + " percent", Intended: fmt.Sprintf("%.1f", w.Percent), Actual: fmt.Sprintf("%.1f", g.Percent)})
		}
		if !slices.Equal(w.Priorities, g.Priorities) {
			out = append(out, Difference{Device: device, Field: field + " priorities", Intended: fmt.Sprint(w.Priorities), Actual: fmt.Sprint(g.Priorities)})
		}
	}
	return out
}
