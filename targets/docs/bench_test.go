package docs_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/docs"
)

// clos is a two-tier Onyx fabric: 4 SN4600C spines, leaves SN4600C with
// hostsPer hosts each (ConnectX-6 Dx, 3 m DAC) and four 100G uplinks
// (30 m AOC), one to each spine.
func clos(b *testing.B, leaves, hostsPer int) *model.Fabric {
	str := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	port := func(spec string) dsl.Port {
		return dsl.Port{Spec: spec, Speed: str("100G"), MTU: num(9216), Mode: str("trunk"), VLANs: []int{100}}
	}
	cfg := &dsl.Config{Fabric: &dsl.Fabric{Name: "bench"}, QoS: &dsl.QoS{Profile: str("nvidia-roce")}, VLANs: []dsl.VLAN{{Name: "rdma", ID: 100}}}
	for s := 0; s < 4; s++ {
		cfg.Switches = append(cfg.Switches, dsl.Switch{Name: fmt.Sprintf("spine%d", s), Platform: "onyx", Model: "SN4600C",
			OSVersion: str("3.10.4006"), Ports: []dsl.Port{port(fmt.Sprintf("1/1-1/%d", leaves))}})
	}
	h := 0
	for l := 0; l < leaves; l++ {
		name := fmt.Sprintf("leaf%02d", l)
		cfg.Switches = append(cfg.Switches, dsl.Switch{Name: name, Platform: "onyx", Model: "SN4600C", OSVersion: str("3.10.4006"),
			Ports: []dsl.Port{port(fmt.Sprintf("1/1-1/%d", hostsPer+4))}})
		for s := 0; s < 4; s++ {
			cfg.Links = append(cfg.Links, dsl.Link{A: fmt.Sprintf("%s:1/%d", name, hostsPer+1+s), B: fmt.Sprintf("spine%d:1/%d", s, l+1), Length: 30, Cable: str("aoc")})
		}
		for i := 0; i < hostsPer; i++ {
			host := fmt.Sprintf("h%04d", h)
			cfg.Hosts = append(cfg.Hosts, dsl.Host{Name: host, OS: "linux", NICs: []dsl.NIC{{Name: "roce0", Model: "ConnectX-6 Dx",
				Interface: "ens1f0", Speed: str("100G"), MTU: num(9000), VLAN: num(100),
				Addresses: []string{fmt.Sprintf("10.%d.%d.%d/8", (h+1)>>16, ((h+1)>>8)&255, (h+1)&255)}}}})
			cfg.Links = append(cfg.Links, dsl.Link{A: fmt.Sprintf("%s:1/%d", name, i+1), B: host + ":roce0", Length: 3, Cable: str("dac")})
			h++
		}
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		b.Fatalf("bench fabric does not compile: %v", diags)
	}
	return f
}

// example compiles examples/<name>.
func example(b *testing.B, name string) *model.Fabric {
	cfg, _, diags := dsl.Load(filepath.Join("..", "..", "examples", name), dsl.Options{})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	return f
}

// renderDocs renders every document of f: what the documents add to a
// build.
func renderDocs(b *testing.B, f *model.Fabric) (n int) {
	fd, err := docs.RenderFabric(f, nil)
	if err != nil {
		b.Fatal(err)
	}
	n += len(fd.Data)
	for i := range f.Switches {
		files, err := docs.RenderSwitch(f, &f.Switches[i])
		if err != nil {
			b.Fatal(err)
		}
		for _, fl := range files {
			n += len(fl.Data)
		}
	}
	for i := range f.Hosts {
		files, err := docs.RenderHost(f, &f.Hosts[i])
		if err != nil {
			b.Fatal(err)
		}
		n += len(files[0].Data)
	}
	return n
}

// BenchmarkDocs measures, on the largest example and on a generated
// 64-leaf, 2,048-host fabric, the documents alone ("docs") and the whole
// in-memory build they are part of ("build", artifacts.Render: every
// target, model.json, manifest). The documents' share of a build is
// docs / build; their cost over a build without them is docs / (build -
// docs). The "doc-bytes" metric is the documents' size. "build-mapped"
// is the build with source maps (fabricc explain).
func BenchmarkDocs(b *testing.B) {
	for _, c := range []struct {
		name string
		f    func(*testing.B) *model.Fabric
	}{
		{"multivendor-clos", func(b *testing.B) *model.Fabric { return example(b, "multivendor-clos") }},
		{"64x32", func(b *testing.B) *model.Fabric { return clos(b, 64, 32) }},
	} {
		f := c.f(b)
		b.Run(c.name+"/docs", func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				n = renderDocs(b, f)
			}
			b.ReportMetric(float64(n), "doc-bytes")
		})
		b.Run(c.name+"/build", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := artifacts.Render(f); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The same build with every file's source map, as fabricc explain
		// asks for it; "build" above is what a build pays (none).
		b.Run(c.name+"/build-mapped", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := artifacts.RenderWith(f, artifacts.Options{SourceMaps: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
