package cumulus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCumulusHeadroomOverrideDocumented pins the README and
// docs/language.md paragraphs on NVIDIA's advice to leave the PFC port
// buffer and thresholds to Cumulus to what the renderer does: it writes
// all three (and the cable length), so both documents must quote the
// advice and say that fabricc overrides it and offers no way out (rcum
// #10).
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
	quote := "NVIDIA recommends that you do not change these settings but, instead, let Cumulus Linux configure the settings dynamically."
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"README.md", []string{quote, "fabricc overrides them on purpose", "fabricc has no switch to leave the three values to Cumulus"}},
		{filepath.Join("docs", "language.md"), []string{quote, "fabricc overrides them deliberately", "There is no option to keep Cumulus's own values"}},
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
