package artifacts

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// streamDevices is n manifest entries with a file each.
func streamDevices(n int) []manifestDevice {
	devices := make([]manifestDevice, n)
	for i := range devices {
		name := fmt.Sprintf("h%05d", i)
		devices[i] = manifestDevice{Name: name, Kind: "host", OS: "linux", Targets: []string{"linux"},
			Files: []manifestFile{{Path: name + "/" + name + ".linux.sh", Target: "linux", SHA256: digest([]byte(name))}}}
	}
	return devices
}

// streamSource is a source for startManifest: only its name, path and
// inputs are asked for.
type streamSource struct{ setSource }

func newStreamSource() streamSource {
	return streamSource{setSource{&Set{Fabric: "lab \"<&>\"", FabricPath: "../fabric", Inputs: Inputs{Large: true, Vars: map[string]string{"switches": "64"}}}}}
}

// within fails the test when do does not return within a minute: a
// manifest that waits for a device no one hands over hangs the build.
func within(t *testing.T, what string, do func()) {
	t.Helper()
	finished := make(chan struct{})
	go func() { defer close(finished); do() }()
	select {
	case <-finished:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not return within a minute", what)
	}
}

// TestManifestStreamIsWriteManifest: devices handed over out of order
// by two goroutines, as the build's cores finish them, give the bytes
// writeManifest writes from the finished list, and the manifest's entry
// is their SHA-256.
func TestManifestStreamIsWriteManifest(t *testing.T) {
	for _, n := range []int{0, 1, 2, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			st, err := newStage(filepath.Join(t.TempDir(), "out"))
			if err != nil {
				t.Fatal(err)
			}
			src := newStreamSource()
			devices := make([]manifestDevice, n)
			ms := st.startManifest(src, devices)
			want := streamDevices(n)
			order := rand.New(rand.NewPCG(uint64(n), 7)).Perm(n)
			var wg sync.WaitGroup
			for half := range 2 {
				wg.Go(func() {
					for _, i := range order[half*n/2 : (half+1)*n/2] {
						devices[i] = want[i]
						ms.done(i)
					}
				})
			}
			wg.Wait()
			top := []manifestFile{{Path: ModelFile, SHA256: digest([]byte("{}"))}}
			var mf manifestFile
			within(t, "finish", func() { mf, err = ms.finish(top) })
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := writeManifest(&buf, src.fabric(), src.fabricPath(), src.inputs(), top, want); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(st.tmp, ManifestFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, buf.Bytes()) {
				t.Errorf("the streamed manifest differs from writeManifest's:\n%s\nwant:\n%s", got, buf.Bytes())
			}
			if mf.Path != ManifestFile || mf.SHA256 != digest(buf.Bytes()) {
				t.Errorf("manifest entry %+v, want %s with SHA-256 %s", mf, ManifestFile, digest(buf.Bytes()))
			}
		})
	}
}

// TestManifestStreamEnds: a build that fails before its last device
// ends the manifest with an error, and a manifest that cannot be
// created at all still takes every device (more than its channel
// holds) without holding up the build.
func TestManifestStreamEnds(t *testing.T) {
	t.Run("aborted", func(t *testing.T) {
		st, err := newStage(filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		devices := make([]manifestDevice, 10)
		ms := st.startManifest(newStreamSource(), devices)
		copy(devices, streamDevices(3))
		for i := range 3 {
			ms.done(i)
		}
		within(t, "abort", func() { err = ms.abort() })
		if !errors.Is(err, errManifestAborted) {
			t.Errorf("abort after 3 of 10 devices: %v, want %v", err, errManifestAborted)
		}
	})
	t.Run("missing device", func(t *testing.T) {
		st, err := newStage(filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		devices := make([]manifestDevice, 3)
		ms := st.startManifest(newStreamSource(), devices)
		copy(devices, streamDevices(3))
		ms.done(0)
		ms.done(2)
		within(t, "finish", func() { _, err = ms.finish(nil) })
		if !errors.Is(err, errManifestAborted) {
			t.Errorf("finish without device 1: %v, want %v", err, errManifestAborted)
		}
	})
	t.Run("uncreatable", func(t *testing.T) {
		st, err := newStage(filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		// A folder where the manifest goes makes creating it fail.
		if err := os.Mkdir(filepath.Join(st.tmp, ManifestFile), 0o755); err != nil {
			t.Fatal(err)
		}
		n := 4 * cap(make(chan int, 256))
		devices := make([]manifestDevice, n)
		ms := st.startManifest(newStreamSource(), devices)
		within(t, "handing over every device", func() {
			for i := range n {
				ms.done(i)
			}
		})
		within(t, "finish", func() { _, err = ms.finish(nil) })
		if err == nil {
			t.Error("finish reported no error for a manifest that could not be created")
		}
	})
}
