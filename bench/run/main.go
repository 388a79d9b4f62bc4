//go:build linux

// Command run is `make bench`: it measures fabricc on the generated
// benchmark fabric (bench/fabric) and prints one table. See
// bench/README.md for what each row means. It runs on Linux only: it
// reads peak memory, inodes, the machine and the disk the Linux way.
//
//	go run ./bench/run -fabricc bin/fabricc -floor bin/floor [-large] [-work DIR]
package main

import (
	"bufio"
	"cmp"
	"context"
	"debug/buildinfo"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
	"github.com/fabricc/fabricc/targets/eos"
)

// flags of the run.
var (
	fabricc       = flag.String("fabricc", "bin/fabricc", "the fabricc binary to measure")
	floor         = flag.String("floor", "bin/floor", "the floor binary (bench/floor)")
	large         = flag.Bool("large", os.Getenv("BENCH_LARGE") != "", "also measure the 4,096-switch fabric (BENCH_LARGE=1)")
	work          = flag.String("work", "", "scratch folder (default: a new temporary folder, removed at the end)")
	python        = flag.String("python", "/usr/bin/python3", "the Python with Debian's python3-jinja2")
	latency       = flag.Duration("latency", 10*time.Millisecond, "per-command latency of the simulated switches")
	fabric        = flag.String("fabric", "bench/fabric", "the benchmark fabric")
	only          = flag.String("only", "", "run only \"sizes\" (validate, build, floor, peer, incremental), \"push\" or \"costs\" (what each kind of file costs, README's table)")
	costsSwitches = flag.Int("costs-switches", 512, "the fabric size -only costs builds")
)

// table collects the rows of the one table the run prints.
type table struct{ rows [][]string }

// add appends a row: what was measured, the fabric size, and the figures.
func (t *table) add(cells ...string) {
	t.rows = append(t.rows, cells)
	fmt.Fprintln(os.Stderr, "bench:", strings.Join(cells, " | "))
}

// print writes the table as Markdown.
func (t *table) print() {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 1, ' ', tabwriter.Debug)
	fmt.Fprintln(w, "| what\t size\t wall s\t peak RSS MB\t phases s\t files\t MB written\t ms/device\t vs\t")
	fmt.Fprintln(w, "|---\t---\t---\t---\t---\t---\t---\t---\t---\t")
	for _, r := range t.rows {
		fmt.Fprintln(w, "| "+strings.Join(r, "\t ")+"\t")
	}
	w.Flush()
}

// run is one child process's outcome.
type run struct {
	wall   time.Duration
	rssMB  float64
	stdout string
	stderr string
}

// measure runs a command and returns its wall time and peak RSS.
func measure(env []string, name string, args ...string) (run, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := run{wall: time.Since(start), stdout: out.String(), stderr: errb.String()}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.rssMB = float64(ru.Maxrss) / 1024
		}
	}
	if err != nil {
		return r, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(r.stderr))
	}
	return r, nil
}

// tail is the end of a long output.
func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// timings parses the FABRICC_TIMINGS line.
func timings(stderr string) map[string]float64 {
	out := map[string]float64{}
	for _, line := range strings.Split(stderr, "\n") {
		rest, ok := strings.CutPrefix(line, "timings: ")
		if !ok {
			continue
		}
		for _, kv := range strings.Fields(rest) {
			k, v, _ := strings.Cut(kv, "=")
			out[k], _ = strconv.ParseFloat(v, 64)
		}
	}
	return out
}

