package inventory

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sample = `
known_hosts = "kh"
defaults {
  username        = "admin"
  password_env    = "FABRICC_TEST_PW"
  command_timeout = "5s"
  groups          = ["all"]
}
device "spine1" {
  address  = "127.0.0.1"
  port     = 2201
  platform = "onyx"
  enable_password_file = "secrets/enable"
  groups   = ["spines"]
}
device "leaf1" {
  address = "127.0.0.1"
  platform = "eos"
  groups  = ["leaves"]
  tags    = ["rack1"]
}
device "leaf2" {
  address  = "127.0.0.1"
  platform = "cumulus"
  password_file = "secrets/leaf2"
  groups   = ["leaves"]
  tags     = ["rack2"]
}
`

func load(t *testing.T, src string) *Inventory {
	t.Helper()
	inv, _, diags := Parse([]byte(src), "/inv/inventory.hcl")
	if diags.HasErrors() {
		t.Fatalf("diagnostics: %s", diags.Error())
	}
	return inv
}

func TestLoadMergesDefaults(t *testing.T) {
	inv := load(t, sample)
	if inv.KnownHosts != "/inv/kh" {
		t.Errorf("known_hosts = %q, want /inv/kh", inv.KnownHosts)
	}
	var names []string
	for _, d := range inv.Devices {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, ","); got != "leaf1,leaf2,spine1" {
		t.Errorf("devices = %s", got)
	}
	l1, l2, s1 := inv.Device("leaf1"), inv.Device("leaf2"), inv.Device("spine1")
	if l1.Port != 22 || s1.Port != 2201 || s1.Addr() != "127.0.0.1:2201" {
		t.Errorf("ports: leaf1 %d spine1 %d", l1.Port, s1.Port)
	}
	if l1.Auth.Kind != AuthPasswordEnv || l1.Auth.Ref != "FABRICC_TEST_PW" {
		t.Errorf("leaf1 auth = %+v", l1.Auth)
	}
	if l2.Auth.Kind != AuthPasswordFile || l2.Auth.Ref != "/inv/secrets/leaf2" {
		t.Errorf("leaf2 auth = %+v", l2.Auth)
	}
	if l1.CommandTimeout != 5*time.Second || l1.ConnectTimeout != DefaultConnectTimeout {
		t.Errorf("timeouts = %v %v", l1.CommandTimeout, l1.ConnectTimeout)
	}
	if s1.Auth.EnableFile != "/inv/secrets/enable" || l1.Auth.EnableFile != "" {
		t.Errorf("enable sources: spine1 %q leaf1 %q", s1.Auth.EnableFile, l1.Auth.EnableFile)
	}
	if l1.Username != "admin" || l1.Platform != "eos" {
		t.Errorf("leaf1 = %+v", l1)
	}
}

func TestSelect(t *testing.T) {
	inv := load(t, sample)
	for _, tc := range []struct{ limit, want, err string }{
		{"", "leaf1,leaf2,spine1", ""},
		{"leaf1", "leaf1", ""},
		{"leaf*", "leaf1,leaf2", ""},
		{"spines", "spine1", ""},
		{"rack2,spine1", "leaf2,spine1", ""},
		{"leaves, rack1", "leaf1,leaf2", ""},
		{"leaf9", "", `--limit term "leaf9" matches no device`},
		{"[", "", "not a valid glob"},
		// Exclusion and intersection, as Ansible's --limit: "!" leaves
		// out, "&" keeps only; exclusions alone start from every device,
		// and the order of the terms does not matter.
		{"!leaf2", "leaf1,spine1", ""},
		{"!leaf2, !spines", "leaf1", ""},
		{"!leaf1,leaf*", "leaf2", ""},
		{"leaves,spines,&rack2", "leaf2", ""},
		{"&leaf*", "leaf1,leaf2", ""},
		{"!leaf9", "", `--limit term "!leaf9" matches no device`},
		{"!", "", `--limit term "!" names nothing after !`},
	} {
		got, err := inv.Select(tc.limit)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Select(%q) err = %v, want %q", tc.limit, err, tc.err)
			}
			continue
		}
		var names []string
		for _, d := range got {
			names = append(names, d.Name)
		}
		if err != nil || strings.Join(names, ",") != tc.want {
			t.Errorf("Select(%q) = %v, %v; want %s", tc.limit, names, err, tc.want)
		}
	}
}

