// Package natural orders names the way people read them: embedded
// numbers compare by value, so "swp2" comes before "swp10" and
// "Ethernet1/2" before "Ethernet1/10". The language (port ranges) and the
// model (port order) share it.
package natural

import "strconv"

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
func Less(a, b string) bool {
	ra, rb := Runs(a), Runs(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		x, y := ra[i], rb[i]
		if x == y {
			continue
		}
		nx, ex := strconv.Atoi(x)
		ny, ey := strconv.Atoi(y)
		if ex == nil && ey == nil && nx != ny {
			return nx < ny
		}
		return x < y
	}
	if len(ra) != len(rb) {
		return len(ra) < len(rb)
	}
	return a < b
}
