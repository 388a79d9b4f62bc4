package cli

import "strings"

// DottedMAC writes a MAC address as EOS does ("0c42.a100.0001").
func DottedMAC(mac string) string {
	h := strings.ReplaceAll(strings.ReplaceAll(mac, ":", ""), "-", "")
	if len(h) != 12 {
		return mac
	}
	return h[0:4] + "." + h[4:8] + "." + h[8:12]
}
