package linux

import (
	"math/rand/v2"
	"testing"
)

// TestCachedPreludeIsPreludeText: the kept text of a feature set is the
// one preludeText joins, asked once or many times, for sets past the
// bound too, and no more than maxCachedPreludes sets are kept.
func TestCachedPreludeIsPreludeText(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sets := []feature{0, ^feature(0), useNIC, useNIC | useMlnx | useDCQCNSys}
	for range 3 * maxCachedPreludes {
		sets = append(sets, feature(r.Uint64()))
	}
	for round := range 2 {
		for _, u := range sets {
			if got, want := cachedPrelude(u), preludeText(u); got != want {
				t.Fatalf("round %d: cachedPrelude(%#x) is %d bytes, preludeText %d bytes, and they differ", round, u, len(got), len(want))
			}
		}
	}
	kept := 0
	preludeCache.Range(func(k, v any) bool {
		kept++
		if v.(string) != preludeText(k.(feature)) {
			t.Errorf("the text kept for %#x is not preludeText's", k)
		}
		return true
	})
	if kept > maxCachedPreludes || kept == 0 {
		t.Errorf("%d feature sets kept, want 1 to %d", kept, maxCachedPreludes)
	}
}
