package linux

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// Where --install puts the script's copy and its systemd unit: fixed
// paths, so that a second --install replaces the first and --check finds
// them (the unit name carries no host or fabric name).
const (
	bootCopy     = "/usr/local/sbin/fabricc-host-settings"
	bootUnitName = "fabricc-host-settings.service"
	bootUnitFile = "/etc/systemd/system/" + bootUnitName
)

// scriptIDKey starts the line carrying the script's identity: the SHA-256
// of the script with the value as 64 zeros (stampScriptID), which the
// script's script_id computes the same way to tell whether the boot copy
// is this build.
const scriptIDKey = "FABRICC_SCRIPT_ID="

// scriptIDZero is the value the identity is computed over.
var scriptIDZero = strings.Repeat("0", sha256.Size*2)

// writeScriptID writes the identity line, to be stamped by stampScriptID.
func writeScriptID(b *script) {
	b.WriteString("# SHA-256 of this script with this value as 64 zeros: --check compares the\n")
	b.WriteString("# boot copy's (--install) with it.\n")
	b.WriteString(scriptIDKey + scriptIDZero + "\n")
}

// stampScriptID fills the identity line of data in place (same length, so
// the source map stays right).
func stampScriptID(data []byte) {
	line := []byte("\n" + scriptIDKey + scriptIDZero + "\n")
	i := bytes.Index(data, line)
	if i < 0 {
		return
	}
	sum := sha256.Sum256(data)
	copy(data[i+1+len(scriptIDKey):], hex.EncodeToString(sum[:]))
}

