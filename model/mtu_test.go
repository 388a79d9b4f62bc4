package model

import "testing"

// TestMTUMeanings pins what each device's mtu counts and the two
// conversions the link checks and the OpenConfig renderer make: every
// switch platform and host OS fabricc renders counts the IP MTU, and
// OpenConfig's interface mtu is that plus the 14-byte Ethernet header.
func TestMTUMeanings(t *testing.T) {
	for _, tc := range []struct {
		name      string
		m         MTUMeaning
		mtu       int
		ip, frame int
	}{
		{"eos 9214", PlatformEOS.PortMTU(), 9214, 9214, 9228},
		{"onyx 9216", PlatformOnyx.PortMTU(), 9216, 9216, 9230},
		{"onyx 1500", PlatformOnyx.PortMTU(), 1500, 1500, 1514},
		{"cumulus 9216", PlatformCumulus.PortMTU(), 9216, 9216, 9230},
		{"linux 9000", OSLinux.NICMTU(), 9000, 9000, 9014},
		{"windows 9000", OSWindows.NICMTU(), 9000, 9000, 9014},
		{"freebsd 9000", OSFreeBSD.NICMTU(), 9000, 9000, 9014},
		{"a frame count", MTUMeaning{HeaderBytes: EthernetHeaderBytes}, 9216, 9202, 9216},
	} {
		if ip, frame := tc.m.IPMTU(tc.mtu), tc.m.FrameBytes(tc.mtu); ip != tc.ip || frame != tc.frame {
			t.Errorf("%s: IP MTU %d, frame %d; want %d, %d", tc.name, ip, frame, tc.ip, tc.frame)
		}
	}
	for _, p := range []Platform{PlatformOnyx, PlatformEOS, PlatformCumulus} {
		if _, ok := portMTU[p]; !ok || portMTU[p].Source == "" {
			t.Errorf("platform %s: no MTU meaning with its source", p)
		}
	}
}
