package cumulus

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// pfcProfileLines are the script's `nv set` and `nv unset` lines of the
// fabricc PFC profiles, in order.
func pfcProfileLines(script string) []string {
	var out []string
	for _, l := range strings.Split(script, "\n") {
		if strings.HasPrefix(l, "nv set qos pfc pfc-sp") || strings.HasPrefix(l, "nv unset qos pfc pfc-sp") {
			out = append(out, l)
		}
	}
	return out
}

// TestHeadroomModePlatform: with qos headroom mode "platform" each PFC
// profile is switch-priority, tx, rx and cable-length only, and the
// port-buffer, xoff-threshold and xon-threshold an earlier push wrote
// are unset in the script and listed in the YAML's unsets, so switchd
// derives them from the cable (rcum #10). Ports of one speed that
// differ only in fabricc's computed headroom would share a profile; the
// 25G port keeps its own, whose name gives its speed. In the default mode the
// three values are written, as before.
func TestHeadroomModePlatform(t *testing.T) {
	platform := func(f *model.Fabric) {
		f.QoS.Headroom.Mode = model.HeadroomPlatform
		f.Switches[0].HeadroomLeftToSwitch = true
	}
	script, yml := render(t, platform)
	want := []string{
		"nv unset qos pfc pfc-sp3-100g-3m switch-priority",
		"nv set qos pfc pfc-sp3-100g-3m switch-priority 3",
		"nv set qos pfc pfc-sp3-100g-3m tx enable",
		"nv set qos pfc pfc-sp3-100g-3m rx enable",
		"nv set qos pfc pfc-sp3-100g-3m cable-length 3",
		"nv unset qos pfc pfc-sp3-100g-3m port-buffer",
		"nv unset qos pfc pfc-sp3-100g-3m xoff-threshold",
		"nv unset qos pfc pfc-sp3-100g-3m xon-threshold",
		"nv unset qos pfc pfc-sp3-25g-3m switch-priority",
		"nv set qos pfc pfc-sp3-25g-3m switch-priority 3",
		"nv set qos pfc pfc-sp3-25g-3m tx enable",
		"nv set qos pfc pfc-sp3-25g-3m rx enable",
		"nv set qos pfc pfc-sp3-25g-3m cable-length 3",
		"nv unset qos pfc pfc-sp3-25g-3m port-buffer",
		"nv unset qos pfc pfc-sp3-25g-3m xoff-threshold",
		"nv unset qos pfc pfc-sp3-25g-3m xon-threshold",
		"nv unset qos pfc pfc-sp3-100g-30m switch-priority",
		"nv set qos pfc pfc-sp3-100g-30m switch-priority 3",
		"nv set qos pfc pfc-sp3-100g-30m tx enable",
		"nv set qos pfc pfc-sp3-100g-30m rx enable",
		"nv set qos pfc pfc-sp3-100g-30m cable-length 30",
		"nv unset qos pfc pfc-sp3-100g-30m port-buffer",
		"nv unset qos pfc pfc-sp3-100g-30m xoff-threshold",
		"nv unset qos pfc pfc-sp3-100g-30m xon-threshold",
	}
	if got := pfcProfileLines(script); !slices.Equal(got, want) {
		t.Errorf("PFC profile lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, w := range []string{
		"# headroom mode platform: switchd derives port-buffer, xoff-threshold and xon-threshold from the cable-length, as NVIDIA recommends (Cumulus Linux 5.9 user guide, Quality of Service, PFC);",
		"nv set interface swp1 qos pfc profile pfc-sp3-100g-3m",
		"nv set interface swp32 qos pfc profile pfc-sp3-100g-30m",
	} {
		if !strings.Contains(script, w+"\n") {
			t.Errorf("script lacks %q", w)
		}
	}
	for _, w := range []string{"# nv unset qos pfc pfc-sp3-100g-30m port-buffer\n", "# nv unset qos pfc pfc-sp3-100g-3m xon-threshold\n"} {
		if !strings.Contains(yml, w) {
			t.Errorf("YAML lacks %q", w)
		}
	}
	for _, text := range []string{script, yml} {
		for _, bad := range []string{"port-buffer 57000", "port-buffer: ", "xoff-threshold: ", "in flight after PAUSE; port-buffer"} {
			if strings.Contains(text, bad) {
				t.Errorf("headroom mode platform still writes %q", bad)
			}
		}
	}
	computed, _ := render(t, nil)
	got := pfcProfileLines(computed)
	for _, w := range []string{"nv set qos pfc pfc-sp3-100g-3m port-buffer 57000", "nv set qos pfc pfc-sp3-100g-3m xoff-threshold 19000"} {
		if !slices.Contains(got, w) {
			t.Errorf("the default mode lacks %q", w)
		}
	}
	if slices.ContainsFunc(got, func(l string) bool {
		return strings.HasPrefix(l, "nv unset") && !strings.HasSuffix(l, " switch-priority")
	}) {
		t.Errorf("the default mode unsets profile values: %q", got)
	}
}

// TestWrittenPFCBuffer: the buffer push verification expects is the
// cable alone under headroom mode "platform", and PortPFCBuffer's
// otherwise.
func TestWrittenPFCBuffer(t *testing.T) {
	f := fixture()
	port := &f.Switches[0].Ports[0]
	computed, ok := WrittenPFCBuffer(false, port)
	if want := (PFCBuffer{CableMeters: 3, PortBuffer: 57000, XoffThreshold: 19000, XonThreshold: 19000}); !ok || computed != want {
		t.Errorf("computed: %+v %v, want %+v", computed, ok, want)
	}
	left, ok := WrittenPFCBuffer(true, port)
	if want := (PFCBuffer{CableMeters: 3}); !ok || left != want {
		t.Errorf("platform: %+v %v, want %+v", left, ok, want)
	}
}

// TestPFCProfileWithoutLosslessPGNamedForItsSpeed: in the default
// (computed) mode, PFC ports with no lossless priority group get a
// profile of the priorities and the cable only, NVUE deriving the rest.
// A 25G port on a cable that rounds up to the same 3 m as two 100G
// ports' gets a profile of its own, named for its speed, as in mode
// "platform": it was attached to the 100G ports' pfc-sp3-100g-3m, a
// name that told the operator the wrong speed.
func TestPFCProfileWithoutLosslessPGNamedForItsSpeed(t *testing.T) {
	script, _ := render(t, func(f *model.Fabric) {
		for i := range f.Switches[0].Ports {
			p := &f.Switches[0].Ports[i]
			p.PriorityGroups = []model.PriorityGroup{lossyPG()}
		}
	})
	want := []string{
		"nv unset qos pfc pfc-sp3-100g-3m switch-priority",
		"nv set qos pfc pfc-sp3-100g-3m switch-priority 3",
		"nv set qos pfc pfc-sp3-100g-3m tx enable",
		"nv set qos pfc pfc-sp3-100g-3m rx enable",
		"nv set qos pfc pfc-sp3-100g-3m cable-length 3",
		"nv unset qos pfc pfc-sp3-100g-3m port-buffer",
		"nv unset qos pfc pfc-sp3-100g-3m xoff-threshold",
		"nv unset qos pfc pfc-sp3-100g-3m xon-threshold",
		"nv unset qos pfc pfc-sp3-25g-3m switch-priority",
		"nv set qos pfc pfc-sp3-25g-3m switch-priority 3",
		"nv set qos pfc pfc-sp3-25g-3m tx enable",
		"nv set qos pfc pfc-sp3-25g-3m rx enable",
		"nv set qos pfc pfc-sp3-25g-3m cable-length 3",
		"nv unset qos pfc pfc-sp3-25g-3m port-buffer",
		"nv unset qos pfc pfc-sp3-25g-3m xoff-threshold",
		"nv unset qos pfc pfc-sp3-25g-3m xon-threshold",
		"nv unset qos pfc pfc-sp3-100g-30m switch-priority",
		"nv set qos pfc pfc-sp3-100g-30m switch-priority 3",
		"nv set qos pfc pfc-sp3-100g-30m tx enable",
		"nv set qos pfc pfc-sp3-100g-30m rx enable",
		"nv set qos pfc pfc-sp3-100g-30m cable-length 30",
		"nv unset qos pfc pfc-sp3-100g-30m port-buffer",
		"nv unset qos pfc pfc-sp3-100g-30m xoff-threshold",
		"nv unset qos pfc pfc-sp3-100g-30m xon-threshold",
	}
	if got := pfcProfileLines(script); !slices.Equal(got, want) {
		t.Errorf("PFC profile lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m := missing(script, []string{
		"# profile pfc-sp3-100g-3m: ports swp1,swp2",
		"# profile pfc-sp3-25g-3m: ports swp3",
		"nv set interface swp1 qos pfc profile pfc-sp3-100g-3m",
		"nv set interface swp2 qos pfc profile pfc-sp3-100g-3m",
		"nv set interface swp3 qos pfc profile pfc-sp3-25g-3m",
		"nv set interface swp32 qos pfc profile pfc-sp3-100g-30m",
	}); len(m) > 0 {
		t.Errorf("script lacks %q", m)
	}
}
