package model

import (
	"strconv"
	"strings"
)

// OnyxTrafficPoolRelease is the first Onyx (MLNX-OS) release with
// shared-buffer traffic pools (NVIDIA Onyx User Manual, "Shared
// Buffers": traffic pools introduced in MLNX-OS 3.6.5000); older
// releases configure buffers with the advanced `ingress-buffer`
// commands. The compiler picks a switch's buffer style by it, and push
// refuses a switch whose release is on the other side of it from the
// fabric's os_version.
const OnyxTrafficPoolRelease = "3.6.5000"

// CompareVersions compares dotted versions numerically, field by field
// ("3.6.10000" > "3.6.5000"). Non-digit suffixes of a field ("1F") are
// ignored; missing fields count as 0. It returns -1, 0 or 1, as a is
// older than, the same as or newer than b.
func CompareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		x, y := versionField(as, i), versionField(bs, i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// versionField returns the leading number of field i, or 0.
func versionField(fields []string, i int) int {
	if i >= len(fields) {
		return 0
	}
	f := fields[i]
	n := 0
	for n < len(f) && f[n] >= '0' && f[n] <= '9' {
		n++
	}
	v, _ := strconv.Atoi(f[:n])
	return v
}
