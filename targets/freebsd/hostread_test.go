package freebsd

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The tests in this file feed what FreeBSD's tools print, in the shape
// their sources print it, through the script's own read functions
// (prelude), and check the exact value each one reads.

// shRun runs the prelude and then body with sh, with the fake tools in
// fakes (file name -> content, each made executable) first on PATH, and
// returns stdout and stderr together.
func shRun(t *testing.T, fakes map[string]string, body string) (string, error) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	if _, ok := fakes["logger"]; !ok {
		fakes = maps.Clone(fakes)
		if fakes == nil {
			fakes = map[string]string{}
		}
		fakes["logger"] = fakeLogger
	}
	for name, content := range fakes {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(sh, "-c", "set -eu\n"+prelude+"\n"+body, "host.freebsd.sh")
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "FAKES="+dir)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// readValue runs call after the prelude and returns what it printed,
// without the trailing newline (what $(call) gives the script).
func readValue(t *testing.T, fakes map[string]string, call string) string {
	t.Helper()
	out, err := shRun(t, fakes, call+"\n")
	if err != nil {
		t.Fatalf("%s: %v\n%s", call, err, out)
	}
	return strings.TrimSuffix(out, "\n")
}

// printer is a fake tool that prints text whatever its arguments.
func printer(text string) string {
	return "#!/bin/sh\ncat <<'FABRICC_EOF'\n" + text + "FABRICC_EOF\n"
}

// ifconfigHead is the first line as sbin/ifconfig prints it ("%s: ",
// printb("flags", ...), " metric %d", " mtu %d").
const ifconfigHead = "mlxen0: flags=8843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST> metric 0 mtu 9000\n" +
	"\toptions=ed07bb<RXCSUM,TXCSUM,VLAN_MTU,VLAN_HWTAGGING,JUMBO_MTU,VLAN_HWCSUM,TSO4,LRO,VLAN_HWFILTER,VLAN_HWTSO,LINKSTATE>\n" +
	"\tether 24:8a:07:da:15:81\n"

// TestIfMTU reads the MTU from ifconfig's first line.
func TestIfMTU(t *testing.T) {
	tests := []struct{ out, want string }{
		{ifconfigHead + "\tinet 10.20.0.1 netmask 0xffffff00 broadcast 10.20.0.255\n", "9000"},
		{"mce0.2: flags=1008843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST,LOWER_UP> metric 0 mtu 1500\n\tether 0c:42:a1:00:00:01\n", "1500"},
		{"", "absent"},
	}
	for _, tc := range tests {
		fakes := map[string]string{"ifconfig": "#!/bin/sh\n[ -s \"$FAKES/out\" ] || exit 1\ncat \"$FAKES/out\"\n", "out": tc.out}
		if got := readValue(t, fakes, "if_mtu mlxen0"); got != tc.want {
			t.Errorf("if_mtu over %q = %q, want %q", tc.out, got, tc.want)
		}
	}
}

