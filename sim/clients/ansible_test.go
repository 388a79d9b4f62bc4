//go:build !race

package clients

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// networkOS is the ansible_network_os of each platform the collections
// cover (Cumulus has none in Debian's ansible: netmiko only).
var networkOS = map[model.Platform]string{model.PlatformEOS: "arista.eos.eos", model.PlatformOnyx: "mellanox.onyx.onyx"}

// inventory writes the Ansible inventory: one group per platform, every
// switch's fabricc_* variables from the model; passwords come from the
// environment. It returns the calls left out per switch.
func (l *lab) inventory(t *testing.T, python string) (string, map[string][]skipped) {
	t.Helper()
	groups := map[string]dict{}
	skips := map[string][]skipped{}
	for _, d := range l.Devices {
		sw := d.Switch
		nos, ok := networkOS[sw.Platform]
		if !ok {
			continue
		}
		var v hostVars
		switch sw.Platform {
		case model.PlatformEOS:
			cfg := filepath.Join(l.dir, sw.Name+".eos.cfg")
			if err := os.WriteFile(cfg, []byte(l.config(sw)), 0o600); err != nil {
				t.Fatal(err)
			}
			v = eosVars(l.f, sw, d, cfg)
			skips[sw.Name] = eosSkips(v)
		case model.PlatformOnyx:
			v, skips[sw.Name] = onyxVars(l.f, sw, d, l.config(sw))
		}
		host, port, _ := strings.Cut(d.Addr(), ":")
		v["ansible_host"], v["ansible_port"], v["ansible_network_os"] = host, port, nos
		g := string(sw.Platform)
		if groups[g] == nil {
			groups[g] = dict{"hosts": dict{}}
		}
		groups[g]["hosts"].(dict)[sw.Name] = v
	}
	all := dict{"vars": dict{
		"ansible_connection":         "ansible.netcommon.network_cli",
		"ansible_user":               "admin",
		"ansible_password":           "{{ lookup('env', 'FABRICC_LAB_PASSWORD_' + (inventory_hostname | regex_replace('[^A-Za-z0-9]', '_'))) }}",
		"ansible_become":             true,
		"ansible_become_method":      "enable",
		"ansible_python_interpreter": python,
	}, "children": groups}
	b, err := json.MarshalIndent(dict{"all": all}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(l.dir, "inventory.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, skips
}

// playbookResult is Ansible's JSON callback output.
type playbookResult struct {
	Plays []struct {
		Tasks []struct {
			Task struct {
				Name string `json:"name"`
			} `json:"task"`
			Hosts map[string]taskResult `json:"hosts"`
		} `json:"tasks"`
	} `json:"plays"`
}

type taskResult struct {
	Changed bool         `json:"changed"`
	Failed  bool         `json:"failed"`
	Skipped bool         `json:"skipped"`
	Msg     any          `json:"msg"`
	Results []taskResult `json:"results"`
	Stderr  string       `json:"module_stderr"`
}

// outcome is "ok", "changed", "failed: ..." or "skipped" for a task.
func (r taskResult) outcome() string {
	switch {
	case r.Skipped:
		return "skipped"
	case r.Failed:
		return fmt.Sprintf("failed: %v %s", r.Msg, firstLine(r.Stderr))
	case r.Changed:
		return "changed"
	}
	for _, item := range r.Results {
		if o := item.outcome(); o != "ok" && o != "skipped" {
			return o
		}
	}
	return "ok"
}

func firstLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// playbook runs a playbook of this folder against the lab.
func (l *lab) playbook(t *testing.T, tools clientTools, inv, name string, check bool, extra ...string) playbookResult {
	t.Helper()
	args := []string{"-i", inv, "-f", "8", name}
	if check {
		args = append(args, "--check")
	}
	for _, e := range extra {
		args = append(args, "-e", e)
	}
	out := l.command(t, "ansible-playbook "+name, tools.playbook, args...)
	var r playbookResult
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &r); err != nil {
		t.Fatalf("ansible-playbook %s: output is not the JSON callback's: %v\n%s", name, err, out)
	}
	return r
}

// checkAnsible runs site.yml in check mode: every call that applies to a
// switch must succeed and report changed: false; a call left out must
// be skipped, for the reason logged.
func (l *lab) checkAnsible(t *testing.T, tools clientTools) {
	t.Helper()
	inv, skips := l.inventory(t, tools.python)
	r := l.playbook(t, tools, inv, "site.yml", true)
	var rows []string
	defer func() {
		slices.Sort(rows)
		for _, r := range rows {
			t.Log(r)
		}
	}()
	for _, play := range r.Plays {
		for _, task := range play.Tasks {
			call := strings.Fields(task.Task.Name)[0]
			for host, res := range task.Hosts {
				d := l.device(host)
				got := res.outcome()
				want := "ok"
				if i := slices.IndexFunc(skips[host], func(s skipped) bool { return s.call == call }); i >= 0 {
					want = "skipped"
					rows = append(rows, fmt.Sprintf("| %s | %s %s (%s) | left out: %s |", call, d.Switch.Platform, d.Options.OSVersion, host, skips[host][i].reason))
				}
				if got != want {
					t.Errorf("%s on %s (%s %s): %s, want %s", task.Task.Name, host, d.Switch.Platform, d.Options.OSVersion, got, want)
				} else if want == "ok" && call == task.Task.Name {
					rows = append(rows, fmt.Sprintf("| %s | %s %s (%s) | ok, changed: false |", call, d.Switch.Platform, d.Options.OSVersion, host))
				}
			}
		}
	}
}
