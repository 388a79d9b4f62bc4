package artifacts

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// model.json in a rebuild. Switches and hosts are 95 % of model.json's
// bytes, and a rebuild after a small change keeps almost every device:
// it copies those devices' bytes from the model.json of the build in the
// folder instead of encoding them again. A device's bytes there are
// those this build would encode when its fingerprint (view.go) is the
// one recorded for it: the fingerprint holds the renderers' identity
// (this executable, so the same encoder) and the device's model value
// as JSON, and model.json's element for a device is a function of that
// value alone. The record beside the folder (fingerprints.go) says
// where each device's bytes are in the folder's model.json; that
// record is the build's whose manifest the folder holds, and the seal
// (seal_linux.go) vouches that model.json is still the file that
// manifest lists. Anything else (no record, other renderers, no seal, a
// model.json changed since) encodes every device.
// TestModelCopyIsEncode compares the bytes with model.Marshal's.

// keptModel is the folder's model.json, vouched for by its seal, and
// what the build that wrote it recorded of each device.
type keptModel struct {
	file    *os.File
	size    int64
	devices map[string]renderedFrom
}

// keptModel opens the folder's model.json when the stage may copy
// devices from it, or returns nil.
func (st *stage) keptModel() *keptModel {
	if st.kept == nil || st.unchanged == nil {
		return nil
	}
	f, err := os.Open(filepath.Join(st.dir, ModelFile))
	if err != nil {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || !st.unchanged(fi) {
		f.Close()
		return nil
	}
	return &keptModel{file: f, size: fi.Size(), devices: st.kept}
}

// close closes the kept model.json; k may be nil.
func (k *keptModel) close() {
	if k != nil {
		k.file.Close()
	}
}

// keptModelOnce hands the kept model.json from the stage to model.json's
// stream, which asks for it when it reaches the first device.
type keptModelOnce struct {
	// done is closed once k is set.
	done chan struct{}
	k    *keptModel
}

// newKeptModelOnce is a hand-over that the stage must give (maybe nil).
func newKeptModelOnce() *keptModelOnce { return &keptModelOnce{done: make(chan struct{})} }

// give hands k over; it is called once.
func (o *keptModelOnce) give(k *keptModel) {
	o.k = k
	close(o.done)
}

// wait returns what the stage gave, waiting for it; it may be called
// any number of times.
func (o *keptModelOnce) wait() *keptModel {
	<-o.done
	return o.k
}

// modelCopier is the model.Devices of a build: it copies a device's
// bytes from the kept model.json when the device's fingerprint is the
// one recorded for them, and notes where each device landed.
type modelCopier struct {
	s *fabricSource
	// kept waits for the stage's kept model.json; nil: encode every
	// device.
	kept func() *keptModel
}

// index is the name-order index of switch or host i.
func (c *modelCopier) index(host bool, i int) int {
	if host {
		return c.s.hostAt[i]
	}
	return c.s.switchAt[i]
}

// Write copies switch or host i's bytes from the kept model.json when
// they are this build's.
func (c *modelCopier) Write(w io.Writer, host bool, i int) (bool, error) {
	if c.kept == nil {
		return false, nil
	}
	k := c.kept()
	if k == nil {
		return false, nil
	}
	j := c.index(host, i)
	from, ok := k.devices[c.s.order[j].name]
	if !ok || from.frag.size <= 0 || from.frag.at < 0 || from.frag.at > k.size-from.frag.size {
		return false, nil
	}
	fp, ok, err := c.s.fingerprint(j)
	if err != nil || !ok || fp != from.fp {
		return false, nil
	}
	n, err := io.Copy(w, io.NewSectionReader(k.file, from.frag.at, from.frag.size))
	if err == nil && n != from.frag.size {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return false, fmt.Errorf("copying %s from the kept %s: %w", c.s.order[j].name, ModelFile, err)
	}
	c.s.kept++
	return true, nil
}

// At notes where switch or host i's bytes are.
func (c *modelCopier) At(host bool, i int, off, n int64) {
	c.s.frags[c.index(host, i)] = fragment{off, n}
}
