package artifacts

import (
	"encoding/json"
	"fmt"
	"path/filepath"
)

// Inputs are the command-line inputs a build evaluated its fabric with
// (-var, --var-file, --large), which manifest.json records as
// Terraform's saved plan records its variable values, so that `fabricc
// explain` evaluates the fabric as the build did. Fabric variables hold
// no credentials (those are the inventory's).
type Inputs struct {
	// Vars maps a -var name to its value as given.
	Vars map[string]string `json:"vars,omitempty"`
	// EnvVars maps the name of a variable set by FABRICC_VAR_name to its
	// value as given.
	EnvVars map[string]string `json:"env_vars,omitempty"`
	// VarFiles are the --var-file paths relative to the output folder,
	// with slashes, in the order given.
	VarFiles []string `json:"var_files,omitempty"`
	// Large is --large.
	Large bool `json:"large,omitempty"`
	// SourcesSHA256 is the fabric's files and var files as the build read
	// them (dsl.SourceDigest), so that a push of the folder can tell a
	// fabric changed since the build.
	SourcesSHA256 string `json:"sources_sha256,omitempty"`
	// DataFiles are the files the fabric looked at through file,
	// fileexists or templatefile, relative to the fabric folder with
	// slashes, sorted: SourcesSHA256 covers them, and push reads them
	// again to check it.
	DataFiles []string `json:"data_files,omitempty"`
}

// recorded is inputs as manifest.json holds them: nil when there are
// none, so that the key is left out.
func (in Inputs) recorded() *Inputs {
	if len(in.Vars) == 0 && len(in.EnvVars) == 0 && len(in.VarFiles) == 0 && !in.Large && in.SourcesSHA256 == "" && len(in.DataFiles) == 0 {
		return nil
	}
	return &in
}

// Manifest is what a build folder's manifest.json says, as `fabricc
// explain` reads it back.
type Manifest struct {
	// Fabric is the fabric's name.
	Fabric string
	// FabricPath is the fabric's path relative to the folder, with
	// slashes; empty when the build did not record it.
	FabricPath string
	// Inputs are the build's -var, --var-file and --large.
	Inputs Inputs
	// Files maps the slash path of every file in the folder (model.json,
	// fabric.md, "leaf1/leaf1.nvue.sh") to its hex SHA-256.
	Files map[string]string
}

// ReadManifest reads the manifest.json of the build folder dir: a
// regular file of at most 64 MiB written by fabricc.
func ReadManifest(dir string) (*Manifest, error) {
	file := filepath.Join(dir, ManifestFile)
	data, err := readManifest(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var m manifestJSON
	if err := json.Unmarshal(data, &m); err != nil || (m.Generator != "" && m.Generator != Generator) {
		return nil, fmt.Errorf("%s was not written by fabricc", file)
	}
	out := &Manifest{Fabric: m.Fabric, FabricPath: m.FabricPath, Files: map[string]string{}}
	if m.Inputs != nil {
		out.Inputs = *m.Inputs
	}
	for _, f := range m.Files {
		out.Files[f.Path] = f.SHA256
	}
	for _, d := range m.Devices {
		for _, f := range d.Files {
			out.Files[f.Path] = f.SHA256
		}
	}
	return out, nil
}

// Digest is the hex SHA-256 of data, as manifest.json lists it.
func Digest(data []byte) string { return digest(data) }
