package freebsd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// fakeTools are FreeBSD's tools as the script calls them, over a state
// kept in files of $FAKES: if.IF (what "ifconfig IF" prints; the
// interface exists when the file does), drv.IF (the driver's name
// "ifconfig -D IF" prints, IF when there is no file; no-D: an ifconfig
// without -D), addr.IF (ifconfig -f
// inet:cidr,inet6:cidr), iflist (ifconfig -l), sysctl.OID (a sysctl
// that exists, its value), rc.VAR (an rc.conf variable; sysrc VAR+=W
// and VAR-=W add and remove a word, sysrc -x VAR removes it), pci (pciconf
// -l), name (uname -n and hostname print it; $FAKE_HOSTNAME, the
// host the script is for, when there is no file; no-uname: uname fails).
// Every command that changes something is logged to $FAKES/log.
var fakeTools = map[string]string{
	"id":       "#!/bin/sh\necho 0\n",
	"uname":    fakeName("[ ! -f \"$FAKES/no-uname\" ] || exit 1\n[ \"$1\" = -n ] || exit 1\n"),
	"hostname": fakeName("[ $# -eq 0 ] || exit 1\n"),
	"kldstat":  "#!/bin/sh\nexit 0\n",
	"kldload":  "#!/bin/sh\necho \"kldload $*\" >>\"$FAKES/log\"\n",
	"pciconf":  "#!/bin/sh\ncat \"$FAKES/pci\"\n",
	"logger":   fakeLogger,
	"ifconfig": `#!/bin/sh
case $1 in
-l) cat "$FAKES/iflist"; exit 0 ;;
-f) [ -f "$FAKES/if.$3" ] || exit 1; cat "$FAKES/if.$3"; [ ! -f "$FAKES/addr.$3" ] || cat "$FAKES/addr.$3"; exit 0 ;;
-D) [ ! -f "$FAKES/no-D" ] || { echo "ifconfig: illegal option -- D" >&2; exit 1; }
	[ -f "$FAKES/if.$2" ] || exit 1; cat "$FAKES/if.$2"; printf '\tdrivername: %s\n' "$(cat "$FAKES/drv.$2" 2>/dev/null || echo "$2")"; exit 0 ;;
esac
if [ $# -eq 1 ] || { [ $# -eq 2 ] && [ "$2" = inet6 ]; }; then
	[ -f "$FAKES/if.$1" ] || { echo "ifconfig: interface $1 does not exist" >&2; exit 1; }
	cat "$FAKES/if.$1"
	exit 0
fi
echo "ifconfig $*" >>"$FAKES/log"
`,
	"sysctl": `#!/bin/sh
case $1 in
-N) [ -f "$FAKES/sysctl.$2" ] && echo "$2" && exit 0; echo "sysctl: unknown oid '$2'" >&2; exit 1 ;;
-n) [ -f "$FAKES/sysctl.$2" ] && cat "$FAKES/sysctl.$2" && exit 0; echo "sysctl: unknown oid '$2'" >&2; exit 1 ;;
esac
n=${1%%=*}
[ -f "$FAKES/sysctl.$n" ] || { echo "sysctl: unknown oid '$n'" >&2; exit 1; }
echo "${1#*=}" | tr ',' ' ' >"$FAKES/sysctl.$n"
echo "sysctl $1" >>"$FAKES/log"
`,
	"sysrc": `#!/bin/sh
if [ "$1" = -n ]; then
	[ -f "$FAKES/rc.$2" ] || { echo "sysrc: unknown variable '$2'" >&2; exit 1; }
	cat "$FAKES/rc.$2"
	exit 0
fi
if [ "$1" = -x ]; then
	[ -f "$FAKES/rc.$2" ] || { echo "sysrc: unknown variable '$2'" >&2; exit 1; }
	rm -f "$FAKES/rc.$2"
	echo "sysrc -x $2" >>"$FAKES/log"
	exit 0
fi
case $1 in
*+=*) n=${1%%+=*}; v=${1#*+=}; old=$(cat "$FAKES/rc.$n" 2>/dev/null || true); printf '%s\n' "${old:+$old }$v" >"$FAKES/rc.$n" ;;
*-=*) n=${1%%-=*}; v=${1#*-=}; old=$(cat "$FAKES/rc.$n" 2>/dev/null || true)
	new=; for w in $old; do [ "$w" = "$v" ] || new="${new:+$new }$w"; done; printf '%s\n' "$new" >"$FAKES/rc.$n" ;;
*) n=${1%%=*}; printf '%s\n' "${1#*=}" >"$FAKES/rc.$n" ;;
esac
echo "sysrc $1" >>"$FAKES/log"
`,
}

// fakeName is a tool that prints the host's name after the test in
// guard (uname -n, hostname).
func fakeName(guard string) string {
	return "#!/bin/sh\n" + guard + "if [ -f \"$FAKES/name\" ]; then cat \"$FAKES/name\"; else printf '%s\\n' \"$FAKE_HOSTNAME\"; fi\n"
}

// fakeLogger keeps what a run logs (logger(1)) in $FAKES/syslog, not in
// the system log of the machine the tests run on.
const fakeLogger = "#!/bin/sh\necho \"logger $*\" >>\"$FAKES/syslog\"\n"

