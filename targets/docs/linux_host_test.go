package docs

import (
	"strings"
	"testing"
)

// TestLinuxHostMarking: a Linux RoCE host's document says what its
// applications must mark, since the host script sets RDMA-CM's default
// ToS only and NCCL marks NCCL_IB_TC (default 0) instead; a Windows or
// FreeBSD host's does not.
func TestLinuxHostMarking(t *testing.T) {
	f := compileExample(t, "tutorial")
	files, err := RenderHost(f, f.Host("node1"))
	if err != nil {
		t.Fatal(err)
	}
	want := "The host script sets this ToS only as RDMA-CM's default, which iSER, NVMe-oF and other RDMA-CM connections take. " +
		"Applications that open their queue pairs with verbs (NCCL, perftest, UCX) must mark ToS 104 (DSCP 26 << 2) themselves, " +
		"or their RoCE travels in the lossy default class: NCCL ignores RDMA-CM's default and marks NCCL\\_IB\\_TC, default 0, " +
		"so set NCCL\\_IB\\_TC to that ToS in the jobs' environment or in /etc/nccl.conf (NCCL User Guide, Environment Variables).\n\n## By hand\n"
	if s := string(files[0].Data); !strings.Contains(s, "\n\n"+want) {
		t.Errorf("node1.md lacks\n%s\nin\n%s", want, s)
	}
	other := compileExample(t, "homelab-40g")
	for _, name := range []string{"nas", "workstation"} {
		files, err := RenderHost(other, other.Host(name))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(files[0].Data); strings.Contains(s, "NCCL") {
			t.Errorf("%s.md (not Linux) names NCCL:\n%s", name, s)
		}
	}
}
