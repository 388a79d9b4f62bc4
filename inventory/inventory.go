// Package inventory reads fabricc's inventory: where each switch (and each
// host `fabricc verify` checks) is reachable, how to log in, and which
// groups and tags it belongs to. It is a separate HCL file from the
// fabric, so the fabric can be shared without any site's addresses or
// credential sources:
//
//	known_hosts = "known_hosts"      # relative to this file
//
//	defaults {
//	  username        = "admin"
//	  password_env    = "FABRICC_PASSWORD"
//	  connect_timeout = "10s"
//	  command_timeout = "60s"
//	  device_timeout  = "5m"
//	}
//
//	device "leaf1" {
//	  address  = "10.0.0.11"
//	  port     = 22
//	  platform = "eos"                 # optional; checked against the fabric
//	  password_file = "secrets/leaf1"  # or password_env, private_key (+ passphrase_env/_file), agent = true
//	  enable_password_env = "EOS_ENABLE" # optional, answers `enable` (or enable_password_file)
//	  groups = ["leaves"]
//	  tags   = ["rack1"]
//	  fabrics = ["pod1"]               # optional: for an inventory several fabrics share
//	}
//
//	device "gpu01" {                   # a host of the fabric: verify runs its script's --check
//	  address     = "10.0.1.11"
//	  username    = "fabricc"
//	  private_key = "keys/fabricc"
//	  sudo        = true               # run the check through `sudo -n` (the login is not root)
//	  groups      = ["gpu"]
//	}
//
// A device is a switch or a host of the fabric by its name; the inventory
// itself does not know which (the fabric does, see push.Build). The
// attributes are the same for both, with two differences: platform, when
// given, is the switch's platform (onyx, eos, cumulus) or the host's
// operating system (linux, freebsd; a Windows host is refused, as its
// PowerShell script cannot be run from here: run it with -Check on the
// host), and sudo applies to hosts only, enable_password_env and
// enable_password_file to switches only (each is ignored on the other
// kind, so a defaults block may set them for all). `fabricc push` and
// `fabricc diff` never connect to a host.
//
// Secrets themselves never live in the inventory: it names an environment
// variable, a file, a private key file or the ssh-agent, and Credentials
// reads them at connect time into Secret values that never print.
package inventory

import (
	"fmt"
	"github.com/fabricc/fabricc/dsl"
	"path/filepath"
	"sort"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricc/fabricc/model"
)

// Inventory is a decoded, checked inventory file.
type Inventory struct {
	// Path is the inventory file; relative paths in it resolve against
	// its directory.
	Path string
	// KnownHosts is the known_hosts file host keys are checked against
	// (absolute, or empty when the file does not set one: then
	// ~/.ssh/known_hosts).
	KnownHosts string
	// Devices by name, ascending.
	Devices []*Device
}

// Device is one switch's or host's access details.
type Device struct {
	Name    string
	Address string
	Port    int
	// Platform is the switch's platform or, for a host, its operating
	// system (model.OSLinux or model.OSFreeBSD as a Platform); empty
	// when the inventory does not say.
	Platform model.Platform
	Username string
	// Sudo runs a host's check through `sudo -n` (hosts only; a switch
	// ignores it).
	Sudo   bool
	Auth   AuthSource
	Groups []string
	Tags   []string
	// Fabrics are the fabrics the device belongs to, when the inventory
	// says (fabrics = [...]): an inventory shared by several fabrics
	// names them, and a command on another fabric leaves the device out
	// instead of refusing a name that fabric does not have. Empty: not
	// said, and the device must be in the fabric.
	Fabrics []string
	// ConnectTimeout bounds the TCP connect and SSH handshake,
	// CommandTimeout each command, DeviceTimeout the whole push to this
	// device.
	ConnectTimeout time.Duration
	CommandTimeout time.Duration
	DeviceTimeout  time.Duration
	// Range is where the device block is declared.
	Range hcl.Range
}

// Addr is "address:port".
func (d *Device) Addr() string { return fmt.Sprintf("%s:%d", d.Address, d.Port) }

// Default timeouts when neither the device nor the defaults block sets one.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultCommandTimeout = 60 * time.Second
	DefaultDeviceTimeout  = 10 * time.Minute
	DefaultPort           = 22
)

