package inventory

import (
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// build merges a device block over the defaults and checks the result.
// A value the device takes from a defaults block that checkDefaults
// found wrong is not reported again: its error is the defaults
// attribute's, once. A mistake in an attribute the device block sets is
// reported at that attribute's value (by attribute name, as attrRanges
// gives them for the device's block b, worked out on the first error);
// one of a value taken from the defaults, or of a missing attribute, at
// the device block.
func build(dir string, ds, def *deviceSchema, b *hclsyntax.Block) (*Device, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var at map[string]hcl.Range
	errf := func(attr, summary, detail string) {
		if at == nil {
			at = attrRanges(b)
		}
		r, ok := at[attr]
		if !ok {
			r = ds.DefRange
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary,
			Detail: fmt.Sprintf("Device %q: %s", ds.Name, detail), Subject: &r})
	}
	// inherited reports whether the device takes attribute name from
	// the defaults block, where it was found wrong.
	inherited := func(own bool, name string) bool { return !own && def.bad[name] }
	dev := &Device{Name: ds.Name, Port: DefaultPort, Range: ds.DefRange}
	if err := quote.CheckWord(ds.Name, 63); err != nil {
		errf("", "Invalid device name", fmt.Sprintf("the name %s; it must be the name of a switch or host of the fabric, a word.", err))
	}
	dev.Address = str(ds.Address, nil)
	if dev.Address == "" {
		errf("", "Missing address", `set address = "<management IP or hostname>".`)
	} else if !hostOrIP(dev.Address) {
		errf("address", "Invalid address", fmt.Sprintf("address %q is not an IP address or a host name (letters, digits, '-' and '.'); write the device's management address.", dev.Address))
	}
	if p := pick(ds.Port, def.Port); p != nil {
		dev.Port = *p
	}
	if detail := checkPort(dev.Port); detail != "" && !inherited(ds.Port != nil, "port") {
		errf("port", "Invalid port", detail)
	}
	dev.Username = str(ds.Username, def.Username)
	if dev.Username == "" {
		errf("", "Missing username", `set username here or in the defaults block.`)
	} else if detail := checkUsername(dev.Username); detail != "" && !inherited(ds.Username != nil, "username") {
		errf("username", "Invalid username", detail)
	}
	if pl := str(ds.Platform, def.Platform); pl != "" && !inherited(ds.Platform != nil, "platform") {
		switch pl {
		case string(model.PlatformOnyx), string(model.PlatformEOS), string(model.PlatformCumulus), string(model.OSLinux), string(model.OSFreeBSD):
			dev.Platform = model.Platform(pl)
		case string(model.OSWindows):
			errf("platform", "Windows host", WindowsRefusal(ds.Name))
		default:
			errf("platform", "Unknown platform", unknownPlatform(pl))
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
	if f := pick(ds.Fabrics, def.Fabrics); f != nil {
		dev.Fabrics = *f
		if detail := checkFabrics(dev.Fabrics); detail != "" && !inherited(ds.Fabrics != nil, "fabrics") {
			errf("fabrics", "Invalid fabric name", detail)
		}
	}
	for _, list := range []struct {
		words []string
		own   bool
		name  string
	}{{dev.Groups, ds.Groups != nil, "groups"}, {dev.Tags, ds.Tags != nil, "tags"}} {
		if detail := checkWords(list.words); detail != "" && !inherited(list.own, list.name) {
			errf(list.name, "Invalid group or tag", detail)
		}
	}
	dev.Auth = buildAuth(dir, ds, def, errf)
	buildTimeouts(dev, ds, def, errf)
	if diags.HasErrors() {
		return nil, diags
	}
	return dev, nil
}

// checkDefaults checks the values of a defaults block once, each at its
// attribute (at, by attribute name; the block when the name is not
// there), and marks the wrong ones in def.bad so that build does not
// report them again for every device that takes them.
func checkDefaults(dir string, def *deviceSchema, at map[string]hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	def.bad = map[string]bool{}
	report := func(name, summary, detail string) {
		r, ok := at[name]
		if !ok {
			r = def.DefRange
		}
		def.bad[name] = true
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary,
			Detail: "The defaults block, which every device takes unless it sets its own: " + detail, Subject: &r})
	}
	if def.Port != nil {
		if detail := checkPort(*def.Port); detail != "" {
			report("port", "Invalid port", detail)
		}
	}
	if def.Username != nil {
		if detail := checkUsername(*def.Username); detail != "" {
			report("username", "Invalid username", detail)
		}
	}
	if def.Platform != nil {
		switch pl := *def.Platform; pl {
		case string(model.PlatformOnyx), string(model.PlatformEOS), string(model.PlatformCumulus), string(model.OSLinux), string(model.OSFreeBSD):
		case string(model.OSWindows):
			report("platform", "Windows host", `platform "windows" would make every device a Windows host, and fabricc checks only Linux and FreeBSD hosts over SSH (a Windows host's script is PowerShell); run each Windows host's script with -Check on the host instead, and remove platform from the defaults block.`)
		default:
			report("platform", "Unknown platform", unknownPlatform(pl))
		}
	}
	for name, words := range map[string]*[]string{"groups": def.Groups, "tags": def.Tags} {
		if words != nil {
			if detail := checkWords(*words); detail != "" {
				report(name, "Invalid group or tag", detail)
			}
		}
	}
	if def.Fabrics != nil {
		if detail := checkFabrics(*def.Fabrics); detail != "" {
			report("fabrics", "Invalid fabric name", detail)
		}
	}
	if _, err := authFrom(dir, def); err != nil {
		report("auth", "Conflicting credential sources", err.Error())
	}
	if def.EnableEnv != nil && def.EnableFile != nil {
		report("enable", "Conflicting credential sources", "enable_password_env and enable_password_file are both set; keep one.")
	}
	for _, t := range timeouts(def) {
		if t.value != nil {
			if detail := checkDuration(t.name, *t.value); detail != "" {
				report(t.name, "Invalid duration", detail)
			}
		}
	}
	return diags
}

