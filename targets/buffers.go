package targets

import (
	"bytes"
	"math/bits"
	"sync"
	"sync/atomic"
)

// Artifact buffers are recycled from one device to the next. A build
// renders every device, writes its files and drops their bytes; at
// 4,096 switches that was 130,000 devices of 1-40 KB files, and their
// buffers were a fifth of everything the build allocated, each one
// new memory the collector had to sweep. The writer of a build hands a
// device's files back once they are on disk (Recycle), and the next
// Text takes its memory from them (SizeHint.NewText).
//
// The contract that makes this safe: a renderer returns File.Data that
// it does not keep and shares with nothing else (TestRenderersKeepNoData
// in artifacts scribbles over one render's bytes and renders again).

// Buffers between these capacities are kept: smaller ones are not worth
// a pool's bookkeeping, larger ones (a whole-fabric document) would keep
// memory alive that no device needs.
const (
	minPooled = 1 << 10
	maxPooled = 1 << 20
)

// pools holds recycled buffers by size class: pools[c] holds buffers
// whose capacity is at least 1<<c and less than 1<<(c+1).
var pools [bits.UintSize]sync.Pool

// buffer returns an empty buffer with room for at least n bytes, a
// recycled one when there is one.
func buffer(n int) []byte {
	if n < minPooled || n > maxPooled {
		return make([]byte, 0, n)
	}
	c := bits.Len(uint(n - 1)) // the class whose every buffer holds n
	if p, ok := pools[c].Get().(*[]byte); ok {
		return (*p)[:0]
	}
	return make([]byte, 0, 1<<c)
}

// Recycle hands the files' bytes back for the next device's artifacts
// and clears each File.Data. The caller must hold no other reference to
// those bytes: it is for a writer that has put them on disk.
func Recycle(files []File) {
	for i := range files {
		data := files[i].Data
		files[i].Data = nil
		if c := cap(data); c >= minPooled && c <= maxPooled {
			pools[bits.Len(uint(c))-1].Put(&data)
		}
	}
}

// SizeHint is the size of the largest artifact one renderer has written
// so far. A buffer made from it is allocated once at that size instead
// of growing by doubling: a 20 KB host script grew through nine copies.
// It changes only capacity, never bytes.
type SizeHint struct{ n atomic.Int64 }

// Buffer returns an empty buffer with room for the largest artifact so
// far (up to the largest buffer recycled; a larger artifact grows its
// buffer as it is written), recycled when there is one.
func (h *SizeHint) Buffer() *bytes.Buffer {
	return bytes.NewBuffer(buffer(min(int(h.n.Load()), maxPooled)))
}

// NewText is NewText(mapped) in a buffer from Buffer.
func (h *SizeHint) NewText(mapped bool) *Text {
	t := NewText(mapped)
	t.Buffer = *h.Buffer()
	return t
}

// Done records the size of an artifact written, n bytes.
func (h *SizeHint) Done(n int) {
	for {
		old := h.n.Load()
		if int64(n) <= old || h.n.CompareAndSwap(old, int64(n)) {
			return
		}
	}
}
