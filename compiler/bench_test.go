package compiler

import (
	"fmt"
	"testing"

	"github.com/fabricc/fabricc/dsl"
)

// benchConfig builds a two-tier Onyx fabric: spines (SN4600C) and leaves
// (SN3700), each leaf with four 100G uplinks (30 m AOC) spread over the
// spines and its share of the hosts (one ConnectX-6 Dx each, 3 m DAC).
// Hosts are spread as evenly as possible: the first hosts%leaves leaves
// get one more.
func benchConfig(spines, leaves, hosts int) *dsl.Config {
	str := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	perLeaf := (hosts + leaves - 1) / leaves
	uplinks := 4
	spinePorts := (leaves*uplinks + spines - 1) / spines
	cfg := &dsl.Config{
		Fabric: &dsl.Fabric{Name: "bench"},
		QoS:    &dsl.QoS{Profile: str("nvidia-roce")},
		VLANs:  []dsl.VLAN{{Name: "rdma", ID: 100}},
	}
	port := func(spec string) dsl.Port {
		return dsl.Port{Spec: spec, Speed: str("100G"), MTU: num(9216), Mode: str("trunk"), VLANs: []int{100}, Trust: str("dscp")}
	}
	for s := 0; s < spines; s++ {
		cfg.Switches = append(cfg.Switches, dsl.Switch{Name: fmt.Sprintf("spine%d", s), Platform: "onyx", Model: "SN4600C",
			OSVersion: str("3.10.4006"), Ports: []dsl.Port{port(fmt.Sprintf("1/1-1/%d", spinePorts))}})
	}
	next := make([]int, spines)
	h := 0
	for l := 0; l < leaves; l++ {
		name := fmt.Sprintf("leaf%d", l)
		cfg.Switches = append(cfg.Switches, dsl.Switch{Name: name, Platform: "onyx", Model: "SN3700", OSVersion: str("3.10.4006"),
			Ports: []dsl.Port{port(fmt.Sprintf("1/1-1/%d", perLeaf)), port(fmt.Sprintf("1/%d-1/%d", perLeaf+1, perLeaf+uplinks))}})
		for u := 0; u < uplinks; u++ {
			s := (l*uplinks + u) % spines
			next[s]++
			cfg.Links = append(cfg.Links, dsl.Link{A: fmt.Sprintf("%s:1/%d", name, perLeaf+1+u), B: fmt.Sprintf("spine%d:1/%d", s, next[s]), Length: 30, Cable: str("aoc")})
		}
		n := hosts / leaves
		if l < hosts%leaves {
			n++
		}
		for i := 0; i < n; i++ {
			host := fmt.Sprintf("h%d", h)
			cfg.Hosts = append(cfg.Hosts, dsl.Host{Name: host, OS: "linux", NICs: []dsl.NIC{{Name: "roce0", Model: "ConnectX-6 Dx",
				Interface: "ens1f0", Speed: str("100G"), MTU: num(9000), VLAN: num(100),
				Addresses: []string{fmt.Sprintf("10.%d.%d.%d/8", (h+1)>>16, ((h+1)>>8)&255, (h+1)&255)}}}})
			cfg.Links = append(cfg.Links, dsl.Link{A: fmt.Sprintf("%s:1/%d", name, i+1), B: host + ":roce0", Length: 3, Cable: str("dac")})
			h++
		}
	}
	return cfg
}

// benchCompile compiles cfg b.N times, failing on errors.
func benchCompile(b *testing.B, cfg *dsl.Config) {
	b.Helper()
	if _, diags := Compile(cfg); diags.HasErrors() {
		b.Fatalf("bench fabric does not compile: %v", diags)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Compile(cfg)
	}
}

// BenchmarkCompile compiles a 1,024-switch (64 spines, 960 leaves),
// 16,384-host fabric.
func BenchmarkCompile(b *testing.B) {
	benchCompile(b, benchConfig(64, 960, 16384))
}

// BenchmarkCompileBaseline compiles a 64-switch (4 spines, 60 leaves),
// 1,024-host fabric: 1/16 of BenchmarkCompile, for the scaling ratio.
func BenchmarkCompileBaseline(b *testing.B) {
	benchCompile(b, benchConfig(4, 60, 1024))
}

// TestBenchConfigCompiles keeps the benchmark input valid under go test.
func TestBenchConfigCompiles(t *testing.T) {
	f, diags := Compile(benchConfig(4, 60, 1024))
	if diags.HasErrors() {
		t.Fatalf("%v", diags)
	}
	if len(f.Switches) != 64 || len(f.Hosts) != 1024 || len(f.Links) != 60*4+1024 {
		t.Errorf("got %d switches, %d hosts, %d links", len(f.Switches), len(f.Hosts), len(f.Links))
	}
}
