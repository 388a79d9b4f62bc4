package docs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/english"
)

// Number formats shared by the documents and `fabricc plan`: exact bytes
// with thousands separators, link speeds the way vendors write them,
// cable lengths in metres and priority or DSCP lists with ranges.

// Bytes is n with thousands separators and a unit: "43,008 B".
func Bytes(n int64) string { return Thousands(n) + " B" }

// Thousands is n with comma thousands separators: "16,777,216".
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// MiB is n in mebibytes to one decimal: "16.0 MiB".
func MiB(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Speed is a link speed in the vendors' notation: 100000 -> "100G",
// 1000 -> "1G", 100 -> "100M", 0 -> "-".
func Speed(mbps int) string {
	switch {
	case mbps <= 0:
		return "-"
	case mbps%1000 == 0:
		return strconv.Itoa(mbps/1000) + "G"
	}
	return strconv.Itoa(mbps) + "M"
}

// Meters is a cable length: "3 m", "0.5 m".
func Meters(m float64) string { return strconv.FormatFloat(m, 'f', -1, 64) + " m" }

// Percent is a share to one decimal without a trailing ".0": "61 %",
// "47.3 %".
func Percent(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) + " %" }

// Ranges writes ascending numbers with runs collapsed: "0-25, 27-47, 49";
// no numbers give "none".
func Ranges(v []int) string {
	if len(v) == 0 {
		return "none"
	}
	return strings.Join(english.Runs(v), ", ")
}
