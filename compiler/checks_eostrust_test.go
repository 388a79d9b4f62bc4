package compiler

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestPCPUntaggedEOSBoth: a port trusting "both" classifies an untagged
// RoCE v1 NIC by PCP on Onyx and Cumulus, never on EOS, which has no
// combined trust (checkTrustOnPlatform refuses it there).
func TestPCPUntaggedEOSBoth(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		trust    model.Trust
		want     bool
	}{
		{model.PlatformOnyx, model.TrustBoth, true},
		{model.PlatformCumulus, model.TrustBoth, true},
		{model.PlatformEOS, model.TrustBoth, false},
		{model.PlatformEOS, model.TrustPCP, true},
		{model.PlatformEOS, model.TrustDSCP, false},
	} {
		sw := &model.Switch{Name: "leaf", Platform: tc.platform}
		p := &model.Port{Name: "p1", Trust: tc.trust}
		n := &model.NIC{Name: "roce0", RoCE: model.RoCE{Mode: "v1", Priority: 3}}
		s := end{sw: sw, port: p}
		h := end{host: &model.Host{Name: "h1"}, nic: n}
		if got := pcpUntagged(s, h); got != tc.want {
			t.Errorf("%s port trusting %s toward an untagged RoCE v1 NIC: pcpUntagged = %v, want %v", tc.platform, tc.trust, got, tc.want)
		}
	}
}

// TestEOSTrustBoth: trust = "both" on an EOS port is an error at the
// trust attribute naming EOS and the fix; on Onyx it is accepted.
func TestEOSTrustBoth(t *testing.T) {
	const fabric = `fabric "r" {}
qos {
  profile = "nvidia-roce"
}
switch "leaf" {
  platform = "PLATFORM"
  model    = "MODEL"
  port "PORT" {
    speed = "100G"
    trust = "both"
  }
}
`
	for _, tc := range []struct {
		platform, model, port string
		want                  []string
	}{
		{"eos", "7050CX3-32S", "Ethernet1/1", []string{`10:13: Trust mode not available on EOS: port "Ethernet1/1" on switch "leaf" has trust "both", but EOS has no combined trust mode: an Arista port trusts DSCP or CoS (qos trust dscp or qos trust cos), never both, so RoCE v1 (no IP header) would fall into the port's default traffic class. Write trust = "dscp" toward RoCE v2 NICs, or trust = "pcp" toward RoCE v1 NICs.`}},
		{"onyx", "SN2700", "1/1", nil},
	} {
		src := strings.NewReplacer("PLATFORM", tc.platform, "MODEL", tc.model, "PORT", tc.port).Replace(fabric)
		_, _, got := lowerSrc(t, src)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: diagnostics\n%s\nwant\n%s", tc.platform, joinLines(got), joinLines(tc.want))
		}
	}
}
