package artifacts

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/newfile"
)

// Fingerprints. Beside a build folder DIR, the hidden file
// ".DIR.fingerprints" records the fingerprint (view.go) each device of
// the build in DIR was rendered from, and the SHA-256 of that build's
// manifest.json. A rebuild that finds a device with the same
// fingerprint keeps its files as they are, without rendering it, when
// every one of them is unchanged since the folder was sealed
// (seal_linux.go): same renderers and same view give the same bytes, and
// the seal shows the files still hold the bytes the manifest lists.
// Anything else renders the device: no such file, one for another build
// (a manifest that differs, as after a build killed between its swap and
// this record), a file changed since the seal, or one that cannot be
// read. The record may be removed at any time; the next build renders
// every device and writes it again.

// fingerprintsHead starts a fingerprints file; the SHA-256 of the
// manifest, the device count and the renderers' identity (rendererID,
// hex) follow on the same line, then for each device, in the manifest's
// device order, its fingerprint (32 bytes) and where its bytes are in
// the build's model.json (a fragment: offset and length, 8 bytes each,
// little-endian; length 0 when not known).
const fingerprintsHead = "fabricc fingerprints 2 "

// fingerprintEntry is the size of one device's record.
const fingerprintEntry = len(fingerprint{}) + 16

// fragment is where a device's bytes are in a model.json
// (model.Devices): size bytes at offset at; size 0 when not known.
type fragment struct{ at, size int64 }

// fingerprintsHeader is the first line of the record for the build
// whose manifest.json has the hex SHA-256 manifest and lists devices
// devices.
func fingerprintsHeader(manifest string, devices int) string {
	return fingerprintsHead + manifest + " " + strconv.Itoa(devices) + " " + rendererHex() + "\n"
}

// rendererHex is rendererID in hex, or "none".
func rendererHex() string {
	id, ok := rendererID()
	if !ok {
		return "none"
	}
	return hex.EncodeToString(id[:])
}

// mayKeepModel reports whether the record at p was written by these
// renderers, reading its first line alone: only then can a rebuild copy
// devices' bytes from the kept model.json, and wait for the stage to
// say which (keptModel). Anything else encodes model.json at once.
func mayKeepModel(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 256).ReadString('\n')
	return err == nil && strings.HasPrefix(line, fingerprintsHead) && strings.HasSuffix(line, " "+rendererHex()+"\n") && rendererHex() != "none"
}

// fingerprintsPath is where the fingerprints of the build in parent/base
// are kept.
func fingerprintsPath(parent, base string) string {
	return filepath.Join(parent, "."+base+".fingerprints")
}

// writeFingerprints records fps, the fingerprints of the devices of the
// build whose manifest.json has the hex SHA-256 manifest, and frags,
// where each device's bytes are in its model.json (nil: not known), at
// p: written beside it, then renamed over it.
func writeFingerprints(p, manifest string, fps []fingerprint, frags []fragment) error {
	data := make([]byte, 0, len(fingerprintsHeader(manifest, len(fps)))+len(fps)*fingerprintEntry)
	data = append(data, fingerprintsHeader(manifest, len(fps))...)
	for i := range fps {
		var fr fragment
		if frags != nil {
			fr = frags[i]
		}
		data = append(data, fps[i][:]...)
		data = binary.LittleEndian.AppendUint64(data, uint64(fr.at))
		data = binary.LittleEndian.AppendUint64(data, uint64(fr.size))
	}
	// The parent may be shared (/tmp): newfile.Replace never writes
	// through a link planted there. The process id in the temporary name
	// lets removeStale find a killed build's leftover.
	return newfile.Replace(p, filepath.Base(p)[1:]+".tmp-"+strconv.Itoa(os.Getpid())+"-", 0o644, data)
}

// readFingerprints returns the fingerprints and fragments recorded at p
// for the build whose manifest.json has the hex SHA-256 manifest and
// lists devices devices, or nil when p records none for it.
func readFingerprints(p, manifest string, devices int) ([]fingerprint, []fragment) {
	fi, err := os.Lstat(p)
	head := fingerprintsHeader(manifest, devices)
	size := int64(len(head) + devices*fingerprintEntry)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != size || !ours(fi) {
		return nil, nil
	}
	data, err := os.ReadFile(p)
	if err != nil || int64(len(data)) != size || string(data[:len(head)]) != head {
		return nil, nil
	}
	fps, frags := make([]fingerprint, devices), make([]fragment, devices)
	for i, rest := 0, data[len(head):]; i < devices; i++ {
		e := rest[i*fingerprintEntry:]
		copy(fps[i][:], e)
		e = e[len(fingerprint{}):]
		frags[i] = fragment{int64(binary.LittleEndian.Uint64(e)), int64(binary.LittleEndian.Uint64(e[8:]))}
	}
	return fps, frags
}

// dropFingerprints removes the record at p, when there is one.
func dropFingerprints(p string) {
	if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
		os.Remove(p)
	}
}

// renderedFrom is what the build in the folder rendered one device
// from, and the device's entry in its manifest.
type renderedFrom struct {
	fp     fingerprint
	device *manifestDevice
	// frag is where the device's bytes are in the build's model.json.
	frag fragment
}

// keptDevices maps each device of the previous build m to what it was
// rendered from, or returns nil when nothing of it can be kept: its
// files cannot be vouched for by a seal (unchanged is nil) or no
// fingerprints are recorded for it.
func keptDevices(p string, m *previousBuild, unchanged func(fs.FileInfo) bool) map[string]renderedFrom {
	if m == nil || unchanged == nil {
		return nil
	}
	fps, frags := readFingerprints(p, m.digest, len(m.Devices))
	if fps == nil {
		return nil
	}
	out := make(map[string]renderedFrom, len(fps))
	for i := range m.Devices {
		out[m.Devices[i].Name] = renderedFrom{fps[i], &m.Devices[i], frags[i]}
	}
	return out
}

// keepDevice keeps the files the previous build rendered for the device
// name from the fingerprint fp, without rendering it: each becomes the
// temporary folder's, as stage.reuse does. It reports whether it kept
// them; when it did not, the temporary folder is as it was, and the
// device is rendered.
func (st *stage) keepDevice(name string, fp fingerprint) (manifestDevice, bool) {
	from, ok := st.kept[name]
	if !ok || from.fp != fp {
		return manifestDevice{}, false
	}
	files := from.device.Files
	olds := make([]fs.FileInfo, len(files))
	for i, f := range files {
		fi, err := os.Lstat(filepath.Join(st.dir, filepath.FromSlash(f.Path)))
		if err != nil || !fi.Mode().IsRegular() || !st.unchanged(fi) {
			return manifestDevice{}, false
		}
		olds[i] = fi
	}
	if err := st.folder(name); err != nil {
		return manifestDevice{}, false
	}
	var made []string
	for i, f := range files {
		ok, link := st.linkOld(f.Path, olds[i], st.held.file(f.Path))
		if !ok {
			// Undo the links made, and their count: the device's files
			// are written or linked again as it is rendered.
			for _, rel := range made {
				os.Remove(filepath.Join(st.tmp, filepath.FromSlash(rel)))
			}
			st.linked.Add(-int64(i))
			return manifestDevice{}, false
		}
		if link {
			made = append(made, f.Path)
		}
	}
	for _, fi := range olds {
		st.bytes.Add(fi.Size())
	}
	return *from.device, true
}
