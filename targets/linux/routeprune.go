package linux

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// routeProto is the routing protocol number the script gives every route
// and rule it writes (ip-route(8) "proto RTPROTO", ip-rule(8) "protocol
// PROTO"): its mark of ownership, by which route_prune finds the routes
// and rules of an earlier run that the fabric no longer has. The kernel
// keeps the number and does not interpret it ("Values of protocol >=
// RTPROT_STATIC are not interpreted by kernel", Linux
// include/uapi/linux/rtnetlink.h). 173 is in no list of the kernel's
// (RTPROT_* there: 0-4, 8-18, 42, 84, 99, 186-192), iproute2's
// (etc/iproute2/rt_protos, and the gated entries 246-254 older copies
// carry in comments) or a routing daemon's that picks its own (FRR
// 186-198, zebra/rt_netlink.h; Calico Felix 80); static (4), which
// NetworkManager and systemd-networkd give the routes they are
// configured with, would have made their routes look like ours.
const routeProto = 173

// routeMarkBlock is the prelude block every script carries: the
// ownership mark and owned_rules, which both ways of removing an earlier
// run's routes and rules use. Every script, since the host of a fabric
// that no longer gives it any route is the one whose routes of an
// earlier build are left.
var routeMarkBlock = `# ROUTE_PROTO marks the routes and rules this script writes (ip-route(8)
# "proto", ip-rule(8) "protocol"; the kernel keeps the number and does not
# interpret it, include/uapi/linux/rtnetlink.h): ` + strconv.Itoa(routeProto) + ` is in no list of
# the kernel's, iproute2's (rt_protos) or a routing daemon's (FRR's 186-198,
# Calico's 80). route_prune and route_flush remove only routes and rules
# that carry it.
ROUTE_PROTO=` + strconv.Itoa(routeProto) + `
REMOVED=0

# RULE_MARK is the mark's words for ip rule add: "protocol ROUTE_PROTO"
# where ip takes the keyword (ip-rule(8) "protocol", iproute2 4.17, "ip:
# Allow rules to accept a specified protocol", with the kernel's
# FRA_PROTOCOL of Linux 4.17; ip rule help lists it), none on an
# older ip, which refuses the word, so such a host's rules carry no mark
# and route_prune removes none of them. IP_NUMERIC is -N where ip takes it
# (ip(8) "-N, -Numeric": the protocol as its number; iproute2 5.3, "ip: add
# a new parameter -Numeric"), so a name for ROUTE_PROTO in rt_protos does
# not hide the mark from owned_rules.
RULE_MARK=()
if [[ $(ip rule help 2>&1) == *"protocol PROTO"* ]]; then
	RULE_MARK=(protocol "$ROUTE_PROTO")
fi
IP_NUMERIC=()
if ip -N -4 rule show >/dev/null 2>&1; then
	IP_NUMERIC=(-N)
fi

# owned_rules FAMILY: the rules that carry ROUTE_PROTO as "PRIO<tab>from SRC
# lookup TABLE", one a line (ip rule show names the protocol as "proto P";
# iproute2 6.1 does not filter rules by protocol itself); none where ip
# cannot mark a rule (RULE_MARK). Without -N, ip prints the name that
# /etc/iproute2/rt_protos or rt_protos.d/*.conf gives ROUTE_PROTO, if any,
# which is accepted too.
owned_rules() {
	local names=" $ROUTE_PROTO "
	((${#RULE_MARK[@]})) || return 0
	if ((!${#IP_NUMERIC[@]})); then
		names+=$(cat /etc/iproute2/rt_protos /etc/iproute2/rt_protos.d/*.conf 2>/dev/null | awk -v p="$ROUTE_PROTO" '$1 == p { printf "%s ", $2 }') || true
	fi
	ip ${IP_NUMERIC[@]+"${IP_NUMERIC[@]}"} "$1" rule show 2>/dev/null | awk -v OFS='\t' -v names="$names" '
		{ mine = 0; f = ""; t = ""; for (i = 2; i < NF; i++) { if ($i == "proto" && index(names, " " $(i + 1) " ")) mine = 1; if ($i == "from") f = $(i + 1); if ($i == "lookup" || $i == "table") t = $(i + 1) }
			if (mine) { sub(/:$/, "", $1); print $1, "from " f " lookup " t } }' || true
}

# rules_prune FAMILY PRIOS: removes the rules of FAMILY that carry
# ROUTE_PROTO at a priority not in PRIOS (space-separated), each by its
# priority and the mark (ip rule del priority P protocol), so another
# rule at the priority stays.
rules_prune() {
	local fam=$1 prios=" $2 " prio rule
	while IFS=$'\t' read -r prio rule; do
		[[ -n $prio && $prios != *" $prio "* ]] || continue
		ensure rules "rule $prio" absent "$rule (fabricc's, proto $ROUTE_PROTO)" ip "$fam" rule del priority "$prio" protocol "$ROUTE_PROTO"
	done <<<"$(owned_rules "$fam")"
}`

