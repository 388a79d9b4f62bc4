package cumulus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestCumulusHeadroomOverrideDocumented pins the README and
// docs/language.md paragraphs on NVIDIA's advice to leave the PFC port
// buffer and thresholds to Cumulus to what the renderer does: by
// default it writes all three (and the cable length), and with qos
// headroom mode "platform" the cable length only, so both documents must
// quote the advice, say that fabricc overrides it by default, and name
// the mode that follows it (rcum #10).
func TestCumulusHeadroomOverrideDocumented(t *testing.T) {
	script, _ := render(t, nil)
	written := []string{
		"nv set qos pfc pfc-sp3-100g-3m cable-length 3",
		"nv set qos pfc pfc-sp3-100g-3m port-buffer 57000",
		"nv set qos pfc pfc-sp3-100g-3m xoff-threshold 19000",
		"nv set qos pfc pfc-sp3-100g-3m xon-threshold 19000",
	}
	if m := missing(script, written); len(m) > 0 {
		t.Fatalf("the script no longer writes %q; update README and docs/language.md", m)
	}
	left, _ := render(t, func(f *model.Fabric) {
		f.QoS.Headroom.Mode = model.HeadroomPlatform
		f.Switches[0].HeadroomLeftToSwitch = true
	})
	if m := missing(left, written[:1]); len(m) > 0 || strings.Contains(left, "port-buffer 57000") {
		t.Fatalf("headroom mode platform: the script lacks %q or writes port-buffer; update README and docs/language.md", m)
	}
	quote := "NVIDIA recommends that you do not change these settings but, instead, let Cumulus Linux configure the settings dynamically."
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"README.md", []string{quote, "fabricc overrides them on purpose", "By default fabricc sets each Cumulus PFC profile's", "To leave the three values to Cumulus as NVIDIA recommends, write `qos { headroom { mode = \"platform\" } }`"}},
		{filepath.Join("docs", "language.md"), []string{quote, "fabricc overrides them deliberately", "To follow NVIDIA's advice instead, write `mode = \"platform\"`", "switchd derives `port-buffer`, `xoff-threshold` and `xon-threshold` from the cable length"}},
	} {
		src, err := os.ReadFile(filepath.Join("..", "..", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(src)), " ")
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s does not say %q", tc.file, w)
			}
		}
	}
}
