package sim

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/internal/newfile"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim/cli"
)

// Lab is one simulated switch per switch of a fabric, on 127.0.0.1, with
// the files a client needs in Dir: inventory.hcl (fabricc's inventory),
// known_hosts and secrets/<switch> (the random password of user "admin",
// mode 0600). `fabricc lab` and the client tests start it.
type Lab struct {
	Dir     string
	Devices []*LabDevice
	fabric  *model.Fabric
	// unlock releases the folder's lock (lockLab).
	unlock func()
}

// LabDevice is one switch of a Lab.
type LabDevice struct {
	*Device
	Switch *model.Switch
	// Options are what the simulator was started with (users left out).
	Options Options
	// SecretFile is the path of the file holding the password.
	SecretFile string
}

// LabUser is the login name of every lab switch.
const LabUser = "admin"

// StartLab starts a simulator for every switch of f and writes the lab's
// files into dir. Each switch has the LLDP neighbors of its cables
// (LabNeighbors). adjust, when not nil, may change each switch's
// simulator options (another OS release, faults, a miscabled port with
// Options.Miscable) before it starts.
// Close stops every simulator.
//
// dir must be new, empty or a folder an earlier lab wrote (CheckLabDir),
// and no other lab may serve from it: StartLab holds a lock in it until
// Close.
func StartLab(ctx context.Context, f *model.Fabric, dir string, adjust func(*Options)) (*Lab, error) {
	if err := CheckLabDir(dir); err != nil {
		return nil, err
	}
	if err := labFolders(dir); err != nil {
		return nil, err
	}
	unlock, err := lockLab(dir)
	if err != nil {
		return nil, err
	}
	// Again under the lock: another lab may have written in between.
	if err := CheckLabDir(dir); err != nil {
		unlock()
		return nil, err
	}
	l := &Lab{Dir: dir, fabric: f, unlock: unlock}
	var inv, kh strings.Builder
	inv.WriteString(labHeader + "\n" +
		"known_hosts = \"known_hosts\"\n\ndefaults {\n  username        = \"" + LabUser + "\"\n  command_timeout = \"30s\"\n}\n")
	for i := range f.Switches {
		sw := &f.Switches[i]
		d, err := l.start(ctx, sw, adjust)
		if err != nil {
			l.Close()
			return nil, err
		}
		host, port, _ := strings.Cut(d.Addr(), ":")
		fmt.Fprintf(&inv, "\ndevice %q {\n  address       = %q\n  port          = %s\n  platform      = %q\n  password_file = %q\n  groups        = [%q, %q]\n}\n",
			sw.Name, host, port, sw.Platform, filepath.Join("secrets", sw.Name), string(sw.Platform), role(sw))
		kh.WriteString(d.KnownHostsLine() + "\n")
	}
	for name, data := range map[string]string{"known_hosts": kh.String(), "inventory.hcl": inv.String()} {
		if err := writeNew(filepath.Join(dir, name), []byte(data)); err != nil {
			l.Close()
			return nil, err
		}
	}
	return l, nil
}

// labHeader is the first line of a lab's inventory.hcl: CheckLabDir
// takes a folder whose inventory.hcl starts with it for an earlier lab's.
const labHeader = "# Written by `fabricc lab`: simulated switches on 127.0.0.1."

// labLockName is the lock file a running lab holds in its folder.
const labLockName = ".lab.lock"

// CheckLabDir refuses a folder a lab must not write into: one that holds
// anything but an earlier lab's files (its inventory.hcl, known_hosts,
// secrets/ of files, its lock, and the temporary files of an
// interrupted write). The lab writes inventory.hcl there: in a fabric's
// folder it would be read as part of the fabric, and elsewhere it could
// replace someone's own inventory or secrets. A folder that does not
// exist yet, or is empty, is fine.
func CheckLabDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("the lab folder %s: %w", dir, err)
	}
	var foreign []string
	for _, e := range entries {
		name := e.Name()
		ok := false
		switch {
		case name == "inventory.hcl" && e.Type().IsRegular():
			ok = labInventory(filepath.Join(dir, name))
		case name == "known_hosts" && e.Type().IsRegular(), name == labLockName && e.Type().IsRegular():
			ok = true
		case name == "secrets" && e.IsDir():
			ok = onlyFiles(filepath.Join(dir, name))
		case strings.HasPrefix(name, ".lab-") && e.Type().IsRegular():
			ok = true
		}
		if !ok {
			foreign = append(foreign, name)
		}
	}
	if len(foreign) == 0 {
		return nil
	}
	sort.Strings(foreign)
	if len(foreign) > 3 {
		foreign = append(foreign[:3], "...")
	}
	return fmt.Errorf("%s holds files that fabricc lab did not write (%s); give a new or empty folder, or one an earlier lab wrote", dir, strings.Join(foreign, ", "))
}

// labInventory reports whether the file at path is a lab's inventory:
// its first line is labHeader.
func labInventory(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, len(labHeader)+1)
	n, _ := io.ReadFull(f, buf)
	return string(buf[:n]) == labHeader+"\n"
}

// onlyFiles reports whether the folder dir holds regular files only, or
// symbolic links (a lab replaces a secret's name, never writes through
// it).
func onlyFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 {
			return false
		}
	}
	return true
}

