// Package cores spreads independent work over every core.
package cores

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Range runs do over [0, n) in chunks of size chunk, taken in turn by
// one goroutine per core (GOMAXPROCS), and returns when all are done.
// Each index is in exactly one chunk; chunks may run in any order.
func Range(n, chunk int, do func(lo, hi int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				do(lo, min(lo+chunk, n))
			}
		}()
	}
	wg.Wait()
}
