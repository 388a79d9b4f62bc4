package cumulus

import (
	"encoding/json"
	"testing"

	"github.com/fabricc/fabricc/sim/cli"
	"github.com/google/go-cmp/cmp"
)

// showJSON runs line on a new shell of d and decodes its JSON answer.
func showJSON(t *testing.T, d *Device, line string) any {
	t.Helper()
	out := d.NewShell(cli.Session{User: "cumulus"}).Exec(line).Out
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	return v
}

// TestOperationalShows: the commands push verification reads the
// operational state with answer in NVUE's object-model JSON: `nv show qos
// pfc -o json` the profiles by name (also on a switch without one: an
// empty object, not "does not exist"), `nv show interface -o json` each
// port's link with its MTU (the 5.6.0 capture's shape: {"swp1": {"link":
// {"mtu": 9216, ...}}}). With the drift fault, the first configured
// port's operational MTU stays 100 bytes below the applied one until the
// next apply, while `--applied` and `nv config show` hold what was
// applied (rcum #6).
func TestOperationalShows(t *testing.T) {
	ports := []cli.Port{{Name: "swp1", SpeedG: 100}, {Name: "swp2", SpeedG: 100}}
	d := New(cli.Options{Name: "leaf1", Model: "SN2700", Version: "5.9.2", Ports: ports, Drift: true})
	if got := showJSON(t, d, "nv show qos pfc -o json"); !cmp.Equal(got, map[string]any{}) {
		t.Errorf("nv show qos pfc -o json on a fresh switch: %v, want {}", got)
	}
	sh := d.NewShell(cli.Session{User: "cumulus"})
	for _, line := range []string{"nv set qos pfc p3 switch-priority 3", "nv set interface swp1-2 qos pfc profile p3",
		"nv set interface swp1-2 link mtu 9000", "nv config apply -y"} {
		if out := sh.Exec(line).Out; line != "nv config apply -y" && out != "" {
			t.Fatalf("%s: %s", line, out)
		}
	}
	pfc := showJSON(t, d, "nv show qos pfc -o json").(map[string]any)
	if d := cmp.Diff(map[string]any{"3": map[string]any{}}, pfc["p3"].(map[string]any)["switch-priority"]); d != "" {
		t.Errorf("nv show qos pfc p3 switch-priority (-want +got):\n%s", d)
	}
	mtu := func(line, port string) any {
		ifs := showJSON(t, d, line).(map[string]any)
		return ifs[port].(map[string]any)["link"].(map[string]any)["mtu"]
	}
	for _, tc := range []struct {
		line, port string
		want       float64
	}{
		{"nv show interface -o json", "swp1", 9000 - 100},
		{"nv show interface -o json", "swp2", 9000},
		{"nv show interface --applied -o json", "swp1", 9000},
	} {
		if got := mtu(tc.line, tc.port); got != tc.want {
			t.Errorf("%s: %s MTU %v, want %v", tc.line, tc.port, got, tc.want)
		}
	}
	// The next apply is taken up: the fault fires once.
	for _, line := range []string{"nv set interface swp1 link mtu 9100", "nv config apply -y"} {
		sh.Exec(line)
	}
	if got := mtu("nv show interface -o json", "swp1"); got != float64(9100) {
		t.Errorf("after a second apply: swp1 MTU %v, want 9100", got)
	}
}
