package sim_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/scrapli/scrapligo/driver/options"
	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

func TestPublicKeyAuth(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := sim.Start(context.Background(), sim.Options{Name: "leaf1", Platform: model.PlatformEOS,
		Users: map[string]string{testUser: "unused-pw"}, AuthorizedKeys: []ssh.PublicKey{sshPub}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	drv, err := open(t, d, "arista_eos", options.WithAuthPassword(""), options.WithAuthPrivateKey(keyFile, ""))
	if err != nil {
		t.Fatalf("key login: %v", err)
	}
	if out := cmd(t, drv, "show version"); !strings.Contains(out, "4.32.2F") {
		t.Errorf("show version = %q", out)
	}
}

func TestConcurrentSessionsOneDevice(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := 1; i <= 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			drv, err := open(t, d, "arista_eos")
			if err != nil {
				errs <- err
				return
			}
			mr, err := drv.SendConfigs([]string{fmt.Sprintf("interface Ethernet%d/1", i), fmt.Sprintf("mtu %d", 9000+i)})
			if err == nil && mr.Failed != nil {
				err = mr.Failed
			}
			if err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	run := d.Running()
	for i := 1; i <= 4; i++ {
		if want := fmt.Sprintf("interface Ethernet%d/1\n   mtu %d\n", i, 9000+i); !strings.Contains(run, want) {
			t.Errorf("running-config lacks %q", want)
		}
	}
}

func TestStartErrors(t *testing.T) {
	if _, err := sim.Start(context.Background(), sim.Options{Platform: model.PlatformEOS}); err == nil || !strings.Contains(err.Error(), "Name") {
		t.Errorf("no name: err = %v", err)
	}
	if _, err := sim.Start(context.Background(), sim.Options{Name: "x", Platform: "junos"}); err == nil || !strings.Contains(err.Error(), "not simulated") {
		t.Errorf("bad platform: err = %v", err)
	}
}
