package windows

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestTreeSitterParse parses every fixture script with the
// tree-sitter-powershell grammar (testdata/parse.mjs) when
// FABRICC_PS_PARSER names a directory where it is installed with npm; it
// is skipped otherwise. A broken script must fail the parse, so the test
// cannot pass vacuously.
func TestTreeSitterParse(t *testing.T) {
	dir := os.Getenv("FABRICC_PS_PARSER")
	node, err := exec.LookPath("node")
	if dir == "" || err != nil {
		t.Skip("set FABRICC_PS_PARSER to a directory with npm-installed tree-sitter-powershell and web-tree-sitter, and install node, to parse the scripts")
	}
	tmp := t.TempDir()
	tuned := fcNode1()
	tuned.Tuning = true
	// A routed host whose adapter alias holds quotes and a subexpression:
	// its Set-FabricRoute lines and kept list must parse.
	routed := workstation()
	routed.NICs[0].Interface = "Eth'; $(Remove-Item C:\\) #\u2019x"
	routed.NICs[0].Route = &model.NICRoute{Gateway: "10.20.0.1", Source: "10.20.0.10", Prefixes: []string{"10.30.0.0/16", "10.31.0.0/16"}}
	var files []string
	for _, h := range []model.Host{fcNode1(), workstation(), qlogicHost(), tuned, routed} {
		p := filepath.Join(tmp, h.Name+".ps1")
		if err := os.WriteFile(p, []byte(render(t, h)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	cf, ch := withCluster(fcNode1())
	p := filepath.Join(tmp, "cluster.ps1")
	if err := os.WriteFile(p, []byte(renderFabric(t, cf, ch)), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, p)
	script, _ := filepath.Abs("testdata/parse.mjs")
	run := func(paths ...string) ([]byte, error) {
		cmd := exec.Command(node, append([]string{script}, paths...)...)
		cmd.Env = append(os.Environ(), "FABRICC_PS_PARSER="+dir)
		return cmd.CombinedOutput()
	}
	if out, err := run(files...); err != nil {
		t.Errorf("parse errors: %v\n%s", err, out)
	}
	broken := filepath.Join(tmp, "broken.ps1")
	if err := os.WriteFile(broken, []byte("if ($true) {\n    Write-Host (1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run(broken); err == nil {
		t.Errorf("broken script parsed without error:\n%s", out)
	}
}