func main() {
	started := time.Now()
	flag.Parse()
	dir := *work
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "fabricc-bench-"); err != nil {
			fail(err)
		}
		scratch = dir
		defer os.RemoveAll(dir)
	}
	if *only == "costs" {
		costs(dir, *costsSwitches)
		return
	}
	sizes := []int{64, 512}
	if *large {
		sizes = append(sizes, 4096)
	}
	t := &table{}
	if *only != "push" {
		var last string
		var lastBuild, lastValidate time.Duration
		var litter []string
		var bytesPerSwitch float64
		for _, n := range sizes {
			checkDisk(dir, n, bytesPerSwitch)
			out, took, validated, others, written := benchSize(t, dir, n)
			removeBuilds(append(litter, last)...)
			last, lastBuild, lastValidate, litter = out, took, validated, others
			bytesPerSwitch = written / float64(n)
		}
		// The largest size's other folders go only after the rebuilds:
		// their gigabytes, freed right before them, are discarded (the
		// file system is mounted with discard) while they run, and made
		// the first rebuild take 49 s instead of 30 s in one run.
		incremental(t, last, sizes[len(sizes)-1], lastBuild)
		readers(t, dir, last, sizes[len(sizes)-1], lastValidate)
		removeBuilds(append(litter, last)...)
	}
	if *only != "sizes" {
		pushBench(t, dir)
	}
	t.print()
	fmt.Printf("\nmachine: %s; %s; %s; the run took %s\n", machine(), version(), time.Now().UTC().Format("2006-01-02"), time.Since(started).Round(time.Second))
}

// removeBuilds removes folders and what fabricc keeps beside a build
// folder (the previous build and the fingerprints).
func removeBuilds(dirs ...string) {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		os.RemoveAll(d)
		for _, beside := range []string{".prev", ".fingerprints"} {
			os.RemoveAll(filepath.Join(filepath.Dir(d), "."+filepath.Base(d)+beside))
		}
	}
}

// scratch is the temporary folder this run made, if it made one: fail
// removes it, since os.Exit skips main's deferred RemoveAll and a failed
// 4,096-switch run would otherwise leave tens of gigabytes behind.
var scratch string

// fail stops the run.
func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	if scratch != "" {
		os.RemoveAll(scratch)
	}
	os.Exit(1)
}

// copiesPerSize is how many build-sized folders one size keeps at once:
// two builds and two floors (benchSize), while the previous size's are
// still on the disk.
const copiesPerSize = 4

// checkDisk stops the run before size n when the scratch folder's file
// system cannot hold its copies, estimated from the bytes per switch of
// the size before (0 for the first size: nothing to go on), with a
// tenth to spare. Without it a 4,096-switch run fills the disk ten
// minutes in and fails in the middle of a build.
func checkDisk(dir string, n int, bytesPerSwitch float64) {
	if bytesPerSwitch == 0 {
		return
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		fail(err)
	}
	free := float64(st.Bavail) * float64(st.Bsize)
	need := copiesPerSize * bytesPerSwitch * float64(n) * 1.1
	if free < need {
		fail(fmt.Errorf("the %d-switch fabric needs about %.0f GB free in %s (%d copies of a %.1f GB build), and %.0f GB are: free space there or give another folder with -work (or TMPDIR)",
			n, need/1e9, dir, copiesPerSize, bytesPerSwitch*float64(n)/1e9, free/1e9))
	}
}

// vars are the variables of size n.
func vars(n int) []string { return []string{"--large", "-var", "switches=" + strconv.Itoa(n)} }

