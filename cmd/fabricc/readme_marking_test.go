package main

import (
	"strings"
	"testing"
)

// TestREADMEGlobalTClassMarking: the README's marking paragraph says what
// the host document says (targets/docs, ofedText): MLNX_OFED's global
// traffic class marks every queue pair only while it is set, it is unset
// (-1) each time mlx5_ib loads, an inbox driver has none, and NCCL then
// marks NCCL_IB_TC (NVIDIA NCCL User Guide, Environment Variables). It
// must not say that NCCL on an MLNX_OFED host is marked regardless.
func TestREADMEGlobalTClassMarking(t *testing.T) {
	readme := strings.Join(strings.Fields(readDoc(t, "README.md")), " ")
	for _, want := range []string{
		"While that class is set (0 or more) UCX/MPI, NCCL and perftest there are marked without a setting of their own;",
		"it is -1, unset, each time mlx5_ib loads until the script sets it again (`init_tc_sysfs`), and the inbox driver has none, so NCCL then marks `NCCL_IB_TC` (NVIDIA NCCL User Guide, Environment Variables).",
	} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md no longer says %q", want)
		}
	}
	if old := "On such a host UCX/MPI, NCCL and perftest are marked without a setting of their own."; strings.Contains(readme, old) {
		t.Errorf("README.md still says %q, though the class is unset after mlx5_ib loads", old)
	}
}
