package linux

import (
	"fmt"
	"slices"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// vlanPruneBlock is the prelude block that marks the VLAN interfaces the
// script makes and removes those of its own the fabric no longer names:
// after a NIC's VLAN moves (2 -> 3), the old interface keeps its address
// and egress map until a reboot, and with the same subnet on both the
// kernel has two connected routes for one prefix and may send RoCE out
// of the old VLAN (RDMA-CM picks its netdev by that route). The mark is
// the interface alias (ip-link(8), "ip link set", alias NAME; the kernel's
// /sys/class/net/IF/ifalias, Documentation/ABI/testing/sysfs-class-net):
// only a VLAN interface that carries it is removed (ip-link(8), "ip link
// delete"); an unmarked one, an operator's or one an earlier build made
// before the mark, is only named with the command that removes it.
const vlanPruneBlock = `# VLAN_MARK is the alias (ip-link(8), ip link set ... alias NAME) this script
# gives each VLAN interface the fabric names: vlan_prune removes a VLAN
# interface of a NIC only when it carries the mark, so an operator's own
# VLAN interfaces stay.
VLAN_MARK=fabricc-host-settings

# vlan_alias IF: the alias of IF (/sys/class/net/IF/ifalias), none, or absent.
vlan_alias() {
	local a
	a=$(read_sys "/sys/class/net/$1/ifalias")
	printf '%s' "${a:-none}"
}

# vlan_children PARENT: "NAME PROTOCOL ID" of each VLAN interface on
# PARENT, one a line (ip -d -o link show type vlan: "N: NAME@PARENT: ...
# vlan protocol 802.1Q id ID ...", the first such words: an alias, which
# may say anything, comes after them).
vlan_children() {
	ip -d -o link show type vlan 2>/dev/null | awk -v p="$1" '$1 ~ /^[0-9]+:$/ {
		n = $2
		sub(/:$/, "", n)
		i = index(n, "@")
		if (i == 0 || substr(n, i + 1) != p) next
		proto = "802.1Q"; id = "?"
		for (j = 3; j < NF; j++) if ($j == "id" && $(j - 2) == "protocol" && id == "?") { proto = $(j - 1); id = $(j + 1) }
		print substr(n, 1, i - 1), proto, id
	}' || true
}

# vlan_in_boot_copy PARENT VL: true when the copy --install left
# ($BOOT_COPY), of an earlier build, makes VL on PARENT: its NIC's steps
# set ifc to PARENT (local ifc=PARENT) and call vlan_ensure with $ifc, the
# VLAN ID and VL. A build from before the mark made VL without it.
vlan_in_boot_copy() {
	[[ -f $BOOT_COPY ]] || return 1
	awk -v p="$1" -v v="$2" '$1 == "local" && $2 ~ /^ifc=/ { cur = substr($2, 5) }
		$1 == "vlan_ensure" && $2 == "\"$ifc\"" && $4 == v && cur == p { f = 1 }
		END { exit !f }' "$BOOT_COPY" 2>/dev/null
}

# vlan_prune PARENT [KEEP...]: the VLAN interfaces on PARENT other than
# the KEEP ones, every interface and VLAN interface a NIC of the host names
# (so that one this NIC made before and another NIC now names, or whose
# name another NIC now uses, is never removed under it): one fabricc made
# (its mark, or the boot copy of an earlier build makes it) goes (ip link
# delete), which --check reports and --dry-run prints; any other is left
# with a warning that gives the command, since fabricc cannot tell it is
# its own.
vlan_prune() {
	local parent=$1 vl proto id
	shift
	while read -r vl proto id; do
		[[ -n $vl && " $* " != *" $vl "* ]] || continue
		if [[ $(vlan_alias "$vl") == "$VLAN_MARK" ]] || vlan_in_boot_copy "$parent" "$vl"; then
			ensure "$vl" vlan absent "$proto id $id on $parent (made by fabricc)" ip link del dev "$vl"
		else
			printf 'warning: %s: VLAN interface (%s id %s on %s) that the fabric does not name, without fabricc'"'"'s mark (alias %s), left as it is; if an earlier fabricc build made it, it keeps that VLAN'"'"'s addresses and egress map: remove it with %s\n' "$vl" "$proto" "$id" "$parent" "$VLAN_MARK" "$(cmd_text ip link del dev "$vl")"
		fi
	done <<<"$(vlan_children "$parent")"
}`

// vlanMarkBlock is the prelude block of a script with a VLAN: vlan_mark.
const vlanMarkBlock = `# vlan_mark PARENT ID VL: gives VL fabricc's mark (VLAN_MARK) once it is
# the VLAN interface vlan_ensure wants; nothing where it is another device
# (vlan_ensure reported that), nor under --check where it is missing.
vlan_mark() {
	local info
	info=$(vlan_info "$3")
	if [[ $info == absent && $MODE == check ]] || [[ $info != absent && $info != "802.1Q id $2 on $1" ]]; then
		return 0
	fi
	ensure "$3" 'alias (fabricc'"'"'s mark)' "$VLAN_MARK" "$(vlan_alias "$3")" ip link set dev "$3" alias "$VLAN_MARK"
}`

// writeVLANPrune writes the NIC's vlan_prune line: the VLAN interfaces
// fabricc made on its interface that the fabric no longer names go before
// vlan_ensure makes the one it names, which the kernel refuses while
// another VLAN interface on the parent has the same VLAN ID. The names
// the host's other NICs use stay too (pruneKeep).
func writeVLANPrune(b *script, f *model.Fabric, n *model.NIC) {
	b.nic(n, "vlan")
	b.alsoVLANIf(n)
	b.WriteString("\t# The VLAN interfaces fabricc made on it that the fabric no longer names go.\n")
	keep, others := pruneKeep(f.Host(b.host), n)
	if others {
		b.WriteString("\t# The interfaces and VLAN interfaces the host's other NICs name stay.\n")
	}
	b.WriteString("\tvlan_prune \"$ifc\"")
	for _, name := range keep {
		b.WriteString(" " + quote.ShellWord(name))
	}
	b.WriteString("\n")
}

// pruneKeep lists what n's vlan_prune keeps: n's VLAN interface, then,
// in the host's order, the interface and VLAN interface of each other
// NIC, once each; others says whether any of them came from another NIC.
// A VLAN interface n made before (VLAN 5 on p4p1, as p4p1.5 or a
// vlan_interface name) that another NIC now names, as its interface or
// its own VLAN interface, must not be removed by n's steps: removed
// before that NIC's steps, it would be made again in the same run;
// after them, that NIC would be left without it. Where the other NIC
// wants the name on another parent, its vlan_ensure says so, with the
// command that removes it.
func pruneKeep(h *model.Host, n *model.NIC) (keep []string, others bool) {
	add := func(name string) bool {
		if name == "" || name == n.Interface || slices.Contains(keep, name) {
			return false
		}
		keep = append(keep, name)
		return true
	}
	add(vlanName(n))
	if h == nil {
		return keep, false
	}
	for i := range h.NICs {
		m := &h.NICs[i]
		if m.Name == n.Name {
			continue
		}
		for _, name := range []string{m.Interface, m.VLANName()} {
			if add(name) {
				others = true
			}
		}
	}
	return keep, others
}

// writeVLANMark writes the line that marks the NIC's VLAN interface as
// fabricc's (vlan_mark), after vlan_ensure.
func writeVLANMark(b *script, n *model.NIC) {
	b.nic(n, "vlan")
	b.alsoVLANIf(n)
	fmt.Fprintf(b, "\tvlan_mark \"$ifc\" %d %s\n", n.VLAN, vlanName(n))
}