// routePruneBlock is the prelude block of a host with a routed NIC:
// route_prune, which keeps the routes and rules the NICs' route steps
// own and removes the other ones of an earlier run.
var routePruneBlock = `# owned_routes FAMILY: the routes of every table that carry ROUTE_PROTO, one
# a line, tab-separated: table (main when ip names none), type (unicast
# unless ip names one), destination, metric (0 when ip shows none), dev
# (- for none), next hop ("inet6 ADDRESS" for an IPv4 route via an IPv6
# one; - for none), and a multipath route's next hops from its nexthop
# lines as "via GW dev IF, via GW dev IF" (- for none).
owned_routes() {
	ip "$1" route show table all proto "$ROUTE_PROTO" 2>/dev/null | awk -v OFS='\t' '
		function flush() { if (r != "") print r, (nh == "" ? "-" : nh); r = "" }
		$1 == "nexthop" { v = ""; d = ""; for (i = 2; i < NF; i++) { if ($i == "via") { v = $(i + 1); if (v == "inet6") v = v " " $(i + 2) } if ($i == "dev") d = $(i + 1) }
			nh = nh (nh == "" ? "" : ", ") (v == "" ? "" : "via " v " ") "dev " d; next }
		NF { flush(); t = "main"; k = "unicast"; m = 0; d = "-"; v = "-"; s = 1; nh = ""
			if ($1 ~ /^(unicast|local|broadcast|multicast|anycast|blackhole|unreachable|prohibit|throw|nat)$/) { k = $1; s = 2 }
			for (i = s + 1; i < NF; i++) { if ($i == "table") t = $(i + 1); if ($i == "metric") m = $(i + 1); if ($i == "dev") d = $(i + 1)
				if ($i == "via") { v = $(i + 1); if (v == "inet6") v = v " " $(i + 2) } }
			r = t OFS k OFS $s OFS m OFS d OFS v }
		END { flush() }' || true
}

# route_prune FAMILY TABLES PRIOS PREFIXES: removes the routes and rules of
# FAMILY that carry ROUTE_PROTO and the fabric no longer has: a default
# route in a table not in TABLES, a main-table route to a prefix not in
# PREFIXES (or at another metric than ip route replace gives: 0 for IPv4,
# 1024 for IPv6), any other route, a rule at a priority not in PRIOS
# (each list space-separated). An earlier run wrote them (a rail
# renumbered, a NIC removed, prefixes merged otherwise), and a stale
# main-table route can keep sending traffic out of the wrong NIC. Each
# removal names the route's own destination, device, metric, table and
# protocol (ip route del; ip rule del priority P protocol), so another
# tool's route to the same prefix, a route without the mark (the
# connected route, a DHCP default) and another rule at the priority stay.
# --check reports each as a difference, --dry-run prints its command.
route_prune() {
	local fam=$1 tables=" $2 " prefixes=" $4 " metric=0 t k p m d v before=$CHANGES
	[[ $fam == -4 ]] || metric=1024
	while IFS=$'\t' read -r t k p m d v nh; do
		[[ -n $t ]] || continue
		if [[ $k == unicast && $t == main && $m == "$metric" && $prefixes == *" $p "* ]] ||
			[[ $k == unicast && $t != main && $p == default && $tables == *" $t "* ]]; then
			continue
		fi
		route_remove "$fam" "$t" "$k" "$p" "$m" "$d" "$v" "$nh"
	done <<<"$(owned_routes "$fam")"
	rules_prune "$fam" "$3"
	REMOVED=$((REMOVED + CHANGES - before))
}

# route_remove FAMILY TABLE TYPE DEST METRIC DEV VIA NEXTHOPS: removes one
# route of owned_routes, named by all it has, through ensure; a multipath
# route is shown by its next hops and labelled with the first one's device.
route_remove() {
	local fam=$1 t=$2 k=$3 p=$4 m=$5 d=$6 v=$7 nh=${8:--} what have cmd label=$6
	what="route $p table $t"
	if [[ $t == main ]]; then
		what="main route $p"
	elif [[ $p == default ]]; then
		what="route table $t"
	fi
	have="dev $d"
	[[ $v == - ]] || have="via $v $have"
	if [[ $nh != - ]]; then
		have="multipath $nh"
		label=${nh#*dev }
		label=${label%%[ ,]*}
	fi
	[[ $what != "route table $t" ]] || have="default $have"
	[[ $k == unicast ]] || have="$k $have"
	cmd=(ip "$fam" route del)
	[[ $k == unicast ]] || cmd+=("$k")
	cmd+=("$p")
	[[ $d == - ]] || cmd+=(dev "$d")
	cmd+=(proto "$ROUTE_PROTO" metric "$m" table "$t")
	ensure "${label/#-/routes}" "$what" absent "$have (fabricc's, proto $ROUTE_PROTO)" "${cmd[@]}"
}`

