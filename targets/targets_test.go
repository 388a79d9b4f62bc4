package targets

import "testing"

func TestJoinInts(t *testing.T) {
	tests := []struct {
		v    []int
		sep  string
		want string
	}{
		{nil, ",", ""},
		{[]int{3}, ",", "3"},
		{[]int{0, 0, 0, 1, 0, 0, 0, 0}, ",", "0,0,0,1,0,0,0,0"},
		{[]int{3, 6}, ", ", "3, 6"},
		{[]int{-1, 4094}, " ", "-1 4094"},
	}
	for _, tc := range tests {
		if got := JoinInts(tc.v, tc.sep); got != tc.want {
			t.Errorf("JoinInts(%v, %q) = %q, want %q", tc.v, tc.sep, got, tc.want)
		}
	}
}