// TestHostEntries: a host's entry is a device like a switch's, with its
// operating system as platform and sudo (from the defaults too); --limit
// and Terms name hosts, their groups and tags like switches'.
func TestHostEntries(t *testing.T) {
	inv := load(t, sample+`
device "gpu01" {
  address  = "10.0.1.11"
  platform = "linux"
  sudo     = true
  groups   = ["gpus"]
}
device "nas" {
  address  = "10.20.0.1"
  platform = "freebsd"
  username = "root"
  tags     = ["rack9"]
}
`)
	gpu, nas, leaf := inv.Device("gpu01"), inv.Device("nas"), inv.Device("leaf1")
	if gpu.Platform != "linux" || !gpu.Sudo || gpu.Username != "admin" || gpu.Auth.Kind != AuthPasswordEnv {
		t.Errorf("gpu01 = %+v", gpu)
	}
	if nas.Platform != "freebsd" || nas.Sudo || nas.Username != "root" || leaf.Sudo {
		t.Errorf("nas = %+v, leaf1 sudo %v", nas, leaf.Sudo)
	}
	for limit, want := range map[string]string{"gpus": "gpu01", "rack9,spines": "nas,spine1", "all": "nas"} {
		got, err := inv.Select(limit)
		var names []string
		for _, d := range got {
			names = append(names, d.Name)
		}
		if err != nil || strings.Join(names, ",") != want {
			t.Errorf("Select(%q) = %v, %v; want %s", limit, names, err, want)
		}
	}
	if got := strings.Join(inv.Terms(), ","); got != "all,gpu01,gpus,leaf1,leaf2,leaves,nas,rack1,rack2,rack9,spine1,spines" {
		t.Errorf("Terms = %s", got)
	}
	withDefault := load(t, `
defaults {
  username = "u"
  agent    = true
  sudo     = true
}
device "h1" {
  address = "h"
}
device "h2" {
  address = "h"
  sudo    = false
}
`)
	if !withDefault.Device("h1").Sudo || withDefault.Device("h2").Sudo {
		t.Errorf("sudo from the defaults: h1 %v, h2 %v", withDefault.Device("h1").Sudo, withDefault.Device("h2").Sudo)
	}
}

func TestDiagnostics(t *testing.T) {
	blk := func(attrs ...string) string {
		return "device \"a\" {\n" + strings.Join(attrs, "\n") + "\n}\n"
	}
	for _, tc := range []struct{ src, want string }{
		{blk(`username = "u"`, `password_env = "X"`), "Missing address"},
		{blk(`address = "h"`, `password_env = "X"`), "Missing username"},
		{blk(`address = "h"`, `username = "u"`), "Missing credentials"},
		{blk(`address = "h"`, `username = "u"`, `password_env = "X"`, `agent = true`), "password_env, agent are all set"},
		{blk(`address = "h"`, `username = "u"`, `agent = true`, `platform = "ios"`), `platform "ios" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts)`},
		{blk(`address = "h"`, `username = "u"`, `agent = true`, `platform = "windows"`), `Windows host; Device "a": a is a Windows host, and fabricc checks only Linux and FreeBSD hosts over SSH (a Windows host's script is PowerShell); run a.windows.ps1 -Check on the host instead`},
		{blk(`address = "h"`, `username = "u"`, `agent = true`, `sudo = "maybe"`), `Unsuitable value type`},
		{blk(`address = "h"`, `username = "u"`, `agent = true`, `command_timeout = "soon"`), `command_timeout = "soon" is not a positive duration`},
		{blk(`address = "h"`, `username = "u"`, `agent = true`) + blk(`address = "h"`, `username = "u"`, `agent = true`), `Device "a" was already declared at inv.hcl:1`},
		{blk(`adress = "h"`), `Unsupported argument`},
		// What reaches a terminal or a log: no control character, no
		// forged summary line.
		{blk(`address = "h"`, `username = "adm\u001b[31min\nleaf9 changed"`, `agent = true`), `Invalid username; Device "a": username "adm\x1b[31min\nleaf9 changed" holds a space, a control character or a letter outside ASCII`},
		{blk(`address = "10.0.0.1; reboot"`, `username = "u"`, `agent = true`), `Invalid address; Device "a": address "10.0.0.1; reboot" is not an IP address or a host name`},
		{blk(`address = "h"`, `username = "u"`, `agent = true`, `groups = ["ok", "bad\tgroup"]`), `Invalid group or tag; Device "a": group or tag "bad\tgroup" holds`},
		{"device \"a\\nb\" {\n  address = \"h\"\n  username = \"u\"\n  agent = true\n}\n", `Invalid device name; Device "a\nb": the name holds`},
		{blk(`address = "h"`, `username = "u"`, `agent = true`, `enable_password_env = "E"`, `enable_password_file = "f"`), `enable_password_env and enable_password_file are both set`},
		{blk(`address = "h"`, `username = "u"`, `agent = true`, `fabrics = []`), `Invalid fabric name; Device "a": fabrics = [] puts the device in no fabric`},
		{blk(`address = "h"`, `username = "u"`, `agent = true`, `fabrics = ["pod 1"]`), `Invalid fabric name; Device "a": fabric name "pod 1" holds a space`},
		{"device \"a\u001b[31mb\" {\n  address = \"h\"\n  username = \"u\"\n  agent = true\n  platform = \"windows\"\n}\n", `a\x1b[31mb is a Windows host`},
	} {
		_, _, diags := Parse([]byte(tc.src), "inv.hcl")
		var all []string
		for _, d := range diags {
			all = append(all, d.Error())
		}
		text := strings.Join(all, "\n")
		if strings.Contains(text, "\x1b") {
			t.Errorf("src %q: a diagnostic holds a raw escape: %q", tc.src, text)
		}
		if !diags.HasErrors() || !strings.Contains(text, tc.want) {
			t.Errorf("src %q: diags %q, want %q", tc.src, text, tc.want)
		}
		for _, d := range diags {
			if d.Subject == nil || d.Subject.Filename != "inv.hcl" {
				t.Errorf("diagnostic %q has no range in inv.hcl", d.Summary)
			}
		}
	}
}