// benchSize measures validate, build, the floor and the peer for one
// size and returns the build folder, the build's and validate's wall
// times, the other folders it wrote (the floors' and the second
// build's), which the caller removes, and the bytes one build wrote.
func benchSize(t *table, dir string, n int) (string, time.Duration, time.Duration, []string, float64) {
	sz := strconv.Itoa(n)
	env := []string{"FABRICC_TIMINGS=1"}
	v, spread := medianValidate(env, n)
	devices := countDevices(v.stderr)
	tv := timings(v.stderr)
	t.add("validate", sz, secs(v.wall), mb(v.rssMB), fmt.Sprintf("parse %.2f, evaluate %.1f, compile %.1f; median of %d runs, %s", tv["parse"]/1000, tv["evaluate"]/1000, tv["compile"]/1000, validateRuns, spread),
		"", "", perDevice(v.wall, devices), "")
	plainRow(t, dir, n, v.wall)

	// Two pairs of build and floor, the second the other way round: one
	// pair moves by a fifth or more from one minute to the next on this
	// shared disk, and neither side should always run on the disk the
	// other just left. The build row shows the first build's phases.
	out := filepath.Join(dir, "build-"+sz)
	b, tb := buildInto(env, out, n)
	fl := filepath.Join(dir, "floor-"+sz)
	floorSecs := floorInto(out, fl)
	fl2 := filepath.Join(dir, "floor-"+sz+"-2")
	floorSecs2 := floorInto(out, fl2)
	out2 := filepath.Join(dir, "build-"+sz+"-2")
	b2, _ := buildInto(env, out2, n)
	// render and write are summed over the goroutines that did them.
	phases := fmt.Sprintf("parse %.2f, evaluate %.1f, compile %.1f, render %.1f, write %.1f (cpu, all cores), model.json %.1f, install %.1f; 2nd build (after its floor) %.1f s",
		tb["parse"]/1000, tb["evaluate"]/1000, tb["compile"]/1000, tb["render"]/1000, tb["write"]/1000, tb["model"]/1000, tb["install"]/1000, b2.wall.Seconds())
	t.add("build", sz, secs(b.wall), mb(b.rssMB), phases, fmt.Sprint(tb["files"]), fmt.Sprintf("%.0f", tb["bytes"]/1e6),
		perDevice(b.wall, devices), fmt.Sprintf("%.2fx floor; 2nd pair %.2fx", b.wall.Seconds()/floorSecs, b2.wall.Seconds()/floorSecs2))
	t.add("floor (bench/floor)", sz, fmt.Sprintf("%.1f", floorSecs), "", fmt.Sprintf("same files, sizes and modes; 2nd floor (before its build) %.1f s", floorSecs2), fmt.Sprint(tb["files"]),
		fmt.Sprintf("%.0f", tb["bytes"]/1e6), perDevice(time.Duration(floorSecs*float64(time.Second)), devices), "")
	if n <= 512 {
		peer(t, dir, out, sz, b.wall, devices)
	}
	return out, b.wall, v.wall, []string{fl, fl2, out2}, tb["bytes"]
}

// buildInto builds the benchmark fabric of size n into the new folder
// out, after a sync, and returns the run and its phase timings.
func buildInto(env []string, out string, n int) (run, map[string]float64) {
	os.RemoveAll(out)
	syncDisk()
	b, err := measure(env, *fabricc, append([]string{"build", *fabric, "-o", out}, vars(n)...)...)
	if err != nil {
		fail(err)
	}
	return b, timings(b.stderr)
}

// floorInto runs bench/floor for the build folder build into the new
// folder dst, after a sync, and returns the seconds it reports.
func floorInto(build, dst string) float64 {
	os.RemoveAll(dst)
	if err := os.Mkdir(dst, 0o755); err != nil {
		fail(err)
	}
	syncDisk()
	f, err := measure(nil, *floor, build, dst)
	if err != nil {
		fail(err)
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(f.stdout), 64)
	if err != nil {
		fail(fmt.Errorf("floor printed %q: %w", f.stdout, err))
	}
	return secs
}

// validateRuns is how many times each size is validated. One run moves
// by a tenth from one minute to the next on this shared machine (13.3
// and 14.8 s for the 4,096-switch fabric in two runs of the same day),
// more than a change to the front end often gains; the median of three
// is steadier, and the table gives the range beside it.
const validateRuns = 3

