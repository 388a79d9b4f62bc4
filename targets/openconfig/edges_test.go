package openconfig

import (
	"strings"
	"testing"
)

// TestECNProfileCarriesModelProbability checks that the WRED profile's
// max-drop-probability-percent is the class's mark probability, not a
// constant: the fixture's 100 % would hide a hard-coded value.
func TestECNProfileCarriesModelProbability(t *testing.T) {
	f := testFabric()
	f.QoS.Classes[1].ECN.MarkProbabilityPercent = 10
	got := string(render(t, f, "leaf1")["leaf1.openconfig.json"])
	want := lines(4,
		`  "name": "roce-ecn",`,
		`  "wred": {`,
		`    "uniform": {`,
		`      "config": {`,
		`        "enable-ecn": true,`,
		`        "max-drop-probability-percent": 10,`,
		`        "max-threshold": "1500000",`,
		`        "min-threshold": "150000"`,
	)
	if !strings.Contains(got, want) {
		t.Errorf("leaf1.openconfig.json lacks:\n%s", want)
	}
	sameAsYgot(t, f)
}