func TestSecretNeverPrints(t *testing.T) {
	const pw = "hunter2-very-secret"
	s := NewSecret(pw)
	c := Credentials{Username: "admin", Password: s, Passphrase: s, KeyPEM: s}
	js, _ := json.Marshal(c)
	for _, out := range []string{
		fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s %q %x", s, c, c, s, s, s), string(js),
		fmt.Errorf("login with %v failed", s).Error(),
	} {
		if strings.Contains(out, pw) || strings.Contains(out, fmt.Sprintf("%x", pw)) {
			t.Errorf("secret leaked: %s", out)
		}
		if !strings.Contains(out, "[redacted]") {
			t.Errorf("no redaction marker in %s", out)
		}
	}
	if s.Reveal() != pw {
		t.Error("Reveal lost the value")
	}
}

func TestCredentials(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "pw")
	loose := filepath.Join(dir, "loose")
	if err := os.WriteFile(good, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(loose, []byte("s3cret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(dir, "key")
	if err := os.WriteFile(key, []byte("not checked here\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FABRICC_TEST_PW", "envpw")
	for _, tc := range []struct {
		auth    AuthSource
		want    string
		wantErr string
	}{
		{AuthSource{Kind: AuthPasswordFile, Ref: good}, "s3cret", ""},
		{AuthSource{Kind: AuthPasswordEnv, Ref: "FABRICC_TEST_PW"}, "envpw", ""},
		{AuthSource{Kind: AuthPasswordEnv, Ref: "FABRICC_UNSET_VAR"}, "", "environment variable FABRICC_UNSET_VAR is not set"},
		{AuthSource{Kind: AuthPasswordFile, Ref: loose}, "", "readable by its group or others"},
		{AuthSource{Kind: AuthPrivateKey, Ref: filepath.Join(dir, "nokey")}, "", "no such file"},
		// The passphrase and enable password sources: errors name the
		// variable or file, never what the file holds.
		{AuthSource{Kind: AuthPrivateKey, Ref: key, PassphraseEnv: "FABRICC_UNSET_VAR"}, "", "device leaf1: passphrase variable FABRICC_UNSET_VAR is not set"},
		{AuthSource{Kind: AuthPrivateKey, Ref: key, PassphraseFile: loose}, "", "device leaf1: passphrase file: " + loose + " is readable by its group or others"},
		{AuthSource{Kind: AuthPasswordFile, Ref: good, EnableEnv: "FABRICC_UNSET_VAR"}, "", "device leaf1: enable password variable FABRICC_UNSET_VAR is not set"},
		{AuthSource{Kind: AuthPasswordFile, Ref: good, EnableFile: loose}, "", "device leaf1: enable password file: " + loose + " is readable by its group or others"},
	} {
		d := &Device{Name: "leaf1", Username: "admin", Auth: tc.auth}
		c, err := d.Credentials()
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%+v: err %v, want %q", tc.auth, err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error leaks the secret: %v", err)
			}
			continue
		}
		if err != nil || c.Password.Reveal() != tc.want {
			t.Errorf("%+v: got %v", tc.auth, err)
		}
	}
	if _, err := (&Device{Name: "x", Auth: AuthSource{Kind: AuthPasswordFile, Ref: good}}).Credentials(); errors.Is(err, os.ErrNotExist) {
		t.Error("unexpected")
	}
}

