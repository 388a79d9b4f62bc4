package dsl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/hashicorp/hcl/v2"
)

// String limits of the language. Every string of a fabric ends up in
// generated files (file names, shell scripts, PowerShell, YAML, switch
// CLI lines, comments); these rules refuse what no such context can
// carry, with the place it was written, before anything is compiled.
const (
	// MaxNameLength bounds every name: a DNS label, which a device name
	// usually is, holds at most 63 characters (RFC 1123, 2.1; RFC 1035,
	// 2.3.4).
	MaxNameLength = 63
	// MaxVersionLength bounds os_version.
	MaxVersionLength = 32
	// MaxStringLength bounds every other string.
	MaxStringLength = 1024
)

// reservedDeviceNames are the names Windows reserves for devices in every
// folder and with any extension ("Naming Files, Paths,
// and Namespaces", Microsoft Learn: CON, PRN, AUX, NUL, COM1-COM9,
// LPT1-LPT9), so a build folder copies to any file system.
var reservedDeviceNames = func() map[string]bool {
	m := map[string]bool{"con": true, "prn": true, "aux": true, "nul": true}
	for i := 1; i <= 9; i++ {
		m["com"+strconv.Itoa(i)] = true
		m["lpt"+strconv.Itoa(i)] = true
	}
	return m
}()

// reservedDevice reports a name a device folder cannot have: one of the
// three files at the top of a build folder in any letter case (macOS and
// Windows file systems ignore case, so "FABRIC.md" is fabric.md there),
// or a Windows device name in any letter case and with any extension
// ("nul.txt").
func reservedDevice(name string) bool {
	lower := strings.ToLower(name)
	stem, _, _ := strings.Cut(lower, ".")
	return lower == "model.json" || lower == "manifest.json" || lower == "fabric.md" || reservedDeviceNames[stem]
}

// stringKind is what a string field may hold.
type stringKind int

// String kinds, from the strictest.
const (
	// kindDevice is a switch or host name: a word that is also a file
	// and folder name, unique across devices whatever the letter case.
	kindDevice stringKind = iota
	// kindName is any other name (fabric, VLAN, class, NIC): a word.
	kindName
	// kindVersion is an os_version: a word of at most MaxVersionLength.
	kindVersion
	// kindWindowsVersion is a Windows host's os_version: kindVersion,
	// whose fix is the list of Windows releases.
	kindWindowsVersion
	// kindCLIText is a port description: switch CLI text
	// (quote.CheckCLIText).
	kindCLIText
	// kindText is any other string: one line of printable text.
	kindText
)

// stringField is one written string with where it was written.
type stringField struct {
	attr  string // "switch name", "description"
	who   *owner // nil, or port "1/1" of switch "a"
	value string
	rng   Range
	kind  stringKind
}

// what names the field: `description of port "1/1" of switch "a"`.
func (f stringField) what() string { return f.attr + f.who.String() }

// checkStrings applies the string rules to every string of cfg. A field
// whose expression already failed (prior holds an error inside its range)
// is skipped: its value is a placeholder, not what was written.
func checkStrings(cfg *Config, prior hcl.Diagnostics) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, part := range stringParts(cfg) {
		diags = append(diags, checkPart(part, prior)...)
	}
	return append(diags, checkDeviceCase(cfg)...)
}

// stringChunk is how many blocks one goroutine of checkPart checks at a
// time.
const stringChunk = 512

// checkPart checks the strings of a part's blocks, on every core when
// there are many (a 4,096-switch fabric has 1.3 million strings), and
// returns the errors in block order, as one loop over them would.
func checkPart(part stringPart, prior hcl.Diagnostics) hcl.Diagnostics {
	chunks := make([]hcl.Diagnostics, (part.blocks+stringChunk-1)/stringChunk)
	cores.Range(part.blocks, stringChunk, func(lo, hi int) {
		var diags hcl.Diagnostics
		for i := lo; i < hi; i++ {
			part.visit(i, func(f stringField) {
				if failedInside(prior, f.rng) {
					return
				}
				if d := checkString(f); d != nil {
					diags = append(diags, d)
				}
			})
		}
		chunks[lo/stringChunk] = diags
	})
	var diags hcl.Diagnostics
	for _, c := range chunks {
		diags = append(diags, c...)
	}
	return diags
}

// failedInside reports whether an error of diags points into rng.
func failedInside(diags hcl.Diagnostics, rng Range) bool {
	if len(diags) == 0 {
		return false
	}
	r := rng.HCL()
	for _, d := range diags {
		if d.Severity != hcl.DiagError || d.Subject == nil {
			continue
		}
		s := d.Subject
		if s.Filename == r.Filename && s.Start.Byte >= r.Start.Byte && s.End.Byte <= r.End.Byte {
			return true
		}
	}
	return false
}

