package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestJinja2PeerWritesFabriccEOS keeps the benchmark's peer baseline
// honest: bench/peer's Jinja2 template must write, byte for byte, the EOS
// configuration fabricc writes for the benchmark fabric's switches
// (render.py compares every file and exits 1 naming the first that
// differs). An EOS output change without the template's left `make bench`
// failing with no test to say so. Skipped without python3 and Jinja2.
func TestJinja2PeerWritesFabriccEOS(t *testing.T) {
	if err := exec.Command("python3", "-c", "import jinja2").Run(); err != nil {
		t.Skip("python3 with jinja2 is not installed")
	}
	dir := t.TempDir()
	out, peer := filepath.Join(dir, "build"), filepath.Join(dir, "peer")
	if code, _, stderr := fabricc(t, "build", "../../bench/fabric", "-o", out, "--large", "-var", "switches=64"); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	if err := os.Mkdir(peer, 0o755); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("python3", "../../bench/peer/render.py", out, peer).CombinedOutput(); err != nil {
		t.Errorf("the Jinja2 peer does not write fabricc's EOS text: %v\n%s", err, b)
	}
}
