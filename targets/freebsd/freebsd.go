// Package freebsd renders a FreeBSD host's part of the lossless contract:
// <host>.freebsd.sh (POSIX sh, idempotent, --check and --dry-run) that
// loads the Mellanox driver, sets MTU, VLAN and addresses now
// (ConnectX-3 Pro 40GbE home-lab write-up:
// "kldload mlx4en", "ifconfig mlxen0 mtu 9000") and PFC, trust and maps
// through the drivers' sysctls, plus the persistent lines: <host>.rc.conf
// (interfaces, set with sysrc) and <host>.loader.conf (modules and mlx5en
// tunables).
package freebsd

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// Driver stacks of a FreeBSD NIC (model.NIC.Driver).
const (
	driverMlx4 = "mlx4en" // ConnectX-3 / 3 Pro, interfaces mlxen<N>
	driverMlx5 = "mlx5en" // ConnectX-4 and later, interfaces mce<N>
)

// driverInfo is what the renderer knows of one driver stack.
type driverInfo struct {
	// ibModule is the driver's RDMA (OFED) kernel module.
	ibModule string
	// sysctlNode is a sysctl node only the running driver creates, the
	// proof that it is there when no module of its name is registered
	// (kmod_state): mlx5en names its interfaces' tree dev.mce
	// (mlx5_en_main.c, mlx5e_create_ifp) and declares no module, only
	// MODULE_VERSION. mlx4en declares its module (mlx4_en_main.c).
	sysctlNode string
	// prefix is the interface name without its unit (the driver names
	// its interfaces prefix<N>); family names the NICs the driver
	// drives, for the script's messages.
	prefix, family string
}

// isInterface reports whether name is one the driver creates: its
// prefix and an ASCII unit number.
func (d driverInfo) isInterface(name string) bool {
	u, ok := strings.CutPrefix(name, d.prefix)
	return ok && u != "" && strings.Trim(u, "0123456789") == ""
}

// drivers are the driver stacks FreeBSD renders, by model.NIC.Driver.
var drivers = map[string]driverInfo{
	driverMlx4: {"mlx4ib", "", "mlxen", "ConnectX-3 or ConnectX-3 Pro"},
	driverMlx5: {"mlx5ib", "dev.mce", "mce", "ConnectX-4 or later"},
}

// setting is one NAME=VALUE line of rc.conf, loader.conf or sysctl.conf.
type setting struct {
	name, value string
	// from is the NIC attribute the value comes from (targets.Element),
	// or fromQoS for the fabric-wide maps.
	from string
}

// rcKind is how the script and the fragment treat an rc.conf variable.
type rcKind int

const (
	// rcWhole: the fabric's value is the whole value.
	rcWhole rcKind = iota
	// rcMember: a list (vlans_<if>, rc.conf(5)) that must hold the value
	// as one of its words; the other words stay.
	rcMember
	// rcWords: an ifconfig_<if> value whose words the fabric sets (up,
	// mtu N, media M, and the owns words) while the interface's other
	// words stay (rc_words).
	rcWords
)

// rcSetting is one rc.conf variable.
type rcSetting struct {
	setting
	kind rcKind
	// ownsAddr says that the fabric owns the addressWords of an rcWords
	// value too: a word of the current value among them is dropped when
	// the fabric's value lacks it.
	ownsAddr bool
}

// owns is the words of an rcWords value that the fabric owns beyond its
// own (rc_words' and shadow_ok's OWNS): addressWords, or none.
func (s rcSetting) owns() string {
	if s.ownsAddr {
		return addressWords
	}
	return ""
}

// fromQoS marks a setting that carries the fabric-wide priority maps.
const fromQoS = "\x00qos"

// fromDCQCN starts the from of a setting that carries the qos block's
// dcqcn parameter named after it.
const fromDCQCN = "\x00dcqcn:"

// at says that the lines written next come from where s's value comes
// from.
func (b *text) at(s setting) {
	if s.from == fromQoS {
		b.At("qos")
		return
	}
	if name, ok := strings.CutPrefix(s.from, fromDCQCN); ok {
		b.At("qos", "dcqcn", name)
		return
	}
	b.nic(s.from)
}

// text is one file of a host, with its source map when one was asked
// for; nic names the NIC being written.
type text struct {
	*targets.Text
	host string
	n    *model.NIC
}

