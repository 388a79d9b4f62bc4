//go:build unix

// Package newfile writes a new file with as few system calls as the
// system allows: fabricc's build writes hundreds of thousands of them,
// and bench/floor, the floor it is measured against, writes the same
// way.
package newfile

import (
	"io"
	"io/fs"

	"golang.org/x/sys/unix"
)

// Write creates the file dst, which must not exist, with data and the
// permission bits perm, which the umask narrows unless exact is true
// (then they are set after the write). It makes three system calls for
// a file (open, write, close), where os.OpenFile, File.Write and
// File.Close make eight on Linux: os registers every file it opens with
// the network poller, four fcntl calls and an epoll_ctl that a regular
// file always refuses. A 4,096-switch build writes 291,424 files
// (`strace -c -f`, 512 switches: 145,358 fcntl and 36,338 failed
// epoll_ctl for 36,349 files). Errors are *fs.PathError, worded as
// os's.
func Write(dst string, perm fs.FileMode, data []byte, exact bool) error {
	fd, err := openNew(dst, perm)
	if err != nil {
		return &fs.PathError{Op: "open", Path: dst, Err: err}
	}
	if err = writeAll(fd, data); err != nil {
		err = &fs.PathError{Op: "write", Path: dst, Err: err}
	}
	if err == nil && exact {
		err = ignoringEINTR(func() error { return unix.Fchmod(fd, uint32(perm.Perm())) })
		if err != nil {
			err = &fs.PathError{Op: "chmod", Path: dst, Err: err}
		}
	}
	if cerr := unix.Close(fd); err == nil && cerr != nil {
		err = &fs.PathError{Op: "close", Path: dst, Err: cerr}
	}
	return err
}

// openNew opens dst for writing, creating it; it fails when dst exists.
func openNew(dst string, perm fs.FileMode) (int, error) {
	for {
		fd, err := unix.Open(dst, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// writeAll writes data to fd, resuming after a short write or a signal.
func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrShortWrite
		}
		data = data[n:]
	}
	return nil
}

// ignoringEINTR calls fn again while it is interrupted by a signal.
func ignoringEINTR(fn func() error) error {
	for {
		if err := fn(); err != unix.EINTR {
			return err
		}
	}
}
