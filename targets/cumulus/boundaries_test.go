package cumulus

import (
	"reflect"
	"testing"
)

// TestBoundaries: the releases push compares the switch's and
// os_version's sides of (rcum #3), oldest first, from version.go's
// feature releases and dialects.
func TestBoundaries(t *testing.T) {
	want := []Boundary{
		{"5.3", "NVUE QoS profiles"},
		{"5.4", "qos advance-buffer-config and link-pause profiles"},
		{"5.6", "qos pfc-watchdog"},
		{"5.9", "auto save at nv config apply"},
		{"5.11", "advance-buffer-config egress-service-pool instead of egress-pool"},
		{"5.15", "ECN/RED enabled/disabled instead of enable/disable, dcbx-pfc-tlv enabled instead of on"},
	}
	if got := Boundaries(); !reflect.DeepEqual(got, want) {
		t.Errorf("Boundaries() = %v, want %v", got, want)
	}
}
