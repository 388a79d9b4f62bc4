//go:build !linux && !darwin

package artifacts

import "os"

// exchange swaps the folders a and b with two renames; without an atomic
// exchange there is a moment in which b is missing.
func exchange(a, b string) error { return exchangeByRenames(a, b) }

// processAlive reports whether process pid may still run; without a
// portable probe a temporary folder is never taken for stale.
func processAlive(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
