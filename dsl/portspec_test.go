package dsl

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpandPorts(t *testing.T) {
	tests := []struct {
		spec string
		want []string
	}{
		{"swp1", []string{"swp1"}},
		{"swp1-4", []string{"swp1", "swp2", "swp3", "swp4"}},
		{"swp1-swp3", []string{"swp1", "swp2", "swp3"}},
		{"swp1s0-3", []string{"swp1s0", "swp1s1", "swp1s2", "swp1s3"}},
		{"1/1-1/4", []string{"1/1", "1/2", "1/3", "1/4"}},
		{"1/9-12", []string{"1/9", "1/10", "1/11", "1/12"}},
		{"Ethernet1-3", []string{"Ethernet1", "Ethernet2", "Ethernet3"}},
		{"Ethernet1/1-1/3", []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"}},
		{"Ethernet49/1-49/2", []string{"Ethernet49/1", "Ethernet49/2"}},
		{"swp1-2, swp10,1/5", []string{"swp1", "swp2", "swp10", "1/5"}},
		{"swp7-7", []string{"swp7"}},
		{"Ethernet1/1-3/1", []string{"Ethernet1/1", "Ethernet2/1", "Ethernet3/1"}},
		{"Ethernet9/1-Ethernet11/1", []string{"Ethernet9/1", "Ethernet10/1", "Ethernet11/1"}},
		{"Ethernet1/5-3/5", []string{"Ethernet1/5", "Ethernet2/5", "Ethernet3/5"}},
		{"swp1s0-3s0", []string{"swp1s0", "swp2s0", "swp3s0"}},
		{"Ethernet1/1-1/1", []string{"Ethernet1/1"}},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := ExpandPorts(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("ExpandPorts(%q) (-want +got):\n%s", tc.spec, d)
			}
		})
	}
}

func TestExpandPortsErrors(t *testing.T) {
	tests := []struct {
		spec, want string
	}{
		{"", `empty port name; expected a port name or a range FIRST-LAST`},
		{"swp1,,swp2", `in port spec "swp1,,swp2": empty port name`},
		{"swp4-1", `"swp4-1": the range counts down (4 > 1); write the lower port first`},
		{"swp1-eth4", `"swp1-eth4": only a number may change, but "eth4" differs from "swp1" in "eth"; expected`},
		{"swp1-1/4", `the end "1/4" does not match the start "swp1"`},
		{"Ethernet1/1-2/4", `"Ethernet1/1-2/4": only one number may change, but "2/4" differs from "Ethernet1/1" in two (1 to 2, and 1 to 4); expected`},
		{"Ethernet3/1-1/1", `"Ethernet3/1-1/1": the range counts down (3 > 1); write the lower port first`},
		{"1/1-1:2", `"1/1-1:2": only a number may change, but "1:2" differs from "1/1" in ":"; expected`},
		{"Ethernet1/1-24/1x", `both ends of a range must end in a number`},
		{"swp-4", `both ends of a range must end in a number`},
		{"swp1-4-6", `has more than one '-'`},
		{"swp 1", `contains white space`},
		{"swp1-100000", `expands to more than 4096 ports`},
		{"swp1-99999999999999999999", `port number too large`},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := ExpandPorts(tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ExpandPorts(%q) error = %v, want it to contain %q", tc.spec, err, tc.want)
			}
		})
	}
}
