//go:build linux

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// plainLeaves are the leaves of the n-switch benchmark fabric: 62 of
// every pod of 64 switches.
func plainLeaves(n int) int { return n * 62 / 64 }

// writePlain writes the leaves, hosts and host cables of the n-switch
// benchmark fabric as one file of plain blocks, as a script that writes
// a fabric out block by block would: the same platforms in turn, 32
// hosts a leaf (every other with a second NIC), the same NICs and cable
// lengths, without the spines. It returns the file and its size.
func writePlain(dir string, n int) (string, int64) {
	p := filepath.Join(dir, "plain-"+strconv.Itoa(n)+".hcl")
	f, err := os.Create(p)
	if err != nil {
		fail(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprint(w, "fabric \"plain\" {\n",
		"  accept \"ecn-minimum-above-dcqcn-bound\" {\n    reason = \"benchmark fabric\"\n  }\n}\n\nqos {\n  profile = \"nvidia-roce\"\n  headroom { lossless_mtu = 4096 }\n}\n\nvlan \"rack\" {\n  id = 100\n}\n")
	platforms := []struct{ platform, model, os, port string }{
		{"eos", "7050SX3-48YC8", "4.32.2F", "Ethernet%d"}, {"onyx", "SN2410", "3.10.4206", "1/%d"}, {"cumulus", "SN3420", "5.9.2", "swp%d"},
	}
	cables := []int{1, 2, 3, 2, 1, 5, 3, 7}
	for l := range plainLeaves(n) {
		pl := platforms[l%3]
		fmt.Fprintf(w, "\nswitch \"leaf%04d\" {\n  platform   = %q\n  model      = %q\n  os_version = %q\n", l, pl.platform, pl.model, pl.os)
		for port := 1; port <= 48; port++ {
			fmt.Fprintf(w, "\n  port %q {\n    speed = \"25G\"\n    mtu   = 9214\n    mode  = \"access\"\n    vlans = [100]\n  }\n", fmt.Sprintf(pl.port, port))
		}
		fmt.Fprint(w, "}\n")
		for h := range 32 {
			fmt.Fprintf(w, "\nhost \"h%04d-%02d\" {\n  os = \"linux\"\n", l, h)
			for nic := range 1 + h%2 {
				fmt.Fprintf(w, "\n  nic \"roce%d\" {\n    model     = \"ConnectX-5\"\n    interface = \"ens1f%dnp%d\"\n    driver    = \"inbox\"\n    speed     = \"25G\"\n    mtu       = 9000\n    addresses = [\"10.%d.%d.%d/24\"]\n  }\n",
					nic, nic, nic, nic*16+l/256, l%256, 10+h)
			}
			fmt.Fprint(w, "}\n")
			for nic := range 1 + h%2 {
				port := fmt.Sprintf(pl.port, h+1)
				if nic == 1 {
					port = fmt.Sprintf(pl.port, 33+h/2)
				}
				fmt.Fprintf(w, "\nlink {\n  a      = \"leaf%04d:%s\"\n  b      = \"h%04d-%02d:roce%d\"\n  length = %d\n}\n", l, port, l, h, nic, cables[(l+h+nic)%8])
			}
		}
	}
	if err := w.Flush(); err != nil {
		fail(err)
	}
	if err := f.Close(); err != nil {
		fail(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		fail(err)
	}
	return p, st.Size()
}

// plainRow validates the plain-block form of the n-switch fabric once,
// after a sync, against validate of bench/fabric at the same size.
func plainRow(t *table, dir string, n int, validate time.Duration) {
	p, size := writePlain(dir, n)
	defer os.Remove(p)
	syncDisk()
	r, err := measure([]string{"FABRICC_TIMINGS=1"}, *fabricc, "validate", "--large", p)
	if err != nil {
		fail(err)
	}
	tv := timings(r.stderr)
	devices := countDevices(r.stderr)
	t.add("validate, the leaves and hosts as plain blocks", strconv.Itoa(n), secs(r.wall), mb(r.rssMB),
		fmt.Sprintf("one file of %.0f MB; parse %.1f, evaluate %.1f, compile %.1f", float64(size)/1e6, tv["parse"]/1000, tv["evaluate"]/1000, tv["compile"]/1000),
		"", "", perDevice(r.wall, devices), fmt.Sprintf("%.1fx validate of bench/fabric", r.wall.Seconds()/validate.Seconds()))
}
