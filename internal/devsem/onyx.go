package devsem

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// onyxKB is the byte size of Onyx's "KB". Onyx does not define it; NVIDIA
// prints 150000 B as "146.48 KB" on Spectrum switches (Cumulus Linux user
// guide, RDMA over Converged Ethernet - RoCE, `nv show qos roce`), so 1024.
const onyxKB = 1024

// onyxState is what a ReadOnyx pass carries besides the result.
type onyxState struct {
	sw       *Switch
	pfcPrios map[int]bool
	pfcOn    map[string]bool
	dscpSP   map[string]map[int]int
	spTC     map[string]map[int]int
}

// onyxPortLine is "interface ethernet <port or range> <command>".
var onyxPortLine = regexp.MustCompile(`^interface ethernet (\d+/\d+(?:/\d+)?)(?:-(\d+/)?(\d+))? (.+)$`)

// ReadOnyx applies an Onyx CLI file line by line, as the switch does when
// the lines are typed at the (config) prompt, and returns the resulting
// state. Comment lines ("#", "##") are skipped. Lines it does not model
// are ignored; a malformed line it models is an error.
func ReadOnyx(text string) (*Switch, error) {
	st := &onyxState{sw: &Switch{}, pfcPrios: map[int]bool{}, pfcOn: map[string]bool{},
		dscpSP: map[string]map[int]int{}, spTC: map[string]map[int]int{}}
	for n, raw := range strings.Split(text, "\n") {
		line := strings.Join(strings.Fields(raw), " ")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := st.apply(line); err != nil {
			return nil, fmt.Errorf("line %d %q: %w", n+1, line, err)
		}
	}
	st.finish()
	return st.sw, nil
}

// apply runs one global or per-port line.
func (st *onyxState) apply(line string) error {
	if m := onyxPortLine.FindStringSubmatch(line); m != nil {
		for _, name := range onyxRange(m[1], m[2], m[3]) {
			if err := st.port(name, m[4]); err != nil {
				return err
			}
		}
		return nil
	}
	f := strings.Fields(line)
	switch {
	case len(f) == 5 && strings.HasPrefix(line, "dcb priority-flow-control priority ") && f[4] == "enable":
		p, err := strconv.Atoi(f[3])
		st.pfcPrios[p] = true
		return err
	case strings.HasPrefix(line, "traffic pool "):
		// Onyx User Manual, Shared Buffers: the standard (traffic pool)
		// mode hides direct buffer access; the switch sizes each port's
		// lossless headroom itself.
		st.sw.DeviceHeadroom = true
	}
	return nil
}

// onyxRange expands "1/1" or "1/1-1/4" into port names.
func onyxRange(first, _, last string) []string {
	if last == "" {
		return []string{first}
	}
	i := strings.LastIndex(first, "/")
	lo, _ := strconv.Atoi(first[i+1:])
	hi, _ := strconv.Atoi(last)
	var out []string
	for n := lo; n <= hi; n++ {
		out = append(out, first[:i+1]+strconv.Itoa(n))
	}
	return out
}

// port applies one per-port command.
func (st *onyxState) port(name, cmd string) error {
	p := st.sw.port(name)
	f := strings.Fields(cmd)
	switch {
	case cmd == "no switchport force":
		p.Mode, p.Untagged, p.AllVLANs, p.Tagged = "routed", 0, false, nil
	case len(f) == 3 && f[0] == "switchport" && f[1] == "mode":
		onyxMode(p, f[2])
	case len(f) == 4 && strings.HasPrefix(cmd, "switchport access vlan "):
		v, err := strconv.Atoi(f[3])
		p.Untagged = v
		return err
	case len(f) >= 4 && f[0] == "switchport" && f[2] == "allowed-vlan":
		return onyxAllowed(p, f[3:])
	case cmd == "dcb priority-flow-control mode on force":
		st.pfcOn[name] = true
	case len(f) >= 6 && strings.HasPrefix(cmd, "qos map dscp ") && f[len(f)-3] == "to" && f[len(f)-2] == "switch-priority":
		return st.mapDSCP(name, f[3:len(f)-3], f[len(f)-1])
	case len(f) >= 5 && f[0] == "traffic-class" && f[2] == "bind" && f[3] == "switch-priority":
		return st.bind(name, f[1], f[4:])
	case len(f) >= 4 && f[0] == "ingress-buffer" && f[2] == "map":
		return onyxPG(p, f)
	case len(f) == 8 && f[0] == "traffic-class" && f[2] == "congestion-control" && f[4] == "minimum-absolute" && f[6] == "maximum-absolute":
		return onyxECN(p, f)
	}
	return nil
}

// onyxMode sets the switchport mode. A trunk port is a member of every
// VLAN until its allowed list is narrowed: running-config shows the
// implicit "switchport trunk allowed-vlan all", and removing a VLAN turns
// it into "allowed-vlan none" plus one "allowed-vlan add N" per VLAN
// (Emulab snmpit_mellanox.pm, which drives Onyx switches). A hybrid port
// carries its access VLAN untagged and only the VLANs added to it tagged
// (mellanox.onyx onyx_l2_interface: hybrid ports use "allowed-vlan add").
func onyxMode(p *Port, mode string) {
	switch mode {
	case "trunk":
		p.Mode, p.AllVLANs, p.Tagged = "trunk", true, nil
	case "hybrid":
		p.Mode, p.AllVLANs, p.Tagged = "trunk", false, []int{}
	default:
		p.Mode, p.AllVLANs, p.Tagged = "access", false, nil
	}
}