// deviceSchema holds the attributes a device or defaults block may set.
type deviceSchema struct {
	Name           string    `hcl:"name,label"`
	Address        *string   `hcl:"address,optional"`
	Port           *int      `hcl:"port,optional"`
	Platform       *string   `hcl:"platform,optional"`
	Username       *string   `hcl:"username,optional"`
	PasswordEnv    *string   `hcl:"password_env,optional"`
	PasswordFile   *string   `hcl:"password_file,optional"`
	PrivateKey     *string   `hcl:"private_key,optional"`
	PassphraseEnv  *string   `hcl:"passphrase_env,optional"`
	PassphraseFile *string   `hcl:"passphrase_file,optional"`
	Agent          *bool     `hcl:"agent,optional"`
	EnableEnv      *string   `hcl:"enable_password_env,optional"`
	EnableFile     *string   `hcl:"enable_password_file,optional"`
	Sudo           *bool     `hcl:"sudo,optional"`
	Groups         *[]string `hcl:"groups,optional"`
	Tags           *[]string `hcl:"tags,optional"`
	Fabrics        *[]string `hcl:"fabrics,optional"`
	ConnectTimeout *string   `hcl:"connect_timeout,optional"`
	CommandTimeout *string   `hcl:"command_timeout,optional"`
	DeviceTimeout  *string   `hcl:"device_timeout,optional"`
	DefRange       hcl.Range `hcl:",def_range"`
	LabelRange     hcl.Range `hcl:"name,label_range"`
	// bad names the attributes of a defaults block that checkDefaults
	// found wrong ("auth" and "enable" for its credential sources).
	bad map[string]bool
}

// Load parses and checks the inventory file at path. It returns the
// parser's files too, for printing diagnostics with source snippets.
func Load(path string) (*Inventory, map[string]*hcl.File, hcl.Diagnostics) {
	p := hclparse.NewParser()
	src, diags := dsl.ReadSource(path)
	if diags.HasErrors() {
		return nil, p.Files(), diags
	}
	f, diags := p.ParseHCL(src, path)
	return decodeParsed(p, f, diags, path)
}

// Parse is Load for source held in memory; filename is used in
// diagnostics and to resolve relative paths.
func Parse(src []byte, filename string) (*Inventory, map[string]*hcl.File, hcl.Diagnostics) {
	p := hclparse.NewParser()
	f, diags := p.ParseHCL(src, filename)
	return decodeParsed(p, f, diags, filename)
}

// decodeParsed decodes what p parsed into f, unless parsing failed.
func decodeParsed(p *hclparse.Parser, f *hcl.File, diags hcl.Diagnostics, path string) (*Inventory, map[string]*hcl.File, hcl.Diagnostics) {
	if diags.HasErrors() {
		return nil, p.Files(), diags
	}
	inv, more := decode(path, f.Body)
	return inv, p.Files(), append(diags, more...)
}

func decode(path string, body hcl.Body) (*Inventory, hcl.Diagnostics) {
	// The defaults block has no label; decode it with a schema that
	// reuses deviceSchema's attributes.
	var raw struct {
		KnownHosts *string        `hcl:"known_hosts,optional"`
		Defaults   []defs         `hcl:"defaults,block"`
		Devices    []deviceSchema `hcl:"device,block"`
	}
	diags := gohcl.DecodeBody(body, nil, &raw)
	if diags.HasErrors() {
		return nil, diags
	}
	dir := filepath.Dir(path)
	inv := &Inventory{Path: path}
	if raw.KnownHosts != nil {
		inv.KnownHosts = resolve(dir, *raw.KnownHosts)
	}
	var d deviceSchema
	if len(raw.Defaults) > 1 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate defaults block",
			Detail: "An inventory has at most one defaults block; merge the two.", Subject: &raw.Defaults[1].DefRange})
	}
	if len(raw.Defaults) > 0 {
		d = raw.Defaults[0].deviceSchema()
		diags = append(diags, checkDefaults(dir, &d, attrRanges(blocks(body, "defaults")[raw.Defaults[0].DefRange.Start.Byte]))...)
	}
	seen := map[string]hcl.Range{}
	at := blocks(body, "device")
	for i := range raw.Devices {
		ds := &raw.Devices[i]
		if prev, ok := seen[ds.Name]; ok {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate device",
				Detail: fmt.Sprintf("Device %q was already declared at %s; remove one of them.", ds.Name, prev), Subject: &ds.LabelRange})
			continue
		}
		seen[ds.Name] = ds.DefRange
		dev, ds2 := build(dir, ds, &d, at[ds.DefRange.Start.Byte])
		diags = append(diags, ds2...)
		if dev != nil {
			inv.Devices = append(inv.Devices, dev)
		}
	}
	sort.Slice(inv.Devices, func(i, j int) bool { return inv.Devices[i].Name < inv.Devices[j].Name })
	return inv, diags
}

