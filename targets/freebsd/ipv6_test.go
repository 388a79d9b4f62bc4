package freebsd

import (
	"strings"
	"testing"
)

// TestIPv6RcLines: the first IPv6 address is ifconfig_<if>_ipv6 (without
// it rc.conf(5) marks the interface IFDISABLED at boot), the first IPv4
// one ifconfig_<if>, the rest aliases numbered from 0 in the model's
// order; before, an IPv6 address went to ifconfig_<if> or an alias.
func TestIPv6RcLines(t *testing.T) {
	tests := []struct {
		name  string
		addrs []string
		want  string
	}{
		{"IPv6 only", []string{"2001:db8:20::1/64"},
			"ifconfig_mce0_2=\"up mtu 9000\"\nifconfig_mce0_2_ipv6=\"inet6 2001:db8:20::1/64\"\n"},
		{"IPv6 first, then IPv4", []string{"2001:db8::1/64", "10.30.0.1/24"},
			"ifconfig_mce0_2=\"inet 10.30.0.1/24 mtu 9000\"\nifconfig_mce0_2_ipv6=\"inet6 2001:db8::1/64\"\n"},
		{"two of each", []string{"10.30.0.1/24", "2001:db8::1/64", "10.31.0.1/24", "2001:db8:1::1/64"},
			"ifconfig_mce0_2=\"inet 10.30.0.1/24 mtu 9000\"\nifconfig_mce0_2_ipv6=\"inet6 2001:db8::1/64\"\n" +
				"ifconfig_mce0_2_alias0=\"inet 10.31.0.1/24\"\nifconfig_mce0_2_alias1=\"inet6 2001:db8:1::1/64\"\n"},
		{"IPv4 only", []string{"10.30.0.1/24", "10.31.0.1/24"},
			"ifconfig_mce0_2=\"inet 10.30.0.1/24 mtu 9000\"\nifconfig_mce0_2_alias0=\"inet 10.31.0.1/24\"\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fixture()
			f.Hosts[1].NICs[0].Addresses = tc.addrs
			rc := files(t, f, 1)["nas5.rc.conf"]
			got := rc[strings.Index(rc, "ifconfig_mce0_2"):]
			if got != tc.want {
				t.Errorf("rc.conf lines\n%s\nwant\n%s", got, tc.want)
			}
			s := files(t, f, 1)["nas5.freebsd.sh"]
			wantIPv6 := strings.Contains(tc.want, "_ipv6")
			line := "\tensure mce0.2 ipv6 enabled \"$(nd6_state mce0.2)\" ifconfig mce0.2 inet6 -ifdisabled\n"
			if strings.Contains(s, line) != wantIPv6 {
				t.Errorf("script has the -ifdisabled step: %v, want %v", !wantIPv6, wantIPv6)
			}
		})
	}
}

// TestND6State reads IFDISABLED from "ifconfig IF inet6", whose nd6
// line af_inet6.c prints as "nd6 options=HEX<FLAGS>".
func TestND6State(t *testing.T) {
	const head = "mce0.2: flags=1008843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST,LOWER_UP> metric 0 mtu 9000\n"
	tests := []struct{ out, want string }{
		{head + "\tnd6 options=29<PERFORMNUD,IFDISABLED,AUTO_LINKLOCAL>\n", "IFDISABLED"},
		{head + "\tinet6 fe80::e42:a1ff:fe00:1%mce0.2/64 scopeid 0x5\n\tnd6 options=21<PERFORMNUD,AUTO_LINKLOCAL>\n", "enabled"},
		{"", "absent"},
	}
	for _, tc := range tests {
		fakes := map[string]string{"ifconfig": "#!/bin/sh\n[ \"$2\" = inet6 ] || exit 2\n[ -s \"$FAKES/out\" ] || exit 1\ncat \"$FAKES/out\"\n", "out": tc.out}
		if got := readValue(t, fakes, "nd6_state mce0.2"); got != tc.want {
			t.Errorf("nd6_state over %q = %q, want %q", tc.out, got, tc.want)
		}
	}
}
