package cumulus

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

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

// TestHeaderRevID: the header of `nv config show` prints rev-id as the
// number 1.0, as the NVUE Command Reference, Config Commands, `nv config
// show` example (Cumulus Linux 5.7.0) prints it:
//
//	header:
//	   model: VX
//	   nvue-api-version: nvue_v1
//	   rev-id: 1.0
//	   version: Cumulus Linux 5.7.0
//
// unquoted, so a YAML float and a JSON number, not the string "1.0".
func TestHeaderRevID(t *testing.T) {
	d := New(cli.Options{Name: "leaf1", Model: "SN2700", Version: "5.7.0"})
	sh := d.NewShell(cli.Session{User: "cumulus"})
	if out := sh.Exec("nv config show").Out; !strings.Contains(out, "\n    rev-id: 1.0\n") {
		t.Errorf("nv config show: no unquoted \"rev-id: 1.0\" in its header:\n%s", out)
	}
	if out := sh.Exec("nv config show -o json").Out; !strings.Contains(out, `"rev-id": 1.0,`) {
		t.Errorf("nv config show -o json: no number \"rev-id\": 1.0 in its header:\n%s", out)
	}
}

// TestHistoryRevID: `nv config history` gives each applied revision's
// rev_id as a string, as the `nv config history --output json` example
// in NVIDIA's switch tests (sonic-mgmt, ngts/nvos_tools/infra/
// OutputParsingTool.py, parse_config_history) prints it:
//
//	"apply-meta": {
//	  "method": "CLI",
//	  "reason": "Config update",
//	  "rev_id": "changeset/admin/2022-08-01_07.51.40_HN1G",
//	  "state_controls": {},
//	  "user": "admin"
//	},
//
// and the same ID `nv config apply` prints unquoted in "applied
// [rev_id: 2]" (NVUE Command Reference; NVIDIA Air tutorials) and that
// `nv config revision -o json` has as a key.
func TestHistoryRevID(t *testing.T) {
	d := New(cli.Options{Name: "leaf1", Model: "SN2700", Version: "5.9.2"})
	sh := d.NewShell(cli.Session{User: "cumulus"})
	sh.Exec("nv set system hostname leaf9")
	if out := sh.Exec("nv config apply -y -m fabricc").Out; out != "applied [rev_id: 2]" {
		t.Fatalf("nv config apply: %q, want \"applied [rev_id: 2]\"", out)
	}
	var history []struct {
		ApplyID string `json:"apply-id"`
		Meta    struct {
			RevID any    `json:"rev_id"`
			User  string `json:"user"`
		} `json:"apply-meta"`
		Date    string `json:"date"`
		Message string `json:"message"`
	}
	out := sh.Exec("nv config history -o json").Out
	if err := json.Unmarshal([]byte(out), &history); err != nil || len(history) != 2 {
		t.Fatalf("nv config history -o json: %v, %d entries, want 2:\n%s", err, len(history), out)
	}
	last := history[1]
	if last.Meta.RevID != "2" || last.ApplyID != "rev_2_apply_1" || last.Meta.User != "cumulus" || last.Message != "fabricc" {
		t.Errorf("nv config history -o json, last entry: %+v, want rev_id \"2\" (a string), apply-id rev_2_apply_1, user cumulus, message fabricc", last)
	}
	if _, err := time.Parse(time.RFC3339, last.Date); err != nil {
		t.Errorf("nv config history date %q: %v", last.Date, err)
	}
	if yaml := sh.Exec("nv config history").Out; !strings.Contains(yaml, "    rev_id: \"2\"\n") {
		t.Errorf("nv config history: no quoted rev_id \"2\":\n%s", yaml)
	}
	if _, ok := showJSON(t, d, "nv config revision -o json").(map[string]any)["2"]; !ok {
		t.Errorf("nv config revision -o json has no key \"2\"")
	}
}
