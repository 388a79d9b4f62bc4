package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestModelsDoc keeps docs/models.md equal to `fabricc models
// --markdown`, so the documented list is the hardware table.
func TestModelsDoc(t *testing.T) {
	code, got, stderr := fabricc(t, "models", "--markdown")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc := filepath.Join("..", "..", "docs", "models.md")
	if *update {
		if err := os.WriteFile(doc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(doc)
	if err != nil {
		t.Fatalf("%v: run go test ./cmd/fabricc -run TestModelsDoc -update", err)
	}
	if d := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); d != "" {
		t.Errorf("docs/models.md is out of date; run go test ./cmd/fabricc -run TestModelsDoc -update (-file +generated):\n%s", d)
	}
}

// TestModelsDocTables: every row of every table in the generated
// docs/models.md has as many cells as its header, so GitHub shows every
// column (an unescaped "|" inside a cell would end it).
func TestModelsDocTables(t *testing.T) {
	_, doc, _ := fabricc(t, "models", "--markdown")
	cells := func(row string) int { return len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(row, -1)) }
	header := 0
	for i, line := range strings.Split(doc, "\n") {
		switch {
		case !strings.HasPrefix(line, "|"):
			header = 0
		case header == 0:
			header = cells(line)
		case cells(line) != header:
			t.Errorf("line %d has %d cell borders, its table's header %d: %s", i+1, cells(line), header, line)
		}
	}
}

func TestModelsText(t *testing.T) {
	code, out, _ := fabricc(t, "models")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"SN5600          Spectrum-4  160 MB (158229504 B usable)  192 B  cumulus               1-64   OSFP 8x100G      10G/1 25G/1 40G/4 50G/1 100G/1 200G/2 400G/4 800G/8  cumulus swp1-64\n",
		// The datasheet total and, where SONiC gives it, the usable part.
		"SN2700          Spectrum    16 MB (13945824 B usable)    96 B   onyx, cumulus ",
		"SN4700          Spectrum-3  64 MB (60817392 B usable)    144 B  onyx, cumulus         1-32   QSFP-DD 8x50G    10G/1 25G/1 40G/4 50G/1 100G/2 200G/4 400G/8         cumulus swp1-32, onyx 1/1-1/32\n",
		"ConnectX-6 Dx   mellanox  10G 25G 40G 50G 100G 200G",
		"eos       4.32.2F  ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("models lacks %q:\n%s", want, out)
		}
	}
}

func TestModelsJSON(t *testing.T) {
	code, out, _ := fabricc(t, "models", "--json")
	var env struct {
		Command string `json:"command"`
		Result  struct {
			Switches []struct {
				Name      string
				Platforms []string
				Ports     []struct {
					Cage   string
					Lanes  int
					Speeds []struct {
						Speed string
						Lanes int
					}
				}
			}
			NICs []struct{ Name string }
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s", code, err, out)
	}
	if env.Command != "models" || len(env.Result.Switches) != 35 || len(env.Result.NICs) != 8 {
		t.Fatalf("envelope: %s %d switches %d NICs", env.Command, len(env.Result.Switches), len(env.Result.NICs))
	}
	for _, s := range env.Result.Switches {
		if s.Name == "SN5400" {
			last := s.Ports[0].Speeds[len(s.Ports[0].Speeds)-1]
			if s.Ports[0].Cage != "QSFP112" || last.Speed != "400G" || last.Lanes != 4 || strings.Join(s.Platforms, ",") != "cumulus" {
				t.Errorf("SN5400: %+v", s)
			}
		}
	}
}
