package compiler

import (
	"reflect"
	"strings"
	"testing"
)

// eosSpine is an EOS switch without ports, to lower a watchdog for.
const eosSpine = "switch \"spine1\" {\n  platform = \"eos\"\n  model    = \"7050CX3-32S\"\n}\n"

// TestWatchdogTimesPerPlatform (review rsw, finding 6): each pfc_watchdog
// time a switch of the fabric cannot take is an error at the block that
// sets it, naming the nearest the switch takes; an NVUE detection time
// that is not the timeout is a warning.
func TestWatchdogTimesPerPlatform(t *testing.T) {
	eos, nvue := "PFC watchdog time EOS refuses: ", "PFC watchdog time Cumulus Linux refuses: "
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"review's values on EOS and Cumulus", edit("qos {\n  pfc_watchdog {\n    timeout_ms = 5\n    polling_ms = 150\n    restore_ms = 5\n  }\n}\n" + eosSpine), []string{
			"33:3: PFC watchdog setting the switch ignores: pfc_watchdog restore_ms is written, but cumulus switches cannot honour it: NVUE has no restore timer: it restores PFC after one polling interval without pause frames. Their watchdog runs without it; remove the setting, or set it in the pfc_watchdog block of the switches that honour it.",
			"33:3: PFC watchdog time the switch rounds: pfc_watchdog timeout_ms = 5 with polling_ms = 150: NVUE counts the timeout in polls (robustness 1), so Cumulus Linux switches detect a PFC storm after 150 ms, not 5. Write timeout_ms = 150, a multiple of polling_ms, to say what the switch does.",
			"33:3: " + eos + "pfc_watchdog timeout_ms = 5 and restore_ms = 5: EOS switches take timeout_ms 10-60000 ms in steps of 10 ms and restore_ms 10-60000 ms in steps of 10 ms. Write timeout_ms = 10 and restore_ms = 10 (the nearest they take), or set them in the pfc_watchdog block of the switches that take them.",
		}},
		{"EOS and Cumulus both refuse, each said", edit("qos {\n  pfc_watchdog {\n    timeout_ms = 5\n    polling_ms = 20\n    restore_ms = 5\n  }\n}\n" + eosSpine), []string{
			"33:3: PFC watchdog setting the switch ignores: pfc_watchdog restore_ms is written, but cumulus switches cannot honour it: NVUE has no restore timer: it restores PFC after one polling interval without pause frames. Their watchdog runs without it; remove the setting, or set it in the pfc_watchdog block of the switches that honour it.",
			"33:3: " + nvue + "pfc_watchdog polling_ms = 20: Cumulus Linux switches take polling_ms 100-5000 ms. Write polling_ms = 100 (the nearest they take), or set it in the pfc_watchdog block of the switches that take it.",
			"33:3: " + eos + "pfc_watchdog timeout_ms = 5 and restore_ms = 5: EOS switches take timeout_ms 10-60000 ms in steps of 10 ms and restore_ms 10-60000 ms in steps of 10 ms. Write timeout_ms = 10 and restore_ms = 10 (the nearest they take), or set them in the pfc_watchdog block of the switches that take them.",
		}},
		{"NVUE polling below 100 ms", edit("qos {\n  pfc_watchdog {\n    polling_ms = 20\n  }\n}\n" + eosSpine), []string{
			"33:3: " + nvue + "pfc_watchdog polling_ms = 20: Cumulus Linux switches take polling_ms 100-5000 ms. Write polling_ms = 100 (the nearest they take), or set it in the pfc_watchdog block of the switches that take it.",
		}},
		{"the switch's own block overrides the qos block's", edit("qos {\n  pfc_watchdog {\n    polling_ms = 20\n  }\n}\n"+eosSpine,
			"  model    = \"SN2700\"\n", "  model    = \"SN2700\"\n  pfc_watchdog {\n    polling_ms = 100\n  }\n"), nil},
		{"NVUE polling above 5000 ms in the switch's block", edit("", "  model    = \"SN2700\"\n", "  model    = \"SN2700\"\n  pfc_watchdog {\n    polling_ms = 6000\n    timeout_ms = 12000\n  }\n"), []string{
			"11:3: " + nvue + "pfc_watchdog polling_ms = 6000: Cumulus Linux switches take polling_ms 100-5000 ms. Write polling_ms = 5000 (the nearest they take), or set it in the pfc_watchdog block of the switches that take it.",
		}},
		{"EOS timeout in 10 ms steps", edit(strings.Replace(eosSpine, "  model    = \"7050CX3-32S\"\n", "  model    = \"7050CX3-32S\"\n  pfc_watchdog {\n    timeout_ms = 215\n  }\n", 1)), []string{
			"35:3: " + eos + "pfc_watchdog timeout_ms = 215: EOS switches take timeout_ms 10-60000 ms in steps of 10 ms. Write timeout_ms = 220 (the nearest they take), or set it in the pfc_watchdog block of the switches that take it.",
		}},
		{"EOS polling above half the timeout", edit("qos {\n  pfc_watchdog {\n    polling_ms = 150\n  }\n}\n" + eosSpine), []string{
			"33:3: PFC watchdog time the switch rounds: pfc_watchdog timeout_ms = 200 with polling_ms = 150: NVUE counts the timeout in polls (robustness 2), so Cumulus Linux switches detect a PFC storm after 300 ms, not 200. Write timeout_ms = 150 or 300, a multiple of polling_ms, to say what the switch does.",
			"33:3: PFC watchdog polling interval EOS replaces: pfc_watchdog polling_ms = 150 with timeout_ms = 200 and restore_ms = 200: EOS takes a polling interval of at most half the shorter of timeout and recovery-time, 100 ms here, and replaces a longer one with its own. Write polling_ms = 100, or a timeout_ms and restore_ms of 300 or more.",
		}},
		{"EOS recovery-time below twice the polling", edit("qos {\n  pfc_watchdog {\n    restore_ms = 100\n  }\n}\n", "platform = \"cumulus\"", "platform = \"onyx\"", "\"SN2700\"", "\"SN2700\"\n  os_version = \"3.10.4206\"", "swp1-4", "1/1-1/4", "leaf1:swp2", "leaf1:1/2") + eosSpine, []string{
			"34:3: PFC watchdog setting the switch ignores: pfc_watchdog restore_ms is written, but onyx switches cannot honour it: Onyx's pfc-wd command takes no action, timeout or interval and uses its own. Their watchdog runs without it; remove the setting, or set it in the pfc_watchdog block of the switches that honour it.",
			"34:3: PFC watchdog polling interval EOS replaces: pfc_watchdog polling_ms = 100 with timeout_ms = 200 and restore_ms = 100: EOS takes a polling interval of at most half the shorter of timeout and recovery-time, 50 ms here, and replaces a longer one with its own. Write polling_ms = 50, or a timeout_ms and restore_ms of 200 or more.",
		}},
		{"times every switch takes", edit("qos {\n  pfc_watchdog {\n    timeout_ms = 300\n    polling_ms = 100\n    restore_ms = 400\n  }\n}\n" + eosSpine), []string{
			"33:3: PFC watchdog setting the switch ignores: pfc_watchdog restore_ms is written, but cumulus switches cannot honour it: NVUE has no restore timer: it restores PFC after one polling interval without pause frames. Their watchdog runs without it; remove the setting, or set it in the pfc_watchdog block of the switches that honour it.",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, got := lowerSrc(t, tc.src)
			var kept []string
			for _, d := range got {
				if strings.Contains(d, "PFC watchdog") {
					kept = append(kept, d)
				}
			}
			if !reflect.DeepEqual(kept, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(kept), joinLines(tc.want))
			}
		})
	}
}