// checkString reports the first rule f breaks, or nil.
func checkString(f stringField) *hcl.Diagnostic {
	if d := checkText(f); d != nil {
		return d
	}
	var err error
	fix := ""
	switch f.kind {
	case kindDevice:
		err = quote.CheckWord(f.value, MaxNameLength)
		if err == nil && reservedDevice(f.value) {
			err = fmt.Errorf("is reserved: it names a file of the build folder, or a device on Windows")
		}
		if err == nil && strings.HasSuffix(f.value, ".") {
			// Windows drops a trailing period from a path segment, so
			// "leaf1." and "leaf1" would be one folder there ("File path
			// formats on Windows systems", Microsoft Learn: "If a segment
			// ends in a single period, that period is removed").
			err = fmt.Errorf("ends in a period, which Windows drops from a folder name, so it would share the folder of the device without it")
		}
		fix = " A device name is the name of its artifact folder and files and a word in generated scripts and switch configurations; rename it."
	case kindName:
		err = quote.CheckWord(f.value, MaxNameLength)
		fix = " Names are words in generated scripts and switch configurations; rename it."
	case kindVersion:
		err = quote.CheckWord(f.value, MaxVersionLength)
		fix = ` Write the release as the OS prints it, such as "4.32.2F", "5.9.2" or "2016".`
	case kindWindowsVersion:
		err = quote.CheckWord(f.value, MaxVersionLength)
		fix = windowsReleaseHint(f.value)
	case kindCLIText:
		err = quote.CheckCLIText(f.value)
		fix = " A port description becomes a line of the switch configuration; change it."
	}
	if err == nil {
		return nil
	}
	return stringError(f, "Invalid "+summaryWhat(f.what()), fmt.Sprintf("%s %s %s.%s", f.what(), shown(f.value), err, fix))
}

// checkText applies the rule every string obeys: valid UTF-8, no
// character that is not printable (control characters such as NUL, ESC,
// CR, LF and TAB, line and paragraph separators, invisible format
// characters such as bidirectional overrides), at most MaxStringLength
// characters.
func checkText(f stringField) *hcl.Diagnostic {
	for i := 0; i < len(f.value); {
		r, n := utf8.DecodeRuneInString(f.value[i:])
		if r == utf8.RuneError && n == 1 || !quote.Printable(r) {
			return stringError(f, "Invalid character",
				fmt.Sprintf("%s %s holds %s at character %d. Generated scripts and switch configurations are read line by line, "+
					"so a string may hold only printable characters and spaces; remove it.",
					f.what(), shown(f.value), quote.DescribeRune(r), utf8.RuneCountInString(f.value[:i])+1))
		}
		i += n
	}
	if n := utf8.RuneCountInString(f.value); n > MaxStringLength {
		return stringError(f, "String too long",
			fmt.Sprintf("%s is %d characters long; strings in a fabric hold at most %d. Shorten it.", f.what(), n, MaxStringLength))
	}
	return nil
}

// stringError is an error diagnostic at f's place.
func stringError(f stringField, summary, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
	if !f.rng.Empty() {
		d.Subject = f.rng.Ptr()
	}
	return d
}

// summaryWhat is the kind of field for a summary: "switch name" from
// `switch name`, "description" from `description of port ...`.
func summaryWhat(what string) string {
	w, _, _ := strings.Cut(what, " of ")
	return w
}

// shown is s quoted for a message, cut to its first 40 characters.
func shown(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return strconv.Quote(s)
	}
	r := []rune(s)
	return strconv.Quote(string(r[:40])) + "..."
}

// checkDeviceCase refuses two device names that differ only in letter
// case: their artifact folders would be one folder on a case-insensitive
// file system (Windows, macOS).
func checkDeviceCase(cfg *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	type first struct {
		name string
		rng  Range
	}
	seen := map[string]first{}
	add := func(name string, rng Range) {
		key := strings.ToLower(name)
		prev, ok := seen[key]
		if !ok {
			seen[key] = first{name, rng}
			return
		}
		if prev.name == name {
			return // an exact duplicate: the compiler reports it
		}
		d := stringError(stringField{rng: rng}, "Device names differ only in case",
			fmt.Sprintf("Devices %q and %q differ only in letter case; their artifact folders would be one folder on a "+
				"case-insensitive file system (Windows, macOS). Rename one.", prev.name, name))
		diags = append(diags, Also(d, fmt.Sprintf("device %q is declared here", prev.name), prev.rng.HCL()))
	}
	for _, s := range cfg.Switches {
		add(s.Name, s.LabelRange.Or(s.DefRange))
	}
	for _, h := range cfg.Hosts {
		add(h.Name, h.LabelRange.Or(h.DefRange))
	}
	return diags
}

