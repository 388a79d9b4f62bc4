package push

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/util"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestConnectFailureWords (review rsre, finding 13): a switch that
// fails at login is said in words, not in scrapligo's internal names
// (errTimeoutError, errConnectionError), and the other switches of an
// all-or-nothing push name the cause: "no answer" for a switch that
// answered SSH and then hung or hung up (check the switch, not routing),
// "login refused" for refused credentials, not "no connection".
func TestConnectFailureWords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kind  sim.FaultKind
		error string // after "connect NAME (ADDR): "
		cause string
	}{
		{"hangs", sim.FaultHang, "logged in, but no prompt within the command timeout (5s; command_timeout in the inventory)", "no answer"},
		{"hangs up", sim.FaultDrop, "logged in, but the connection closed before the first prompt", "no answer"},
		{"refuses the login", sim.FaultReject, "", "login refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fl := startFleet(t, map[model.Platform]sim.Faults{model.PlatformEOS: {Stage: &sim.StageFault{Login: true, Kind: tc.kind}}})
			rep := fl.run(t, Options{})
			var down string
			for i, d := range rep.Devices {
				if fl.targets[i].Switch.Platform != model.PlatformEOS {
					continue
				}
				down = d.Device
				prefix := "connect " + d.Device + " (" + d.Address + "): "
				if d.Status != StatusFailed || !strings.HasPrefix(d.Error, prefix) || tc.error != "" && d.Error != prefix+tc.error {
					t.Errorf("%s: %s %q, want failed, %q", d.Device, d.Status, d.Error, prefix+tc.error)
				}
				if strings.Contains(d.Error, "errTimeoutError") || strings.Contains(d.Error, "errConnectionError") {
					t.Errorf("%s: scrapligo's names in %q", d.Device, d.Error)
				}
			}
			want := "not applied, all or nothing: " + down + " failed (" + tc.cause + "); to push without it, --limit '!" + down + "'"
			for _, d := range rep.Devices {
				if d.Device != down && (d.Status != StatusAborted || !strings.HasPrefix(d.Error, want)) {
					t.Errorf("%s: %s %q, want aborted, %q (%s)", d.Device, d.Status, d.Error, want, rep.Devices[len(rep.Devices)-1].Error)
				}
			}
		})
	}
}

// TestHomeErrorWords: a failed return to the enable prompt (before a
// release of the lock, a rollback) says what happened in words, as Send
// does, not "errConnectionError".
func TestHomeErrorWords(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{util.ErrConnectionError, "the connection closed"},
		{io.EOF, "the connection closed"},
		{fmt.Errorf("%w: channel timeout sending input to device", util.ErrTimeoutError), "no prompt within the command timeout (30s; command_timeout in the inventory)"},
	} {
		err := homeError(tc.err, 30*time.Second)
		if err.Error() != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("homeError(%v) = %q, want %q wrapping it", tc.err, err, tc.want)
		}
	}
}
