package cumulus

import (
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestPFCProfileNameMatchesEveryName: every name pfcName gives (each
// speed NVUE has a keyword for and one it has not, no speed, cables of
// one and several digits, none, several priorities, a second profile of
// one name) matches PFCProfileName, which push removes by; names an
// operator may give are not fabricc's.
func TestPFCProfileNameMatchesEveryName(t *testing.T) {
	taken := map[string]bool{}
	var names []string
	for _, prios := range []string{"3", "3,4", "0,1,2,3,4,5,6,7"} {
		for _, mbps := range []int{0, 10, 100, 1000, 10000, 25000, 40000, 50000, 100000, 200000, 400000, 800000, 12000} {
			for _, meters := range []int{0, 1, 15, 100000} {
				for range 2 {
					prof := &pfcProfile{prios: prios, buf: PFCBuffer{CableMeters: meters}, speedMbps: mbps}
					names = append(names, pfcName(prof, taken))
				}
			}
		}
	}
	for _, want := range []string{"pfc-sp3", "pfc-sp3-2", "pfc-sp3-100g-15m", "pfc-sp3-100g-15m-2", "pfc-sp3_4-12000m-15m", "pfc-sp0_1_2_3_4_5_6_7-10m-1m-2"} {
		if !taken[want] {
			t.Errorf("pfcName never gave %s", want)
		}
	}
	for _, n := range names {
		if !PFCProfileName.MatchString(n) {
			t.Errorf("pfcName gave %q, which PFCProfileName does not match", n)
		}
	}
	for _, n := range []string{"default-global", "pfc-sp3-storage", "my-pfc-sp3-100g-3m", "pfc-sp3-100g-3m ", "pfc-sp8-100g", "pfc-sp3-100G-3m",
		"pfc-sp3-100g-3m-2-3", "pfc-sp-100g", "pfc-sp3,4-100g", "PFC-SP3-100g-3m", "pfc-sp3-100g-3m\nqos"} {
		if PFCProfileName.MatchString(n) {
			t.Errorf("PFCProfileName matches %q, which pfcName never gives", n)
		}
	}
}

// TestTrustProfileNameMatchesEveryName: the mapping profile of every
// trust (renderMapping: "trust-" and the keyword) is an owned profile,
// and other mapping names are not.
func TestTrustProfileNameMatchesEveryName(t *testing.T) {
	for _, tr := range []model.Trust{model.TrustDSCP, model.TrustPCP, model.TrustBoth} {
		kw, err := trustKeyword(tr)
		if err != nil || !trustProfileName.MatchString("trust-"+kw) {
			t.Errorf("trust %s: profile trust-%s (%v) is not matched", tr, kw, err)
		}
	}
	for _, n := range []string{"default-global", "trust-l3-storage", "my-trust-l3", "trust-", "trust-L3"} {
		if trustProfileName.MatchString(n) {
			t.Errorf("trustProfileName matches %q, which renderMapping never gives", n)
		}
	}
}
