//go:build !race

package clients

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
)

// netmikoJob is one switch for netmiko_check.py.
type netmikoJob struct {
	Name        string   `json:"name"`
	DeviceType  string   `json:"device_type"`
	Host        string   `json:"host"`
	Port        int      `json:"port"`
	Username    string   `json:"username"`
	PasswordEnv string   `json:"password_env"`
	Sudo        bool     `json:"sudo"`
	Commands    []string `json:"commands"`
	Config      []string `json:"config"`
	// expect maps a call to a text its output must hold.
	expect map[string]string
}

// netmikoCall is one call's outcome as netmiko_check.py prints it.
type netmikoCall struct {
	Switch string `json:"switch"`
	Call   string `json:"call"`
	OK     bool   `json:"ok"`
	Output string `json:"output"`
	Error  string `json:"error"`
}

// deviceTypes are netmiko's device types (netmiko 2.4 has no Cumulus
// type; a Cumulus switch is a Linux host, whose configuration mode is
// `sudo su`).
var deviceTypes = map[model.Platform]string{model.PlatformEOS: "arista_eos", model.PlatformOnyx: "mellanox_mlnxos", model.PlatformCumulus: "linux"}

// netmikoJobs are the calls fabricc's intent implies for every switch:
// read the version and the first port, and send a line that sets that
// port's intended MTU again (no change) in configuration mode.
func (l *lab) netmikoJobs() []netmikoJob {
	var jobs []netmikoJob
	for _, d := range l.Devices {
		sw := d.Switch
		p := sw.Ports[0]
		mtu := verify.Expect(l.f, sw).Ports[p.Name].MTU
		j := netmikoJob{Name: sw.Name, DeviceType: deviceTypes[sw.Platform], Username: "admin", PasswordEnv: passwordEnv(sw.Name)}
		host, port, _ := strings.Cut(d.Addr(), ":")
		j.Host = host
		fmt.Sscan(port, &j.Port)
		switch sw.Platform {
		case model.PlatformEOS:
			j.Commands = []string{"show version", "show interfaces " + p.Name + " | json", "show running-config | section ^interface " + p.Name + "$"}
			j.Config = []string{"interface " + p.Name, fmt.Sprintf("mtu %d", mtu)}
			j.expect = map[string]string{j.call(0): "Software image version: " + d.Options.OSVersion,
				j.call(1): fmt.Sprintf(`"mtu": %d`, mtu), j.call(2): "interface " + p.Name + "\n", "send_config_set": fmt.Sprintf("mtu %d", mtu)}
		case model.PlatformOnyx:
			j.Commands = []string{"show version", "show interfaces ethernet " + p.Name + " | json-print", "show interfaces ethernet " + p.Name + " | include MTU"}
			j.Config = []string{fmt.Sprintf("interface ethernet %s mtu %d force", p.Name, mtu)}
			j.expect = map[string]string{j.call(0): "Product release:   " + d.Options.OSVersion,
				j.call(1): fmt.Sprintf(`"MTU": "%d bytes`, mtu), j.call(2): fmt.Sprintf("%d bytes", mtu), "send_config_set": "(config) #"}
		case model.PlatformCumulus:
			j.Sudo = true
			j.Commands = []string{"nv show interface " + p.Name + " -o json", "nv show system -o json"}
			j.Config = []string{fmt.Sprintf("nv set interface %s link mtu %d", p.Name, mtu), "nv config apply -y"}
			j.expect = map[string]string{j.call(0): fmt.Sprintf(`"mtu": %d`, mtu), j.call(1): `"hostname": "` + sw.Name + `"`, "send_config_set": "root@" + sw.Name}
		}
		jobs = append(jobs, j)
	}
	return jobs
}

func (j netmikoJob) call(i int) string { return "send_command " + j.Commands[i] }

// netmiko runs netmiko_check.py on jobs.
func (l *lab) netmiko(t *testing.T, tools clientTools, jobs []netmikoJob) []netmikoCall {
	t.Helper()
	b, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(l.dir, "netmiko.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out := l.command(t, "netmiko", tools.python, "netmiko_check.py", path, l.KnownHosts())
	var calls []netmikoCall
	if err := json.Unmarshal([]byte(out), &calls); err != nil {
		t.Fatalf("netmiko_check.py: %v\n%s", err, out)
	}
	return calls
}

// checkNetmiko runs the netmiko calls: each must succeed, and its output
// must show what the switch is meant to be.
func (l *lab) checkNetmiko(t *testing.T, tools clientTools) {
	t.Helper()
	jobs := l.netmikoJobs()
	calls := l.netmiko(t, tools, jobs)
	byName := map[string]netmikoJob{}
	for _, j := range jobs {
		byName[j.Name] = j
	}
	seen := map[string]int{}
	for _, c := range calls {
		seen[c.Switch]++
		d := l.device(c.Switch)
		want := byName[c.Switch].expect[c.Call]
		switch {
		case !c.OK:
			t.Errorf("netmiko %s on %s (%s): %s", c.Call, c.Switch, d.Switch.Platform, c.Error)
		case !strings.Contains(c.Output, want):
			t.Errorf("netmiko %s on %s: output lacks %q:\n%s", c.Call, c.Switch, want, c.Output)
		case strings.Contains(c.Output, "% ") || strings.Contains(c.Output, "Error:"):
			t.Errorf("netmiko %s on %s: the switch refused something:\n%s", c.Call, c.Switch, c.Output)
		}
	}
	for _, j := range jobs {
		// connect, enable, the commands, send_config_set, disconnect
		if want := len(j.Commands) + 4; seen[j.Name] != want {
			t.Errorf("netmiko ran %d calls on %s, want %d", seen[j.Name], j.Name, want)
		}
	}
}
