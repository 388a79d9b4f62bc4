package english

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{
		{0, "host", "0 hosts"}, {1, "host", "1 host"}, {2, "switch", "2 switches"}, {1, "switch", "1 switch"},
		{3, "difference", "3 differences"}, {2, "DIFF line", "2 DIFF lines"}, {2, "box", "2 boxes"},
		{2, "class", "2 classes"}, {2, "mesh", "2 meshes"}, {1, "cabled port", "1 cabled port"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}