// blocks are the blocks of type typ by the byte their definition starts
// at (their DefRange), whose attrRanges the diagnostics of checkDefaults
// and build use; nil where body is not native syntax.
func blocks(body hcl.Body, typ string) map[int]*hclsyntax.Block {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	all := map[int]*hclsyntax.Block{}
	for _, b := range sb.Blocks {
		if b.Type == typ {
			all[b.DefRange().Start.Byte] = b
		}
	}
	return all
}

// attrRanges are the value ranges of block b's attributes by name
// ("auth" and "enable": the block's first credential source attribute);
// nil for a nil b.
func attrRanges(b *hclsyntax.Block) map[string]hcl.Range {
	if b == nil {
		return nil
	}
	out := map[string]hcl.Range{}
	var auth, enable []*hclsyntax.Attribute
	for name, a := range b.Body.Attributes {
		out[name] = a.Expr.Range()
		switch name {
		case "password_env", "password_file", "private_key", "passphrase_env", "passphrase_file", "agent":
			auth = append(auth, a)
		case "enable_password_env", "enable_password_file":
			enable = append(enable, a)
		}
	}
	for name, attrs := range map[string][]*hclsyntax.Attribute{"auth": auth, "enable": enable} {
		if len(attrs) > 0 {
			sort.Slice(attrs, func(i, j int) bool { return attrs[i].SrcRange.Start.Byte < attrs[j].SrcRange.Start.Byte })
			out[name] = attrs[0].SrcRange
		}
	}
	return out
}

// defs is the unlabelled defaults block.
type defs struct {
	Username       *string   `hcl:"username,optional"`
	Port           *int      `hcl:"port,optional"`
	Platform       *string   `hcl:"platform,optional"`
	PasswordEnv    *string   `hcl:"password_env,optional"`
	PasswordFile   *string   `hcl:"password_file,optional"`
	PrivateKey     *string   `hcl:"private_key,optional"`
	PassphraseEnv  *string   `hcl:"passphrase_env,optional"`
	PassphraseFile *string   `hcl:"passphrase_file,optional"`
	Agent          *bool     `hcl:"agent,optional"`
	EnableEnv      *string   `hcl:"enable_password_env,optional"`
	EnableFile     *string   `hcl:"enable_password_file,optional"`
	Sudo           *bool     `hcl:"sudo,optional"`
	Groups         *[]string `hcl:"groups,optional"`
	Tags           *[]string `hcl:"tags,optional"`
	Fabrics        *[]string `hcl:"fabrics,optional"`
	ConnectTimeout *string   `hcl:"connect_timeout,optional"`
	CommandTimeout *string   `hcl:"command_timeout,optional"`
	DeviceTimeout  *string   `hcl:"device_timeout,optional"`
	DefRange       hcl.Range `hcl:",def_range"`
}

func (d defs) deviceSchema() deviceSchema {
	return deviceSchema{Username: d.Username, Port: d.Port, Platform: d.Platform,
		PasswordEnv: d.PasswordEnv, PasswordFile: d.PasswordFile, PrivateKey: d.PrivateKey,
		PassphraseEnv: d.PassphraseEnv, PassphraseFile: d.PassphraseFile, Agent: d.Agent,
		EnableEnv: d.EnableEnv, EnableFile: d.EnableFile, Sudo: d.Sudo,
		Groups: d.Groups, Tags: d.Tags, Fabrics: d.Fabrics, ConnectTimeout: d.ConnectTimeout,
		CommandTimeout: d.CommandTimeout, DeviceTimeout: d.DeviceTimeout, DefRange: d.DefRange}
}

func resolve(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if len(p) > 1 && p[0] == '~' && p[1] == '/' {
		return p // expanded at use time (home of the running user)
	}
	return filepath.Join(dir, p)
}
