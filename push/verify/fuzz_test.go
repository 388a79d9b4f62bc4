package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// goldenFiles returns the generated configurations in golden/ whose names
// end in suffix, as seed corpus entries: what a switch shows back after a push.
func goldenFiles(f *testing.F, suffix string) {
	names, _ := filepath.Glob(filepath.Join("..", "..", "golden", "*", "*", "*"+suffix))
	for _, n := range names {
		if data, err := os.ReadFile(n); err == nil {
			f.Add(data)
		}
	}
}

// FuzzParseOnyx feeds arbitrary `show running-config` text to the Onyx
// parser, which reads what a device (possibly a hostile one) sends back:
// it must never panic, and compare its state with the expected one.
func FuzzParseOnyx(f *testing.F) {
	f.Add([]byte(onyxRunning))
	f.Add([]byte(onyxPGs("3", 92160, 19456, 19456)))
	goldenFiles(f, ".onyx.cli")
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseOnyx(string(data))
		if err != nil {
			return // a line over the limit, said as an error
		}
		f, sw := bufferSwitch(model.PlatformOnyx, "1/1")
		oneLine(t, Compare("sw1", Expect(f, sw), got))
	})
}

// oneLine fails when a difference's printed line is not one line of
// printable text.
func oneLine(t *testing.T, diffs []Difference) {
	t.Helper()
	for _, d := range diffs {
		if s := d.String(); strings.ContainsAny(s, "\n\r\x1b") {
			t.Fatalf("a difference breaks the line: %q", s)
		}
	}
}

// FuzzApplyOnyxPFC feeds arbitrary `| json-print` output to the Onyx PFC
// reader.
func FuzzApplyOnyxPFC(f *testing.F) {
	f.Add([]byte(`{"1/1": [{"PFC": "Enabled"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = ApplyOnyxPFC(mustOnyx(onyxRunning), data)
	})
}

// FuzzParseEOS feeds arbitrary running-config text to the EOS parser.
func FuzzParseEOS(f *testing.F) {
	f.Add([]byte(eosRunning))
	f.Add([]byte(eosMMUProfile(72704, "1", true)))
	goldenFiles(f, ".eos.cfg")
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseEOS(string(data))
		if err != nil {
			return // a line over the limit, said as an error
		}
		f, sw := bufferSwitch(model.PlatformEOS, "Ethernet1/1")
		oneLine(t, Compare("sw1", Expect(f, sw), got))
	})
}

// FuzzParseEOSJSON feeds arbitrary `| json` output to the EOS JSON reader.
func FuzzParseEOSJSON(f *testing.F) {
	f.Add([]byte(`{"cmds": {"vlan 100": {"cmds": {"name rdma": null}}}}`), []byte(`{"interfaces": {"Ethernet1/1": {"mtu": 9214}}}`))
	f.Add([]byte(`{}`), []byte(nil))
	f.Fuzz(func(t *testing.T, running, interfaces []byte) {
		st, err := ParseEOSJSON(running, interfaces)
		if err == nil && st == nil {
			t.Fatal("nil state without an error")
		}
	})
}

// FuzzParseNVUE feeds arbitrary `nv config show -o json` output to the
// NVUE reader.
func FuzzParseNVUE(f *testing.F) {
	f.Add([]byte(nvueJSON))
	f.Add([]byte(nvuePFC("3", 3, 92160, 19456, 19456)))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := ParseNVUE(data)
		if err == nil && st == nil {
			t.Fatal("nil state without an error")
		}
		if err == nil {
			f, sw := bufferSwitch(model.PlatformCumulus, "swp1")
			oneLine(t, Compare("sw1", Expect(f, sw), st))
		}
	})
}

// FuzzNeighbors feeds arbitrary output to the three LLDP neighbor
// parsers, whose input is what a (possibly hostile) device sends, and
// compares what they read with a fabric's cables: nothing may panic,
// and the printed lines stay one line each.
func FuzzNeighbors(f *testing.F) {
	f.Add([]byte(eosLLDPDetail))
	f.Add([]byte(onyxLLDPRemote))
	f.Add([]byte(nvueInterfaces))
	f.Add([]byte(`{"swp1": {"lldp": {"neighbor": {"x": {"port": {"name": "Eth"}}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, sw := cabledLeaf()
		for _, parse := range []func([]byte) (Neighbors, error){ParseEOSNeighbors, ParseOnyxNeighbors, ParseNVUENeighbors} {
			ns, err := parse(data)
			if err != nil {
				continue
			}
			c, diffs := CompareCabling(ps, sw, ns)
			for _, d := range diffs {
				if s := d.String(); strings.ContainsAny(s, "\n\r\x1b") {
					t.Fatalf("a difference breaks the line: %q", s)
				}
			}
			if s := c.Summary("leaf1"); strings.ContainsAny(s, "\n\r\x1b") {
				t.Fatalf("the summary breaks the line: %q", s)
			}
		}
	})
}
