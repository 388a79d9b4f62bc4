package dsl

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// SourceDigest is the hex SHA-256 of what a fabric at path is made of:
// the name and bytes of each .hcl file Load reads there, then of each var
// file, then of each file the fabric looked at through file, fileexists
// or templatefile (read, as Options.Read gives them: relative to the
// fabric folder, with slashes), or that it is not there. A build records
// it (manifest.json) so that a later push of that build can tell whether
// the fabric changed since; names are taken without the fabric folder,
// so the digest survives the fabric moving. The .hcl and var files are
// taken as the parser reads them (decodedText): a checkout with CRLF
// line ends or a UTF-8 byte order mark (git's core.autocrlf, true by
// default on Windows: git-config, core.autocrlf) compiles to the same
// fabric and gives the same digest. Data files are taken as they are:
// file() returns their bytes, CRs and all.
func SourceDigest(path string, varFiles, read []string) (string, error) {
	names, diags := sourceFiles(path)
	if diags.HasErrors() {
		return "", fmt.Errorf("%s", diags[0].Detail)
	}
	h := sha256.New()
	add := func(kind, name, shown string) error {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		data = decodedText(data)
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00", kind, shown, len(data))
		h.Write(data)
		return nil
	}
	for _, n := range names {
		if err := add("fabric", n, filepath.Base(n)); err != nil {
			return "", err
		}
	}
	for _, n := range varFiles {
		if err := add("vars", n, filepath.Base(n)); err != nil {
			return "", err
		}
	}
	folder := path
	if len(names) == 1 && names[0] == path {
		folder = filepath.Dir(path)
	}
	for _, n := range read {
		if err := addData(h, folder, n); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// decodedText is an HCL file's text as its parser reads it: without a
// leading UTF-8 byte order mark, which HCL's Go scanner skips
// (hclsyntax, token.go stripUTF8BOM), and with each CRLF line end an LF
// (HCL native syntax specification, "Comments and Whitespace": a
// newline sequence is LF or CR LF).
func decodedText(data []byte) []byte {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !bytes.Contains(data, []byte("\r\n")) {
		return data
	}
	return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
}

// addData adds the file name of the fabric folder (a path with slashes)
// to h: its bytes, or that no regular file is there. A file that is
// not regular is not opened (a FIFO would block).
func addData(h hash.Hash, folder, name string) error {
	full := filepath.Join(folder, filepath.FromSlash(name))
	st, err := os.Stat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(h, "data\x00%s\x00absent\x00", name)
		return nil
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		fmt.Fprintf(h, "data\x00%s\x00%s\x00", name, describeMode(st.Mode()))
		return nil
	}
	f, err := os.Open(full)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintf(h, "data\x00%s\x00%d\x00", name, st.Size())
	_, err = io.Copy(h, f)
	return err
}
