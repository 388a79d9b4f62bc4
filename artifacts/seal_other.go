//go:build !linux

package artifacts

import "io/fs"

// seal does nothing where extended attributes and ctime are not read the
// Linux way: every rebuild compares the previous build's files byte for
// byte.
func seal(dir string) {}

// sealedFiles trusts nothing without a seal.
func sealedFiles(dir string) func(fs.FileInfo) bool { return nil }

// umaskKeeps is false where the umask cannot be read: every file gets
// its mode set after it is created.
func umaskKeeps(mode fs.FileMode) bool { return false }
