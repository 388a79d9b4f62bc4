package dsl

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// SourceDigest is the hex SHA-256 of what a fabric at path is made of:
// the name and bytes of each .hcl file Load reads there, then of each var
// file. A build records it (manifest.json) so that a later push of that
// build can tell whether the fabric changed since; names are taken
// without their folder, so the digest survives the fabric moving.
func SourceDigest(path string, varFiles []string) (string, error) {
	names, diags := sourceFiles(path)
	if diags.HasErrors() {
		return "", fmt.Errorf("%s", diags[0].Detail)
	}
	h := sha256.New()
	add := func(kind, name string) error {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00", kind, filepath.Base(name), len(data))
		h.Write(data)
		return nil
	}
	for _, n := range names {
		if err := add("fabric", n); err != nil {
			return "", err
		}
	}
	for _, n := range varFiles {
		if err := add("vars", n); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
