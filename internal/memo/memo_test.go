package memo

import (
	"sync"
	"testing"
)

// TestBoundedKeepsUpToMax: a kept value is not made again; past the
// bound, values are made each time and not kept.
func TestBoundedKeepsUpToMax(t *testing.T) {
	b := New[int, int](2)
	made := map[int]int{}
	get := func(k int) int {
		return b.Get(k, func() int { made[k]++; return k * 10 })
	}
	for _, k := range []int{1, 2, 1, 2, 3, 3} {
		if v := get(k); v != k*10 {
			t.Errorf("Get(%d) = %d, want %d", k, v, k*10)
		}
	}
	if made[1] != 1 || made[2] != 1 || made[3] != 2 {
		t.Errorf("made %v, want 1 and 2 once (kept), 3 twice (past the bound)", made)
	}
	if b.Len() != 2 {
		t.Errorf("Len = %d, want 2", b.Len())
	}
}

// TestBoundedConcurrent: goroutines asking for the same keys all get
// the key's value, and the count never passes the keys kept.
func TestBoundedConcurrent(t *testing.T) {
	b := New[int, int](1000)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 100; k++ {
				if v := b.Get(k, func() int { return k + 1 }); v != k+1 {
					t.Errorf("Get(%d) = %d", k, v)
				}
			}
		}()
	}
	wg.Wait()
	if b.Len() != 100 {
		t.Errorf("Len = %d, want 100", b.Len())
	}
}
