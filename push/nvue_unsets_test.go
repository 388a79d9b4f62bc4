package push

import (
	"strings"
	"testing"
)

// TestPushUnsets: push runs the `nv unset` lines of the patch's header,
// in order, and only those; a line that names anything but NVUE path
// words is refused before anything is sent, since the switch's shell
// runs what push sends.
func TestPushUnsets(t *testing.T) {
	doc := "# fabric: f\n#\n# Before the patch ...\n" +
		"# nv unset qos traffic-pool default-lossy switch-priority\n" +
		"# nv unset interface swp1,swp2 qos pfc\n" +
		"# NOTE: nv unset in a note is not a command\n" +
		"- set:\n    interface: {}\n# nv unset interface swp9 qos pfc\n"
	got, err := pushUnsets([]byte(doc))
	want := "nv unset qos traffic-pool default-lossy switch-priority\nnv unset interface swp1,swp2 qos pfc"
	if err != nil || strings.Join(got, "\n") != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{"interface swp1; reboot", "interface $(id) qos", "interface swp1  qos", "interface swp1 qos\tpfc"} {
		_, err := pushUnsets([]byte("# nv unset " + bad + "\n- set: {}\n"))
		if err == nil || !strings.Contains(err.Error(), "is not an NVUE path; rebuild the artifacts") {
			t.Errorf("%q: error %v, want a refusal", bad, err)
		}
	}
}
