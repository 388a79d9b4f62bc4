// Package memo keeps the results of pure functions, up to a bound, for
// renderers that make the same small text for many devices (an NVUE
// entry, a chart label's box).
package memo

import (
	"sync"
	"sync/atomic"
)

// Bounded keeps the value made for each key, at most max of them; past
// that, a new key's value is made each time it is asked for. It is safe
// for use by several goroutines.
type Bounded[K comparable, V any] struct {
	max   int64
	kept  sync.Map // K -> V
	count atomic.Int64
}

// New returns a Bounded that keeps at most max values.
func New[K comparable, V any](max int64) *Bounded[K, V] {
	return &Bounded[K, V]{max: max}
}

// Get returns the value kept for k, or what make returns, which is kept
// while there is room. make must depend on k alone.
func (b *Bounded[K, V]) Get(k K, make func() V) V {
	if v, ok := b.kept.Load(k); ok {
		return v.(V)
	}
	v := make()
	if b.count.Load() < b.max {
		if _, loaded := b.kept.LoadOrStore(k, v); !loaded {
			b.count.Add(1)
		}
	}
	return v
}

// Len is how many values are kept.
func (b *Bounded[K, V]) Len() int { return int(b.count.Load()) }
