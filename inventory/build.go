package inventory

import (
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// build merges a device block over the defaults and checks the result.
func build(dir string, ds, def *deviceSchema) (*Device, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	errf := func(summary, detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary,
			Detail: fmt.Sprintf("Device %q: %s", ds.Name, detail), Subject: &ds.DefRange})
	}
	dev := &Device{Name: ds.Name, Port: DefaultPort, Range: ds.DefRange}
	if err := quote.CheckWord(ds.Name, 63); err != nil {
		errf("Invalid device name", fmt.Sprintf("the name %s; it must be the name of a switch or host of the fabric, a word.", err))
	}
	dev.Address = str(ds.Address, nil)
	if dev.Address == "" {
		errf("Missing address", `set address = "<management IP or hostname>".`)
	} else if !hostOrIP(dev.Address) {
		errf("Invalid address", fmt.Sprintf("address %q is not an IP address or a host name (letters, digits, '-' and '.'); write the device's management address.", dev.Address))
	}
	if p := pick(ds.Port, def.Port); p != nil {
		dev.Port = *p
	}
	if dev.Port < 1 || dev.Port > 65535 {
		errf("Invalid port", fmt.Sprintf("port %d is outside 1-65535.", dev.Port))
	}
	dev.Username = str(ds.Username, def.Username)
	if dev.Username == "" {
		errf("Missing username", `set username here or in the defaults block.`)
	} else if !visibleASCII(dev.Username, 64) {
		errf("Invalid username", fmt.Sprintf("username %q holds a space, a control character or a letter outside ASCII, or is over 64 characters; write the login name.", dev.Username))
	}
	if pl := str(ds.Platform, def.Platform); pl != "" {
		switch pl {
		case string(model.PlatformOnyx), string(model.PlatformEOS), string(model.PlatformCumulus), string(model.OSLinux), string(model.OSFreeBSD):
			dev.Platform = model.Platform(pl)
		case string(model.OSWindows):
			errf("Windows host", WindowsRefusal(ds.Name))
		default:
			errf("Unknown platform", fmt.Sprintf("platform %q is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts).", pl))
		}
	}
	if s := pick(ds.Sudo, def.Sudo); s != nil {
		dev.Sudo = *s
	}
	if g := pick(ds.Groups, def.Groups); g != nil {
		dev.Groups = *g
	}
	if t := pick(ds.Tags, def.Tags); t != nil {
		dev.Tags = *t
	}
	for _, w := range append(append([]string(nil), dev.Groups...), dev.Tags...) {
		if err := quote.CheckWord(w, 63); err != nil {
			errf("Invalid group or tag", fmt.Sprintf("group or tag %q %s.", w, err))
		}
	}
	dev.Auth = buildAuth(dir, ds, def, errf)
	buildTimeouts(dev, ds, def, errf)
	if diags.HasErrors() {
		return nil, diags
	}
	return dev, nil
}

// WindowsRefusal says why the Windows host named host is refused: its
// script is PowerShell, and fabricc runs only the Linux and FreeBSD
// scripts' --check over SSH; the operator runs it on the host.
// The name is written through quote.Visible: the refusal is made even
// for a name the word check refuses too.
func WindowsRefusal(host string) string {
	host = quote.Visible(host)
	return fmt.Sprintf("%s is a Windows host, and fabricc checks only Linux and FreeBSD hosts over SSH (a Windows host's script is PowerShell); run %s.windows.ps1 -Check on the host instead, and remove it from the inventory.",
		host, host)
}

// hostOrIP reports whether s is an IP address or a host name: labels of
// letters, digits and '-' joined by '.', at most 253 characters (RFC
// 1123). Anything else would reach a terminal or a log as written.
func hostOrIP(s string) bool {
	if net.ParseIP(s) != nil {
		return true
	}
	if len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// visibleASCII reports whether s is 1 to max printable ASCII characters
// other than space.
func visibleASCII(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// buildAuth takes the device's credential source, or else the defaults',
// and the enable password source the same way.
func buildAuth(dir string, ds, def *deviceSchema, errf func(summary, detail string)) AuthSource {
	auth, err := authFrom(dir, ds)
	if err == nil && auth.Kind == "" {
		auth, err = authFrom(dir, def)
	}
	if err != nil {
		errf("Conflicting credential sources", err.Error())
	} else if auth.Kind == "" {
		errf("Missing credentials", "set one of password_env, password_file, private_key or agent = true, here or in the defaults block.")
	}
	if ds.EnableEnv != nil || ds.EnableFile != nil {
		auth.EnableEnv, auth.EnableFile = str(ds.EnableEnv, nil), resolve(dir, str(ds.EnableFile, nil))
	} else {
		auth.EnableEnv, auth.EnableFile = str(def.EnableEnv, nil), resolve(dir, str(def.EnableFile, nil))
	}
	if auth.EnableEnv != "" && auth.EnableFile != "" {
		errf("Conflicting credential sources", "enable_password_env and enable_password_file are both set; keep one.")
	}
	return auth
}

// buildTimeouts sets the device's timeouts from its block, the defaults
// or the package defaults, in that order.
func buildTimeouts(dev *Device, ds, def *deviceSchema, errf func(summary, detail string)) {
	for _, t := range []struct {
		name     string
		own, dfl *string
		dst      *time.Duration
		fallback time.Duration
	}{
		{"connect_timeout", ds.ConnectTimeout, def.ConnectTimeout, &dev.ConnectTimeout, DefaultConnectTimeout},
		{"command_timeout", ds.CommandTimeout, def.CommandTimeout, &dev.CommandTimeout, DefaultCommandTimeout},
		{"device_timeout", ds.DeviceTimeout, def.DeviceTimeout, &dev.DeviceTimeout, DefaultDeviceTimeout},
	} {
		*t.dst = t.fallback
		if s := str(t.own, t.dfl); s != "" {
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				errf("Invalid duration", fmt.Sprintf("%s = %q is not a positive duration such as \"30s\" or \"5m\".", t.name, s))
				continue
			}
			*t.dst = d
		}
	}
}

func pick[T any](own, dfl *T) *T {
	if own != nil {
		return own
	}
	return dfl
}

func str(own, dfl *string) string {
	if p := pick(own, dfl); p != nil {
		return *p
	}
	return ""
}
