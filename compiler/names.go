package compiler

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// releaseForms are the os_version forms of each switch OS, as the switch
// prints its release: Onyx "3.9.3202" (`show version`, Product release),
// EOS "4.32.2F" (a letter for the train, sometimes more after it),
// Cumulus "5.9" or "5.9.2". The renderers pick syntax by these numbers.
var releaseForms = map[model.Platform]struct {
	re   *regexp.Regexp
	form string
}{
	model.PlatformOnyx:    {regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`), `"3.9.3202"`},
	model.PlatformEOS:     {regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+[A-Za-z0-9.-]*$`), `"4.32.2F"`},
	model.PlatformCumulus: {regexp.MustCompile(`^[0-9]+\.[0-9]+(\.[0-9]+)?$`), `"5.9.2"`},
}

// minCumulusRelease is the first Cumulus Linux release with the NVUE QoS
// profiles the Cumulus target writes (NVUE reference, Version History of
// `nv set qos mapping`: 5.3).
const minCumulusRelease = "5.3"

// minRelease is the first release of each platform that fabricc
// configures ("" for every release).
var minRelease = map[model.Platform]string{model.PlatformCumulus: minCumulusRelease}

// checkReleases refuses a switch os_version that is not a release of its
// platform in the form the switch prints it.
func (l *lowering) checkReleases() {
	for i := range l.cfg.Switches {
		s := &l.cfg.Switches[i]
		f, ok := releaseForms[model.Platform(s.Platform)]
		if s.OSVersion == nil || !ok || l.unusableModel[s.Name] {
			continue // an unusable model's error says no release helps
		}
		v := *s.OSVersion
		r := s.OSVersionRange.Or(s.DefRange)
		switch {
		case !f.re.MatchString(v):
			l.errorf(r, "Invalid os_version", "switch %q runs %s, and %q is not one of its releases; write it as the switch prints it, such as %s.",
				s.Name, s.Platform, v, f.form)
		case s.Platform == string(model.PlatformCumulus) && model.CompareVersions(v, minCumulusRelease) < 0:
			l.errorf(r, "Unsupported os_version", "switch %q runs Cumulus Linux %s, which has no NVUE QoS profiles (they arrived in %s); "+
				"declare os_version %s or later.", s.Name, v, minCumulusRelease, minCumulusRelease)
		}
	}
}

