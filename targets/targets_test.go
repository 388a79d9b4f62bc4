package targets

import (
	"testing"

	"github.com/fabricc/fabricc/model"
)

func TestJoinInts(t *testing.T) {
	tests := []struct {
		v    []int
		sep  string
		want string
	}{
		{nil, ",", ""},
		{[]int{3}, ",", "3"},
		{[]int{0, 0, 0, 1, 0, 0, 0, 0}, ",", "0,0,0,1,0,0,0,0"},
		{[]int{3, 6}, ", ", "3, 6"},
		{[]int{-1, 4094}, " ", "-1 4094"},
	}
	for _, tc := range tests {
		if got := JoinInts(tc.v, tc.sep); got != tc.want {
			t.Errorf("JoinInts(%v, %q) = %q, want %q", tc.v, tc.sep, got, tc.want)
		}
	}
}

func TestCheckHost(t *testing.T) {
	fabric := func(dscp, prio int) *model.Fabric {
		return &model.Fabric{Name: "lab", QoS: model.QoS{DSCPToPriority: make([]int, dscp), PriorityToTC: make([]int, prio)}}
	}
	linux := &model.Host{Name: "h1", OS: model.OSLinux}
	tests := []struct {
		name string
		f    *model.Fabric
		h    *model.Host
		want string
	}{
		{"resolved", fabric(64, 8), linux, ""},
		{"no fabric", nil, linux, "linux: no fabric or host given"},
		{"no host", fabric(64, 8), nil, "linux: no fabric or host given"},
		{"other OS", fabric(64, 8), &model.Host{Name: "w1", OS: model.OSWindows},
			`linux: host "w1" has os "windows"; only linux hosts get a Linux script`},
		{"unresolved maps", fabric(0, 8), linux,
			`linux: fabric "lab" has 0 DSCP and 8 priority map entries; the compiler must resolve 64 and 8`},
	}
	for _, tc := range tests {
		err := CheckHost(tc.f, tc.h, model.OSLinux, "Linux")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: CheckHost = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestNICStep(t *testing.T) {
	tests := []struct {
		i    int
		ifc  string
		want string
	}{
		{1, "mce0", "{ set +e; NIC_COUNTS=$(nic_enter; nic_1 >&3); nic_leave mce0 $?; } 3>&1\n"},
		{12, "enp65s0f1np1", "{ set +e; NIC_COUNTS=$(nic_enter; nic_12 >&3); nic_leave enp65s0f1np1 $?; } 3>&1\n"},
		{2, "eth0;reboot", "{ set +e; NIC_COUNTS=$(nic_enter; nic_2 >&3); nic_leave 'eth0;reboot' $?; } 3>&1\n"},
	}
	for _, tc := range tests {
		if got := NICStep(tc.i, tc.ifc); got != tc.want {
			t.Errorf("NICStep(%d, %q) = %q, want %q", tc.i, tc.ifc, got, tc.want)
		}
	}
}