// owner is what a string belongs to, described only when a diagnostic
// needs it: a large fabric has millions of strings and every one is fine.
type owner struct {
	kind, name string
	unnamed    bool // a block without a label: " of qos"
	outer      *owner
}

// String is the owner as the end of a phrase: ` of port "1/1" of switch "a"`.
func (o *owner) String() string {
	if o == nil {
		return ""
	}
	if o.unnamed {
		return " of " + o.kind + o.outer.String()
	}
	return fmt.Sprintf(" of %s %q", o.kind, o.name) + o.outer.String()
}

// stringPart is a part of a fabric's blocks: visit(i, ...) calls its
// argument with every string of block i, its rule and where it is
// written.
type stringPart struct {
	blocks int
	visit  func(i int, visit func(stringField))
}

// stringParts lists every string of cfg in parts, in file order within
// each: the fabric, qos and VLAN blocks, the switches, the hosts and the
// links.
func stringParts(cfg *Config) []stringPart {
	return []stringPart{
		{1, func(_ int, visit func(stringField)) { headFields(cfg, visit) }},
		{len(cfg.Switches), func(i int, visit func(stringField)) { switchFields(&cfg.Switches[i], visit) }},
		{len(cfg.Hosts), func(i int, visit func(stringField)) { hostFields(&cfg.Hosts[i], visit) }},
		{len(cfg.Links), func(i int, visit func(stringField)) { linkFields(&cfg.Links[i], visit) }},
	}
}

// headFields visits the strings of the fabric, qos and VLAN blocks.
func headFields(cfg *Config, visit func(stringField)) {
	add := func(attr string, who *owner, value string, rng Range, kind stringKind) {
		visit(stringField{attr: attr, who: who, value: value, rng: rng, kind: kind})
	}
	opt := func(attr string, who *owner, value *string, rng Range, kind stringKind) {
		if value != nil {
			add(attr, who, *value, rng, kind)
		}
	}
	if f := cfg.Fabric; f != nil {
		add("fabric name", nil, f.Name, f.LabelRange.Or(f.DefRange), kindName)
		opt("fabric description", nil, f.Description, f.DescriptionRange.Or(f.DefRange), kindText)
	}
	if q := cfg.QoS; q != nil {
		opt("qos profile", nil, q.Profile, q.ProfileRange.Or(q.DefRange), kindText)
		opt("qos roce_class", nil, q.RoCEClass, q.RoCEClassRange.Or(q.DefRange), kindText)
		opt("qos cnp_class", nil, q.CNPClass, q.CNPClassRange.Or(q.DefRange), kindText)
		watchdogField(&owner{kind: "qos", unnamed: true}, q.Watchdog, visit)
		for _, c := range q.Classes {
			add("class name", nil, c.Name, c.LabelRange.Or(c.DefRange), kindName)
			if e := c.ECN; e != nil {
				who := &owner{kind: "class", name: c.Name}
				opt("ecn min", who, e.Min, e.MinRange.Or(e.DefRange), kindText)
				opt("ecn max", who, e.Max, e.MaxRange.Or(e.DefRange), kindText)
			}
		}
	}
	for _, v := range cfg.VLANs {
		add("VLAN name", nil, v.Name, v.LabelRange.Or(v.DefRange), kindName)
		if v.Overlay != nil {
			add("VLAN overlay", nil, *v.Overlay, v.OverlayRange.Or(v.DefRange), kindText)
		}
	}
}

// linkFields visits the strings of a link block.
func linkFields(l *Link, visit func(stringField)) {
	visit(stringField{attr: "link end a", value: l.A, rng: l.ARange.Or(l.DefRange), kind: kindText})
	visit(stringField{attr: "link end b", value: l.B, rng: l.BRange.Or(l.DefRange), kind: kindText})
	if l.Cable != nil {
		visit(stringField{attr: "link cable", value: *l.Cable, rng: l.CableRange.Or(l.DefRange), kind: kindText})
	}
}

// watchdogField visits the string of a pfc_watchdog block.
func watchdogField(who *owner, w *Watchdog, visit func(stringField)) {
	if w != nil && w.Action != nil {
		visit(stringField{attr: "pfc_watchdog action", who: who, value: *w.Action, rng: w.ActionRange.Or(w.DefRange), kind: kindText})
	}
}

