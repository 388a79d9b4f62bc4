package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cablingPlan is the tutorial's cabling as a spreadsheet exports it.
const cablingPlan = "switch,port,host,nic,length_m\nleaf1,swp1,node1,roce0,2\nleaf1,swp2,node2,roce0,3\n"

// csvTutorial is the tutorial's fabric with its links read from
// cabling.csv (csvdecode(file(...)) driving a dynamic block).
func csvTutorial(t *testing.T) string {
	t.Helper()
	text := readFile(t, filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	return text[:strings.Index(text, "# One block per cable")] + `locals {
  cabling = csvdecode(file("cabling.csv"))
}

dynamic "link" {
  for_each = local.cabling
  content {
    a      = "${link.value.switch}:${link.value.port}"
    b      = "${link.value.host}:${link.value.nic}"
    length = tonumber(link.value.length_m)
  }
}
`
}

// writeCSVTutorial writes csvTutorial's text and a cabling plan into dir.
func writeCSVTutorial(t *testing.T, dir, text, plan string) {
	t.Helper()
	writeFabric(t, dir, text)
	writeFile(t, filepath.Join(dir, "cabling.csv"), plan)
}

// TestPushRefusesAStaleBuildOfACablingPlan: a build records the cabling
// plan the fabric read (manifest.json's data_files, in sources_sha256),
// and push refuses the build once cabling.csv changed, as it does for a
// .hcl change (TestPushRefusesAStaleBuild).
func TestPushRefusesAStaleBuildOfACablingPlan(t *testing.T) {
	text := csvTutorial(t)
	t.Chdir(t.TempDir())
	writeCSVTutorial(t, "fab", text, cablingPlan)
	inv := "defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\ndevice \"leaf1\" {\n  address = \"127.0.0.1\"\n  port    = 1\n}\n"
	writeFile(t, "inv.hcl", inv)
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	manifest, err := os.ReadFile(filepath.Join("out", "manifest.json"))
	if err != nil || !strings.Contains(string(manifest), "\"data_files\": [\n      \"cabling.csv\"\n    ]") {
		t.Errorf("manifest.json does not record cabling.csv (%v):\n%s", err, manifest)
	}
	if _, _, stderr := fabricc(t, "push", "--yes", "--artifacts", "out", "-i", "inv.hcl"); strings.Contains(stderr, "older than its fabric") {
		t.Errorf("a current build called stale:\n%s", stderr)
	}
	writeFile(t, filepath.Join("fab", "cabling.csv"), strings.Replace(cablingPlan, ",3\n", ",30\n", 1))
	msg := "out is older than its fabric fab: the fabric's files changed since the build (manifest.json records their SHA-256), so pushing it would take back on the switches what changed since"
	code, _, stderr := fabricc(t, "push", "--yes", "--artifacts", "out", "-i", "inv.hcl")
	if want := "fabricc: " + msg + "; build it again (fabricc build fab -o out), or give --stale to push this build as it is (to go back to it on purpose)\n"; code != 1 || stderr != want {
		t.Errorf("push of a stale build: exit %d\n%s\nwant\n%s", code, stderr, want)
	}
}

// TestBuildFollowsTheCablingPlan: building again into the same folder
// after only cabling.csv changed rewrites the switch the cable reaches
// (its fingerprint follows the model), as a fresh build writes it.
func TestBuildFollowsTheCablingPlan(t *testing.T) {
	text := csvTutorial(t)
	t.Chdir(t.TempDir())
	writeCSVTutorial(t, "fab", text, cablingPlan)
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	conf := filepath.Join("leaf1", "leaf1.nvue.yaml")
	before := readFile(t, filepath.Join("out", conf))
	writeFile(t, filepath.Join("fab", "cabling.csv"), strings.Replace(cablingPlan, ",3\n", ",30\n", 1))
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("second build: %s", stderr)
	}
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "fresh"); code != 0 {
		t.Fatalf("fresh build: %s", stderr)
	}
	after, fresh := readFile(t, filepath.Join("out", conf)), readFile(t, filepath.Join("fresh", conf))
	if after == before || after != fresh {
		t.Errorf("the kept build's %s did not follow cabling.csv (changed: %v, as a fresh build: %v)", conf, after != before, after == fresh)
	}
}

// TestPlanBaseCablingPlan: plan --base REV between two revisions that
// differ only in cabling.csv shows the cable's change, for a fabric
// folder and a single .hcl file (whose folder comes with it).
func TestPlanBaseCablingPlan(t *testing.T) {
	repo := t.TempDir()
	fabric := filepath.Join(repo, "net")
	writeCSVTutorial(t, fabric, csvTutorial(t), cablingPlan)
	gitRun(t, repo, "init", "-q")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	writeFile(t, filepath.Join(fabric, "cabling.csv"), strings.Replace(cablingPlan, ",3\n", ",30\n", 1))
	gitRun(t, repo, "commit", "-q", "-a", "-m", "longer cable")
	for _, path := range []string{fabric, filepath.Join(fabric, "fabric.hcl")} {
		code, out, errs := fabricc(t, "plan", "--base", "HEAD~1", path)
		if want := "  swp2: cable 3 m dac -> 30 m"; code != 2 || !strings.Contains(out, want) {
			t.Errorf("plan of %s: exit %d, want 2 and %q\n%s\n%s", path, code, want, out, errs)
		}
	}
}

// TestLanguageCablingExample builds the worked example of
// docs/language.md ("A cabling plan from a spreadsheet"): its CSV, its
// template and its HCL, with the tutorial's switch and hosts.
func TestLanguageCablingExample(t *testing.T) {
	doc := readFile(t, filepath.Join("..", "..", "docs", "language.md"))
	start := strings.Index(doc, "### A cabling plan from a spreadsheet")
	if start < 0 {
		t.Fatal("docs/language.md has no section \"A cabling plan from a spreadsheet\"")
	}
	section := doc[start:]
	section = section[:strings.Index(section, "\n## ")]
	csv := regexp.MustCompile("(?s)```csv\n(.*?)```").FindStringSubmatch(section)
	hcl := hclBlock.FindStringSubmatch(section)
	tmpl := regexp.MustCompile("holding\n`([^`]+)`").FindStringSubmatch(section)
	if csv == nil || hcl == nil || tmpl == nil {
		t.Fatalf("the section lacks its CSV, HCL or template:\n%s", section)
	}
	tutorial := readFile(t, filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	devices := tutorial[strings.Index(tutorial, "qos {"):strings.Index(tutorial, "# One block per cable")]
	dir := t.TempDir()
	writeFabric(t, dir, hcl[1]+"\n"+devices)
	writeFile(t, filepath.Join(dir, "cabling.csv"), csv[1])
	writeFile(t, filepath.Join(dir, "description.tmpl"), tmpl[1])
	code, out, errs := fabricc(t, "validate", dir)
	if want := "ok: fabric \"tutorial\": 1 switch, 2 hosts, 2 links\n"; code != 0 || errs != want {
		t.Fatalf("validate: exit %d\n%s%s\nwant\n%s", code, out, errs, want)
	}
	out = filepath.Join(t.TempDir(), "out")
	if code, _, errs := fabricc(t, "build", dir, "-o", out); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	if want := `"description": "pod1: 2 cables from the cabling plan"`; !strings.Contains(readFile(t, filepath.Join(out, "model.json")), want) {
		t.Errorf("model.json lacks %s", want)
	}
	// fmt leaves the fabric and its files as they are.
	if code, _, stderr := fabricc(t, "fmt", "--check", dir); code != 0 {
		t.Errorf("fmt --check: exit %d\n%s", code, stderr)
	}
}
