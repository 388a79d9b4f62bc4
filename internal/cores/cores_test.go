package cores

import (
	"sync/atomic"
	"testing"
)

// TestRangeCoversEachIndexOnce runs Range over sizes around the chunk
// and requires every index to be done exactly once.
func TestRangeCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 100, 1000} {
		for _, chunk := range []int{1, 8, 64} {
			seen := make([]atomic.Int32, n)
			Range(n, chunk, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					seen[i].Add(1)
				}
			})
			for i := range seen {
				if got := seen[i].Load(); got != 1 {
					t.Fatalf("n=%d chunk=%d: index %d done %d times", n, chunk, i, got)
				}
			}
		}
	}
}