// checkPort is what is wrong with a port number, or "".
func checkPort(port int) string {
	if port < 1 || port > 65535 {
		return fmt.Sprintf("port %d is outside 1-65535.", port)
	}
	return ""
}

// checkUsername is what is wrong with a login name, or "".
func checkUsername(u string) string {
	if !visibleASCII(u, 64) {
		return fmt.Sprintf("username %q holds a space, a control character or a letter outside ASCII, or is over 64 characters; write the login name.", u)
	}
	return ""
}

// platforms are the inventory's platform words.
var platforms = []string{string(model.PlatformOnyx), string(model.PlatformEOS), string(model.PlatformCumulus), string(model.OSLinux), string(model.OSFreeBSD)}

// vendorPlatforms are the platform words for what one types for a
// switch's vendor or OS instead, by its lower-case form with spaces and
// '_' as '-': Arista's switches run EOS; NVIDIA's (formerly Mellanox's)
// Spectrum switches run either Onyx (formerly MLNX-OS) or Cumulus Linux,
// which the fabric's switch block says.
var vendorPlatforms = map[string]string{
	"arista":         `"eos" (Arista EOS)`,
	"arista-eos":     `"eos" (Arista EOS)`,
	"nvidia":         `"onyx" (NVIDIA Onyx) or "cumulus" (NVIDIA Cumulus Linux), as the fabric's switch block says`,
	"mellanox":       `"onyx" (NVIDIA Onyx, formerly Mellanox MLNX-OS) or "cumulus" (NVIDIA Cumulus Linux), as the fabric's switch block says`,
	"mlnx":           `"onyx" (NVIDIA Onyx, formerly Mellanox MLNX-OS) or "cumulus" (NVIDIA Cumulus Linux), as the fabric's switch block says`,
	"mlnx-os":        `"onyx" (NVIDIA Onyx, formerly MLNX-OS)`,
	"nvidia-onyx":    `"onyx"`,
	"cumulus-linux":  `"cumulus"`,
	"nvidia-cumulus": `"cumulus"`,
	"nvue":           `"cumulus" (NVUE is Cumulus Linux's configuration interface)`,
}

// otherSwitchOS are other vendors' switch operating systems, which get
// no "did you mean": they are no misspelling of a platform fabricc
// configures, however close their spelling (Cisco IOS and EOS).
var otherSwitchOS = map[string]bool{"ios": true, "ios-xe": true, "ios-xr": true, "nx-os": true, "nxos": true,
	"junos": true, "sonic": true, "os10": true, "exos": true, "cisco": true, "juniper": true, "dell": true}