// medianValidate validates size n validateRuns times, each after a
// sync, and returns the run of median wall time and the range of all.
func medianValidate(env []string, n int) (run, string) {
	runs := make([]run, validateRuns)
	for i := range runs {
		syncDisk()
		r, err := measure(env, *fabricc, append([]string{"validate", *fabric}, vars(n)...)...)
		if err != nil {
			fail(err)
		}
		runs[i] = r
	}
	slices.SortFunc(runs, func(a, b run) int { return cmp.Compare(a.wall, b.wall) })
	return runs[len(runs)/2], fmt.Sprintf("%.2f-%.2f s", runs[0].wall.Seconds(), runs[len(runs)-1].wall.Seconds())
}

// countDevices reads the device count from validate's ok line.
func countDevices(stderr string) int {
	var sw, hosts int
	for _, line := range strings.Split(stderr, "\n") {
		if i := strings.Index(line, ": "); strings.HasPrefix(line, "ok: ") && i > 0 {
			fmt.Sscanf(line[strings.LastIndex(line, "\": ")+3:], "%d switches, %d hosts", &sw, &hosts)
		}
	}
	if sw+hosts == 0 {
		fail(fmt.Errorf("no device count in %q", stderr))
	}
	return sw + hosts
}

// peer renders the EOS switches of a build with Jinja2 (bench/peer) and
// with fabricc's EOS renderer from the same model.json. Reading
// model.json (every device of the fabric) is timed apart from rendering
// and writing the EOS switches' files.
func peer(t *table, dir, build, sz string, buildWall time.Duration, devices int) {
	out := filepath.Join(dir, "peer-"+sz)
	os.RemoveAll(out)
	os.Mkdir(out, 0o755)
	defer os.RemoveAll(out)
	p, err := measure(nil, *python, "bench/peer/render.py", build, out)
	if err != nil {
		fail(fmt.Errorf("the Jinja2 peer does not write fabricc's EOS text: %w", err))
	}
	var switches int
	var pyLoad, pyRender float64
	fmt.Sscanf(p.stdout, "%d %f %f", &switches, &pyLoad, &pyRender)
	goLoad, goRender, n := renderEOS(build, out)
	if n != switches {
		fail(fmt.Errorf("peer rendered %d EOS switches, fabricc %d", switches, n))
	}
	pyPer := pyRender * 1000 / float64(switches)
	goPer := goRender * 1000 / float64(switches)
	buildPer := buildWall.Seconds() * 1000 / float64(devices)
	t.add("peer: Jinja2 EOS from model.json", sz, fmt.Sprintf("%.2f", pyLoad+pyRender), mb(p.rssMB),
		fmt.Sprintf("json.load %.2f, render+write %.2f; same bytes", pyLoad, pyRender), fmt.Sprint(switches), "", fmt.Sprintf("%.2f", pyPer),
		fmt.Sprintf("%.1fx fabricc EOS, %.1fx fabricc build", pyPer/goPer, pyPer/buildPer))
	t.add("fabricc EOS from model.json", sz, fmt.Sprintf("%.2f", goLoad+goRender), "",
		fmt.Sprintf("json.Unmarshal %.2f, render+write %.2f", goLoad, goRender), fmt.Sprint(switches), "", fmt.Sprintf("%.3f", goPer), "")
}

// renderEOS loads model.json and writes every EOS switch's config with
// targets/eos, as the Jinja2 peer does, and returns the seconds loading
// and rendering took and the switches rendered.
func renderEOS(build, out string) (float64, float64, int) {
	start := time.Now()
	data, err := os.ReadFile(filepath.Join(build, "model.json"))
	if err != nil {
		fail(err)
	}
	f, err := model.Unmarshal(data)
	if err != nil {
		fail(err)
	}
	loaded := time.Now()
	n := 0
	for i := range f.Switches {
		sw := &f.Switches[i]
		if sw.Platform != model.PlatformEOS {
			continue
		}
		files, err := eos.Render(f, sw)
		if err != nil {
			fail(err)
		}
		for _, fl := range files {
			if err := os.WriteFile(filepath.Join(out, "go-"+fl.Name), fl.Data, 0o644); err != nil {
				fail(err)
			}
		}
		n++
	}
	return loaded.Sub(start).Seconds(), time.Since(loaded).Seconds(), n
}