// deviceUnit is the systemd device unit of a network interface,
// sys-subsystem-net-devices-IFC.device (systemd.device(5); udev tags every
// net device for systemd), its name escaped as "systemd-escape --path
// /sys/subsystem/net/devices/IFC" does (systemd.unit(5), "String
// Escaping for Inclusion in Unit Names"): "/" becomes "-", and every byte
// other than ASCII letters, digits, ":", "_" and "." becomes \xNN ("-"
// \x2d), "." too when it would start the name, which it cannot here.
func deviceUnit(ifc string) string {
	var b strings.Builder
	b.WriteString("sys-subsystem-net-devices-")
	for i := 0; i < len(ifc); i++ {
		c := ifc[i]
		switch {
		case c == '/':
			b.WriteByte('-')
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == ':', c == '_', c == '.':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String() + ".device"
}

// unitText is s fit for a free-text unit file value (Description=): one
// line of printable text (quote.Visible writes line breaks and control
// characters as visible escapes, so the value cannot end its line or start
// another section), "%" doubled since Description= expands specifiers
// (systemd.unit(5), Specifiers: "%%" is a single percent sign). A value is
// not unescaped (systemd.syntax(7)), so a backslash stays as written; the
// caller ends the line with a quote, never a backslash, which would
// continue the line.
func unitText(s string) string {
	return strings.ReplaceAll(quote.Visible(s), "%", "%%")
}

// bootUnit is the systemd unit --install writes: a oneshot that runs the
// installed copy at every boot (systemd.service(5)), after the devices of
// the NICs' interfaces exist (a VLAN interface is the script's own) and
// the RDMA stack is set up, before network-online.target and the RDMA-CM
// consumers (writeBootOrder).
//
// No Restart=on-failure: systemd before 244 refuses to load a oneshot
// unit that has it (systemd.service(5), Restart=; RHEL 8 until its 2022
// backport, Ubuntu 18.04), so the unit would not run at all there; the
// race it would cover, an RDMA driver loaded after the unit starts, the
// script waits out itself (rdma_wait), and a NIC whose setting fails
// fails again on a retry, while the other NICs are set anyway (nic_enter).
func bootUnit(f *model.Fabric, h *model.Host) string {
	var devs []string
	seen := map[string]bool{}
	ofed, rdma := false, false
	for i := range h.NICs {
		n := &h.NICs[i]
		d := deviceUnit(n.Interface)
		if !seen[d] {
			seen[d] = true
			devs = append(devs, d)
		}
		ofed = ofed || n.Driver == driverOFED
		rdma = rdma || n.Transport != model.TransportIWARP
	}
	var b strings.Builder
	b.WriteString("# Written by the fabricc host script's --install; its --uninstall removes it.\n")
	b.WriteString("[Unit]\n")
	// No host name: hosts with the same NICs get the same unit, which a
	// shared node image can hold (README, "Stateless nodes").
	fmt.Fprintf(&b, "Description=fabricc lossless RoCE host settings, fabric \"%s\"\n", unitText(f.Name))
	if len(devs) > 0 {
		// Wants=, not Requires=: a NIC that never appears still lets the
		// script run and say which interface it did not find.
		b.WriteString("# The NICs' interfaces (systemd.device(5)).\n")
		fmt.Fprintf(&b, "Wants=%s\nAfter=%s\n", strings.Join(devs, " "), strings.Join(devs, " "))
	}
	if rdma {
		// After= only: Wants= would pull in rdma-hw.target, and the RDMA
		// daemons it starts, on a host without RDMA hardware.
		b.WriteString("# After the RDMA stack's kernel services, as rdma-core prescribes for units\n")
		b.WriteString("# that use RDMA (rdma-core Documentation/udev.md, \"Systemd Ordering\"); udev\n")
		b.WriteString("# may still load the RDMA driver later, which the script waits for.\n")
		b.WriteString("After=rdma-hw.target\n")
	}
	if ofed {
		// After= only: openibd is enabled by MLNX_OFED's installation, and
		// starting it when someone disabled it would reload the drivers.
		b.WriteString("# MLNX_OFED loads its RDMA drivers from openibd.service.\n")
		b.WriteString("After=openibd.service\n")
	}
	writeBootOrder(&b)
	b.WriteString("[Service]\nType=oneshot\nRemainAfterExit=yes\n")
	// A oneshot has no start timeout by default (systemd.service(5),
	// TimeoutStartSec=), and the consumers above wait for this unit.
	fmt.Fprintf(&b, "# Bounded, since other units wait for it: the %d s wait for the RDMA devices\n", rdmaWaitSec)
	b.WriteString("# and the steps (systemd.service(5), TimeoutStartSec=).\n")
	fmt.Fprintf(&b, "TimeoutStartSec=%d\n", bootTimeoutSec)
	b.WriteString("# Tells the script it runs at boot (it waits for the RDMA devices then).\n")
	b.WriteString("Environment=FABRICC_BOOT_UNIT=1\n")
	fmt.Fprintf(&b, "ExecStart=%s\n\n", bootCopy)
	b.WriteString("[Install]\nWantedBy=multi-user.target\n")
	return b.String()
}

// hostGuard is the prelude's host_guard: the script is for one host, and
// identical nodes have identical interface names, so run on another (a
// shared node image, a mis-mapped configuration management run) it would
// delete that node's addresses and add this one's. It compares uname -n's
// first label (or the whole name), case ignored, with HOST_NAME, as
// fabricc verify compares a switch's hostname with its inventory name.
const hostGuard = `# host_guard: stops before the first change on a host whose name (uname -n,
# its first label or the whole name, case ignored) is not HOST_NAME;
# --check reports the difference and reads on, --dry-run notes it;
# --any-host (FABRICC_ANY_HOST=1) goes on with a note, for a node whose
# name is set later in its boot.
host_guard() {
	local have first why
	# The kernel's file holds the same name where uname is absent (a
	# minimal image; uname(2), proc(5) /proc/sys/kernel/hostname).
	have=$(uname -n 2>/dev/null) || have=$(cat /proc/sys/kernel/hostname 2>/dev/null) || have=
	first=${have%%.*}
	if [[ -n $have && (${have,,} == "${HOST_NAME,,}" || ${first,,} == "${HOST_NAME,,}") ]]; then
		return 0
	fi
	why="this host's name (uname -n) is $(shell_word "${have:-unknown}"), not $(shell_word "$HOST_NAME"), the host this script is for"
	if [[ $ANY_HOST == 1 ]]; then
		note "$why; going on (--any-host)"
		return 0
	fi
	case $MODE in
	check) diff_line system "host name" "$(shell_word "$HOST_NAME")" "$(shell_word "${have:-unknown}")" ;;
	dry-run) note "$why: a run would stop here (use this host's own script, or --any-host)" ;;
	*) die "$why; nothing was changed: use this host's own script, or, where the name is set later (a shared image), run with --any-host (or FABRICC_ANY_HOST=1)" ;;
	esac
}`

// rdmaWaitSec is how long the script waits under the unit for the RDMA
// devices (RDMA_WAIT in the prelude); bootTimeoutSec is the unit's start
// timeout, that wait plus room for the steps (a hung mlnx_qos or dcb
// would otherwise hold the boot forever).
const (
	rdmaWaitSec    = 60
	bootTimeoutSec = 180
)

// bootConsumers are the units that open RDMA-CM connections at boot and
// take default_roce_tos when they connect, so the unit runs before them:
// remote mounts (NFS over RDMA, Lustre, iSER; systemd.special(7),
// remote-fs-pre.target), nvme-cli's nvmf-autoconnect.service (itself
// Before=remote-fs-pre.target, but After=network-online.target only),
// Lustre's lnet.service and Slurm's slurmd.service (only
// After=network.target munge.service in Slurm's slurmd.service.in).
// Before= on a unit that is not installed is harmless.
var bootConsumers = []string{"remote-fs-pre.target", "nvmf-autoconnect.service", "lnet.service", "slurmd.service"}

// writeBootOrder writes the unit's place among the network units: like
// a network manager's (the script sets the fabric interfaces' MTUs and
// addresses, and needs no other host), after the managers and before
// network-online.target, so that every unit waiting for the network finds
// the fabric set; and before the RDMA-CM consumers, which would otherwise
// connect with ToS 0 and keep it until they reconnect.
func writeBootOrder(b *strings.Builder) {
	b.WriteString("# Ordered like a network manager, since it sets the fabric interfaces' MTUs and\n")
	b.WriteString("# addresses and needs no other host: after the managers, before\n")
	b.WriteString("# network-online.target (systemd.special(7), network-online.target; systemd.io,\n")
	b.WriteString("# \"Running Services After the Network Is Up\"). A manager re-applies its own MTU\n")
	b.WriteString("# and addresses whenever it reconfigures a link it manages, and this unit does\n")
	b.WriteString("# not run again: leave the interfaces unmanaged, or give the manager the same.\n")
	b.WriteString("After=NetworkManager.service systemd-networkd.service\nBefore=network-online.target\n")
	b.WriteString("# Before the RDMA-CM consumers, which take the default ToS when they connect and\n")
	b.WriteString("# keep it: remote mounts (systemd.special(7), remote-fs-pre.target), nvme-cli's\n")
	b.WriteString("# NVMe-oF autoconnect, Lustre's LNet, Slurm's slurmd; absent units are ignored.\n")
	b.WriteString("Wants=remote-fs-pre.target\n")
	fmt.Fprintf(b, "Before=%s\n\n", strings.Join(bootConsumers, " "))
}

// writeBoot writes boot_unit_text, which prints the unit: a here-document
// with a quoted delimiter, so bash expands nothing in it (Bash Reference
// Manual, 3.6.6 Here Documents); no unit line can be the delimiter.
func writeBoot(b *script, f *model.Fabric, h *model.Host) {
	b.At("fabric")
	b.Also("host", h.Name)
	b.WriteString("\n# boot_unit_text: the systemd unit --install writes to " + bootUnitFile + ".\n")
	b.WriteString("boot_unit_text() {\n\tcat <<'FABRICC_UNIT'\n")
	b.WriteString(bootUnit(f, h))
	b.WriteString("FABRICC_UNIT\n}\n")
}
