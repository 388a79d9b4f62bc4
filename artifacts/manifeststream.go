package artifacts

import (
	"errors"
	"io"
	"sync"
)

// The manifest lists every file of the build with its SHA-256: 291,424
// files and about 72 MB at 4,096 switches. Written after the last
// device, it kept one core busy and the other idle at the end of every
// build. It is written beside the devices instead: the head at once,
// each device's entry as soon as that device and every one before it
// in name order are written, and only the top-level files (model.json,
// fabric.md) and the end after the last device. The bytes are
// writeManifest's.

// manifestStream is manifest.json being written into the stage while
// the devices are.
type manifestStream struct {
	// ready takes the index of each device whose entry is complete.
	ready     chan int
	closeOnce sync.Once
	// top takes the top-level files; closed without them, the build
	// failed and the stream ends.
	top    chan []manifestFile
	result chan manifestResult
}

// manifestResult is what writing the manifest came to.
type manifestResult struct {
	file manifestFile
	err  error
}

// errManifestAborted ends the manifest of a build that failed.
var errManifestAborted = errors.New("the build stopped before its manifest was complete")

// startManifest starts writing the manifest of src's build into the
// stage, with devices as its entries: devices[i] is complete once
// done(i) is called.
func (st *stage) startManifest(src source, devices []manifestDevice) *manifestStream {
	ms := &manifestStream{ready: make(chan int, 256), top: make(chan []manifestFile, 1), result: make(chan manifestResult, 1)}
	fabric, fabricPath, inputs := src.fabric(), src.fabricPath(), src.inputs()
	go func() {
		mf, err := st.putStream(ManifestFile, func(w io.Writer) error {
			return ms.write(w, fabric, fabricPath, inputs, devices)
		})
		// A manifest that failed before its devices still takes every
		// index, so that no device waits to hand it over.
		for range ms.ready {
		}
		ms.result <- manifestResult{mf, err}
	}()
	return ms
}

// write writes the manifest to w: the head, each device's entry once it
// and those before it are ready, then the top-level files.
func (ms *manifestStream) write(w io.Writer, fabric, fabricPath string, inputs Inputs, devices []manifestDevice) error {
	m, err := newManifestWriter(w, fabric, fabricPath, inputs)
	ready, next := make([]bool, len(devices)), 0
	for i := range ms.ready {
		ready[i] = true
		for ; err == nil && next < len(devices) && ready[next]; next++ {
			err = m.device(&devices[next])
		}
	}
	top, ok := <-ms.top
	switch {
	case err != nil:
		return err
	case !ok || next < len(devices):
		return errManifestAborted
	}
	return m.end(top)
}

// done says that the entry of device i is complete.
func (ms *manifestStream) done(i int) { ms.ready <- i }

// devicesDone says that no device is written any more.
func (ms *manifestStream) devicesDone() { ms.closeOnce.Do(func() { close(ms.ready) }) }

// finish writes the top-level files and the end of the manifest, once
// every device is done, and returns the manifest's entry.
func (ms *manifestStream) finish(top []manifestFile) (manifestFile, error) {
	ms.devicesDone()
	ms.top <- top
	r := <-ms.result
	return r.file, r.err
}

// abort ends the manifest of a build that failed and waits for it, so
// that nothing writes into the stage once it is removed. The error is
// the stream's: errManifestAborted, or an earlier failure.
func (ms *manifestStream) abort() error {
	ms.devicesDone()
	close(ms.top)
	return (<-ms.result).err
}
