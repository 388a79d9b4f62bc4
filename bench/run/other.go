//go:build !linux

package main

import (
	"fmt"
	"os"
)

// main says where the benchmark runs: it measures peak memory, inodes
// and the machine the Linux way (main.go).
func main() {
	fmt.Fprintln(os.Stderr, "bench/run measures fabricc on Linux only; run `make bench` on a Linux machine")
	os.Exit(2)
}
