package artifacts_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestAcceptedBuilds varies the numbers and keywords of the hostile-input
// fabric (speeds per platform, modes, trust, releases, VLAN ids, class
// priorities and shares, ECN sizes, cable lengths, MTUs, NIC models and
// drivers, watchdog times, switch models, Windows hosts of two NICs):
// every variant that validate accepts must build. The Windows variants
// failed in build, without a location, before the compiler checked them.
func TestAcceptedBuilds(t *testing.T) {
	base := fill(hostileTemplate(t), nil)
	type v struct {
		old  string
		news []string
	}
	speeds := []string{"100M", "1G", "10G", "25G", "40G", "50G", "56G", "100G", "200G", "400G", "800G"}
	var variants []v
	q := func(xs []string, f string) []string {
		var o []string
		for _, x := range xs {
			o = append(o, fmt.Sprintf(f, x))
		}
		return o
	}
	variants = append(variants,
		v{`speed       = "25G"`, q(speeds, `speed       = "%s"`)},
		v{"    description = \"to hi\"\n    speed       = \"100G\"", q(speeds, "    description = \"to hi\"\n    speed       = \"%s\"")},
		v{"    description = \"to hw\"\n    speed       = \"100G\"", q(speeds, "    description = \"to hw\"\n    speed       = \"%s\"")},
		v{`mode        = "trunk"`, []string{`mode        = "access"`, `mode        = "routed"`, "mode        = \"trunk\"\n    native_vlan = 2"}},
		v{`trust       = "dscp"`, []string{`trust       = "pcp"`, `trust       = "both"`}},
		v{`os_version = "3.9.3202"`, []string{`os_version = "3.6.4000"`, `os_version = "3.6.5000"`, `os_version = "3.10.4206"`, `os_version = "1.0.0"`, `os_version = "99.0.0"`}},
		v{`os_version = "4.32.2F"`, []string{`os_version = "4.20.1F"`, `os_version = "1.0.0"`, `os_version = "99.0.0M"`}},
		v{`os_version = "5.9.2"`, []string{`os_version = "5.3"`, `os_version = "5.15.0"`, `os_version = "5.4.0"`, `os_version = "99.0"`}},
		v{`id = 2`, []string{`id = 1`, `id = 4094`, `id = 4095`, `id = 0`}},
		v{"  class \"bulk\" {\n    priority  = 0", []string{"  class \"bulk\" {\n    priority  = 1", "  class \"bulk\" {\n    priority  = 7"}},
		v{`bandwidth = 50`, []string{`bandwidth = 1`, `bandwidth = 99`, `bandwidth = 100`, `bandwidth = 0`}},
		v{`min = "150KB"`, []string{`min = "1"`, `min = "1KB"`, `min = "1500KB"`, `min = "100MB"`, `min = "0"`}},
		v{`max = "1500KB"`, []string{`max = "200KB"`, `max = "100MB"`, `max = "1"`}},
		v{`length = 2`, []string{`length = 0`, `length = 0.1`, `length = 300`, `length = 10000`, `length = 1e9`}},
		v{"speed        = \"25G\"\n    vlan         = 2", []string{"speed        = \"25G\"\n    vlan         = 2\n    mtu          = 68", "speed        = \"25G\"\n    vlan         = 2\n    mtu          = 9216", "speed        = \"25G\"\n    vlan         = 2\n    mtu          = 65535", "speed        = \"25G\"\n    vlan         = 2\n    priority     = 5", "speed        = \"25G\"\n    vlan         = 2\n    dscp         = 63"}},
		v{`model        = "ConnectX-4"`, []string{`model        = "ConnectX-3 Pro"`, `model        = "QL45212"`, `model        = "ConnectX-7"`}},
		v{`driver       = "mlnx_ofed"`, []string{`driver       = "inbox"`}},
		v{`roce_mode = "v2"`, []string{`roce_mode = "v1"`}},
		v{"    model     = \"ConnectX-4\"\n    interface = \"mce0\"", []string{"    model     = \"ConnectX-3 Pro\"\n    interface = \"mlxen0\""}},
		v{`action = "drop"`, []string{`action = "no-drop"`}},
		v{"  pfc_watchdog {\n", []string{"  pfc_watchdog {\n    timeout_ms = 1\n    polling_ms = 60000\n", "  pfc_watchdog {\n    enabled = false\n"}},
		v{`model      = "SN2410"`, []string{`model      = "SN2700"`, `model      = "SN3700"`, `model      = "SN4600"`, `model      = "SN2100"`}},
		v{`model      = "7050CX3-32S"`, []string{`model      = "7280R3"`, `model      = "7060CX-32S"`}},
	)
	win := "    applications = [\"smb-direct\"]\n    class        = \"roce\"\n  }\n"
	second := "    applications = [\"smb-direct\"]\n    class        = \"roce\"\n  }\n  nic \"n5\" {\n    model = \"ConnectX-4\"\n    interface = \"Ethernet 5\"\n    speed = \"100G\"\n    vlan = 2\n    addresses = [\"10.0.2.15/24\"]\n    EXTRA\n  }\n"
	var second2 []string
	for _, e := range []string{"priority = 5", "roce_mode = \"v1\"", "pfc_priorities = [3, 4]", "", "mtu = 600", "mtu = 9600"} {
		second2 = append(second2, strings.Replace(second, "EXTRA", e, 1))
	}
	variants = append(variants, v{win, second2})
	acc, ref, bad := 0, 0, 0
	for _, vv := range variants {
		if !strings.Contains(base, vv.old) {
			t.Errorf("no %q in base", vv.old)
			continue
		}
		for _, n := range vv.news {
			src := strings.Replace(base, vv.old, n, 1)
			_, diags, err := buildCase(t, src)
			switch {
			case diags.HasErrors():
				ref++
			case err != nil:
				bad++
				t.Errorf("%q: accepted but build fails: %v", n, err)
			default:
				acc++
			}
		}
	}
	t.Logf("variants: %d accepted and built, %d refused, %d accepted but failed in build", acc, ref, bad)
}
