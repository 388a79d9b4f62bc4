package linux

import (
	"strings"
	"testing"
)

// TestGlobalTClass: on an MLNX_OFED NIC the script sets its RDMA port's
// global traffic class to the RoCE ToS, reading the "Global tclass=N"
// MLNX_OFED's mlx5_ib prints (nothing while unset): --check reports a
// difference, --dry-run shows the echo, a run writes the ToS; the port is
// dev_port + 1; a real NIC without the file (the inbox driver) fails the
// step naming the fix.
func TestGlobalTClass(t *testing.T) {
	const dev = fakePCI + "/0000:3b:00.0/infiniband/mlx5_0/"
	tests := []struct {
		name    string
		devPort string
		have    string // traffic_class's content; "-" for no file
		mode    string
		want    string
		written string // the file after the run; "" not read
	}{
		{"matches", "0\n", "Global tclass=104\n", "--check", "", ""},
		{"unset", "0\n", "", "--check", "DIFF fab0 traffic_class (mlx5_0 port 1): intended 104; actual unset\n", ""},
		{"another class", "0\n", "Global tclass=106\n", "--check", "DIFF fab0 traffic_class (mlx5_0 port 1): intended 104; actual 106\n", ""},
		{"set with rules after it", "0\n", "Global tclass=104\ndst_ip=10.0.0.0/8,tclass=96\n", "--check", "", ""},
		{"second port", "1\n", "", "--check", "DIFF fab0 traffic_class (mlx5_0 port 2): intended 104; actual unset\n", ""},
		{"dry run", "0\n", "", "--dry-run", "would run: echo 104 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class\n", ""},
		{"run", "0\n", "Global tclass=106\n", "", "set fab0 traffic_class (mlx5_0 port 1): 106 -> 104\n", "104\n"},
		{"no tc directory", "0\n", "-", "--check", "DIFF fab0 global traffic class (mlx5_0 tc/1/traffic_class): intended supported; actual unsupported\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			port := "1"
			if tc.devPort == "1\n" {
				port = "2"
			}
			file := "/sys/class/infiniband/mlx5_0/tc/" + port + "/traffic_class"
			files := nic(map[string]string{dev: "", "/sys/class/net/fab0/dev_port": tc.devPort})
			if tc.have != "-" {
				files[file] = tc.have
			}
			fs := fakeSys{mounts: []string{"/sys/class"}, files: files, links: nicLink}
			body := "MODE=${1:-apply}; MODE=${MODE#--}\nglobal_tclass fab0 104\n"
			if tc.written != "" {
				body += "printf 'file: %s\\n' \"$(cat " + file + ")\"\n"
			}
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, err := fs.run(t, body, args...)
			want := tc.want
			if tc.written != "" {
				want += "file: " + strings.TrimSuffix(tc.written, "\n") + "\n"
			}
			if tc.name == "no tc directory" {
				out = out[:strings.Index(out+"\n", "\n")+1]
			}
			if err != nil || out != want {
				t.Errorf("%v\n%s\nwant:\n%s", err, out, want)
			}
		})
	}
}

// TestGlobalTClassStep: an MLNX_OFED mlx5 NIC's steps set the global
// traffic class to its RoCE ToS with ECT(0) (106 for DSCP 26, not
// RDMA-CM's 104, which would make every queue pair's packets Not-ECT),
// after RDMA-CM's default; the inbox
// driver, QLogic and a ConnectX-3 (mlx4) under MLNX_OFED get no such step,
// nor the helpers.
func TestGlobalTClassStep(t *testing.T) {
	f := fixture()
	assertHas(t, render(t, f, 0), []string{
		"0000:ffff:c0a8:0229\n\t# MLNX_OFED: the port's global traffic class marks verbs queue pairs too; DSCP << 2 with ECT(0), as UCX's default 106 is, so packets stay ECN-capable for DCQCN.\n\tglobal_tclass \"$ifc\" 106\n",
		"\nglobal_tclass() {\n", "\ntclass_state() {\n",
	}, nil)
	for _, i := range []int{1, 2} {
		assertHas(t, render(t, f, i), nil, []string{"global_tclass", "tclass_state"})
	}
	f.Hosts[0].NICs[0].Model = "ConnectX-3 Pro"
	assertHas(t, render(t, f, 0), nil, []string{"global_tclass", "tclass_state"})
}