// nic says that the lines written next come from the current NIC, and
// from its HCL attribute attr when one is given.
func (b *text) nic(attr ...string) {
	if b.Mapped() && b.n != nil {
		b.At(append([]string{"host", b.host, "nic", b.n.Name}, attr...)...)
	}
}

// nicPlan is everything rendered for one NIC.
type nicPlan struct {
	nic    *model.NIC
	unit   string
	rc     []rcSetting
	loader []setting
	sysctl []setting
	// v6 says that the NIC has an IPv6 address.
	v6 bool
	// cnp are the CNP marking sysctls, also in sysctl.conf.
	cnp []setting
	// dcqcn are the fabric's DCQCN parameter sysctls, also in sysctl.conf.
	dcqcn []setting
	// routes are the NIC's main-table routes (model.NICRoute.Prefixes),
	// set now with route(8) and at boot by rc.conf's static routes.
	routes []staticRoute
}

// hasSysctlConf reports whether any NIC has sysctl.conf lines, and so
// the host a <host>.sysctl.conf.
func hasSysctlConf(plans []nicPlan) bool {
	for _, p := range plans {
		if len(p.sysctl)+len(p.cnp)+len(p.dcqcn) > 0 {
			return true
		}
	}
	return false
}

// oids are the driver sysctls the NIC's steps set, which the script
// checks for before its first change (nic_ready): mlx5en's, all of them
// also loader tunables, or mlx4en's per-priority pause masks.
func (p *nicPlan) oids() []string {
	var out []string
	for _, s := range p.loader {
		if strings.HasPrefix(s.name, "dev.") {
			out = append(out, s.name)
		}
	}
	for _, s := range p.sysctl {
		out = append(out, s.name)
	}
	return out
}

// Render returns <host>.freebsd.sh, <host>.rc.conf and <host>.loader.conf,
// and <host>.sysctl.conf when a NIC has sysctl.conf lines.
func Render(f *model.Fabric, h *model.Host) ([]targets.File, error) {
	return renderFiles(f, h, false)
}

// RenderMapped is Render with each file's source map (targets.SourceMap).
func RenderMapped(f *model.Fabric, h *model.Host) ([]targets.File, error) {
	return renderFiles(f, h, true)
}

// fileSize sizes the next file's buffer (targets.SizeHint); the script
// is the largest of the three.
var fileSize targets.SizeHint

// renderFiles writes the three files, with source maps when mapped.
func renderFiles(f *model.Fabric, h *model.Host, mapped bool) ([]targets.File, error) {
	if err := validate(f, h); err != nil {
		return nil, err
	}
	plans := make([]nicPlan, len(h.NICs))
	for i := range h.NICs {
		plans[i] = plan(f, &h.NICs[i])
	}
	newText := func() *text { return &text{Text: fileSize.NewText(mapped), host: h.Name} }
	sh, rc, loader := newText(), newText(), newText()
	sysctl := hasSysctlConf(plans)
	script(sh, f, h, plans, sysctl)
	confFile(rc, f, h, rcHeader, plans, func(p nicPlan) int { return len(p.rc) }, rcLines)
	confFile(loader, f, h, loaderHeader, plans, func(p nicPlan) int { return len(p.loader) }, loaderLines)
	file := func(name string, mode uint32, t *text) targets.File {
		fileSize.Done(t.Len())
		return targets.File{Name: name, Target: "freebsd", Mode: mode, Data: t.Bytes(), Map: t.SourceMap()}
	}
	out := []targets.File{file(targets.HostScriptName(h), 0o755, sh), file(h.Name+".rc.conf", 0o644, rc), file(h.Name+".loader.conf", 0o644, loader)}
	if sysctl {
		sc := newText()
		confFile(sc, f, h, sysctlHeader, plans, func(p nicPlan) int { return len(p.sysctl) + len(p.cnp) + len(p.dcqcn) }, sysctlLines)
		out = append(out, file(h.Name+".sysctl.conf", 0o644, sc))
	}
	return out, nil
}

// The fragments' headers: where their lines go when configuration
// management deploys them in place of running the script.
const (
	rcHeader = "# Lines for rc.conf(5), which the script sets with sysrc(8). Merge the lines\n" +
		"# marked \"Merge\" or \"A list\" into the host's own values; do not replace them.\n"
	loaderHeader = "# Lines for /boot/loader.conf, which the script edits; valid as a loader.conf(5)\n" +
		"# file of its own in /boot/loader.conf.d where the script does not run.\n"
	sysctlHeader = "# Lines for /etc/sysctl.conf (sysctl.conf(5): name=value, unquoted), which the\n" +
		"# script edits; without them these settings are lost at the next boot.\n"
)

