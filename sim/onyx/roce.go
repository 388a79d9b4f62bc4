package onyx

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// roceSince is the first release with `roce` and `show roce` (NVIDIA
// Onyx User Manual 3.10, "RoCE Commands", History: 3.8.2000); an older
// switch does not know the word: the commands then return the
// cli.SyntaxError of a word no rule accepts, which the shell answers as
// Onyx answers any word it does not know (syntaxText).
const roceSince = "3.8.2000"

// hasRoCE says whether the switch's release has the RoCE commands.
func (d *Device) hasRoCE() bool { return cli.VersionAtLeast(d.opts.Version, roceSince) }

// roceRules are `roce [lossless|semi-lossless|lossy]` and `no roce`
// (NVIDIA Onyx User Manual 3.10, "RoCE Commands": "Configuring RoCE
// without specifying a mode will configure RoCE with lossless mode"; the
// no form disables RoCE mode). The simulator keeps the mode only: what
// the mode writes besides (trust L3, ETS, ECN, PFC on switch priority 3,
// its own buffer pools; the same page's `show roce` example) is shown by
// `show roce`, not applied to the ports, and the running-config does not
// print the mode, for no public running-config with RoCE mode on was
// found.
var roceRules = []cli.Rule[*env]{
	{Syntax: "roce [{lossless|semi-lossless|lossy}]", Do: changes(func(e *env, m []string) error {
		if !e.sh.d.hasRoCE() {
			return &cli.SyntaxError{Kind: cli.Invalid, Token: 0, Word: "roce"}
		}
		e.st.RoCE = m[1]
		if e.st.RoCE == "" {
			e.st.RoCE = "lossless"
		}
		return nil
	})},
	{Syntax: "no roce", Do: changes(func(e *env, m []string) error {
		if !e.sh.d.hasRoCE() {
			return &cli.SyntaxError{Kind: cli.Invalid, Token: 1, Word: "roce"}
		}
		e.st.RoCE = ""
		return nil
	})},
}

// roceText is `show roce`, in the layout of the NVIDIA Onyx User Manual
// 3.10 example ("RoCE Commands", `show roce`, updated in 3.8.3000):
// "RoCE mode: N/A" when RoCE mode is off, else the mode and the settings
// it applies. The manual's example is of lossless mode; the lossy and
// semi-lossless forms here differ in the PFC line only (lossy: "No PFC
// support"), the rest is the simulator's own. Its LLDP line follows the
// switch's global `lldp` (on by default from 3.8.2000).
func roceText(e *env, m []string) (string, error) {
	if !e.sh.d.hasRoCE() {
		return "", &cli.SyntaxError{Kind: cli.Invalid, Token: 1, Word: "roce"}
	}
	mode := e.st.RoCE
	if mode == "" {
		return "RoCE mode: N/A\n", nil
	}
	pfc := "enabled"
	if mode == "lossy" {
		pfc = "disabled"
	}
	lldp := "disabled" // the manual's example
	if e.st.LLDP {
		lldp = "enabled"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "RoCE mode      : %s\nLLDP : %s\nPort trust mode: L3\n\n", mode, lldp)
	b.WriteString("Application TLV:\nSelector: udp\nProtocol: 4791\nPriority: 3\n\n")
	b.WriteString("Port congestion-control:\nMode: ecn, absolute\nMin : 150\nMax : 1500\n\n")
	fmt.Fprintf(&b, "PFC : %s\nswitch-priority 3: %s\n\n", pfc, pfc)
	dashes := strings.Repeat("-", 46)
	fmt.Fprintf(&b, "RoCE used TCs:\n%s\nSwitch-Priority TC Application ETS\n%s\n3 3 RoCE WRR 50%%\n6 6 CNP Strict\n", dashes, dashes)
	return b.String(), nil
}
