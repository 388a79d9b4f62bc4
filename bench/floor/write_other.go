//go:build !unix

package main

import (
	"io/fs"
	"os"
)

// writeFile creates p with data, through Go's os package where there
// are no Unix system calls to make directly.
func writeFile(p string, data []byte, mode fs.FileMode) error {
	return os.WriteFile(p, data, mode)
}