// unknownPlatform says that pl is not a platform, and which one it
// likely means: the platform of a vendor's name, or a close spelling.
func unknownPlatform(pl string) string {
	msg := fmt.Sprintf("platform %q is not one of onyx, eos, cumulus (switches), linux, freebsd (hosts).", pl)
	key := strings.NewReplacer(" ", "-", "_", "-").Replace(strings.ToLower(strings.TrimSpace(pl)))
	if s, ok := vendorPlatforms[key]; ok {
		return msg + " Did you mean " + s + "?"
	}
	if otherSwitchOS[key] {
		return msg // "ios" is one edit from "eos", and no typo of it
	}
	return msg + dsl.DidYouMean(pl, platforms)
}

// checkWords is what is wrong with the first bad group or tag, or "".
func checkWords(words []string) string {
	for _, w := range words {
		if err := quote.CheckWord(w, 63); err != nil {
			return fmt.Sprintf("group or tag %q %s.", w, err)
		}
	}
	return ""
}

// checkFabrics is what is wrong with a fabrics list, or "": each a
// word, and at least one (an empty list would leave the device out of
// every fabric).
func checkFabrics(names []string) string {
	if len(names) == 0 {
		return "fabrics = [] puts the device in no fabric; name the fabrics it belongs to, or remove fabrics."
	}
	for _, n := range names {
		if err := quote.CheckWord(n, 63); err != nil {
			return fmt.Sprintf("fabric name %q %s.", n, err)
		}
	}
	return ""
}

// In reports whether the inventory says the device belongs to the
// fabric named fabric: true when it names no fabrics at all.
func (d *Device) In(fabric string) bool {
	if len(d.Fabrics) == 0 {
		return true
	}
	for _, f := range d.Fabrics {
		if f == fabric {
			return true
		}
	}
	return false
}

// checkDuration is what is wrong with the duration attribute name = s,
// or "".
func checkDuration(name, s string) string {
	if d, err := time.ParseDuration(s); err != nil || d <= 0 {
		return fmt.Sprintf("%s = %q is not a positive duration such as \"30s\" or \"5m\".", name, s)
	}
	return ""
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
func buildAuth(dir string, ds, def *deviceSchema, errf func(attr, summary, detail string)) AuthSource {
	auth, err := authFrom(dir, ds)
	if err == nil && auth.Kind == "" {
		if def.bad["auth"] {
			return AuthSource{} // the defaults' conflict is reported once, there
		}
		auth, err = authFrom(dir, def)
	}
	if err != nil {
		errf("auth", "Conflicting credential sources", err.Error())
	} else if auth.Kind == "" {
		errf("", "Missing credentials", "set one of password_env, password_file, private_key or agent = true, here or in the defaults block.")
	}
	own := ds.EnableEnv != nil || ds.EnableFile != nil
	if own {
		auth.EnableEnv, auth.EnableFile = str(ds.EnableEnv, nil), resolve(dir, str(ds.EnableFile, nil))
	} else {
		auth.EnableEnv, auth.EnableFile = str(def.EnableEnv, nil), resolve(dir, str(def.EnableFile, nil))
	}
	if auth.EnableEnv != "" && auth.EnableFile != "" && (own || !def.bad["enable"]) {
		errf("enable", "Conflicting credential sources", "enable_password_env and enable_password_file are both set; keep one.")
	}
	return auth
}

// timeout is one timeout attribute of a block.
type timeout struct {
	name  string
	value *string
}

// timeouts are ds's timeout attributes.
func timeouts(ds *deviceSchema) []timeout {
	return []timeout{{"connect_timeout", ds.ConnectTimeout}, {"command_timeout", ds.CommandTimeout}, {"device_timeout", ds.DeviceTimeout}}
}

// buildTimeouts sets the device's timeouts from its block, the defaults
// or the package defaults, in that order.
func buildTimeouts(dev *Device, ds, def *deviceSchema, errf func(attr, summary, detail string)) {
	own, dfl := timeouts(ds), timeouts(def)
	for i, t := range []struct {
		dst      *time.Duration
		fallback time.Duration
	}{
		{&dev.ConnectTimeout, DefaultConnectTimeout},
		{&dev.CommandTimeout, DefaultCommandTimeout},
		{&dev.DeviceTimeout, DefaultDeviceTimeout},
	} {
		*t.dst = t.fallback
		name := own[i].name
		if own[i].value == nil && def.bad[name] {
			continue // reported at the defaults block's attribute
		}
		if s := str(own[i].value, dfl[i].value); s != "" {
			if detail := checkDuration(name, s); detail != "" {
				errf(name, "Invalid duration", detail)
				continue
			}
			*t.dst, _ = time.ParseDuration(s)
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
