package cumulus

import (
	"sync"
	"testing"

	"github.com/fabricc/fabricc/sim/cli"
)

// TestPagerReadsNoStateUnlocked: a session's Pager, which the server
// calls after Exec has returned and released the device lock, reads no
// device state, while another session applies the pager on and off
// (`make test` runs sim/ under the race detector, which reports the read
// of the applied configuration Pager made before).
func TestPagerReadsNoStateUnlocked(t *testing.T) {
	ports := []cli.Port{{Name: "swp1", SpeedG: 100}}
	d := New(cli.Options{Name: "leaf1", Model: "SN2700", Version: "5.9.2", Ports: ports})
	a := d.NewShell(cli.Session{User: "cumulus", Rows: 10})
	b := d.NewShell(cli.Session{User: "cumulus", Rows: 10})
	a.Exec("nv show interface -o json")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 20 {
			for _, line := range []string{"nv set system cli pagination state enabled", "nv config apply -y",
				"nv set system cli pagination state disabled", "nv config apply -y"} {
				b.Exec(line)
			}
		}
	}()
	for range 200 {
		a.Pager()
	}
	wg.Wait()
}
