// Package natural orders names the way people read them: embedded
// numbers compare by value, so "swp2" comes before "swp10" and
// "Ethernet1/2" before "Ethernet1/10". The language (port ranges) and the
// model (port order) share it.
package natural

import (
	"cmp"
	"strconv"
	"strings"
)

// Runs splits s into runs of ASCII digits and runs of other bytes:
// "Ethernet1/10" is "Ethernet", "1", "/", "10".
func Runs(s string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(s); i++ {
		if i == len(s) || IsDigit(s[i]) != IsDigit(s[i-1]) {
			out = append(out, s[start:i])
			start = i
		}
	}
	return out
}

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// Less orders names so that embedded numbers compare by value:
// "1/2" < "1/10", "Ethernet2" < "Ethernet10", "swp2" < "swp10". Names
// that compare equal that way ("swp01" and "swp1") fall back to byte
// order, so the order is total.
func Less(a, b string) bool { return Compare(a, b) < 0 }

// Compare is Less as -1, 0 or +1, for slices.SortFunc. It walks the
// runs of a and b in step without making them (Runs allocates, and a
// large fabric sorts hundreds of thousands of ports and links): the
// first pair of runs that differ decides, digit runs by their value
// when both fit an int and the values differ, any other pair by bytes;
// then the name with fewer runs comes first, then byte order.
func Compare(a, b string) int {
	for i, j := 0, 0; ; {
		if i == len(a) || j == len(b) {
			if i != len(a) || j != len(b) {
				return cmpBool(i == len(a)) // fewer runs first
			}
			return strings.Compare(a, b)
		}
		x, y := a[i:runEnd(a, i)], b[j:runEnd(b, j)]
		i, j = i+len(x), j+len(y)
		if x == y {
			continue
		}
		if IsDigit(x[0]) && IsDigit(y[0]) {
			nx, ex := strconv.Atoi(x)
			ny, ey := strconv.Atoi(y)
			if ex == nil && ey == nil && nx != ny {
				return cmp.Compare(nx, ny)
			}
		}
		return strings.Compare(x, y)
	}
}

// runEnd is where the run of s starting at i ends.
func runEnd(s string, i int) int {
	d := IsDigit(s[i])
	for i++; i < len(s) && IsDigit(s[i]) == d; i++ {
	}
	return i
}

// cmpBool is -1 when first is true, else +1.
func cmpBool(first bool) int {
	if first {
		return -1
	}
	return 1
}