// TestAddrState: ifconfig -f inet:cidr,inet6:cidr prints "\tinet A/N" and
// "\tinet6 A/N" (sbin/ifconfig af_inet.c and af_inet6.c, "/%d" in place
// of the netmask or " prefixlen %d"); without -f the address has no
// prefix, which the fake prints so that a missing -f shows.
func TestAddrState(t *testing.T) {
	const cidr = "\tinet 10.30.0.1/24 broadcast 10.30.0.255\n\tinet6 fe80::e42:a1ff:fe00:1%mce0.2/64 scopeid 0x5\n\tinet6 2001:db8::1/64\n"
	const plain = "\tinet 10.30.0.1 netmask 0xffffff00 broadcast 10.30.0.255\n\tinet6 2001:db8::1 prefixlen 64\n"
	fake := "#!/bin/sh\nif [ \"$1\" = -f ] && [ \"$2\" = inet:cidr,inet6:cidr ]; then cat \"$FAKES/cidr\"; else cat \"$FAKES/plain\"; fi\n"
	fakes := map[string]string{"ifconfig": fake, "cidr": ifconfigHead + cidr, "plain": ifconfigHead + plain}
	for _, tc := range []struct{ addr, want string }{
		{"10.30.0.1/24", "present"}, {"2001:db8::1/64", "present"}, {"10.30.0.1/16", "absent"}, {"10.30.0.2/24", "absent"},
	} {
		if got := readValue(t, fakes, "addr_state mce0.2 "+tc.addr); got != tc.want {
			t.Errorf("addr_state %s = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// TestMediaPauseActive: ifconfig prints "\tmedia: " with the configured
// media word, then " (" active ")" when the two differ, then "\tstatus:
// active" or "no carrier" (sbin/ifconfig ifmedia.c media_status). mlx4en
// reports the pause it runs with only in the active word, and only while
// the link is up (mlx4_en_netdev.c, mlx4_en_calc_media returns IFM_ETHER
// alone when the port is down), so with no carrier the pause state cannot
// be read, and the configured options are not what the port runs with.
func TestMediaPauseActive(t *testing.T) {
	tests := []struct{ name, media, want string }{
		{"up, pause on", "\tmedia: Ethernet autoselect (40Gbase-CR4 <full-duplex,rxpause,txpause>)\n\tstatus: active\n", "rxpause,txpause"},
		{"up, pause off", "\tmedia: Ethernet autoselect (40Gbase-CR4 <full-duplex>)\n\tstatus: active\n", "off"},
		{"up, configured with pause, active equal", "\tmedia: Ethernet autoselect <full-duplex,rxpause,txpause>\n\tstatus: active\n", "rxpause,txpause"},
		{"configured options are not the active ones", "\tmedia: Ethernet autoselect <rxpause,txpause> (40Gbase-CR4 <full-duplex>)\n\tstatus: active\n", "off"},
		{"no carrier", "\tmedia: Ethernet autoselect\n\tstatus: no carrier\n", "unknown (no carrier)"},
		{"no carrier, options configured", "\tmedia: Ethernet autoselect <rxpause,txpause> (autoselect)\n\tstatus: no carrier\n", "unknown (no carrier)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fakes := map[string]string{"ifconfig": printer(ifconfigHead + tc.media)}
			if got := readValue(t, fakes, "media_pause mlxen0"); got != tc.want {
				t.Errorf("media_pause = %q, want %q", got, tc.want)
			}
		})
	}
	if got := readValue(t, map[string]string{"ifconfig": "#!/bin/sh\nexit 1\n"}, "media_pause mlxen0"); got != "absent" {
		t.Errorf("media_pause of a missing interface = %q, want absent", got)
	}
}

// fakeSysctl answers "sysctl -n NAME" from the file sysctl.NAME, as
// sbin/sysctl prints a value: the elements of an array (mlx5en's "CU"
// U8 arrays) separated by one space; "unknown oid" and status 1 for a
// name the kernel does not have. "sysctl -N NAME" prints only the name.
const fakeSysctl = `#!/bin/sh
case $1 in -n) shift ;; -N) shift; [ -f "$FAKES/sysctl.$1" ] && echo "$1" && exit 0 ;; esac
if [ -f "$FAKES/sysctl.$1" ]; then cat "$FAKES/sysctl.$1"; exit 0; fi
echo "sysctl: unknown oid '$1'" >&2
exit 1
`

// TestSysctlGet: the mlx5en and mlx4en sysctls the script reads
// (mlx5_en_main.c: rx_priority_flow_control, U8 array of 8, and the int
// rx_pauseframe_control; mlx5_en_ethtool.c conf.qos: trust_state U8,
// dscp_N_M_prio and prio_0_7_tc U8 arrays, cable_length UINT;
// mlx4_en_netdev.c: hw.mlxenN.conf.rx_ppp, an int bitmask).
func TestSysctlGet(t *testing.T) {
	files := map[string]string{
		"dev.mce.0.rx_priority_flow_control": "0 0 0 1 0 0 0 0\n",
		"dev.mce.0.rx_pauseframe_control":    "0\n",
		"dev.mce.0.conf.qos.trust_state":     "2\n",
		"dev.mce.0.conf.qos.dscp_24_31_prio": "3 3 3 3 3 3 3 3\n",
		"dev.mce.0.conf.qos.prio_0_7_tc":     "0 0 0 3 0 0 6 0\n",
		"dev.mce.0.conf.qos.cable_length":    "50\n",
		"hw.mlxen0.conf.rx_ppp":              "8\n",
	}
	fakes := map[string]string{"sysctl": fakeSysctl}
	for name, v := range files {
		fakes["sysctl."+name] = v
	}
	for _, tc := range []struct{ name, want string }{
		{"dev.mce.0.rx_priority_flow_control", "0,0,0,1,0,0,0,0"},
		{"dev.mce.0.rx_pauseframe_control", "0"},
		{"dev.mce.0.conf.qos.trust_state", "2"},
		{"dev.mce.0.conf.qos.dscp_24_31_prio", "3,3,3,3,3,3,3,3"},
		{"dev.mce.0.conf.qos.prio_0_7_tc", "0,0,0,3,0,0,6,0"},
		{"dev.mce.0.conf.qos.cable_length", "50"},
		{"hw.mlxen0.conf.rx_ppp", "8"},
		{"dev.mce.1.conf.qos.trust_state", "absent"},
	} {
		if got := readValue(t, fakes, "sysctl_get "+tc.name); got != tc.want {
			t.Errorf("sysctl_get %s = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// fakeKldstat: "kldstat -q -m NAME" finds only modules a DECLARE_MODULE
// registers (kern_module.c modfind; kern_linker.c registers MDT_MODULE
// entries only), "kldstat -q -n NAME" a loaded file NAME.ko
// (linker_find_file_by_name). mlx4en declares its module; mlx5en has only
// MODULE_VERSION(mlx5en, 1), so -m never finds it.
const fakeKldstat = `#!/bin/sh
[ "$1" = -q ] && shift
case $1 in
-m) grep -qx "$2" "$FAKES/modules" ;;
-n) grep -qx "$2" "$FAKES/files" ;;
*) exit 2 ;;
esac
`

// TestKmodState reads whether the NIC's driver is loaded.
func TestKmodState(t *testing.T) {
	tests := []struct {
		name, modules, files, sysctl, call, want string
	}{
		{"mlx4en from loader.conf", "mlx4en\nmlx4\n", "kernel\nmlx4en\nmlx4\n", "", "kmod_state mlx4en", "loaded"},
		{"mlx4en not loaded", "mlx4\n", "kernel\nmlx4\n", "", "kmod_state mlx4en", "absent"},
		{"mlx5en loaded with kldload", "pci/mlx5_core\n", "kernel\nmlx5\nmlx5en\n", "", "kmod_state mlx5en dev.mce", "loaded"},
		{"mlx5en in the kernel, its interfaces there", "pci/mlx5_core\n", "kernel\n", "dev.mce", "kmod_state mlx5en dev.mce", "loaded"},
		{"mlx5en not loaded", "pci/mlx5_core\n", "kernel\nmlx5\n", "", "kmod_state mlx5en dev.mce", "absent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fakes := map[string]string{"kldstat": fakeKldstat, "modules": tc.modules, "files": tc.files, "sysctl": fakeSysctl}
			if tc.sysctl != "" {
				fakes["sysctl."+tc.sysctl] = ""
			}
			if got := readValue(t, fakes, tc.call); got != tc.want {
				t.Errorf("%s = %q, want %q", tc.call, got, tc.want)
			}
		})
	}
}

// TestPersistentReads: sysrc -n prints a set variable's value and fails
// for an unknown one (sysrc(8)); conf_get reads the last NAME=VALUE line
// of loader.conf(5) (quoted) or sysctl.conf(5) (bare).
func TestPersistentReads(t *testing.T) {
	sysrc := "#!/bin/sh\n[ \"$1\" = -n ] && shift\ncase $1 in\nifconfig_mlxen0) echo 'inet 10.20.0.1/24 mtu 9000 media autoselect' ;;\n*) echo \"sysrc: unknown variable '$1'\" >&2; exit 1 ;;\nesac\n"
	fakes := map[string]string{"sysrc": sysrc}
	if got := readValue(t, fakes, "rc_get ifconfig_mlxen0"); got != "inet 10.20.0.1/24 mtu 9000 media autoselect" {
		t.Errorf("rc_get of a set variable = %q", got)
	}
	if got := readValue(t, fakes, "rc_get vlans_mlxen0"); got != "unset" {
		t.Errorf("rc_get of an unknown variable = %q, want unset", got)
	}
	dir := t.TempDir()
	loader := filepath.Join(dir, "loader.conf")
	sysctl := filepath.Join(dir, "sysctl.conf")
	if err := os.WriteFile(loader, []byte("#mlx5en_load=\"YES\"\nmlx4en_load=\"NO\"\nmlx4en_load=\"YES\"\ndev.mce.0.conf.qos.trust_state=\"2\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sysctl, []byte("hw.mlxen0.conf.rx_ppp=8\nhw_mlxen0_conf_tx_ppp=8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, name, want string }{
		{loader, "mlx4en_load", "YES"},
		{loader, "mlx5en_load", "unset"},
		{loader, "dev.mce.0.conf.qos.trust_state", "2"},
		{sysctl, "hw.mlxen0.conf.rx_ppp", "8"},
		{sysctl, "hw.mlxen0.conf.tx_ppp", "unset"},
	} {
		if got := readValue(t, nil, "conf_get "+tc.file+" "+tc.name); got != tc.want {
			t.Errorf("conf_get %s %s = %q, want %q", filepath.Base(tc.file), tc.name, got, tc.want)
		}
	}
}

// TestAddrPrune: the addresses of the interface other than the model's
// (the model's with another prefix length, another IPv4 one, a global
// IPv6 one) are differences in --check, ifconfig ... -alias in a dry run
// and a run; link-local ones (fe80::/10 with their %scope) never.
func TestAddrPrune(t *testing.T) {
	const cidr = "\tinet 10.30.0.1/24 broadcast 10.30.0.255\n\tinet 10.30.0.1/16 broadcast 10.30.255.255\n" +
		"\tinet 10.30.0.99/24 broadcast 10.30.0.255\n\tinet6 fe80::e42:a1ff:fe00:1%mce0.2/64 scopeid 0x5\n\tinet6 2001:db8::5/64\n"
	fake := "#!/bin/sh\nif [ \"$1\" = -f ]; then cat \"$FAKES/cidr\"; else echo \"$*\" >>\"$FAKES/log\"; fi\n"
	fakes := map[string]string{"ifconfig": fake, "cidr": ifconfigHead + cidr}
	for _, tc := range []struct{ mode, want string }{
		{"check", "DIFF mce0.2 address 10.30.0.1/16: intended absent; actual present\n" +
			"DIFF mce0.2 address 10.30.0.99/24: intended absent; actual present\n" +
			"DIFF mce0.2 address 2001:db8::5/64: intended absent; actual present\n"},
		{"dry-run", "would run: ifconfig mce0.2 inet 10.30.0.1/16 -alias\nwould run: ifconfig mce0.2 inet 10.30.0.99/24 -alias\n" +
			"would run: ifconfig mce0.2 inet6 2001:db8::5/64 -alias\n"},
		{"apply", "set mce0.2 address 10.30.0.1/16: present -> absent\nset mce0.2 address 10.30.0.99/24: present -> absent\n" +
			"set mce0.2 address 2001:db8::5/64: present -> absent\n"},
	} {
		out, err := shRun(t, fakes, "MODE="+tc.mode+"\naddr_prune mce0.2 10.30.0.1/24\n")
		if err != nil || out != tc.want {
			t.Errorf("%s: %v\n%s\nwant:\n%s", tc.mode, err, out, tc.want)
		}
	}
}

// TestAddrPruneRuns: the apply run's ifconfig calls, one per address.
func TestAddrPruneRuns(t *testing.T) {
	dir := t.TempDir()
	fake := "#!/bin/sh\nif [ \"$1\" = -f ]; then printf '\\tinet 10.30.0.1/24\\n\\tinet 10.30.0.99/24\\n'; else echo \"$*\" >>" + dir + "/log; fi\n"
	if out, err := shRun(t, map[string]string{"ifconfig": fake}, "addr_prune mce0.2 10.30.0.1/24\n"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "log")); string(got) != "mce0.2 inet 10.30.0.99/24 -alias\n" {
		t.Errorf("ifconfig calls %q, want one -alias of 10.30.0.99/24", got)
	}
}

// TestEnsureFailure: a failing command stops the run with status 1 and a
// fabricc: error line naming the interface, the step and the command.
func TestEnsureFailure(t *testing.T) {
	fakes := map[string]string{"kldload": "#!/bin/sh\necho 'kldload: an error occurred while loading module mlx5en' >&2\nexit 3\n"}
	out, err := shRun(t, fakes, "ensure system 'module mlx5en' loaded absent kldload mlx5en\necho not reached\n")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || strings.Contains(out, "not reached") ||
		!strings.Contains(out, "fabricc: error: system module mlx5en: kldload mlx5en failed with exit status 3\n") {
		t.Errorf("exit %v, want 1 and the error line:\n%s", err, out)
	}
}

// TestShq: what cmd_text prints, read back by sh, is the words it was
// given, hostile ones included.
func TestShq(t *testing.T) {
	words := []string{"plain", "", "a b", "it's", "$(reboot)", "`x`", "a\nb", "*", "\\"}
	body := "cmd_text printf '[%s]'"
	for _, w := range words {
		body += " '" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	text, err := shRun(t, nil, body+"\n")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	out, err := exec.Command("sh", "-c", text).CombinedOutput()
	want := "[" + strings.Join(words, "][") + "]"
	if err != nil || string(out) != want {
		t.Errorf("sh -c %q = %q (%v), want %q", text, out, err, want)
	}
}

// TestAddrPruneCARP: a CARP address on the fabric's interface (carp(4):
// ifconfig prints it with " vhid N") is no difference and is never
// removed, only noted; before, a run deleted the pair's service address.
func TestAddrPruneCARP(t *testing.T) {
	const cidr = "\tinet 10.0.7.17/24 broadcast 10.0.7.255\n\tinet 10.0.7.100/32 broadcast 10.0.7.100 vhid 1\n" +
		"\tinet6 2001:db8::64/128 vhid 2\n\tinet 10.0.7.99/24 broadcast 10.0.7.255\n"
	fake := "#!/bin/sh\nif [ \"$1\" = -f ]; then cat \"$FAKES/cidr\"; else echo \"$*\" >>\"$FAKES/log\"; fi\n"
	fakes := map[string]string{"ifconfig": fake, "cidr": ifconfigHead + cidr}
	notes := "note: mce0: 10.0.7.100/32 is a CARP address (vhid 1), left alone\nnote: mce0: 2001:db8::64/128 is a CARP address (vhid 2), left alone\n"
	for _, tc := range []struct{ mode, want string }{
		{"check", notes + "DIFF mce0 address 10.0.7.99/24: intended absent; actual present\n"},
		{"dry-run", notes + "would run: ifconfig mce0 inet 10.0.7.99/24 -alias\n"},
	} {
		out, err := shRun(t, fakes, "MODE="+tc.mode+"\naddr_prune mce0 10.0.7.17/24\n")
		if err != nil || out != tc.want {
			t.Errorf("%s: %v\n%s\nwant:\n%s", tc.mode, err, out, tc.want)
		}
	}
}

// TestPauseOff: turning 802.3x pause off re-issues the configured media
// subtype (a pinned one stays pinned) without the pause options, says
// first that the link goes down and up, and a state that cannot be read
// with the link down is a note, not a difference. Before, the step always
// set "media autoselect", silently, and --check counted "unknown (no
// carrier)" as a difference that every run repeated.
func TestPauseOff(t *testing.T) {
	const pinned = "\tmedia: Ethernet 100GBase-CR4 <full-duplex,rxpause,txpause>\n\tstatus: active\n"
	const auto = "\tmedia: Ethernet autoselect (40Gbase-CR4 <full-duplex,rxpause,txpause>)\n\tstatus: active\n"
	tests := []struct {
		name, media, mode, call, want string
	}{
		{"mlx5en pinned, dry run", pinned, "dry-run", "pause_off mce0 0,0 1,1 full-duplex",
			"note: mce0: turning 802.3x pause off re-sets its media (100GBase-CR4), which takes the link down and up\n" +
				"would run: ifconfig mce0 media 100GBase-CR4 mediaopt full-duplex\n"},
		{"mlx4en autoselect, run", auto, "apply", "pause_off mlxen0 off rxpause,txpause",
			"note: mlxen0: turning 802.3x pause off re-sets its media (autoselect), which takes the link down and up\n" +
				"set mlxen0 global pause: rxpause,txpause -> off\n"},
		{"check", auto, "check", "pause_off mlxen0 off rxpause,txpause",
			"DIFF mlxen0 global pause: intended off; actual rxpause,txpause\n"},
		{"already off", auto, "apply", "pause_off mce0 0,0 0,0 full-duplex", ""},
		{"link down", auto, "check", "pause_off mlxen0 off 'unknown (no carrier)'",
			"note: mlxen0: its 802.3x pause cannot be read while the link is down (unknown (no carrier)); run again once it is up\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			fake := "#!/bin/sh\nif [ $# -eq 1 ]; then printf '%s' \"$OUT\"; else echo \"$*\" >>" + dir + "/log; fi\n"
			out, err := shRun(t, map[string]string{"ifconfig": fake}, "OUT='"+ifconfigHead+tc.media+"'\nexport OUT\nMODE="+tc.mode+"\n"+tc.call+"\n")
			if err != nil || out != tc.want {
				t.Errorf("%v\n%s\nwant\n%s", err, out, tc.want)
			}
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			if wantLog := map[bool]string{true: "mlxen0 media autoselect\n"}[tc.mode == "apply" && tc.want != ""]; string(log) != wantLog {
				t.Errorf("ifconfig calls %q, want %q", log, wantLog)
			}
		})
	}
}