// fileStamp is what an unchanged file keeps.
type fileStamp struct {
	mtime time.Time
	inode uint64
}

// stamps reads every file's modification time and inode below dir.
func stamps(dir string) map[string]fileStamp {
	out := map[string]fileStamp{}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		fi, err := e.Info()
		if err == nil {
			out[p] = fileStamp{fi.ModTime(), fi.Sys().(*syscall.Stat_t).Ino}
		}
		return nil
	})
	return out
}

// incremental recables one host NIC of the largest fabric and rebuilds
// into the same folder, twice: the first rebuild replaces a fresh build,
// so it links every kept file into a new folder; the second starts from
// the build the first one replaced, kept beside the folder, and touches
// only the names whose files changed.
func incremental(t *table, out string, n int, full time.Duration) {
	for i, step := range []struct {
		length int
		what   string
	}{{4, "incremental build (1 cable), after a fresh build"}, {5, "incremental build (1 cable), from the kept build"}} {
		r, tm, changed, kept := rebuild(out, n, step.length)
		if previous := tm["previous"] == 1; previous != (i == 1) {
			fail(fmt.Errorf("%s: fabricc says previous=%v", step.what, previous))
		}
		t.add(step.what, strconv.Itoa(n), secs(r.wall), mb(r.rssMB),
			fmt.Sprintf("parse %.2f, evaluate %.1f, compile %.1f, render %.1f, write+link %.1f (cpu, all cores), model.json %.1f, install %.1f; %.0f devices kept without rendering; %.0f kept files read back",
				tm["parse"]/1000, tm["evaluate"]/1000, tm["compile"]/1000, tm["render"]/1000, tm["write"]/1000, tm["model"]/1000, tm["install"]/1000, tm["kept"], tm["compared"]),
			fmt.Sprintf("%d rewritten, %d kept", changed, kept), "", "",
			fmt.Sprintf("%.2f of full build", r.wall.Seconds()/full.Seconds()))
	}
}

// rebuild builds the n-switch fabric into out with the first host's
// cable the given length, and counts the files with a new inode or
// modification time against those kept.
func rebuild(out string, n, length int) (run, map[string]float64, int, int) {
	varFile := filepath.Join(filepath.Dir(out), "recable.hcl")
	if err := os.WriteFile(varFile, []byte(fmt.Sprintf("cable_overrides = { \"h0000-00:roce0\" = %d }\n", length)), 0o644); err != nil {
		fail(err)
	}
	before := stamps(out)
	syncDisk()
	r, err := measure([]string{"FABRICC_TIMINGS=1"}, *fabricc, append([]string{"build", *fabric, "-o", out, "--var-file", varFile}, vars(n)...)...)
	if err != nil {
		fail(err)
	}
	after := stamps(out)
	changed := 0
	for p, a := range after {
		if b, ok := before[p]; !ok || a != b {
			changed++
		}
	}
	tm := timings(r.stderr)
	if int(tm["written"]) != changed {
		fail(fmt.Errorf("incremental build says it wrote %v files, but %d files have a new inode or mtime", tm["written"], changed))
	}
	return r, tm, changed, len(after) - changed
}

