//go:build unix

package main

import (
	"io"
	"io/fs"

	"golang.org/x/sys/unix"
)

// writeFile creates p with data: open, write, close. The folder's files
// have their modes from the build folder, which the umask of `make
// bench` does not narrow (0644, 0755).
func writeFile(p string, data []byte, mode fs.FileMode) error {
	fd, err := unix.Open(p, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, uint32(mode))
	if err != nil {
		return &fs.PathError{Op: "open", Path: p, Err: err}
	}
	for len(data) > 0 && err == nil {
		var n int
		n, err = unix.Write(fd, data)
		switch {
		case err == unix.EINTR:
			err = nil
		case err == nil && n == 0:
			err = io.ErrShortWrite
		case err == nil:
			data = data[n:]
		}
	}
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: p, Err: err}
	}
	return nil
}
