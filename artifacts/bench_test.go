package artifacts

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// BenchmarkBuild builds the benchmark fabric of `make bench`
// (bench/fabric) into a new folder below TMPDIR (a tmpfs such as
// /dev/shm leaves out the disk): rendering, hashing and writing every
// device, model.json and the manifest, without loading or compiling.
// Its allocations do not depend on the machine's load, as the wall time
// of `fabricc build` does (docs/performance.md).
func BenchmarkBuild(b *testing.B) {
	for _, switches := range []int{64, 512} {
		b.Run("switches="+strconv.Itoa(switches), func(b *testing.B) {
			f := compileBenchFabric(b, switches)
			dir := b.TempDir()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				out := filepath.Join(dir, "out"+strconv.Itoa(i))
				if _, err := Build(context.Background(), out, f, Options{}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if err := os.RemoveAll(out); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}

// compileBenchFabric loads and compiles bench/fabric with the given
// number of switches.
func compileBenchFabric(b *testing.B, switches int) *model.Fabric {
	b.Helper()
	opts := dsl.Options{Vars: map[string]string{"switches": strconv.Itoa(switches)}, Large: true}
	cfg, _, diags := dsl.Load(filepath.Join("..", "bench", "fabric"), opts)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	return f
}