// labFolders makes dir and dir/secrets, or checks them when they exist:
// real folders (not links), which no other user may write into (a
// password file there could be swapped or read), secrets 0700.
func labFolders(dir string) error {
	secrets := filepath.Join(dir, "secrets")
	if err := os.MkdirAll(secrets, 0o700); err != nil {
		return err
	}
	for _, d := range []string{dir, secrets} {
		fi, err := os.Lstat(d)
		if err != nil {
			return err
		}
		if !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 {
			return fmt.Errorf("%s is not a folder only you can write (it is a link, or group or others may write in it); give --dir a new folder", d)
		}
	}
	return os.Chmod(secrets, 0o700)
}

// writeNew writes data as a 0600 file at path through newfile.Replace:
// an existing file, or a link planted there, is replaced rather than
// written through (or left readable).
func writeNew(path string, data []byte) error {
	return newfile.Replace(path, "lab-", 0o600, data)
}

// role is the lab inventory's group for a switch's place in the fabric:
// "leaves" when a host is cabled to it, else "spines" (so the README's
// `--limit 'leaf*,spines'` works against a lab).
func role(sw *model.Switch) string {
	for _, p := range sw.Ports {
		if p.Peer != nil && p.Peer.Kind == "host" {
			return "leaves"
		}
	}
	return "spines"
}

func (l *Lab) start(ctx context.Context, sw *model.Switch, adjust func(*Options)) (*LabDevice, error) {
	pw, err := randomPassword()
	if err != nil {
		return nil, err
	}
	opts := SwitchOptions(sw)
	opts.Neighbors = LabNeighbors(l.fabric, sw)
	if adjust != nil {
		adjust(&opts)
	}
	secret := filepath.Join(l.Dir, "secrets", sw.Name)
	if err := writeNew(secret, []byte(pw+"\n")); err != nil {
		return nil, err
	}
	withUser := opts
	withUser.Users = map[string]string{LabUser: pw}
	d, err := Start(ctx, withUser)
	if err != nil {
		return nil, fmt.Errorf("switch %s: %w", sw.Name, err)
	}
	ld := &LabDevice{Device: d, Switch: sw, Options: opts, SecretFile: secret}
	l.Devices = append(l.Devices, ld)
	return ld, nil
}

// Inventory is the path of the lab's inventory file.
func (l *Lab) Inventory() string { return filepath.Join(l.Dir, "inventory.hcl") }

// KnownHosts is the path of the lab's known_hosts file.
func (l *Lab) KnownHosts() string { return filepath.Join(l.Dir, "known_hosts") }

// Close stops every simulator of the lab and releases its folder.
func (l *Lab) Close() {
	for _, d := range l.Devices {
		_ = d.Close()
	}
	if l.unlock != nil {
		l.unlock()
		l.unlock = nil
	}
}

func randomPassword() (string, error) {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// LabDomain is the DNS domain of a lab's hosts: their LLDP system name
// is their FQDN in it, as lldpd sends by default.
const LabDomain = "lab.example.net"

// LabNeighbors are the LLDP neighbors of sw's ports in a lab of fabric
// f: on every cabled port, the peer as it advertises itself. A switch
// sends its name and its interface name as Port ID (EOS "Ethernet1/1",
// as ANTA's and napalm's samples show; Onyx "Eth1/1", the form Cray-HPE
// canu's Onyx test data shows for a neighbor's port; Cumulus "swp1",
// whose lldpd sends ifname, with the same Port Description: Cumulus
// Linux user guide, "Link Layer Discovery Protocol"). A host is taken to
// run lldpd with its defaults (lldpcli(8), "configure system hostname",
// "configure lldp portidsubtype"): its FQDN (in LabDomain) as System
// Name, a MAC address as Port ID, its interface name as Port
// Description.
func LabNeighbors(f *model.Fabric, sw *model.Switch) map[string][]cli.Neighbor {
	out := map[string][]cli.Neighbor{}
	for _, p := range sw.Ports {
		if p.Peer == nil {
			continue
		}
		var n cli.Neighbor
		switch p.Peer.Kind {
		case "host":
			h := f.Host(p.Peer.Device)
			if h == nil {
				continue
			}
			iface := ""
			for _, nic := range h.NICs {
				if nic.Name == p.Peer.Port {
					iface = nic.Interface
				}
			}
			mac := labMAC(h.Name + "/" + p.Peer.Port)
			n = cli.Neighbor{SystemName: h.Name + "." + LabDomain, ChassisID: mac, PortID: mac, PortIDMAC: true,
				PortDescription: iface, SystemDescription: "Linux"}
		default:
			peer := f.Switch(p.Peer.Device)
			if peer == nil {
				continue
			}
			n = cli.Neighbor{SystemName: peer.Name, ChassisID: labMAC(peer.Name), PortID: p.Peer.Port}
			switch peer.Platform {
			case model.PlatformEOS:
				n.SystemDescription = "Arista Networks EOS version " + peer.OSVersion + " running on an Arista Networks DCS-" + peer.Hardware.Model
			case model.PlatformOnyx:
				n.PortID = "Eth" + p.Peer.Port
				n.SystemDescription = "Onyx " + peer.OSVersion
			case model.PlatformCumulus:
				n.PortDescription = p.Peer.Port
				n.SystemDescription = "Cumulus Linux version " + peer.OSVersion + " running on Mellanox Technologies Ltd. " + peer.Hardware.Model
			}
		}
		out[p.Name] = append(out[p.Name], n)
	}
	return out
}

// labMAC is a locally administered MAC address that name always gets.
func labMAC(name string) string {
	h := sha256.Sum256([]byte(name))
	return fmt.Sprintf("02:%02x:%02x:%02x:%02x:%02x", h[0], h[1], h[2], h[3], h[4])
}
