package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateSaysWhatWasNotChecked: errors that stop the fabric from
// decoding, or stop the compiler's lowering, hide the checks after them
// (a misspelt attribute on one port hides a bad speed on another), so
// the summary line names what did not run instead of implying the
// fabric has no other problem; a fabric whose every phase ran says
// nothing more.
func TestValidateSaysWhatWasNotChecked(t *testing.T) {
	const fabric = `fabric "f" {}

switch "s" {
  platform = "cumulus"
  model    = "SN2700"
  port "swp1" {
    speed = "SPEED"
  }
  port "swp3" {
    speed = "100G"
    ATTR  = 9000
  }
}
`
	tests := []struct {
		name, speed, attr, want string
	}{
		{"a decoding error", "100Gb", "mttu", "1 error, 0 warnings; not checked yet: ports, links, VLANs, QoS, headroom and buffers, the cross-device checks (they run once these errors are fixed)\n"},
		{"a lowering error", "100Gb", "mtu ", "1 error, 0 warnings; not checked yet: headroom and buffers, the cross-device checks (they run once these errors are fixed)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "fabric")
			writeFabric(t, dir, strings.NewReplacer("SPEED", tc.speed, "ATTR", tc.attr).Replace(fabric))
			code, _, errs := fabricc(t, "validate", "--compact", dir)
			if code != 1 {
				t.Fatalf("exit %d, want 1:\n%s", code, errs)
			}
			if !strings.HasSuffix(errs, tc.want) {
				t.Errorf("validate's last line:\n%s\nwant it to end:\n%s", errs, tc.want)
			}
			code, _, errs = fabricc(t, "build", dir, "-o", filepath.Join(t.TempDir(), "out"))
			if code != 1 || !strings.HasSuffix(errs, strings.TrimSuffix(tc.want, "\n")+"; nothing written\n") {
				t.Errorf("build exit %d, stderr:\n%s", code, errs)
			}
		})
	}
}