// linuxIfName is what Linux accepts as an interface name: at most 15
// bytes (IFNAMSIZ 16 with the terminating NUL), no '/', ':' or white
// space, not "." or ".." (dev_valid_name, net/core/dev.c); fabricc keeps
// to the characters udev's predictable names use. checkInterface also
// refuses a leading '-', which Linux allows but the script's commands
// (ethtool, mlnx_qos) would parse as an option (POSIX.1-2017, Base
// Definitions, section 12.2 Utility Syntax Guidelines, guideline 4:
// options start with '-'). FreeBSD names are the drivers' own
// (freebsdIfNames), which never start with '-'.
var linuxIfName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,15}$`)

// nameFault is what makes a name unusable as a Linux interface name in
// the host script.
type nameFault int

const (
	nameUsable         nameFault = iota
	nameStartsWithDash           // the script's commands would read it as an option
	nameNotLinux                 // not 1-15 of linuxIfName's characters, or "." or ".."
)

// linuxNameFault checks name against linuxIfName and its leading-'-' rule;
// interface and vlan_interface share it, each with its own wording.
func linuxNameFault(name string) nameFault {
	switch {
	case strings.HasPrefix(name, "-"):
		return nameStartsWithDash
	case !linuxIfName.MatchString(name) || name == "." || name == "..":
		return nameNotLinux
	}
	return nameUsable
}

// freebsdIfNames are the interface names the FreeBSD drivers create.
var freebsdIfNames = map[string]struct {
	re      *regexp.Regexp
	example string
}{
	"mlx4en": {regexp.MustCompile(`^mlxen[0-9]+$`), "mlxen0"},
	"mlx5en": {regexp.MustCompile(`^mce[0-9]+$`), "mce0"},
}

// laggIfName is the name lagg(4) gives its interfaces (ifconfig lagg0
// create): a link aggregation over ports, which fabricc does not
// configure (README, Scope).
var laggIfName = regexp.MustCompile(`^lagg[0-9]+$`)

// checkFreeBSDInterface checks a FreeBSD NIC's interface against its
// driver's naming, or, with driver_interface, the renamed interface
// (model.IsFreeBSDRenamedIf) and the driver's name it had (out.DriverInterface).
func (l *lowering) checkFreeBSDInterface(who string, n *dsl.NIC, out *model.NIC) {
	f, ok := freebsdIfNames[out.Driver]
	if !ok {
		return
	}
	ifc, r := n.Interface, n.InterfaceRange.Or(n.DefRange)
	if laggIfName.MatchString(ifc) {
		l.errorf(r, "Invalid interface name", "%s has interface %q, a lagg(4) interface: its MTU and addresses are the lagg's, but PFC, trust and ETS are set per port by the %s driver, and fabricc does not configure lagg (README, Scope): described as the lagg, or as one port renamed so, the NIC would leave PFC off on the lagg's other ports. Leave the lagg out of the fabric, or describe an interface of the driver that is in no lagg, such as %q.",
			who, ifc, out.Driver, f.example)
		return
	}
	if n.DriverInterface == nil {
		if !f.re.MatchString(ifc) {
			l.errorf(r, "Invalid interface name", "%s has interface %q; the %s driver names its interfaces like %q. If rc.conf renames it (ifconfig_%s_name=%q, rc.conf(5)), keep interface = %q and add driver_interface = %q, the driver's name, which its sysctls keep.",
				who, ifc, out.Driver, f.example, f.example, ifc, ifc, f.example)
		}
		return
	}
	d := *n.DriverInterface
	vlanIf, vlanLong := vlanIfName(ifc, n.VLAN)
	switch {
	case !f.re.MatchString(d):
		l.errorf(n.DriverInterfaceRange.Or(n.DefRange), "Invalid driver_interface", "%s has driver_interface %q; the %s driver names its interfaces like %q: write the name it gave the interface before rc.conf renamed it.", who, d, out.Driver, f.example)
	case !model.IsFreeBSDRenamedIf(ifc):
		l.errorf(r, "Invalid interface name", "%s has interface %q; a renamed FreeBSD interface is 1-15 letters, digits or '_', a letter first (such as \"rdma0\"), so that rc.conf's ifconfig_<name> can name it.", who, ifc)
	case vlanLong:
		l.errorf(r, "Interface name too long for its VLAN", "%s: its VLAN interface %q is longer than FreeBSD's 15 characters (IFNAMSIZ); shorten the name rc.conf gives the interface.", who, vlanIf)
	case d != ifc:
		out.DriverInterface = d
	}
}

// vlanIfName is the name of the VLAN interface on ifc ("ens1f0.100"),
// and whether it is longer than the 15 characters Linux and FreeBSD
// allow (IFNAMSIZ 16 with the NUL); "", false without a VLAN.
func vlanIfName(ifc string, vlan *int) (name string, tooLong bool) {
	if vlan == nil || *vlan <= 0 {
		return "", false
	}
	name = fmt.Sprintf("%s.%d", ifc, *vlan)
	return name, len(name) > 15
}

// windowsWildcards are the characters the NetAdapter cmdlets read as a
// wildcard pattern in -Name and -InterfaceAlias ("Accept wildcard
// characters: True"; about_Wildcards: * ? [ ]), so an adapter name holding
// one could select other adapters.
const windowsWildcards = "*?[]"

// checkInterface refuses a NIC interface name the host OS cannot have,
// once the driver is known (out).
func (l *lowering) checkInterface(host string, os model.OS, n *dsl.NIC, out *model.NIC) {
	ifc := n.Interface
	r := n.InterfaceRange.Or(n.DefRange)
	who := fmt.Sprintf("nic %q of host %q", n.Name, host)
	if n.DriverInterface != nil && os != model.OSFreeBSD {
		l.errorf(n.DriverInterfaceRange.Or(n.DefRange), "driver_interface is for FreeBSD", "%s has driver_interface %q, which only a FreeBSD host's NIC takes (the driver's name of an interface rc.conf renames); remove it.", who, *n.DriverInterface)
	}
	switch os {
	case model.OSLinux:
		vlanIf, vlanLong := vlanIfName(ifc, n.VLAN)
		if n.VLANInterface != nil {
			vlanLong = false // the VLAN device has its own name
			l.checkVLANInterface(who, n)
		}
		switch linuxNameFault(ifc) {
		case nameStartsWithDash:
			l.errorf(r, "Invalid interface name", "%s has interface %q, which starts with '-': commands of the host script such as ethtool -a \"$ifc\" read it as an option, not as an interface name. Write a name that starts with a letter or digit, such as \"ens1f0\" (rename the interface if the OS gave it such a name).", who, ifc)
		case nameNotLinux:
			l.errorf(r, "Invalid interface name", "%s has interface %q; a Linux interface name is 1-15 letters, digits, '_', '.' or '-' (not \".\" or \"..\"), such as \"ens1f0\".", who, ifc)
		case nameUsable:
			l.warnBondName(who, r, ifc)
			if vlanLong {
				l.errorf(r, "Interface name too long for its VLAN", "%s: its VLAN interface %q is longer than Linux's 15 characters; name the VLAN interface with vlan_interface (1-15 characters, such as vlan_interface = \"vl%d\"), or give the interface a shorter name (a systemd.link(5) file's Name=).", who, vlanIf, *n.VLAN)
			}
		}
	case model.OSFreeBSD:
		l.vlanInterfaceElsewhere(who, n, "the FreeBSD script makes the vlan(4) interface rc.conf's vlans_<interface> names, <interface>.<vlan>")
		l.checkFreeBSDInterface(who, n, out)
	case model.OSWindows:
		l.vlanInterfaceElsewhere(who, n, "Windows tags on the adapter itself (its VlanID keyword) and has no VLAN interface")
		switch {
		case strings.TrimSpace(ifc) == "":
			l.errorf(r, "Invalid interface name", "%s has no interface name; write the adapter name Get-NetAdapter shows, such as \"Ethernet 4\".", who)
		case strings.TrimSpace(ifc) != ifc:
			l.errorf(r, "Invalid interface name", "%s has interface %q, which starts or ends with a space; write the adapter name as Get-NetAdapter shows it.", who, ifc)
		case strings.ContainsAny(ifc, windowsWildcards):
			l.errorf(r, "Invalid interface name", "%s has interface %q; the NetAdapter cmdlets read %s as wildcards in an adapter name, so it could select other adapters. Rename the adapter (Rename-NetAdapter) and write its new name.",
				who, ifc, "* ? [ ]")
		}
	}
}

// bondPrefixes start the names Linux gives bonding and team masters
// (bond0, team0: Linux Documentation/networking/bonding.rst; teamd(8)).
var bondPrefixes = []string{"bond", "team"}

// warnBondName warns of a Linux NIC whose interface is named like a bond
// or team master, such as RoCE LAG's bond0: the host script stops at a
// master (its nic_guard), since a bond has no DCB of its own and its
// ports keep their PFC, trust and ETS (MLNX_OFED user manual, "RoCE LAG").
func (l *lowering) warnBondName(who string, r dsl.Range, ifc string) {
	for _, p := range bondPrefixes {
		if strings.HasPrefix(ifc, p) {
			l.warnf(r, "NIC interface named like a bond or team", "%s has interface %q, named like a %s master. A bond or team has no PFC, trust or ETS of its own: RoCE LAG runs RDMA on its ports, which keep their own (MLNX_OFED user manual, \"RoCE LAG\"), and fabricc does not configure bonds, teams or RoCE LAG (README, Scope), so the host script stops at %q if it is one. Leave the %s out of the fabric, or, for a port of its own that only has such a name, accept this warning.",
				who, ifc, p, ifc, p)
			return
		}
	}
}

// checkVLANInterface checks a Linux NIC's vlan_interface: a VLAN to name
// and a name Linux and the host script take (linuxIfName), not the
// parent's own.
func (l *lowering) checkVLANInterface(who string, n *dsl.NIC) {
	v, r := *n.VLANInterface, n.VLANInterfaceRange.Or(n.DefRange)
	fault := linuxNameFault(v)
	switch {
	case n.VLAN == nil || *n.VLAN == 0:
		l.errorf(r, "vlan_interface without a VLAN", "%s has vlan_interface %q but no vlan, so there is no VLAN interface to name; add vlan = N, or remove vlan_interface.", who, v)
	case fault == nameStartsWithDash:
		l.errorf(r, "Invalid vlan_interface", "%s has vlan_interface %q, which starts with '-': commands of the host script such as ip link show dev NAME read it as an option. Write a name that starts with a letter or digit, such as \"vl%d\".", who, v, *n.VLAN)
	case fault == nameNotLinux:
		l.errorf(r, "Invalid vlan_interface", "%s has vlan_interface %q; a Linux interface name is 1-15 letters, digits, '_', '.' or '-' (not \".\" or \"..\"), such as \"vl%d\".", who, v, *n.VLAN)
	case v == n.Interface:
		l.errorf(r, "Invalid vlan_interface", "%s has vlan_interface %q, its own interface: the VLAN interface is a second device on top of it and needs a name of its own, such as \"vl%d\".", who, v, *n.VLAN)
	}
}

// vlanInterfaceElsewhere refuses vlan_interface on a NIC of a host that
// is not Linux; why says what that OS does instead.
func (l *lowering) vlanInterfaceElsewhere(who string, n *dsl.NIC, why string) {
	if n.VLANInterface == nil {
		return
	}
	l.errorf(n.VLANInterfaceRange.Or(n.DefRange), "vlan_interface is for Linux", "%s has vlan_interface %q, which only a Linux host's NIC takes: %s. Remove it.", who, *n.VLANInterface, why)
}