// fakeHost is a directory of fake tools and state for one run.
type fakeHost struct {
	t   *testing.T
	dir string
	// env is added to each run's environment (FABRICC_ANY_HOST=1).
	env []string
}

// newFakeHost makes the tools, a ConnectX on the PCI bus and the given
// interfaces, each up with MTU 1500.
func newFakeHost(t *testing.T, ifaces ...string) *fakeHost {
	h := &fakeHost{t: t, dir: t.TempDir()}
	for name, content := range fakeTools {
		h.write(name, content)
		if err := os.Chmod(filepath.Join(h.dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h.write("pci", "mlx5_core0@pci0:59:0:0:\tclass=0x020000 rev=0x00 hdr=0x00 vendor=0x15b3 device=0x1017 subvendor=0x15b3 subdevice=0x0007\n")
	h.write("iflist", strings.Join(append(ifaces, "lo0"), " ")+"\n")
	for _, ifc := range ifaces {
		h.write("if."+ifc, ifc+": flags=8843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST> metric 0 mtu 1500\n\tether 0c:42:a1:00:00:01\n"+
			"\tmedia: Ethernet autoselect (100GBase-CR4 <full-duplex>)\n\tstatus: active\n")
	}
	h.write("loader.conf", "zfs_load=\"YES\"\n")
	h.write("sysctl.conf", "")
	return h
}

// write sets one state file.
func (h *fakeHost) write(name, content string) {
	h.t.Helper()
	if err := os.WriteFile(filepath.Join(h.dir, name), []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// read returns one state file, "" when there is none.
func (h *fakeHost) read(name string) string {
	b, _ := os.ReadFile(filepath.Join(h.dir, name))
	return string(b)
}

// mlx5OIDs gives unit's mlx5en sysctls their attach values, all but skip.
func (h *fakeHost) mlx5OIDs(unit string, skip ...string) {
	base := "dev.mce." + unit + "."
	names := []string{"rx_pauseframe_control", "tx_pauseframe_control", "rx_priority_flow_control", "tx_priority_flow_control",
		"conf.qos.trust_state", "conf.qos.prio_0_7_tc", "conf.qos.cable_length"}
	for i := 0; i < 64; i += 8 {
		names = append(names, fmt.Sprintf("conf.qos.dscp_%d_%d_prio", i, i+7))
	}
next:
	for _, n := range names {
		for _, s := range skip {
			if n == s {
				continue next
			}
		}
		h.write("sysctl."+base+n, "0\n")
	}
}

// run runs script with the tools first on PATH and the persistent
// files moved into the fake host, on the host it is for (FAKE_HOSTNAME,
// unless a hostname file says otherwise), returning stdout, stderr and
// the exit status.
func (h *fakeHost) run(script string, args ...string) (string, string, int) {
	h.t.Helper()
	// loader.conf.d, loader.conf.local and sysctl.conf.local follow
	// their files; the rc.conf.d under /usr/local goes before the one
	// under /etc, which is part of its path.
	script = strings.ReplaceAll(script, loaderConf, filepath.Join(h.dir, "loader.conf"))
	script = strings.ReplaceAll(script, sysctlConf, filepath.Join(h.dir, "sysctl.conf"))
	script = strings.ReplaceAll(script, "/usr/local/etc/rc.conf.d", filepath.Join(h.dir, "local.rc.conf.d"))
	script = strings.ReplaceAll(script, "/etc/rc.conf.d", filepath.Join(h.dir, "rc.conf.d"))
	cmd := exec.Command("sh", append([]string{"-c", script, "host.freebsd.sh"}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+h.dir+":"+os.Getenv("PATH"), "FAKES="+h.dir,
		"FAKE_HOSTNAME="+scriptHost(h.t, script), "FABRICC_ANY_HOST=")
	cmd.Env = append(cmd.Env, h.env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// hostNameLine is the script's HOST_NAME line (writeHostName).
var hostNameLine = regexp.MustCompile(`(?m)^HOST_NAME='((?:[^']|'\\'')*)'$`)

// scriptHost is the name of the host script is for, as sh reads its
// HOST_NAME line.
func scriptHost(t *testing.T, script string) string {
	t.Helper()
	m := hostNameLine.FindStringSubmatch(script)
	if m == nil {
		t.Fatal("the script has no HOST_NAME='...' line")
	}
	return strings.ReplaceAll(m[1], `'\''`, "'")
}

// twoNICs is a host with two ConnectX-5 ports, mce0 and mce1, untagged,
// as the bench fabric's FreeBSD hosts are.
func twoNICs() (*model.Fabric, *model.Host) {
	f := fixture()
	h := &f.Hosts[1]
	n := h.NICs[0]
	n.VLAN, n.Addresses = 0, []string{"10.0.7.17/24"}
	m := n
	m.Name, m.Interface, m.Addresses = "roce1", "mce1", []string{"10.0.8.17/24"}
	h.NICs = []model.NIC{n, m}
	return f, h
}

// hostScript renders h's script.
func hostScript(t *testing.T, f *model.Fabric, h *model.Host) string {
	t.Helper()
	out, err := Render(f, h)
	if err != nil {
		t.Fatal(err)
	}
	return string(out[0].Data)
}
