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

// unseal does nothing: there is no seal.
func unseal(dir string) {}

// inode is 0 where it is not read: no file of a kept build counts as
// one of the build folder's, and each is linked again.
func inode(fi fs.FileInfo) uint64 { return 0 }