// switchFields visits the strings of a switch block and its ports.
func switchFields(s *Switch, visit func(stringField)) {
	who := &owner{kind: "switch", name: s.Name}
	visit(stringField{attr: "switch name", value: s.Name, rng: s.LabelRange.Or(s.DefRange), kind: kindDevice})
	visit(stringField{attr: "platform", who: who, value: s.Platform, rng: s.PlatformRange.Or(s.DefRange), kind: kindText})
	visit(stringField{attr: "model", who: who, value: s.Model, rng: s.ModelRange.Or(s.DefRange), kind: kindText})
	if s.OSVersion != nil {
		visit(stringField{attr: "os_version", who: who, value: *s.OSVersion, rng: s.OSVersionRange.Or(s.DefRange), kind: kindVersion})
	}
	watchdogField(who, s.Watchdog, visit)
	for _, blocks := range [][]Port{s.Ports, s.Overrides} {
		for i := range blocks {
			portFields(who, &blocks[i], visit)
		}
	}
}

// portFields visits the strings of a port or override block.
func portFields(sw *owner, p *Port, visit func(stringField)) {
	visit(stringField{attr: "port spec", who: sw, value: p.Spec, rng: p.LabelRange.Or(p.DefRange), kind: kindText})
	if p.Description == nil && p.Speed == nil && p.Mode == nil && p.Trust == nil {
		return
	}
	who := &owner{kind: "port", name: p.Spec, outer: sw}
	for _, a := range []struct {
		name string
		v    *string
		rng  *Range
		kind stringKind
	}{
		{"description", p.Description, &p.DescriptionRange, kindCLIText},
		{"speed", p.Speed, &p.SpeedRange, kindText},
		{"mode", p.Mode, &p.ModeRange, kindText},
		{"trust", p.Trust, &p.TrustRange, kindText},
	} {
		if a.v != nil {
			visit(stringField{attr: a.name, who: who, value: *a.v, rng: a.rng.Or(p.DefRange), kind: a.kind})
		}
	}
}

// hostFields visits the strings of a host block and its NICs.
func hostFields(h *Host, visit func(stringField)) {
	who := &owner{kind: "host", name: h.Name}
	visit(stringField{attr: "host name", value: h.Name, rng: h.LabelRange.Or(h.DefRange), kind: kindDevice})
	visit(stringField{attr: "os", who: who, value: h.OS, rng: h.OSRange.Or(h.DefRange), kind: kindText})
	if h.OSVersion != nil {
		kind := kindVersion
		if h.OS == "windows" {
			kind = kindWindowsVersion
		}
		visit(stringField{attr: "os_version", who: who, value: *h.OSVersion, rng: h.OSVersionRange.Or(h.DefRange), kind: kind})
	}
	if h.ClusterClass != nil {
		visit(stringField{attr: "cluster_class", who: who, value: *h.ClusterClass, rng: h.ClusterClassRange.Or(h.DefRange), kind: kindText})
	}
	for i := range h.NICs {
		nicFields(who, &h.NICs[i], visit)
	}
}

// nicFields visits the strings of a nic block.
func nicFields(host *owner, n *NIC, visit func(stringField)) {
	who := &owner{kind: "nic", name: n.Name, outer: host}
	visit(stringField{attr: "nic name", who: host, value: n.Name, rng: n.LabelRange.Or(n.DefRange), kind: kindName})
	visit(stringField{attr: "model", who: who, value: n.Model, rng: n.ModelRange.Or(n.DefRange), kind: kindText})
	visit(stringField{attr: "interface", who: who, value: n.Interface, rng: n.InterfaceRange.Or(n.DefRange), kind: kindText})
	for _, a := range []struct {
		name string
		v    *string
		rng  *Range
	}{
		{"driver", n.Driver, &n.DriverRange}, {"speed", n.Speed, &n.SpeedRange}, {"roce_mode", n.RoCEMode, &n.RoCEModeRange},
		{"transport", n.Transport, &n.TransportRange}, {"class", n.Class, &n.ClassRange}, {"trust", n.Trust, &n.TrustRange},
		{"gateway", n.Gateway, &n.GatewayRange}, {"driver_interface", n.DriverInterface, &n.DriverInterfaceRange},
		{"vlan_interface", n.VLANInterface, &n.VLANInterfaceRange},
	} {
		if a.v != nil {
			visit(stringField{attr: a.name, who: who, value: *a.v, rng: a.rng.Or(n.DefRange), kind: kindText})
		}
	}
	for _, a := range n.Addresses {
		visit(stringField{attr: "address", who: who, value: a, rng: n.AddressesRange.Or(n.DefRange), kind: kindText})
	}
	for _, a := range n.Applications {
		visit(stringField{attr: "application", who: who, value: a, rng: n.ApplicationsRange.Or(n.DefRange), kind: kindText})
	}
}

// QuoteList renders names as "a", "b" or "c", each quoted as a Go string
// (strconv.Quote), for error messages.
func QuoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
