package push

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestRefuseSessionLines: a configuration line that would leave EOS's
// configure session or run an Onyx exec command is refused, naming it;
// nested lines, other words that merely start alike, and every golden
// configuration pass.
func TestRefuseSessionLines(t *testing.T) {
	for _, tc := range []struct {
		p      model.Platform
		config string
		want   string // "" passes
	}{
		{model.PlatformEOS, "interface Ethernet1/1\n   mtu 9214\nexit\nbash timeout 10 id\n", `line 3 of the configuration starts with "exit"`},
		{model.PlatformEOS, "vlan 10\n   name x\n   write memory\n", `line 3 of the configuration starts with "write"`},
		{model.PlatformEOS, "! exit\ninterface Ethernet1/1\n   description exit here\n   writeback-delay 0\n", ""},
		{model.PlatformOnyx, "interface ethernet 1/1 mtu 9216 force\nreload noconfirm\n", `line 2 of the configuration starts with "reload"`},
		{model.PlatformOnyx, "configuration switch-to fabricc-pre-x\n", `line 1 of the configuration starts with "configuration"`},
		{model.PlatformCumulus, "exit\n", ""}, // NVUE's YAML is sent as one file, not line by line
	} {
		err := refuseSessionLines(tc.p, []byte(tc.config))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%s %q: %v, want %q", tc.p, tc.config, err, tc.want)
		}
	}
	for p, glob := range map[model.Platform]string{model.PlatformEOS: "*.eos.cfg", model.PlatformOnyx: "*.onyx.cli"} {
		files, _ := filepath.Glob(filepath.Join("..", "golden", "*", "*", glob))
		if len(files) == 0 {
			t.Fatalf("no golden %s", glob)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := refuseSessionLines(p, data); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
}
