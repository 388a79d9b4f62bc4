package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/fabricc/fabricc/artifacts"
)

// Profiling for the benchmarks (README.md, Performance): with
// FABRICC_CPUPROFILE=FILE fabricc writes a CPU profile of the whole run,
// with FABRICC_MEMPROFILE=FILE a heap profile at its end; read them with
// `go tool pprof bin/fabricc FILE`.

// startProfile starts what the environment asks for and returns the
// function that finishes it.
func startProfile() func() {
	var stops []func()
	if p := os.Getenv("FABRICC_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "fabricc: FABRICC_CPUPROFILE: %v\n", err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if p := os.Getenv("FABRICC_MEMPROFILE"); p != "" {
		stops = append(stops, func() { writeHeapProfile(p) })
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// writeHeapProfile writes the heap profile to p.
func writeHeapProfile(p string) {
	f, err := os.Create(p)
	if err == nil {
		runtime.GC()
		err = pprof.WriteHeapProfile(f)
		f.Close()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "fabricc: FABRICC_MEMPROFILE: %v\n", err)
	}
}

// tuneGC trades memory the process does not need for less garbage
// collection: a large fabric allocates much short-lived data (HCL values,
// rendered text) and the default collector ran a quarter of the time.
// The collector runs at twice the default heap growth, and harder as the
// heap nears 1,750 MiB. The limit sits where a 4,096-switch validate or
// build peaks at 1.8 GB: at 1,536 MiB the compiler's live heap (1.3 GB at
// its peak) left so little room that the collector ran back to back and
// compiling took half as long again (docs/performance.md). Only the
// commands that compile a whole fabric (validate, build, plan, explain:
// 8.92-9.28 s to 8.23-8.51 s at 4,096 switches) tune it;
// push and verify, which wait on switches, keep Go's default and its
// smaller heap per session. GOGC and GOMEMLIMIT in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1750 << 20)
	}
}

// phaseTimes are the phase durations FABRICC_TIMINGS=1 prints.
type phaseTimes struct {
	names []string
	times map[string]time.Duration
}

// timings collects the phases of this run.
var timings = &phaseTimes{times: map[string]time.Duration{}}

// add records how long a phase took.
func (p *phaseTimes) add(name string, d time.Duration) {
	if _, ok := p.times[name]; !ok {
		p.names = append(p.names, name)
	}
	p.times[name] += d
}

// report prints one line of phase times in milliseconds to w when
// FABRICC_TIMINGS is set: parse and evaluate (dsl.Load's phases), load
// (the two together), compile, the build's wall time and, from
// res, the time spent rendering and writing device files summed over the
// goroutines that did it, model.json and manifest.json, and what was
// written (modelkept: the devices model.json copied from the build
// before).
func (p *phaseTimes) report(w io.Writer, res *artifacts.Result) {
	if os.Getenv("FABRICC_TIMINGS") == "" {
		return
	}
	var b strings.Builder
	b.WriteString("timings:")
	for _, n := range p.names {
		fmt.Fprintf(&b, " %s=%d", n, p.times[n].Milliseconds())
	}
	if res != nil {
		fmt.Fprintf(&b, " render=%d write=%d model=%d manifest=%d install=%d files=%d bytes=%d written=%d linked=%d compared=%d kept=%d modelkept=%d previous=%d",
			res.Render.Milliseconds(), res.Write.Milliseconds(), res.Model.Milliseconds(), res.Manifest.Milliseconds(),
			res.Install.Milliseconds(), res.Files, res.Bytes, res.Written, res.Linked, res.Compared, res.Kept, res.ModelKept, boolInt(res.Previous))
	}
	fmt.Fprintln(w, b.String())
}

// boolInt is 1 for true, so that every timing is a number.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
