package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
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
// heap nears 1.5 GiB, so a 4,096-switch build stays under 2 GB. GOGC and
// GOMEMLIMIT in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1536 << 20)
	}
}
