package devsem

import (
	"fmt"
	"strconv"
	"strings"
)

// eosState is what a ReadEOS pass carries besides the result.
type eosState struct {
	sw *Switch
	// port and queue are the open "interface" and "tx-queue" blocks.
	port    *Port
	queue   int
	native  map[*Port]int
	pfcOn   map[*Port]bool
	noDrop  map[*Port]map[int]bool
	profile map[string]int64 // MMU queue profile name -> ingress headroom
	inMMU   string
	applied string
	dscpTC  map[int]int
}

// ReadEOS applies an EOS configuration (running-config form: "!"
// comments, indented sub-commands) and returns the resulting state.
func ReadEOS(text string) (*Switch, error) {
	st := &eosState{sw: &Switch{}, queue: -1, native: map[*Port]int{}, pfcOn: map[*Port]bool{},
		noDrop: map[*Port]map[int]bool{}, profile: map[string]int64{}, dscpTC: map[int]int{}}
	for n, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "!") {
			continue
		}
		indent := len(raw) - len(strings.TrimLeft(raw, " "))
		if err := st.apply(indent, line); err != nil {
			return nil, fmt.Errorf("line %d %q: %w", n+1, line, err)
		}
	}
	st.finish()
	return st.sw, nil
}

// apply runs one line in the block its indentation puts it in.
func (st *eosState) apply(indent int, line string) error {
	f := strings.Fields(line)
	if indent == 0 {
		st.port, st.queue, st.inMMU = nil, -1, ""
		return st.global(line, f)
	}
	switch {
	case st.inMMU != "":
		return st.mmu(f)
	case st.port == nil:
		return nil
	case indent <= 3 && len(f) == 2 && (f[0] == "tx-queue" || f[0] == "uc-tx-queue"): // uc-: Trident, Tomahawk
		q, err := strconv.Atoi(f[1])
		st.queue = q
		return err
	case indent > 3 && st.queue >= 0:
		return st.txQueue(f)
	}
	st.queue = -1
	return st.iface(line, f)
}

// global handles a top-level line.
func (st *eosState) global(line string, f []string) error {
	switch {
	case len(f) == 2 && f[0] == "interface":
		st.port = st.sw.port(f[1])
	case len(f) == 6 && strings.HasPrefix(line, "platform trident mmu queue profile "):
		st.inMMU = f[5]
	case len(f) == 7 && strings.HasPrefix(line, "platform trident mmu queue profile ") && f[6] == "apply":
		// AVD platform-apply.j2: "platform trident mmu queue profile NAME apply".
		st.applied = f[5]
	case len(f) >= 6 && strings.HasPrefix(line, "qos map dscp ") && f[len(f)-3] == "to" && f[len(f)-2] == "traffic-class":
		tc, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			return err
		}
		for _, d := range f[3 : len(f)-3] {
			v, err := strconv.Atoi(d)
			if err != nil {
				return err
			}
			st.dscpTC[v] = tc
		}
	}
	return nil
}

// iface handles a line of an interface block. EOS "switchport trunk
// allowed vlan LIST" replaces the list, "add"/"remove" change it (AVD
// ethernet-interfaces.j2 renders the list form; the add form is in intel
// mfd-switchmanagement's EOS tests); the native VLAN is carried untagged.
func (st *eosState) iface(line string, f []string) error {
	p := st.port
	switch {
	case line == "no switchport":
		p.Mode = "routed"
	case line == "switchport mode trunk":
		p.Mode = "trunk"
		if p.Tagged == nil {
			p.AllVLANs = true
		}
	case len(f) == 4 && strings.HasPrefix(line, "switchport access vlan "):
		v, err := strconv.Atoi(f[3])
		p.Untagged = v
		return err
	case len(f) == 5 && strings.HasPrefix(line, "switchport trunk native vlan "):
		v, err := strconv.Atoi(f[4])
		st.native[p] = v
		return err
	case len(f) >= 5 && strings.HasPrefix(line, "switchport trunk allowed vlan "):
		return onyxAllowed(p, f[4:]) // same list grammar: none, all, add, remove, LIST
	case line == "priority-flow-control on":
		st.pfcOn[p] = true
	case len(f) == 4 && f[0] == "priority-flow-control" && f[1] == "priority" && f[3] == "no-drop":
		v, err := strconv.Atoi(f[2])
		if st.noDrop[p] == nil {
			st.noDrop[p] = map[int]bool{}
		}
		st.noDrop[p][v] = true
		return err
	}
	return nil
}

// txQueue reads "random-detect ecn minimum-threshold A UNIT
// maximum-threshold B UNIT ..." (AVD ethernet-interface-tx-queues.j2: the
// unit follows each threshold). Only "bytes" is read: EOS does not
// publish whether its "kbytes" is 1000 or 1024 bytes.
func (st *eosState) txQueue(f []string) error {
	if len(f) < 8 || f[0] != "random-detect" || f[1] != "ecn" || f[2] != "minimum-threshold" || f[5] != "maximum-threshold" {
		return nil
	}
	if f[4] != "bytes" || f[7] != "bytes" {
		return fmt.Errorf("ECN thresholds in %s/%s; only bytes has a published size", f[4], f[7])
	}
	lo, err1 := strconv.ParseInt(f[3], 10, 64)
	hi, err2 := strconv.ParseInt(f[6], 10, 64)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("ECN thresholds are not numbers")
	}
	st.port.ECN[st.queue] = ECN{MinBytes: lo, MaxBytes: hi}
	return nil
}

// mmu reads a line of a "platform trident mmu queue profile" block:
// "ingress headroom [UNIT] N" (AVD platform-trident.j2). Headroom is the
// buffer a lossless priority group keeps above its pause threshold for
// the bytes that arrive after PFC is sent (SAI saibuffer.h,
// SAI_BUFFER_PROFILE_ATTR_XOFF_TH: "headroom"); only the "bytes" unit is
// read.
func (st *eosState) mmu(f []string) error {
	if len(f) < 3 || f[0] != "ingress" || f[1] != "headroom" {
		return nil
	}
	if len(f) != 4 || f[2] != "bytes" {
		return fmt.Errorf("ingress headroom without the bytes unit")
	}
	n, err := strconv.ParseInt(f[3], 10, 64)
	st.profile[st.inMMU] = n
	return err
}

// finish applies PFC, the native VLAN, the DSCP map and the applied MMU
// profile to every port.
func (st *eosState) finish() {
	headroom, applied := st.profile[st.applied]
	st.sw.DeviceHeadroom = !applied
	for _, p := range st.sw.Ports {
		if st.pfcOn[p] {
			p.PFC = sortedSet(st.noDrop[p])
		}
		if p.Mode == "trunk" {
			eosNative(p, st.native[p])
		}
		if len(st.dscpTC) > 0 {
			p.DSCPToTC = st.dscpTC
		}
		if applied && len(p.PFC) > 0 {
			p.Lossless[-1] = PG{SizeBytes: headroom}
		}
	}
}

// eosNative moves the native VLAN out of the tagged list: EOS sends it
// untagged when it is allowed on the trunk (VLAN 1 unless "switchport
// trunk native vlan" says otherwise).
func eosNative(p *Port, native int) {
	if native == 0 {
		native = 1
	}
	if p.AllVLANs {
		p.Untagged = native
		return
	}
	var tagged []int
	for _, v := range p.Tagged {
		if v == native {
			p.Untagged = native
			continue
		}
		tagged = append(tagged, v)
	}
	p.Tagged = tagged
	if p.Tagged == nil {
		p.Tagged = []int{}
	}
}
