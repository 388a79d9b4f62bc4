package linux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// ncclFixture is the fixture's stor1 with the nccl application on its NIC.
func ncclFixture() (*model.Fabric, *model.Host) {
	f := fixture()
	h := f.Host("stor1")
	h.NICs[0].Applications = append(h.NICs[0].Applications, model.Application{Kind: model.AppNCCL, Priority: h.NICs[0].RoCE.Priority})
	return f, h
}

// TestNCCLScript: a host whose NIC lists nccl gets the one nccl_tc step
// with the NIC's ToS, after the NICs' steps, and the header says the
// script writes the line; a host without it gets neither.
func TestNCCLScript(t *testing.T) {
	f, h := ncclFixture()
	files, err := Render(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(files[0].Data)
	for _, want := range []string{
		"# (lossy): this script writes NCCL_IB_TC=106 into /etc/nccl.conf, as the NICs list\n# the nccl application (NCCL User Guide, Environment Variables).\n",
		"nic_leave ens2f0np0 $?; } 3>&1\n" +
			"# NCCL marks its RoCE with NCCL_IB_TC (default 0, lossy), which it reads from\n" +
			"# /etc/nccl.conf unless the job's environment sets it (NVIDIA NCCL User Guide,\n" +
			"# Environment Variables): this script owns that one line of the file.\n" +
			"nccl_tc /etc/nccl.conf 106\n# The routes and rules an earlier run wrote (proto 173) go: the fabric gives\n",
		"\nnccl_tc() {\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks\n%s", want)
		}
	}
	plain := fixture()
	files, err = Render(plain, plain.Host("stor1"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(files[0].Data); strings.Contains(s, "nccl_tc") || !strings.Contains(s, "# (lossy): set NCCL_IB_TC to that ToS in its environment or /etc/nccl.conf\n") {
		t.Errorf("a host without nccl has an nccl_tc step or lacks the marking note")
	}
}

// TestNCCLConf: nccl_tc owns the NCCL_IB_TC line of the file and nothing
// else: it writes a missing file (0644), replaces the first line of the
// key and drops later ones, keeps every other line and the file's mode,
// changes nothing when the value is right, and --check reports a
// difference without writing, --dry-run the edit it would make.
func TestNCCLConf(t *testing.T) {
	quiet := map[string]string{"logger": "#!/bin/sh\nexit 0\n"}
	tests := []struct {
		name     string
		before   string // "" for no file
		mode     os.FileMode
		args     []string
		out      string
		after    string
		wantMode os.FileMode
	}{
		{"absent", "", 0, nil, "set CONF NCCL_IB_TC: absent -> 104\n", "NCCL_IB_TC=104\n", 0o644},
		{"other lines kept", "NCCL_DEBUG=WARN\nNCCL_IB_TC=0\nNCCL_SOCKET_IFNAME==ens1f0\nNCCL_IB_TC=106\n", 0o600, nil,
			"set CONF NCCL_IB_TC: 0,106 -> 104\n", "NCCL_DEBUG=WARN\nNCCL_IB_TC=104\nNCCL_SOCKET_IFNAME==ens1f0\n", 0o600},
		{"appended", "NCCL_DEBUG=WARN\n# NCCL_IB_TC=0\n NCCL_IB_TC=0\n", 0o644, nil,
			"set CONF NCCL_IB_TC: absent -> 104\n", "NCCL_DEBUG=WARN\n# NCCL_IB_TC=0\n NCCL_IB_TC=0\nNCCL_IB_TC=104\n", 0o644},
		{"right already", "NCCL_IB_TC=104\nNCCL_DEBUG=WARN\n", 0o640, nil, "", "NCCL_IB_TC=104\nNCCL_DEBUG=WARN\n", 0o640},
		{"check", "NCCL_IB_TC=0\n", 0o644, []string{"--check"}, "DIFF CONF NCCL_IB_TC: intended 104; actual 0\n", "NCCL_IB_TC=0\n", 0o644},
		{"check absent", "", 0, []string{"--check"}, "DIFF CONF NCCL_IB_TC: intended 104; actual absent\n", "", 0},
		{"dry run", "NCCL_IB_TC=0\n", 0o644, []string{"--dry-run"}, "would run: write NCCL_IB_TC=104 into CONF (its other lines kept)\n", "NCCL_IB_TC=0\n", 0o644},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			conf := filepath.Join(dir, "nccl.conf")
			if tc.before != "" {
				if err := os.WriteFile(conf, []byte(tc.before), tc.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(conf, tc.mode); err != nil {
					t.Fatal(err)
				}
			}
			out, err := hostRun(t, quiet, "nccl_tc "+conf+" 104\n", tc.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := strings.ReplaceAll(out, conf, "CONF"); got != tc.out {
				t.Errorf("output %q, want %q", got, tc.out)
			}
			data, err := os.ReadFile(conf)
			if tc.after == "" {
				if !os.IsNotExist(err) {
					t.Errorf("--check wrote %s (%v)", conf, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tc.after {
				t.Errorf("file %q, want %q", data, tc.after)
			}
			if st, err := os.Stat(conf); err != nil || st.Mode().Perm() != tc.wantMode {
				t.Errorf("mode %v, want %v (%v)", st.Mode().Perm(), tc.wantMode, err)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".nccl.conf.*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}
