// Command floor is the disk's floor for a build folder: it writes files
// of the same names, sizes and modes as the build folder it is given
// into a new folder, as plainly as Go can (one open, write and close per
// file on every core, a mkdir per folder), and prints the seconds it
// took. It writes each file as fabricc does (internal/newfile: three
// system calls on Linux); os.WriteFile would add four fcntl calls
// and an epoll_ctl per file, about 1.3 µs each file. OUT_DIR must exist
// and be empty. `make bench` reports fabricc build against it.
//
//	go run ./bench/floor BUILD_DIR OUT_DIR
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/internal/newfile"
)

// file is one file to write: its path below the folder, size and mode.
type file struct {
	rel  string
	size int64
	mode fs.FileMode
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: floor BUILD_DIR OUT_DIR")
		os.Exit(2)
	}
	src, dst := os.Args[1], os.Args[2]
	var folders []string
	var files []file
	var largest int64
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if e.IsDir() {
			if rel != "." {
				folders = append(folders, rel)
			}
			return nil
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		files = append(files, file{rel, fi.Size(), fi.Mode().Perm()})
		largest = max(largest, fi.Size())
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The bytes written: a buffer of the largest size, so no time goes
	// into making content.
	data := make([]byte, largest)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	start := time.Now()
	for _, f := range folders {
		if err := os.Mkdir(filepath.Join(dst, f), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	var failed atomic.Value
	cores.Range(len(files), 1, func(i, _ int) {
		if failed.Load() != nil {
			return
		}
		f := files[i]
		// The build folder's modes (0644, 0755) pass the umask of
		// `make bench` as they are.
		if err := newfile.Write(filepath.Join(dst, f.rel), f.mode, data[:f.size], false); err != nil {
			failed.Store(err)
		}
	})
	if err, ok := failed.Load().(error); ok {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%.3f\n", time.Since(start).Seconds())
}
