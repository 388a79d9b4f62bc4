package linux

import (
	"sync"
	"sync/atomic"
)

// A host script carries the prelude blocks its features need (about 60
// KB), and preludeText joins them anew on each call: for the 13,832
// Linux hosts of the 512-switch benchmark fabric that was 1.7 GB, half of
// everything the build allocated, to make the same few strings again.
// A fabric's hosts have a handful of feature sets, so the text of each is
// joined once and kept.

// maxCachedPreludes bounds the feature sets kept: 22 features make
// millions of possible sets, and a fabric that used more than this many
// would only pay for joining the others each time, as before.
const maxCachedPreludes = 256

var (
	// preludeCache maps a feature set to its preludeText.
	preludeCache sync.Map
	// preludeCached counts the texts offered to preludeCache; it holds
	// at most that many.
	preludeCached atomic.Int32
)

// cachedPrelude is preludeText(u), joined once per feature set.
func cachedPrelude(u feature) string {
	if s, ok := preludeCache.Load(u); ok {
		return s.(string)
	}
	s := preludeText(u)
	if preludeCached.Load() < maxCachedPreludes && preludeCached.Add(1) <= maxCachedPreludes {
		preludeCache.LoadOrStore(u, s)
	}
	return s
}