// readers measures the commands that read a large build folder rather
// than write one: plan against it (one cable changed), which compiles
// the fabric and reads model.json, and push --artifacts of it to one
// simulated switch, which checks the SHA-256 of every file it lists and
// reads model.json. Both are compared with validate, which compiles the
// fabric alone.
func readers(t *table, dir, out string, n int, validate time.Duration) {
	sz := strconv.Itoa(n)
	varFile := filepath.Join(filepath.Dir(out), "replan.hcl")
	if err := os.WriteFile(varFile, []byte("cable_overrides = { \"h0000-00:roce0\" = 6 }\n"), 0o644); err != nil {
		fail(err)
	}
	syncDisk()
	p, err := measure(nil, *fabricc, append([]string{"plan", *fabric, "--base", out, "--var-file", varFile}, vars(n)...)...)
	// Exit status 2: the plan has changes, as it must here.
	if err == nil || !strings.Contains(p.stdout, "2 devices change") {
		fail(fmt.Errorf("plan of one recabled NIC: %v\n%s", err, tail(p.stdout)))
	}
	t.add("plan (1 cable) against the build folder", sz, secs(p.wall), mb(p.rssMB), "compiles the fabric while reading model.json; 2 devices change", "", "", "",
		fmt.Sprintf("%.1fx validate", p.wall.Seconds()/validate.Seconds()))

	f, err := model.Decode(openBuf(filepath.Join(out, "model.json")))
	if err != nil {
		fail(err)
	}
	var leaf []model.Switch
	for _, sw := range f.Switches {
		if sw.Platform == model.PlatformEOS {
			leaf = append(leaf, sw)
			break
		}
	}
	syncDisk()
	r := pushOnce(dir, out, withSwitches(f, leaf), 1, 0)
	t.add("push --artifacts of the build, to 1 switch", sz, secs(r.wall), mb(r.rssMB), "checks the SHA-256 of every listed file, reads model.json and the switch configurations; one EOS leaf, no command latency", "", "", "",
		fmt.Sprintf("%.1fx validate", r.wall.Seconds()/validate.Seconds()))
}

// openBuf opens a file for buffered reading.
func openBuf(p string) io.Reader {
	f, err := os.Open(p)
	if err != nil {
		fail(err)
	}
	return bufio.NewReaderSize(f, 1<<20)
}

// pushBench pushes to simulated switches with a fixed per-command
// latency: N switches at --parallel P against the ideal, one device alone
// times ceil(N/P). The N are EOS leaves of one fabric (every leaf alike,
// as the ideal assumes; pushes of other platforms take other numbers of
// commands). Memory per session is the push's peak RSS above that of
// the one-device push, divided by P.
func pushBench(t *table, dir string) {
	out := filepath.Join(dir, "push")
	os.RemoveAll(out)
	defer os.RemoveAll(out)
	if _, err := measure(nil, *fabricc, "build", *fabric, "-o", out, "--large", "-var", "switches=1600", "-var", "hosts_per_leaf=1"); err != nil {
		fail(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "model.json"))
	if err != nil {
		fail(err)
	}
	f, err := model.Unmarshal(data)
	if err != nil {
		fail(err)
	}
	var leaves []model.Switch
	for _, sw := range f.Switches {
		if sw.Platform == model.PlatformEOS {
			leaves = append(leaves, sw)
		}
	}
	alone := pushOnce(dir, out, withSwitches(f, leaves[:1]), 1, *latency)
	for _, c := range []struct{ n, parallel int }{{50, 10}, {200, 50}, {500, 100}} {
		r := pushOnce(dir, out, withSwitches(f, leaves[:c.n]), c.parallel, *latency)
		ideal := time.Duration(float64(alone.wall) * math.Ceil(float64(c.n)/float64(c.parallel)))
		t.add(fmt.Sprintf("push --parallel %d (%v/command)", c.parallel, *latency), strconv.Itoa(c.n), secs(r.wall), mb(r.rssMB),
			fmt.Sprintf("one EOS leaf alone %.1f s, ideal %.1f s", alone.wall.Seconds(), ideal.Seconds()),
			"", "", perSession(r.rssMB, alone.rssMB, c.parallel), fmt.Sprintf("%.2fx ideal", r.wall.Seconds()/ideal.Seconds()))
	}
}