// onyxAllowed applies "allowed-vlan none | all | add L | remove L | L".
// "add" and "remove" change the list; a bare list replaces it, so one
// bare line per VLAN leaves only the last VLAN (the defect of issue 9).
func onyxAllowed(p *Port, args []string) error {
	switch args[0] {
	case "none":
		p.AllVLANs, p.Tagged = false, []int{}
		return nil
	case "all":
		p.AllVLANs, p.Tagged = true, nil
		return nil
	}
	op := "replace"
	if args[0] == "add" || args[0] == "remove" {
		op, args = args[0], args[1:]
	}
	ids, err := vlanList(strings.Join(args, ","))
	if err != nil {
		return err
	}
	set := map[int]bool{}
	if op != "replace" {
		if p.AllVLANs {
			return fmt.Errorf("%s on a trunk that allows every VLAN; start from allowed-vlan none", op)
		}
		for _, v := range p.Tagged {
			set[v] = true
		}
	}
	for _, v := range ids {
		set[v] = op != "remove"
	}
	p.AllVLANs, p.Tagged = false, sortedSet(set)
	return nil
}

// vlanList expands "10,20-22" (commas or spaces) into ids.
func vlanList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("VLAN %q is not a number", part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("VLAN range %q is not LOW-HIGH", part)
			}
		}
		for v := a; v <= b; v++ {
			out = append(out, v)
		}
	}
	return out, nil
}

// onyxPG reads "ingress-buffer iPort.pgN map pool P type lossless
// reserved R xoff X xon Y shared alpha A". Onyx's advanced buffer
// commands program the Spectrum PBMC register, where the buffer size is
// the reserved bytes, xoff is the occupancy above which the port sends
// PFC and xon the occupancy below which it stops (Linux mlxsw reg.h,
// reg_pbmc_buf_size / buf_xoff_threshold / buf_xon_threshold); the room
// for in-flight bytes is size - xoff, as mlxsw programs size = threshold
// + delay (spectrum.c, __mlxsw_sp_port_headroom_set). RoCE deployment
// guides show the same shape: xoff = xon of about two jumbo frames under a
// larger reserved (Demartek RoCE Deployment Guide, step 9: reserved 90000
// xoff 17000 xon 17000).
func onyxPG(p *Port, f []string) error {
	kv := map[string]string{}
	for i := 3; i+1 < len(f); i++ {
		kv[f[i]] = f[i+1]
	}
	if kv["type"] != "lossless" {
		return nil
	}
	idx, err := strconv.Atoi(strings.TrimPrefix(f[1], "iPort.pg"))
	if err != nil {
		return fmt.Errorf("priority group %q is not iPort.pgN", f[1])
	}
	var g PG
	for _, v := range []struct {
		key string
		dst *int64
	}{{"reserved", &g.SizeBytes}, {"xoff", &g.XoffBytes}, {"xon", &g.XonBytes}} {
		n, err := strconv.ParseInt(kv[v.key], 10, 64)
		if err != nil {
			return fmt.Errorf("lossless %s without a byte count", v.key)
		}
		*v.dst = n
	}
	p.Lossless[idx] = g
	return nil
}

// onyxECN reads "traffic-class T congestion-control ecn minimum-absolute
// A maximum-absolute B", thresholds in KB (mellanox.onyx onyx_traffic_class:
// "value (in KBs)"; show output prints "1550 KB").
func onyxECN(p *Port, f []string) error {
	tc, err1 := strconv.Atoi(f[1])
	lo, err2 := strconv.ParseInt(f[5], 10, 64)
	hi, err3 := strconv.ParseInt(f[7], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || f[3] != "ecn" {
		return fmt.Errorf("ECN line is not traffic-class T congestion-control ecn minimum-absolute KB maximum-absolute KB")
	}
	p.ECN[tc] = ECN{MinBytes: lo * onyxKB, MaxBytes: hi * onyxKB}
	return nil
}

// mapDSCP records "qos map dscp LIST to switch-priority SP".
func (st *onyxState) mapDSCP(port string, list []string, sp string) error {
	s, err := strconv.Atoi(sp)
	if err != nil {
		return err
	}
	if st.dscpSP[port] == nil {
		st.dscpSP[port] = map[int]int{}
	}
	for _, d := range list {
		v, err := strconv.Atoi(d)
		if err != nil {
			return err
		}
		st.dscpSP[port][v] = s
	}
	return nil
}

// bind records "traffic-class TC bind switch-priority LIST".
func (st *onyxState) bind(port, tc string, list []string) error {
	t, err := strconv.Atoi(tc)
	if err != nil {
		return err
	}
	if st.spTC[port] == nil {
		st.spTC[port] = map[int]int{}
	}
	for _, s := range list {
		v, err := strconv.Atoi(s)
		if err != nil {
			return err
		}
		st.spTC[port][v] = t
	}
	return nil
}

// finish sets what needs every line: PFC from the global priorities and
// the port's mode, and the DSCP -> queue map. Onyx's default maps are
// DSCP 8n..8n+7 -> switch priority n and switch priority n -> traffic
// class n (mellanox.onyx test fixture show_qos_interface_ethernet.cfg;
// att/netarbiter RoCE_Deployment.md: "Traffic over DSCP 26 is mapped to
// switch-priority 3 by default").
func (st *onyxState) finish() {
	for name, p := range st.sw.Ports {
		if st.pfcOn[name] {
			p.PFC = sortedSet(st.pfcPrios)
		}
		p.DSCPToTC = map[int]int{}
		for d := 0; d < 64; d++ {
			sp := d / 8
			if v, ok := st.dscpSP[name][d]; ok {
				sp = v
			}
			tc := sp
			if v, ok := st.spTC[name][sp]; ok {
				tc = v
			}
			p.DSCPToTC[d] = tc
		}
	}
}
