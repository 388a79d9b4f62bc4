package artifacts

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"hash"
	"io"
	"os"
	"sync"

	"github.com/fabricc/fabricc/model"
)

// Views. A device's files are rendered from its view of the fabric: the
// fabric-wide settings (name, description, traffic classes and maps,
// VLANs, accepted warnings) and the device itself, with its ports or
// NICs and what each knows of the device at its other end (Peer). No
// renderer sees another device, so what a device's files say depends on
// its view and on the renderers alone, and a rebuild may keep the files
// of a device whose view and renderers are unchanged without rendering
// them again (fingerprints.go). TestViewRendersAsFabric checks that every
// device of every example renders the same bytes from its view as from
// the whole fabric.

// switchView is the fabric as the renderers of sw see it.
func switchView(f *model.Fabric, sw *model.Switch) (*model.Fabric, *model.Switch) {
	v := viewHead(f)
	v.Switches = []model.Switch{*sw}
	return v, &v.Switches[0]
}

// hostView is the fabric as the renderers of h see it.
func hostView(f *model.Fabric, h *model.Host) (*model.Fabric, *model.Host) {
	v := viewHead(f)
	v.Hosts = []model.Host{*h}
	return v, &v.Hosts[0]
}

// viewHead is f without its devices and links: what every device reads.
// The slices are shared with f, which no renderer changes.
func viewHead(f *model.Fabric) *model.Fabric {
	return &model.Fabric{Name: f.Name, Description: f.Description, QoS: f.QoS, VLANs: f.VLANs, Accepted: f.Accepted}
}

// A fingerprint identifies what a device's files are made from: the
// renderers (this program's executable) and the device's view, as JSON.
// Two equal fingerprints give the same files.
type fingerprint [sha256.Size]byte

// fingerprinter makes the fingerprints of one fabric's devices.
type fingerprinter struct {
	// head is the SHA-256 of the renderers' identity and the view's
	// fabric-wide part, which every device's fingerprint starts with.
	head fingerprint
}

// newFingerprinter returns the fingerprinter of f, or nil when the
// renderers cannot be identified (the executable cannot be read): then
// every device is rendered.
func newFingerprinter(f *model.Fabric) (*fingerprinter, error) {
	id, ok := rendererID()
	if !ok {
		return nil, nil
	}
	head, err := json.Marshal(viewHead(f))
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	writeBlock(h, id[:])
	writeBlock(h, head)
	p := &fingerprinter{}
	h.Sum(p.head[:0])
	return p, nil
}

// of returns the fingerprint of a device: kind ("switch" or "host") and
// its model value.
func (p *fingerprinter) of(kind string, device any) (fingerprint, error) {
	e := viewEncoders.Get().(*viewEncoder)
	defer viewEncoders.Put(e)
	e.buf.Reset()
	if err := e.enc.Encode(device); err != nil {
		return fingerprint{}, err
	}
	e.hash.Reset()
	writeBlock(e.hash, p.head[:])
	writeBlock(e.hash, []byte(kind))
	writeBlock(e.hash, e.buf.Bytes())
	var fp fingerprint
	e.hash.Sum(fp[:0])
	return fp, nil
}

// viewEncoder is a JSON encoder and a hash reused from one device to
// the next: a rebuild fingerprints every device of the fabric, and one
// buffer per device was most of the cost.
type viewEncoder struct {
	buf  bytes.Buffer
	enc  *json.Encoder
	hash hash.Hash
}

var viewEncoders = sync.Pool{New: func() any {
	e := &viewEncoder{hash: sha256.New()}
	e.enc = json.NewEncoder(&e.buf)
	return e
}}

// writeBlock writes data to h after its length, so that no two
// sequences of blocks hash the same bytes.
func writeBlock(h io.Writer, data []byte) {
	var n [8]byte
	for i, l := 0, uint64(len(data)); i < 8; i++ {
		n[i] = byte(l >> (8 * i))
	}
	h.Write(n[:])
	h.Write(data)
}

// rendererID identifies the renderers: the SHA-256 of this program's
// executable, so that a fabricc built from other code renders every
// device again. It is false when the executable cannot be read.
var rendererID = sync.OnceValues(func() (fingerprint, bool) {
	p, err := os.Executable()
	if err != nil {
		return fingerprint{}, false
	}
	f, err := os.Open(p)
	if err != nil {
		return fingerprint{}, false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fingerprint{}, false
	}
	var id fingerprint
	h.Sum(id[:0])
	return id, true
})