// perSession is the memory a push of parallel sessions takes above the
// one-device push, per session. Reading the build folder (the model of
// 1,600 switches) sets both peaks when the sessions fit in what it left
// the process: then it says so instead of a difference of zero.
func perSession(rssMB, aloneMB float64, parallel int) string {
	if d := (rssMB - aloneMB) / float64(parallel); d >= 0.01 {
		return fmt.Sprintf("%.2f MB/session", d)
	}
	return fmt.Sprintf("within the %.0f MB of loading", aloneMB)
}

// withSwitches is f with only the given switches simulated.
func withSwitches(f *model.Fabric, switches []model.Switch) *model.Fabric {
	g := *f
	g.Switches = switches
	return &g
}

// pushOnce starts a fresh lab of f's switches, each command taking
// latency, and pushes the build folder out to them.
func pushOnce(dir, out string, f *model.Fabric, parallel int, latency time.Duration) run {
	labDir, err := os.MkdirTemp(dir, "lab-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(labDir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lab, err := sim.StartLab(ctx, f, labDir, func(o *sim.Options) { o.Faults.Latency = latency })
	if err != nil {
		fail(err)
	}
	defer lab.Close()
	var env []string
	if p := os.Getenv("BENCH_PUSH_PROFILE"); p != "" && parallel == 100 {
		env = []string{"FABRICC_CPUPROFILE=" + p}
	}
	// The lab simulates some switches of the fabric only, so the push
	// says --partial (push refuses an inventory that leaves switches out).
	r, err := measure(env, *fabricc, "push", "--yes", "--artifacts", out, "-i", lab.Inventory(), "--partial", "--parallel", strconv.Itoa(parallel))
	if err != nil {
		fail(err)
	}
	return r
}

// secs formats a duration in seconds.
func secs(d time.Duration) string { return fmt.Sprintf("%.1f", d.Seconds()) }

// mb formats megabytes.
func mb(x float64) string { return fmt.Sprintf("%.0f", x) }

// perDevice is milliseconds per device.
func perDevice(d time.Duration, devices int) string {
	return fmt.Sprintf("%.3f", d.Seconds()*1000/float64(devices))
}

// syncDisk flushes dirty pages. Validate, build, the floor and the
// incremental build start from it, so that none pays for the writeback
// of the files an earlier step wrote (a 512-switch build leaves 583 MB
// of dirty pages, which the kernel flushes while the next step runs).
func syncDisk() { syscall.Sync() }

// machine describes the CPU, cores, memory and file system.
func machine() string {
	cpu := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		s := bufio.NewScanner(f)
		for s.Scan() {
			if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	var si syscall.Sysinfo_t
	syscall.Sysinfo(&si)
	return fmt.Sprintf("%s, %d cores, %.0f GB RAM", cpu, numCPU(), float64(si.Totalram)*float64(si.Unit)/1e9)
}

// numCPU counts online CPUs.
func numCPU() int {
	data, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return 0
	}
	n := 0
	for _, part := range strings.Split(strings.TrimSpace(string(data)), ",") {
		lo, hi, ok := strings.Cut(part, "-")
		a, _ := strconv.Atoi(lo)
		b := a
		if ok {
			b, _ = strconv.Atoi(hi)
		}
		n += b - a + 1
	}
	return n
}

// version is fabricc's version line.
func version() string {
	out, err := exec.Command(*fabricc, "version").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out)) + ", " + pgo()
}

// pgo says whether the measured fabricc was built with a profile for
// profile-guided optimisation (cmd/fabricc/default.pgo, which `go build`
// uses by itself): it changes its CPU time by 3-12 %, so a table says
// which it measured. Go records the profile's path among the build
// settings; the path stays out of the table.
func pgo() string {
	info, err := buildinfo.ReadFile(*fabricc)
	if err != nil {
		return "PGO unknown"
	}
	for _, s := range info.Settings {
		if s.Key == "-pgo" && s.Value != "" {
			return "built with a PGO profile"
		}
	}
	return "built without a PGO profile"
}