// validate rejects a model the files cannot be written from.
func validate(f *model.Fabric, h *model.Host) error {
	if err := targets.CheckHost(f, h, model.OSFreeBSD, "FreeBSD"); err != nil {
		return err
	}
	if err := model.CheckDCQCN(f.QoS.DCQCN); err != nil {
		return fmt.Errorf("freebsd: %w", err)
	}
	for i := range h.NICs {
		n := &h.NICs[i]
		who := fmt.Sprintf("freebsd: nic %q of host %q", n.Name, h.Name)
		d, ok := drivers[n.Driver]
		if !ok {
			return fmt.Errorf("%s has driver %q; FreeBSD renders mlx4en (ConnectX-3) and mlx5en (ConnectX-4 and later)", who, n.Driver)
		}
		// The interface, checked against the driver's naming here, is a
		// plain shell word in every command the script writes.
		if dn := n.DriverName(); !d.isInterface(dn) {
			return fmt.Errorf("%s has interface %q; the %s driver names its interfaces like %s", who, dn, n.Driver, d.prefix+"0")
		}
		if n.DriverInterface != "" && !model.IsFreeBSDRenamedIf(n.Interface) {
			return fmt.Errorf("%s has interface %q, renamed from %s; write 1-15 letters, digits or '_', a letter first", who, n.Interface, n.DriverInterface)
		}
		if n.VLAN < 0 || n.VLAN > 4094 || n.MTU < 68 || n.MTU > 65535 {
			return fmt.Errorf("%s has VLAN %d and MTU %d; write VLAN 0-4094 and MTU 68-65535", who, n.VLAN, n.MTU)
		}
		for _, a := range n.Addresses {
			if _, err := netip.ParsePrefix(a); err != nil {
				return fmt.Errorf("%s has address %q, which is not in CIDR form (10.20.0.1/24): %v", who, a, err)
			}
		}
		for _, p := range n.RoCE.PFCPriorities {
			if p < 0 || p > 7 {
				return fmt.Errorf("%s uses PFC priority %d; 802.1p priorities are 0-7", who, p)
			}
		}
		if err := validateRoute(who, n.Route); err != nil {
			return err
		}
	}
	return nil
}

// validateRoute checks that a NIC's route holds an IP address as its
// gateway and CIDR prefixes with their host bits clear, so that the
// route(8) arguments and rc.conf values are made of addresses only.
func validateRoute(who string, r *model.NICRoute) error {
	if r == nil || len(r.Prefixes) == 0 {
		return nil
	}
	if gw, err := netip.ParseAddr(r.Gateway); err != nil || gw.Zone() != "" {
		return fmt.Errorf("%s has gateway %q, which is not an IP address (10.20.1.0, fe80::1)", who, r.Gateway)
	}
	for _, s := range r.Prefixes {
		if p, err := netip.ParsePrefix(s); err != nil || p != p.Masked() {
			return fmt.Errorf("%s has main-table route %q, which is not a CIDR prefix with its host bits clear (10.20.1.0/29)", who, s)
		}
	}
	return nil
}

// writeHeader names what the files are for.
func writeHeader(b *text, f *model.Fabric, h *model.Host) {
	ver := ""
	if h.OSVersion != "" {
		ver = " " + h.OSVersion
	}
	b.At("fabric")
	b.Also("host", h.Name)
	b.Also("host", h.Name, "os")
	b.WriteString("# " + quote.Comment(fmt.Sprintf("fabricc host files: fabric %q, host %q, OS freebsd%s.", f.Name, h.Name, ver)) + "\n")
	b.At()
	b.WriteString("# generated by fabricc; do not edit.\n")
}

// L3Name is the interface carrying the NIC's addresses: the VLAN
// interface parent.VID (vlan(4)) or the NIC itself.
func L3Name(n *model.NIC) string {
	if n.VLAN != 0 {
		return fmt.Sprintf("%s.%d", n.Interface, n.VLAN)
	}
	return n.Interface
}

// RCVar is rc.conf's variable form of an interface name ('.' -> '_').
func RCVar(ifc string) string { return strings.ReplaceAll(ifc, ".", "_") }

// inet returns "inet A" or "inet6 A".
func inet(a string) string {
	if is6(a) {
		return "inet6 " + a
	}
	return "inet " + a
}

