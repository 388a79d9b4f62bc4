package artifacts

import (
	"fmt"
	"os"
)

// exchangeByRenames swaps the folders a and b through a third name: b
// moves aside, a takes its place, the old b takes a's name.
func exchangeByRenames(a, b string) error {
	aside := a + ".old"
	if err := os.Rename(b, aside); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		if rerr := os.Rename(aside, b); rerr != nil {
			return fmt.Errorf("%v, and restoring %s from %s failed too: %w", err, b, aside, rerr)
		}
		return err
	}
	return os.Rename(aside, a)
}
