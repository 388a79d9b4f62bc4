package linux

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestToolMissingMessages runs each host's own tool check (its
// need_driver_tool line, as need_tool) with bash on a PATH without the
// tool: the script stops before any change with a message that names what
// to install and the other way out. An inbox host needs iproute2 5.12 for
// `dcb app`, `dcb dcbx` and `dcb -N` (iproute2 git history: dcb in
// v5.11.0, those in v5.12.0); Debian 11's iproute2 5.10 is installed and
// has no dcb, so "install iproute2" sent its operator round in a circle.
// A host that left MLNX_OFED for the inbox driver is told it may set
// driver = "inbox" instead.
func TestToolMissingMessages(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	bash, _ := exec.LookPath("bash")
	for _, tc := range []struct {
		name string
		host int
		want string
	}{
		{"inbox host without dcb", 2, "fabricc: error: dcb not found: install iproute2 5.12 or later " +
			"(dcb came in iproute2 5.11, dcb app, dcb dcbx and dcb -N in 5.12; ip -V prints the installed release: " +
			"Debian 11 ships 5.10, which has no dcb), " +
			`or set driver = "mlnx_ofed" for this NIC in the fabric if the host runs MLNX_OFED` + "\n"},
		{"MLNX_OFED host without mlnx_qos", 0, "fabricc: error: mlnx_qos not found: install MLNX_OFED " +
			"(mlnx-tools / mlnx-ofed-kernel-utils), or, if this host now uses the distribution's inbox driver, " +
			`set driver = "inbox" for this NIC in the fabric and build again` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := render(t, fixture(), tc.host)
			m := regexp.MustCompile(`(?m)^need_driver_tool \S+ (.*)$`).FindAllStringSubmatch(script, -1)
			if len(m) != 2 {
				t.Fatalf("want the ethtool and the DCB tool check, got %q", m)
			}
			check := "need_tool " + m[1][1]
			body := "MODE=apply\n" + allPrelude() + "\n" + check + "\necho went on\n"
			cmd := exec.Command(bash, "-c", body)
			cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
			out, err := cmd.CombinedOutput()
			if err == nil || string(out) != tc.want {
				t.Errorf("%s: err %v, output\n%s\nwant\n%s", check, err, out, tc.want)
			}
		})
	}
}