// is6 reports whether the address A/N is an IPv6 one.
func is6(a string) bool {
	p, err := netip.ParsePrefix(a)
	return err == nil && p.Addr().Is6()
}

// confFile writes one persistent file's lines, NIC by NIC: count says
// how many a NIC has, lines writes them.
func confFile(b *text, f *model.Fabric, h *model.Host, what string, plans []nicPlan, count func(nicPlan) int, lines func(*text, nicPlan)) {
	writeHeader(b, f, h)
	b.WriteString(what)
	for _, p := range plans {
		b.n = p.nic
		if count(p) == 0 {
			continue
		}
		b.At()
		b.WriteString("\n")
		b.nic()
		fmt.Fprintf(b, "# %s\n", quote.Comment(fmt.Sprintf("nic %q (%s, %s)", p.nic.Name, p.nic.Model, p.nic.Interface)))
		lines(b, p)
	}
}

// rcLines are a NIC's rc.conf lines, NAME="VALUE" (rc.conf(5)), each
// under how to merge it when the variable is not the fabric's alone.
func rcLines(b *text, p nicPlan) {
	for i := 0; i < len(p.rc); i++ {
		s := p.rc[i]
		// One line for the words of one list that follow each other (a
		// NIC's static_routes), as a second line would replace the first.
		for s.kind == rcMember && i+1 < len(p.rc) && p.rc[i+1].kind == rcMember && p.rc[i+1].name == s.name {
			i++
			s.value += " " + p.rc[i].value
		}
		b.at(s.setting)
		mergeNote(b, s)
		fmt.Fprintf(b, "%s=%s\n", s.name, quote.RcConfValue(s.value))
	}
}

// loaderLines are a NIC's loader.conf lines, NAME="VALUE"
// (loader.conf(5)).
func loaderLines(b *text, p nicPlan) {
	for _, s := range p.loader {
		b.at(s)
		fmt.Fprintf(b, "%s=%s\n", s.name, quote.RcConfValue(s.value))
	}
}

// sysctlLines are a NIC's sysctl.conf lines: its PFC sysctls, then its
// CNP marking ones, then its DCQCN parameters. sysctl.conf(5) values are read bare (rc.d/sysctl):
// here numbers and comma lists only.
func sysctlLines(b *text, p nicPlan) {
	for _, ss := range [][]setting{p.sysctl, p.cnp, p.dcqcn} {
		for _, s := range ss {
			b.at(s)
			fmt.Fprintf(b, "%s=%s\n", s.name, s.value)
		}
	}
}

// mergeNote says, above a fragment line whose variable is not the
// fabric's alone, how to merge it: the script does so itself (rc_member,
// rc_words).
func mergeNote(b *text, s rcSetting) {
	switch s.kind {
	case rcMember:
		if strings.Contains(s.value, " ") {
			fmt.Fprintf(b, "# A list: add each of %s to it (sysrc %s+=WORD), keep the words already there.\n", s.value, s.name)
			return
		}
		fmt.Fprintf(b, "# A list: add %s to it (sysrc %s+=%s), keep the words already there.\n", s.value, s.name, s.value)
	case rcWords:
		var keys []string
		for _, k := range wordKeys(s.value) {
			if k != "inet" && k != "inet6" {
				keys = append(keys, k)
			}
		}
		owned := "the words " + strings.Join(keys, ", ")
		if s.ownsAddr {
			owned = "the address and " + owned
		}
		fmt.Fprintf(b, "# Merge: the fabric sets %s; keep the interface's other words.\n", owned)
		if slices.Contains(keys, "media") {
			b.WriteString("# A media the host's line forces stays (autoselect is the default); drop rxpause and txpause from its mediaopt.\n")
		}
	}
}

// wordKeys are the ifconfig keywords of an rcWords value, without their
// arguments ("inet 10.0.0.1/24 mtu 9000" -> inet, mtu).
func wordKeys(v string) []string {
	var out []string
	args := strings.Fields(wordArgs)
	w := strings.Fields(v)
	for i := 0; i < len(w); i++ {
		out = append(out, w[i])
		if slices.Contains(args, w[i]) {
			i++
		}
	}
	return out
}

// wordArgs are the ifconfig(8) keywords of an ifconfig_<if> value that
// take one argument. rc_merge in the prelude gets the same list, so the
// "Merge:" comments and the script split a value alike.
const wordArgs = "mtu media mediaopt inet inet6 netmask prefixlen broadcast"