// TestDefaultsReportedOnce: a wrong value in the defaults block is one
// error at the attribute's value, not one per device at each device's
// block; a device that sets its own value is still checked.
func TestDefaultsReportedOnce(t *testing.T) {
	dev := func(name string, attrs ...string) string {
		return "\ndevice \"" + name + "\" {\n  address = \"10.0.0.1\"\n" + strings.Join(attrs, "\n") + "}\n"
	}
	for _, tc := range []struct {
		attr, value string
		want        []string // "LINE:COL: SUMMARY: DETAIL"
	}{
		{"command_timeout", `"30"`, []string{`6:21: Invalid duration: The defaults block, which every device takes unless it sets its own: command_timeout = "30" is not a positive duration such as "30s" or "5m".`}},
		{"port", `0`, []string{`6:21: Invalid port: The defaults block, which every device takes unless it sets its own: port 0 is outside 1-65535.`}},
		{"platform", `"ios"`, []string{`6:21: Unknown platform: The defaults block, which every device takes unless it sets its own: platform "ios" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts).`}},
		{"groups", `["a b"]`, []string{`6:21: Invalid group or tag: The defaults block, which every device takes unless it sets its own: group or tag "a b" holds a space at character 2; use letters, digits, '-', '_' and '.'.`}},
		{"agent", `true`, []string{`4:3: Conflicting credential sources: The defaults block, which every device takes unless it sets its own: password_env, agent are all set; keep exactly one`}},
	} {
		src := "\ndefaults {\n  username        = \"admin\"\n  password_env    = \"X\"\n  connect_timeout = \"5s\"\n  " +
			fmt.Sprintf("%-15s = %s", tc.attr, tc.value) + "\n}\n" +
			dev("leaf1") + dev("leaf2") + dev("leaf3")
		_, _, diags := Parse([]byte(src), "inv.hcl")
		var got []string
		for _, d := range diags {
			got = append(got, fmt.Sprintf("%d:%d: %s: %s", d.Subject.Start.Line, d.Subject.Start.Column, d.Summary, d.Detail))
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s = %s:\n%s\nwant:\n%s", tc.attr, tc.value, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	// A device's own wrong value is its own error, at its block.
	src := "defaults {\n  username        = \"admin\"\n  password_env    = \"X\"\n  command_timeout = \"30\"\n}\n" +
		dev("leaf1", `  command_timeout = "soon"`+"\n") + dev("leaf2", `  command_timeout = "30s"`+"\n")
	_, _, diags := Parse([]byte(src), "inv.hcl")
	if len(diags) != 2 || diags[0].Subject.Start.Line != 4 || !strings.Contains(diags[1].Detail, `Device "leaf1": command_timeout = "soon"`) {
		t.Errorf("diagnostics: %v", diags)
	}
}

// TestDeviceFabrics: a device's fabrics list, its own or the defaults',
// says which fabrics it is in; without one it is in every fabric.
func TestDeviceFabrics(t *testing.T) {
	inv := load(t, "defaults {\n  username = \"u\"\n  agent = true\n  fabrics = [\"pod1\"]\n}\n"+
		"device \"a\" {\n  address = \"h\"\n}\ndevice \"b\" {\n  address = \"h\"\n  fabrics = [\"pod2\", \"pod3\"]\n}\n")
	a, b := inv.Device("a"), inv.Device("b")
	if !a.In("pod1") || a.In("pod2") || b.In("pod1") || !b.In("pod3") {
		t.Errorf("a in %v, b in %v", a.Fabrics, b.Fabrics)
	}
	if c := load(t, "device \"c\" {\n  address = \"h\"\n  username = \"u\"\n  agent = true\n}\n").Device("c"); !c.In("anything") {
		t.Error("a device without fabrics is not in every fabric")
	}
}

// TestDeviceDiagnosticsAtTheAttribute: a wrong value a device block sets
// is reported at that attribute's value, not at the block; a missing
// attribute at the block (a credential conflict at the first source);
// an unknown platform with the platform a
// vendor's name stands for, or a close spelling.
func TestDeviceDiagnosticsAtTheAttribute(t *testing.T) {
	for _, tc := range []struct {
		attrs string // lines 4 on of the device block, after address
		want  string // "LINE:COL: SUMMARY: DETAIL"
	}{
		{`  platform = "arista"`, `4:14: Unknown platform: Device "leaf2": platform "arista" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts). Did you mean "eos" (Arista EOS)?`},
		{`  platform = "Cumulus Linux"`, `4:14: Unknown platform: Device "leaf2": platform "Cumulus Linux" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts). Did you mean "cumulus"?`},
		{`  platform = "cumulus-linux"`, `4:14: Unknown platform: Device "leaf2": platform "cumulus-linux" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts). Did you mean "cumulus"?`},
		{`  platform = "nvidia"`, `4:14: Unknown platform: Device "leaf2": platform "nvidia" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts). Did you mean "onyx" (NVIDIA Onyx) or "cumulus" (NVIDIA Cumulus Linux), as the fabric's switch block says?`},
		{`  platform = "mlnx"`, `4:14: Unknown platform: Device "leaf2": platform "mlnx" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts). Did you mean "onyx" (NVIDIA Onyx, formerly Mellanox MLNX-OS) or "cumulus" (NVIDIA Cumulus Linux), as the fabric's switch block says?`},
		{`  platform = "mellanox"`, `4:14: Unknown platform: Device "leaf2": platform "mellanox" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts). Did you mean "onyx" (NVIDIA Onyx, formerly Mellanox MLNX-OS) or "cumulus" (NVIDIA Cumulus Linux), as the fabric's switch block says?`},
		{`  platform = "cumuls"`, `4:14: Unknown platform: Device "leaf2": platform "cumuls" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts). Did you mean "cumulus"?`},
		{`  platform = "ios"`, `4:14: Unknown platform: Device "leaf2": platform "ios" is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts).`},
		{`  platform = "windows"`, `4:14: Windows host: Device "leaf2": leaf2 is a Windows host, and fabricc checks only Linux and FreeBSD hosts over SSH (a Windows host's script is PowerShell); run leaf2.windows.ps1 -Check on the host instead, and remove it from the inventory.`},
		{`  port = 70000`, `4:10: Invalid port: Device "leaf2": port 70000 is outside 1-65535.`},
		{`  username = "ad min"`, `4:14: Invalid username: Device "leaf2": username "ad min" holds a space, a control character or a letter outside ASCII, or is over 64 characters; write the login name.`},
		{"  tags = [\"row 1\"]", `4:10: Invalid group or tag: Device "leaf2": group or tag "row 1" holds a space at character 4; use letters, digits, '-', '_' and '.'.`},
		{`  device_timeout = "10"`, `4:20: Invalid duration: Device "leaf2": device_timeout = "10" is not a positive duration such as "30s" or "5m".`},
		{"  private_key = \"k\"\n  agent = true", `3:3: Conflicting credential sources: Device "leaf2": password_env, private_key, agent are all set; keep exactly one`},
	} {
		src := "device \"leaf2\" {\n  address = \"10.0.0.2\"\n  password_env = \"X\"\n" + tc.attrs + "\n  username = \"admin\"\n}\n"
		if strings.Contains(tc.attrs, "username") {
			src = strings.Replace(src, "\n  username = \"admin\"", "", 1)
		}
		_, _, diags := Parse([]byte(src), "inv.hcl")
		var got []string
		for _, d := range diags {
			got = append(got, fmt.Sprintf("%d:%d: %s: %s", d.Subject.Start.Line, d.Subject.Start.Column, d.Summary, d.Detail))
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.attrs, strings.Join(got, "\n"), tc.want)
		}
	}
	// A missing attribute is reported at the block.
	_, _, diags := Parse([]byte("device \"leaf2\" {\n  username = \"admin\"\n  agent = true\n}\n"), "inv.hcl")
	if len(diags) != 1 || diags[0].Summary != "Missing address" || diags[0].Subject.Start.Line != 1 {
		t.Errorf("missing address: %v", diags)
	}
}
