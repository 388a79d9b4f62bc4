// Package english words counts in fabricc's messages: "1 host",
// "2 switches", "1 difference".
package english

import (
	"fmt"
	"strings"
)

// Count is n and noun, the noun in the plural unless n is 1: "s" added,
// "es" after s, x, ch and sh ("2 switches").
func Count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	for _, end := range []string{"s", "x", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			return fmt.Sprintf("%d %ses", n, noun)
		}
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
