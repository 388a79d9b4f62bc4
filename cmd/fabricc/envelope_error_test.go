package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/sim"
)

// envelopeHead is the part of the --json envelope a pipeline alerts on.
type envelopeHead struct {
	OK          bool   `json:"ok"`
	Errors      int    `json:"errors"`
	Error       string `json:"error"`
	Diagnostics []struct {
		Severity, Summary string
	} `json:"diagnostics"`
}

// decodeHead decodes stdout's envelope.
func decodeHead(t *testing.T, stdout string) envelopeHead {
	t.Helper()
	var env envelopeHead
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	return env
}

// unreachable rewrites the inventory entry of name in the lab's
// inventory at inv to port 1 of 127.0.0.1, where nothing listens.
func unreachable(t *testing.T, inv, name string) {
	t.Helper()
	data, err := os.ReadFile(inv)
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)device "` + name + `" \{.*?\n\}`).FindString(string(data))
	if block == "" {
		t.Fatalf("no %s in the lab inventory", name)
	}
	moved := regexp.MustCompile(`(?m)^(  port\s*=\s*)\d+$`).ReplaceAllString(block, "${1}1")
	if err := os.WriteFile(inv, []byte(strings.Replace(string(data), block, moved, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestEnvelopeErrorNamesUncheckedSwitches: a
// verify that could not read a switch, and a push that failed, exit 1
// and say why in the --json envelope's error, naming each switch with
// its status and error ("a switch that cannot be reached",
// docs/json.md); drift alone (exit 2) and a clean run leave it out.
// Before, both said ok false, errors 0 and no error, as drift does.
func TestEnvelopeErrorNamesUncheckedSwitches(t *testing.T) {
	dir, _ := labWith(t, func(o *sim.Options) {
		if o.Name == "spine2" {
			o.Faults.Stage = &sim.StageFault{At: regexp.MustCompile(`^ *mtu 9214`), Kind: sim.FaultReject}
		}
	})
	inv := filepath.Join(dir, "inventory.hcl")
	unreach := filepath.Join(dir, "unreach.hcl")
	data, _ := os.ReadFile(inv)
	writeFile(t, unreach, string(data))
	unreachable(t, unreach, "leaf1")

	code, stdout, stderr := fabricc(t, "verify", clos, "-i", unreach, "--json")
	env := decodeHead(t, stdout)
	want := `1 of 6 devices could not be checked: leaf1 (failed: connect leaf1 (127.0.0.1:1): ssh admin@127.0.0.1:1: dial tcp 127.0.0.1:1: connect: connection refused)`
	if code != 1 || env.OK || env.Errors != 0 || env.Error != want {
		t.Errorf("verify, leaf1 unreachable: exit %d, ok %v, errors %d, error\n%q\nwant exit 1, error\n%q\n%s", code, env.OK, env.Errors, env.Error, want, stderr)
	}

	// Drift alone: every switch read, none pushed yet.
	code, stdout, stderr = fabricc(t, "verify", clos, "-i", inv, "--json")
	if env = decodeHead(t, stdout); code != 2 || env.OK || env.Errors != 0 || env.Error != "" {
		t.Errorf("verify, drift: exit %d, ok %v, errors %d, error %q; want 2 and no error\n%s", code, env.OK, env.Errors, env.Error, stderr)
	}

	code, stdout, stderr = fabricc(t, "push", "--yes", clos, "-i", inv, "--json")
	env = decodeHead(t, stdout)
	want = `6 of 6 devices were not pushed: spine2 (failed: staging: device refused "mtu 9214": % Invalid input (at token 0: 'mtu')); ` +
		`leaf1, leaf2, leaf3, leaf4, spine1 (aborted: not applied, all or nothing: spine2 failed)`
	if code != 1 || env.OK || env.Errors != 0 || env.Error != want {
		t.Errorf("push, spine2 refuses: exit %d, ok %v, errors %d, error\n%q\nwant exit 1, error\n%q\n%s", code, env.OK, env.Errors, env.Error, want, stderr)
	}
}
