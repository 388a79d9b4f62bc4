// Package english words counts and number lists in fabricc's messages:
// "1 host", "2 switches", "8, 9, 11-15".
package english

import (
	"fmt"
	"strings"

	"strconv"
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

// Runs writes ascending numbers as words, each run of three or more as a
// range: [8 9 11 12 13 14 15] gives "8", "9", "11-15". Callers join them
// with their own separator.
func Runs(v []int) []string {
	var parts []string
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, strconv.Itoa(v[i]))
		case j == i+1:
			parts = append(parts, strconv.Itoa(v[i]), strconv.Itoa(v[j]))
		default:
			parts = append(parts, strconv.Itoa(v[i])+"-"+strconv.Itoa(v[j]))
		}
		i = j + 1
	}
	return parts
}

// Or joins words as a list in prose: "a", "a or b", "a, b or c"; "" for
// none.
func Or(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
