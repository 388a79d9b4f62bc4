package dsl

import "testing"

func TestWindowsRelease(t *testing.T) {
	tests := []struct {
		v         string
		want      string
		ok, known bool
	}{
		{"2022", "2022", true, true},
		{"2022r2", "2022", true, true}, // there is no 2022 R2; not "2012r2"
		{"Server2022", "2022", true, true},
		{"Windows Server 2022", "2022", true, true},
		{"Windows Server 2022 Datacenter", "2022", true, true},
		{"2012R2", "2012r2", true, true},
		{"2012 R2", "2012r2", true, true},
		{"ws2019", "2019", true, true},
		{"22H2", "22h2", true, true},
		{"Azure Stack HCI 23H2", "23h2", true, true},
		{"2012", "2012", false, true},
		{"Windows Server 2008 R2", "2008r2", false, true},
		{"2021", "", false, false},
		{"rhel9", "", false, false},
		{"r2", "", false, false},
	}
	for _, tc := range tests {
		got, ok, known := WindowsRelease(tc.v)
		if got != tc.want || ok != tc.ok || known != tc.known {
			t.Errorf("WindowsRelease(%q) = %q, %v, %v; want %q, %v, %v", tc.v, got, ok, known, tc.want, tc.ok, tc.known)
		}
	}
}