// routeFlushBlock is the prelude block of a host without a routed NIC,
// in place of routePruneBlock: there every route and rule that carries
// the mark is an earlier run's, so none needs to be told from one the
// fabric has.
var routeFlushBlock = `# route_flush FAMILY: on a host the fabric gives no route, removes every
# route and rule of FAMILY that carries ROUTE_PROTO: an earlier run wrote them
# all. Routes go by destination, in every table, with ip route flush's
# selectors (ip-route(8), "ip route flush": the arguments of ip route show;
# "exact PREFIX", "table all", "proto RTPROTO"), so another tool's route to
# the same prefix and a route without the mark stay; rules go one by one
# (rules_prune), since ip rule show does not select by protocol (iproute2
# 6.1). --check reports each destination as a difference, --dry-run prints
# its command; the summary counts them as route_prune's.
route_flush() {
	local fam=$1 line dest before=$CHANGES
	local -a dests=()
	local -A have=()
	while IFS= read -r line; do
		dest=${line%% *}
		case $dest in
		unicast | local | broadcast | multicast | anycast | blackhole | unreachable | prohibit | throw | nat)
			dest=${line#* }
			dest=${dest%% *}
			;;
		esac
		# ip -o (ip(8) "-o, -oneline") joins a multipath route's lines with " \" and a tab.
		line=${line//$' \\\t'/, }
		line=${line%"${line##*[! ]}"}
		[[ -n $dest ]] || continue
		[[ -n ${have[$dest]+x} ]] || dests+=("$dest")
		have[$dest]+="${have[$dest]:+; }$line"
	done <<<"$(ip -o "$fam" route show table all proto "$ROUTE_PROTO" 2>/dev/null || true)"
	for dest in ${dests[@]+"${dests[@]}"}; do
		ensure routes "route $dest" absent "${have[$dest]} (fabricc's, proto $ROUTE_PROTO)" ip "$fam" route flush exact "$dest" table all proto "$ROUTE_PROTO"
	done
	rules_prune "$fam" ''
	REMOVED=$((REMOVED + CHANGES - before))
}`

// writeRoutePrune writes the host's route_prune lines, one per address
// family, after every NIC's steps (route_flush lines on a host without a
// routed NIC, the condition of useRoute in features): the routes and
// rules the script wrote before that the fabric no longer has go once the
// ones it has are in place, so no destination loses its route on the way.
// Each line lists what the NICs' route steps own in that family: their
// tables, rule priorities and main-table prefixes.
func writeRoutePrune(b *script, h *model.Host) {
	b.At("host", h.Name)
	var routed bool
	for i := range h.NICs {
		if n := &h.NICs[i]; n.Route != nil {
			b.alsoNIC(n, "addresses")
			routed = true
		}
	}
	if !routed {
		b.WriteString("# The routes and rules an earlier run wrote (proto " + strconv.Itoa(routeProto) + ") go: the fabric gives\n# this host none.\nroute_flush -4\nroute_flush -6\n")
		return
	}
	b.WriteString("# The routes and rules an earlier run wrote (proto " + strconv.Itoa(routeProto) + ") that the fabric no\n")
	b.WriteString("# longer has go: the lists are the tables, rule priorities and main-table\n# prefixes the NICs' route steps above own.\n")
	for _, fam := range []string{"-4", "-6"} {
		tables, prios, prefixes := ownedBy(h, fam)
		fmt.Fprintf(b, "route_prune %s %s %s %s\n", fam, shellList(tables), shellList(prios), shellList(prefixes))
	}
}

// ownedBy lists the tables, rule priorities and main-table prefixes of
// the host's NIC routes of family fam ("-4" or "-6"), in NIC order.
func ownedBy(h *model.Host, fam string) (tables, prios, prefixes []string) {
	for i := range h.NICs {
		r := h.NICs[i].Route
		if r == nil || routeFamily(r) != fam {
			continue
		}
		tables = append(tables, strconv.Itoa(r.Table))
		prios = append(prios, strconv.Itoa(r.Priority))
		prefixes = append(prefixes, r.Prefixes...)
	}
	return tables, prios, prefixes
}

// routeFamily is the ip family option of a route: that of its source (an
// IPv4 route via an IPv6 link-local gateway is an IPv4 one, RFC 5549).
func routeFamily(r *model.NICRoute) string {
	if a, err := netip.ParseAddr(r.Source); err == nil && a.Is6() {
		return "-6"
	}
	return "-4"
}

// shellList is words as one shell word, space-separated (two single
// quotes for none).
// The words are numbers and CIDR prefixes validateRoute checked.
func shellList(words []string) string {
	return quote.ShellWord(strings.Join(words, " "))
}
