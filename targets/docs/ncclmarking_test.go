package docs

import (
	"strings"
	"testing"
)

// TestNCCLMarkingOneStatement: a Linux host's document says one thing
// of NCCL's marking per NIC: on an inbox NIC, whose script sets only
// RDMA-CM's default, NCCL marks NCCL_IB_TC, default 0 (NVIDIA NCCL User
// Guide, Environment Variables), lossy without it; on an MLNX_OFED NIC
// the global traffic class marks it while the class is set, which it is
// not on an inbox driver nor after mlx5_ib loads until the script sets it
// again (mlnx-ofa_kernel, mlx5_ib: init_tc_sysfs), so the step is still
// there and says why. The RoCE paragraph no longer says "without a
// setting of their own" without that condition.
func TestNCCLMarkingOneStatement(t *testing.T) {
	const plain = "NCCL ignores the RDMA-CM default the host script sets and marks NCCL\\_IB\\_TC, default 0, so without it its RoCE travels in the lossy default class. "
	const global = "On roce0 (traffic class 106, MLNX\\_OFED) the port's global traffic class that the host script sets marks NCCL's queue pairs whatever NCCL\\_IB\\_TC says (the RoCE section above), " +
		"but only while the class is set: an inbox driver has no such class, and it starts unset each time mlx5\\_ib loads, until the host script sets it again"
	inbox := hostDoc(t, inboxTutorial(t), "node1")
	if want := "or in the jobs' environment: " + plain + "Before NCCL 2.21"; !strings.Contains(inbox, want) {
		t.Errorf("inbox node1.md lacks\n%s\nin\n%s", want, inbox)
	}
	f := compileExample(t, "tutorial")
	h := f.Host("node1")
	n := h.NICs[0]
	n.Name, n.Driver = "roce1", "inbox"
	h.NICs = append(h.NICs, n)
	mixed := hostDoc(t, f, "node1")
	if want := "or in the jobs' environment: on roce1 (ToS 106) " + plain + global; !strings.Contains(mixed, want) {
		t.Errorf("MLNX_OFED and inbox node1.md lacks\n%s\nin\n%s", want, mixed)
	}
	ofed := hostDoc(t, compileExample(t, "tutorial"), "node1")
	if strings.Contains(ofed, "without a setting of their own (") || strings.Contains(ofed, ": "+plain) {
		t.Errorf("MLNX_OFED node1.md still says NCCL is marked unconditionally, or lossy without NCCL_IB_TC unconditionally:\n%s", ofed)
	}
}
