package artifacts

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"time"
)

// model.json is written from the first moment of a build, while the
// stage is set up. A rebuild's stage reads the folder's manifest and the
// kept build (2-3 s at 4,096 switches) and model.json takes 3-4 s to
// encode; one after the other they were the rebuild's longest path. The
// early stream writes into a temporary folder of its own beside the
// output folder (removed by removeStale if the build is killed), and the
// stage takes the file over by a rename once it is ready. When the
// folder's record says these renderers built it, the stream waits for
// the stage at its first device instead, to copy the devices' bytes
// from the kept model.json (modelcopy.go): then it is short.

// earlyStream is a top-level file encoded beside the stage being set
// up.
type earlyStream struct {
	done chan struct{}
	// folder is the stream's temporary folder; path the file in it.
	folder, path string
	sum          string // hex SHA-256 of the bytes
	size         int64
	took         time.Duration
	err          error
}

// startStream begins writing what encode writes into a temporary
// folder beside dir, named as the stage's are.
func startStream(dir, name string, encode func(io.Writer) error) *earlyStream {
	e := &earlyStream{done: make(chan struct{})}
	go func() {
		defer close(e.done)
		start := time.Now()
		dir = filepath.Clean(dir)
		parent, base := filepath.Dir(dir), filepath.Base(dir)
		e.folder, e.err = os.MkdirTemp(parent, tempPrefix(base, os.Getpid()))
		if e.err != nil {
			return
		}
		e.path = filepath.Join(e.folder, name)
		e.sum, e.size, e.err = streamFile(e.path, encode)
		e.took = time.Since(start)
	}()
	return e
}

// wait returns once the stream is written, with its error.
func (e *earlyStream) wait() error {
	<-e.done
	return e.err
}

// discard waits for the stream and removes its folder.
func (e *earlyStream) discard() {
	<-e.done
	if e.folder != "" {
		os.RemoveAll(e.folder)
	}
}

// streamFile creates path (mode 0644) and writes into it what encode
// writes, hashing it as it goes.
func streamFile(path string, encode func(io.Writer) error) (sum string, size int64, err error) {
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", 0, err
	}
	h := sha256.New()
	counter := &countingWriter{}
	bw := bufio.NewWriterSize(io.MultiWriter(file, h, counter), 1<<20)
	err = encode(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = file.Chmod(0o644)
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), counter.n, nil
}

// adopt moves the early stream's file into the stage as rel, once it is
// written, and removes the stream's folder.
func (st *stage) adopt(rel string, e *earlyStream) (manifestFile, error) {
	defer e.discard()
	if err := e.wait(); err != nil {
		return manifestFile{}, err
	}
	dst := filepath.Join(st.tmp, rel)
	if err := st.held.clear(rel, dst); err != nil {
		return manifestFile{}, err
	}
	if err := os.Rename(e.path, dst); err != nil {
		return manifestFile{}, err
	}
	return st.settle(rel, dst, e.sum, e.size), nil
}
