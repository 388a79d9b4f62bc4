package linux

import (
	"strings"

	"github.com/fabricc/fabricc/model"
)

// prelude is the fixed part of every generated script, in blocks: option
// parsing and the helpers the per-NIC steps call. Every change goes
// through ensure, which compares the intended with the actual value first,
// so a second run changes nothing; --check only reads and reports,
// --dry-run only prints. A script carries only the blocks its steps call
// (helpers, writePrelude): need is the feature a block serves, 0 for the
// blocks every script calls (--tuning can ask for tuning on any host).
var prelude = []preludeBlock{
	{0, `MODE=apply
BOOT=none
ANY_HOST=0
PRINT_UNIT=0
if [[ ${FABRICC_ANY_HOST:-} == 1 ]]; then
	ANY_HOST=1
fi

usage() {
	cat <<EOF
Usage: $0 [--check | --dry-run] [--tuning] [--install | --uninstall]
       [--any-host] [--changed-exit N] [--print-unit] [--help]

Applies the host side of the fabric's lossless RoCE contract.
  (no option)  apply every step whose current value differs (run as root)
  --check      only read the current state; print one line per difference
               (interface, what, intended, actual) and exit 3 if any
  --dry-run    print the commands a run would execute; change nothing
               (with --install or --uninstall: also the files it would
               write or remove and the systemctl commands)
  --tuning     also apply the optional host tuning (CPU governor, memlock)
  --install    apply as a plain run does; if that succeeds, make it survive
               a reboot: copy this script to $BOOT_COPY
               (mode 0755) and enable the systemd unit $BOOT_UNIT,
               which runs that copy at every boot, after the NICs'
               interfaces exist, before the network is online and the
               RDMA-CM consumers start (needs systemd; a second
               --install only applies again)
  --uninstall  disable and remove that unit and the copy; the settings in
               force stay as they are until the next reboot
  --any-host   run on a host whose name is not $HOST_NAME (the same as
               FABRICC_ANY_HOST=1 in the environment): by default the
               script stops before its first change (exit 1), and --check
               reports a difference, where uname -n (its first label, case
               ignored) is another name
  --changed-exit N
               exit N (3-125) instead of 0 when a run changed something
               (with --dry-run: would change something), for configuration
               management that tells "changed" from "unchanged" by status
  --print-unit print the systemd unit --install writes and exit, changing
               nothing: the same for every host with the same NICs, for a
               shared node image
  --help       show this text
Nothing this script sets survives a reboot by itself: without --install,
run it at every boot by other means. --check notes ("note: boot:") that
the unit is not installed or not enabled without counting it as a
difference, since the script may well run at boot by other means; a unit
or copy that is installed but from another build is a difference (the
next boot would apply that build's settings), which --install repairs,
and so does a plain run: it updates an installed copy or unit of another
build to this one ("note: boot:"), since the next boot would apply it.
The fabric's addresses are the only permanent global IPv4/IPv6 addresses
of the interface that carries them: any other (a stale one, or the same
address with another prefix length) is a difference, which a run removes
with ip addr del. Addresses with a lifetime ("dynamic" in ip addr: SLAAC,
DHCP leases), link-local addresses (fe80::/10) and the interfaces the
fabric does not name are left alone, but for a VLAN interface on a NIC
that fabricc made and the fabric no longer names (alias fabricc-host-settings,
or made by the --install copy of an earlier build): a run removes it
(ip link del) and --check reports it; one fabricc did not make gets a
warning with that command.
The routes and rules the script writes carry protocol 173 (ip-route(8)
"proto", ip-rule(8) "protocol"): a run removes those that the fabric no
longer has (ip route del, or ip route flush on a host the fabric gives no
route; ip rule del; --check reports them), and leaves every route and rule
without that mark. A route or rule that is already what the fabric wants
but lacks the mark (netplan's, NetworkManager's, an administrator's, or
one a fabricc build before the mark wrote) counts as matching and is left
to whoever wrote it: never marked, never removed.
Where ip rule does not take "protocol" (iproute2 before 4.17) the rules
are written without the mark, and a run removes none of them.
A step the NIC's driver does not offer on a virtual device is reported
"skipped:", and --check then says that it checked the rest only.
Each NIC's steps run on their own: a step that fails stops the rest of
that NIC's steps only, the other NICs are still set, and the run ends
naming the NICs that failed.
Each change a run applies is also logged to the system log (logger -t
fabricc-host-settings), except under the boot unit, whose output the
journal keeps anyway.
Exit status: 0 done, nothing to do, or (--check) no difference; 1 error
(a failed step prints "fabricc: error:" with the interface, the step and
the command); 2 bad option; 3 --check found differences; N a run that
changed something, with --changed-exit N.
EOF
}

CHANGED_EXIT=0
ARGS=("$@")
ARGI=0
while [[ $ARGI -lt ${#ARGS[@]} ]]; do
	arg=${ARGS[ARGI]}
	ARGI=$((ARGI + 1))
	case "$arg" in
	--changed-exit | --changed-exit=*)
		if [[ $arg == --changed-exit ]]; then
			arg=--changed-exit=${ARGS[ARGI]:-}
			ARGI=$((ARGI + 1))
		fi
		CHANGED_EXIT=${arg#--changed-exit=}
		if ! [[ $CHANGED_EXIT =~ ^[0-9]{1,3}$ ]] || ((10#$CHANGED_EXIT < 3 || 10#$CHANGED_EXIT > 125)); then
			printf 'fabricc: --changed-exit takes a number from 3 to 125 (0, 1 and 2 are taken; 126 and up are the shell'"'"'s), not %q\n' "$CHANGED_EXIT" >&2
			exit 2
		fi
		CHANGED_EXIT=$((10#$CHANGED_EXIT))
		;;
	--check | --dry-run)
		if [[ $MODE != apply ]]; then
			printf 'fabricc: use only one of --check and --dry-run\n' >&2
			exit 2
		fi
		MODE=${arg#--}
		;;
	--install | --uninstall)
		if [[ $BOOT != none ]]; then
			printf 'fabricc: use only one of --install and --uninstall\n' >&2
			exit 2
		fi
		BOOT=${arg#--}
		;;
	--tuning) TUNING=1 ;;
	--any-host) ANY_HOST=1 ;;
	--print-unit) PRINT_UNIT=1 ;;
	--help | -h)
		usage
		exit 0
		;;
	*)
		printf 'fabricc: unknown option %s; see --help\n' "$arg" >&2
		exit 2
		;;
	esac
done
if [[ $MODE == check && $BOOT != none ]]; then
	printf 'fabricc: --check reads only; use --%s alone or with --dry-run\n' "$BOOT" >&2
	exit 2
fi
if [[ $MODE == check && $CHANGED_EXIT != 0 ]]; then
	printf 'fabricc: --check changes nothing and exits 3 on differences; use --changed-exit with a run or --dry-run\n' >&2
	exit 2
fi

DIFFS=0
CHANGES=0
SKIPS=0
BOOT_STALE=0
BOOT_CHANGED=0
# The interfaces whose steps stopped on an error (nic_leave), and those
# lldpad manages, whose DCB steps a run leaves out (dcbx_check).
FAILED=()
DCB_HELD=()

# dcb_held_run: true in a run that left some NIC's DCB steps out, which
# then installs nothing and exits 1.
dcb_held_run() {
	[[ ${#DCB_HELD[@]} -gt 0 && $MODE == apply ]]
}

# die MESSAGE: stops with status 1; in a NIC's steps (nic_enter) it stops
# that NIC's steps only.
die() {
	printf 'fabricc: error: %s\n' "$*" >&2
	exit 1
}

# under_unit: true when the boot unit runs this script: the unit sets
# FABRICC_BOOT_UNIT=1, and systemd sets INVOCATION_ID for what it starts
# (systemd.exec(5), "Environment Variables in Spawned Processes"); a
# process a service starts inherits INVOCATION_ID, hence the unit's mark.
under_unit() { [[ -n ${INVOCATION_ID:-} && ${FABRICC_BOOT_UNIT:-} == 1 ]]; }

# journal TEXT: TEXT to the system log, tagged fabricc-host-settings
# (logger(1)), so that a manual or configuration-management run leaves a
# trace of what it changed; not under the boot unit, whose output the
# journal keeps already, and nothing where logger is absent.
journal() {
	if under_unit || ! command -v logger >/dev/null 2>&1; then
		return 0
	fi
	logger -t fabricc-host-settings -- "$*" >/dev/null 2>&1 || true
}
note() { printf 'note: %s\n' "$*"; }
skip() {
	printf 'skipped: %s\n' "$*"
	SKIPS=$((SKIPS + 1))
}
manual() { printf 'manual: %s\n' "$*"; }

# diff IF WHAT WANT HAVE: one --check line per difference.
diff_line() {
	printf 'DIFF %s %s: intended %s; actual %s\n' "$1" "$2" "$3" "$4"
	DIFFS=$((DIFFS + 1))
}

# shell_word WORD: WORD as a shell reads it back, quoted (printf %q) unless
# it is only safe characters.
shell_word() {
	if [[ $1 =~ ^[A-Za-z0-9_./:,=+@%-]+$ ]]; then
		printf '%s' "$1"
	else
		printf '%q' "$1"
	fi
}

# cmd_text CMD...: the command as one could paste it into a root shell;
# write_value FILE VALUE is shown as the echo it does.
cmd_text() {
	local a line=
	if [[ $1 == write_value ]]; then
		printf 'echo %s > %s' "$(shell_word "$3")" "$(shell_word "$2")"
		return 0
	fi
	for a in "$@"; do
		line+=" $(shell_word "$a")"
	done
	printf '%s' "${line# }"
}

# show_cmd CMD...: the --dry-run line of a command.
show_cmd() { printf 'would run: %s\n' "$(cmd_text "$@")"; }

# ensure IF WHAT WANT HAVE CMD...: runs CMD only when HAVE differs from WANT.
ensure() {
	local ifc=$1 what=$2 want=$3 have=$4
	shift 4
	if [[ $have == "$want" ]]; then
		return 0
	fi
	case $MODE in
	check)
		if [[ $what == pfc ]]; then
			pfc_diff "$ifc" "$what" "$want" "$have"
		else
			diff_line "$ifc" "$what" "$want" "$have"
		fi
		;;
	dry-run)
		show_cmd "$@"
		CHANGES=$((CHANGES + 1))
		;;
	*)
		printf 'set %s %s: %s -> %s\n' "$ifc" "$what" "$have" "$want"
		# The tool's own message goes to standard error first; the script
		# then stops with status 1, naming the step and the command. A
		# warning the tool prints on standard output is passed on.
		local rc=0 out
		out=$("$@") || rc=$?
		tool_warnings "$ifc" "$1" "$out"
		if [[ $rc -ne 0 ]]; then
			die "$ifc $what: $(cmd_text "$@") failed with exit status $rc"
		fi
		journal "set $ifc $what: $have -> $want"
		CHANGES=$((CHANGES + 1))
		;;
	esac
}

# tool_warnings IF TOOL OUTPUT: each line of OUTPUT that says WARNING, as
# a note. mlnx_qos prints "WARNING: lldpad service is running and may
# overwrite your settings" when lldpad runs (mlnx-tools python/mlnx_qos).
tool_warnings() {
	local line
	while IFS= read -r line; do
		if [[ $line == *WARNING* ]]; then
			line=${line//\*/}
			line=${line#"${line%%[![:space:]]*}"}
			line=${line%"${line##*[![:space:]]}"}
			note "$1: $2 warns: $line"
		fi
	done <<<"$3"
}`},
	{useNIC, `# fail IF WHAT WANT HAVE FIX: a state the script must not repair by itself.
fail() {
	case $MODE in
	check) diff_line "$1" "$2" "$3" "$4" ;;
	dry-run) note "$1 $2 is $4, not $3: a run would stop here; $5" ;;
	*) die "$1 $2 is $4, not $3: $5" ;;
	esac
}`},
	{0, hostGuard},
	{0, `need_root() {
	if [[ $MODE != dry-run && $EUID -ne 0 ]]; then
		die "run as root (or use --dry-run to only print the commands)"
	fi
}

# need_tool TOOL PACKAGE: stop early, naming the package to install.
need_tool() {
	if command -v "$1" >/dev/null 2>&1; then
		return 0
	fi
	if [[ $MODE == dry-run ]]; then
		note "$1 not found (install $2); the dry run goes on"
		return 0
	fi
	die "$1 not found: install $2"
}

`},
	{useDriverTool, `# need_driver_tool IF TOOL PACKAGE: the tool is needed only on a real NIC.
need_driver_tool() {
	if is_physical "$1"; then
		need_tool "$2" "$3"
	fi
}`},
	{useNIC, `# Each NIC's steps run in a command substitution, a subshell, so that a
# step that stops (die: a failed command, a state the script must not
# repair) ends that NIC's steps only and the other NICs are still set:
#   { set +e; NIC_COUNTS=$(nic_enter; nic_N >&3); nic_leave IF $?; } 3>&1
# The steps' output goes to fd 3, the script's standard output; the
# subshell hands the counters back on its own (fd 4, since a die inside
# "nic_N >&3" still has fd 1 on 3). nic_leave names a NIC that stopped
# for the end (finish), which then exits 1.
NIC_COUNTS=
nic_enter() {
	exec 4>&1
	trap 'printf "%d %d %d" "$CHANGES" "$DIFFS" "$SKIPS" >&4' EXIT
	set -e
}

# nic_leave IF STATUS: takes the counters back, notes a NIC that stopped,
# and whether NetworkManager manages IF (nm_note).
nic_leave() {
	set -e
	read -r CHANGES DIFFS SKIPS <<<"$NIC_COUNTS"
	if [[ $2 -ne 0 ]]; then
		FAILED+=("$1")
	fi
	nm_note "$1"
}

# nm_note IF: a note when NetworkManager manages IF (its GENERAL.STATE is
# not 10 "unmanaged"; nmcli(1), "device show"): it re-applies its own MTU
# and addresses whenever it reconfigures the link, over this script's.
nm_note() {
	local state
	command -v nmcli >/dev/null 2>&1 || return 0
	state=$(nmcli -t -f GENERAL.STATE device show "$1" 2>/dev/null | sed -n 's/^GENERAL\.STATE://p') || true
	if [[ -z $state || $state == 10\ * || $state == 0\ * ]]; then
		return 0
	fi
	note "$1: NetworkManager manages it (state $state): it puts its own MTU and addresses back whenever it reconfigures the link (nmcli device reapply, a connection brought up, a restart of NetworkManager); give its connection the fabric's MTU and addresses, or leave the interface unmanaged (nmcli device set $1 managed no)"
}`},
	{useNIC, `link_exists() { [[ -e /sys/class/net/$1 ]]; }`},
	{0, `write_value() { printf '%s\n' "$2" >"$1"; }`},
	{useNIC, `is_physical() { [[ -e /sys/class/net/$1/device ]]; }`},
	{0, `
# read_sys FILE: FILE's value; absent when there is no FILE, unreadable
# when reading it fails (kernel lockdown refuses debugfs files that have
# write permission, kernel_lockdown(7); a link that is down refuses its
# speed), never an empty value that could pass for one.
read_sys() {
	local v
	if [[ ! -e $1 ]]; then
		printf 'absent'
	elif v=$(cat "$1" 2>/dev/null); then
		printf '%s' "$v"
	else
		printf 'unreadable'
	fi
}`},
	{useNIC, `# missing_link IF: false when the NIC's steps must be left out.
missing_link() {
	case $MODE in
	check)
		diff_line "$1" link present absent
		return 1
		;;
	dry-run)
		note "$1 is not present here; showing every step"
		return 0
		;;
	*) die "interface $1 not found: load its driver, or fix the nic's interface attribute in the fabric" ;;
	esac
}`},
	{useNIC, `# nic_guard IF: false, after a fail line, when IF is not a port this script
# may configure: a member of a bond, team or bridge (/sys/class/net/IF/master;
# its addresses belong on the master, and README's Scope leaves bonds out),
# an SR-IOV virtual function (/sys/class/net/IF/device/physfn), whose
# DCB is its physical function's (mlx5 gives a VF no dcbnl: Linux
# drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c, mlx5e_dcbnl_build_netdev),
# or the master of a bond, team or bridge (master_guard). A port of a VRF
# (Linux Documentation/networking/vrf.rst: "ip link set dev eth0 master
# vrf-blue") is refused too, for what it is: its subnet's routes are the
# VRF's table's, while the script writes the main table and, given as T,
# the NIC's own table.
nic_guard() {
	local m t
	if [[ -e /sys/class/net/$1/master ]]; then
		m=$(readlink -f "/sys/class/net/$1/master") || true
		m=${m##*/}
		if t=$(vrf_table "$m"); then
			vrf_fail "$1" "$m" "$t" "${2:-}"
			return 1
		fi
		fail "$1" 'port role' 'a port of its own' "a member of ${m:-a master device}" "fabricc does not configure bonds, teams or bridges (README, Scope): configure ${m:-the master} by hand, or take $1 out of it or out of the fabric"
		return 1
	fi
	if [[ -e /sys/class/net/$1/device/physfn ]]; then
		fail "$1" 'port role' 'a physical function' 'an SR-IOV virtual function' "a VF has no DCB of its own (PFC, ETS and trust are the physical function's): name the physical function's interface in the fabric, or leave the VF out"
		return 1
	fi
	master_guard "$1"
}

# vrf_table DEV: the routing table of DEV when it is a VRF device, false
# otherwise: ip -d link show prints a VRF's kind and table on its details
# line, "vrf table 10 addrgenmode eui64" (Linux
# Documentation/networking/vrf.rst, "List VRFs"; ip-link(8), type vrf).
vrf_table() {
	local t
	[[ -n $1 ]] || return 1
	t=$(ip -d link show dev "$1" 2>/dev/null | awk '$1 == "vrf" && $2 == "table" { print $3; exit }') || true
	[[ -n $t ]] || return 1
	printf '%s' "$t"
}

# vrf_fail IF VRF TABLE [T]: the fail line of a NIC enslaved to a VRF: its
# connected routes live in the VRF's table (ip-vrf(8)), and the script's
# routes (T: the NIC's own table, when it has a route) would miss them.
vrf_fail() {
	local routes="fabricc configures $1 for the main routing table, not a VRF's"
	[[ -z ${4:-} ]] || routes="the script's routes go to the main table and table $4, not the VRF's (table $3)"
	fail "$1" 'port role' 'a port of its own' "enslaved to VRF $2 (ip -d link show $2: a vrf device, table $3)" "$routes; take $1 out of the VRF (ip link set dev $1 nomaster) or leave this NIC out of the fabric"
}

# master_guard IF: false, after a fail line, when IF is the master of other
# ports: a bond (/sys/class/net/IF/bonding, whose slaves file lists them:
# Linux Documentation/networking/bonding.rst, "Configuring Bonding Manually
# via Sysfs"), or a team or bridge (the team driver has no sysfs directory
# of its own; any master has a lower_PORT link to each port whose own
# master link points back). Such a device has no DCB (no dcbnl, so every
# DCB step would be skipped as a virtual device's): RoCE LAG's RDMA device
# mlx5_bond_N sends on the slaves, with their PFC, trust and ETS (MLNX_OFED
# user manual, "RoCE LAG"), which this script would leave as they are.
master_guard() {
	local kind ports
	ports=$(master_ports "$1")
	if [[ -e /sys/class/net/$1/bonding ]]; then
		kind=bond
		ports=$(read_sys "/sys/class/net/$1/bonding/slaves")
		ports=$(printf '%s' "$ports" | tr -s ' \n' '  ')
		ports=${ports% }
		[[ $ports != absent && $ports != unreadable ]] || ports=
	elif [[ -z $ports ]]; then
		return 0
	elif [[ -e /sys/class/net/$1/bridge ]]; then
		kind=bridge
	else
		kind=team
	fi
	fail "$1" 'port role' 'a port of its own' "a $kind over ${ports:-no ports}" "fabricc does not configure bonds, teams, bridges or RoCE LAG (README, Scope; MLNX_OFED user manual, RoCE LAG): $1 has no PFC, trust or ETS of its own, its ports' count, and lossless traffic would run with PFC off: set PFC, trust and ETS on ${ports:-each port} by hand, or leave $1 out of the fabric"
	return 1
}

# master_ports IF: the ports IF is the master of, space-separated: lower_PORT
# links whose PORT's master is IF (a bond's, team's or bridge's ports; not
# a VLAN device's parent, whose master is not the VLAN).
master_ports() {
	local l self ports=()
	self=$(readlink -f "/sys/class/net/$1") || return 0
	for l in "/sys/class/net/$1"/lower_*; do
		[[ -e $l/master && $(readlink -f "$l/master") == "$self" ]] || continue
		ports+=("${l##*/lower_}")
	done
	printf '%s' "${ports[*]}"
}

# link_check IF [MBPS]: --check only: carrier and negotiated speed
# (/sys/class/net/IF/carrier, and speed in Mb/s, when the model has one),
# which no run can change; a difference names what to look at instead.
link_check() {
	local c s
	[[ $MODE == check ]] || return 0
	if ! is_physical "$1"; then
		skip "$1: carrier and speed (virtual device; only a real NIC negotiates a speed)"
		return 0
	fi
	c=$(read_sys "/sys/class/net/$1/carrier")
	if [[ $c != 1 ]]; then
		[[ $c != 0 ]] || c=down
		diff_line "$1" carrier up "$c"
		manual "$1: no link, which a run cannot fix: check the cable or transceiver, the switch port (enabled, speed, breakout) and autonegotiation (ethtool $1)"
		return 0
	fi
	s=$(read_sys "/sys/class/net/$1/speed")
	if [[ -n ${2:-} && $s != "$2" ]]; then
		diff_line "$1" 'speed (Mb/s)' "$2" "$s"
		manual "$1: the link came up at $s Mb/s, which a run cannot fix: check the cable or transceiver, the switch port's speed and breakout, and autonegotiation (ethtool $1)"
	fi
}`},
	{useCapable, `# capable IF WHAT FIX TEST...: true when the driver offers WHAT (TEST
# succeeds). A virtual device (veth, no /sys/class/net/IF/device) skips the
# step; on a real NIC the missing feature is an error.
capable() {
	local ifc=$1 what=$2 fix=$3
	shift 3
	if "$@" >/dev/null 2>&1; then
		return 0
	fi
	if [[ $MODE == dry-run ]] && ! link_exists "$ifc"; then
		return 0
	fi
	if ! is_physical "$ifc"; then
		skip "$ifc: $what (virtual device; only a real NIC's driver offers it)"
		return 1
	fi
	fail "$ifc" "$what" supported unsupported "$fix"
	return 1
}`},
	{useNIC, `link_state() {
	local flags
	flags=$(ip -o link show dev "$1" 2>/dev/null | sed -n 's/^[^<]*<\([^>]*\)>.*/\1/p') || true
	if [[ -z $flags ]]; then
		printf 'absent'
	elif [[ ,$flags, == *,UP,* ]]; then
		printf 'up'
	else
		printf 'down'
	fi
}`},
	{useAddr, `addr_state() {
	if ip -o addr show dev "$1" 2>/dev/null | awk -v a="$2" '($3 == "inet" || $3 == "inet6") && $4 == a { f = 1 } END { exit !f }'; then
		printf 'present'
	else
		printf 'absent'
	fi
}

# addr_extra IF ADDR...: the permanent global-scope addresses of IF other
# than the ADDRs, one a line; link-local ones (fe80::/10) never, whatever
# their scope. An address with a finite lifetime, flagged "dynamic" by ip
# (the kernel's IFA_F_PERMANENT unset: SLAAC, or a DHCP client's lease
# installed with valid_lft), belongs to that daemon and is left alone: it
# would add it back after each run. The flags stand between the scope and
# the label (IPv4, "fab0\") or the "\" that ends ip -o's first line.
addr_extra() {
	local ifc=$1
	shift
	ip -o addr show dev "$ifc" scope global 2>/dev/null | awk -v keep="$*" '
		BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 }
		($3 == "inet" || $3 == "inet6") && !($4 in want) && tolower($4) !~ /^fe[89ab][0-9a-f]:/ {
			dyn = 0
			for (i = 5; i <= NF && $i != "valid_lft" && $i !~ /\\$/; i++) if ($i == "dynamic") dyn = 1
			if (!dyn) print $4
		}' || true
}

# addr_prune IF ADDR...: removes the global-scope addresses of IF the model
# does not list (addr_extra). It runs before the model's addresses are
# added: deleting a primary IPv4 address also deletes the secondaries of
# its subnet (unless promote_secondaries), which the adds then restore.
addr_prune() {
	local ifc=$1 a extra
	shift
	mapfile -t extra <<<"$(addr_extra "$ifc" "$@")"
	for a in "${extra[@]}"; do
		[[ -n $a ]] || continue
		ensure "$ifc" "address $a" absent present ip addr del "$a" dev "$ifc"
	done
}`},
	{useNIC, vlanPruneBlock},
	{useVLAN, vlanMarkBlock},
	{useVLAN, `# vlan_info IF: "802.1Q id N on PARENT", or absent.
vlan_info() {
	local out parent id
	out=$(ip -d -o link show dev "$1" 2>/dev/null) || true
	if [[ -z $out ]]; then
		printf 'absent'
		return 0
	fi
	parent=$(sed -n 's/^[0-9]*: [^@:]*@\([^:]*\):.*/\1/p' <<<"$out")
	id=$(sed -n 's/.* vlan protocol 802\.1Q id \([0-9]*\) .*/\1/p' <<<"$out")
	printf '802.1Q id %s on %s' "${id:-none}" "${parent:-none}"
}

# vlan_egress IF: the non-zero egress-qos-map entries, ascending, or none.
vlan_egress() {
	local maps
	maps=$(ip -d -o link show dev "$1" 2>/dev/null | sed -n 's/.*egress-qos-map { \([^}]*\)}.*/\1/p') || true
	maps=$(tr ' ' '\n' <<<"$maps" | awk -F: 'NF == 2 && $2 != 0' | sort -t: -k1,1n | tr '\n' ' ') || true
	maps=${maps% }
	printf '%s' "${maps:-none}"
}

# vlan_ensure PARENT ID NAME WANT MAP...: the VLAN interface with its map.
vlan_ensure() {
	local parent=$1 id=$2 vl=$3 want=$4 info
	shift 4
	info=$(vlan_info "$vl")
	if [[ $info == absent ]]; then
		ensure "$vl" vlan "802.1Q id $id on $parent" absent \
			ip link add link "$parent" name "$vl" type vlan id "$id" egress-qos-map "$@"
		return 0
	fi
	if [[ $info != "802.1Q id $id on $parent" ]]; then
		fail "$vl" vlan "802.1Q id $id on $parent" "$info" "delete it (ip link del $vl) or change the fabric"
		return 0
	fi
	ensure "$vl" egress-qos-map "$want" "$(vlan_egress "$vl")" \
		ip link set dev "$vl" type vlan egress-qos-map "$@"
}`},
	{usePause, `pause_get() {
	local out
	out=$(ethtool -a "$1" 2>/dev/null) || true
	awk '/^Autonegotiate:/ { an = $2 } /^RX:/ { rx = $2 } /^TX:/ { tx = $2 }
		END { printf "autoneg %s rx %s tx %s", an, rx, tx }' <<<"$out"
}`},
	{useDcb | useQede, `# dcb_get IF OBJECT KEY: the KEY mappings of "dcb OBJECT show", ascending.
dcb_get() {
	local out
	out=$(dcb -N "$2" show dev "$1" "$3" 2>/dev/null) || true
	out=${out#"$3"}
	out=$(tr -s '[:space:]' '\n' <<<"$out" | awk 'NF' | sort -t: -k1,1n -k2,2n | tr '\n' ' ') || true
	out=${out% }
	printf '%s' "${out:-none}"
}

# dcbx_flags IF: the DCBX flags "dcb dcbx show" prints, on one line
# ("host ieee"); false where the driver has no DCBX op.
dcbx_flags() {
	local out
	out=$(dcb dcbx show dev "$1" 2>/dev/null) || return 1
	out=$(tr -s '[:space:]' ' ' <<<"$out") || true
	out=${out# }
	printf '%s' "${out% }"
}`},
	{useQede, `# qede_pfc IF WANT: --check's read of the PFC a QLogic FastLinQ adapter
# negotiated by DCBX in its firmware, which Linux does not set here. qede
# reports it (dcb pfc show) only while DCBX is operational in IEEE mode,
# and reports no DCBX flags while DCBX is not operational (Linux
# drivers/net/ethernet/qlogic/qed/qed_dcbx.c, qed_dcbnl_get_ieee_pfc and
# qed_dcbnl_getdcbx): that is no PFC, a difference; CEE, which dcb
# cannot read, is a skipped step. A run and --dry-run read nothing.
qede_pfc() {
	local ifc=$1 want=$2 have flags
	if [[ $MODE != check ]]; then
		return 0
	fi
	if ! command -v dcb >/dev/null 2>&1; then
		skip "$ifc: negotiated PFC (dcb not found: it needs iproute2 5.11 or later, ip -V prints the installed release; wanted $want)"
		return 0
	fi
	# No dcbnl: skipped on a virtual device, a difference on a real NIC.
	capable "$ifc" "DCB (dcbnl)" "load qede, whose dcbnl iproute2's dcb reads" dcbx_flags "$ifc" || return 0
	have=$(dcb_get "$ifc" pfc prio-pfc)
	if [[ $have == none ]]; then
		flags=$(dcbx_flags "$ifc") || true
		if [[ " $flags " == *" cee "* ]]; then
			skip "$ifc: negotiated PFC (the adapter runs DCBX CEE, which dcb cannot read; wanted $want)"
			return 0
		fi
		have="none (DCBX is not operational: the switch port advertises no PFC, or DCBX is off in UEFI)"
	fi
	if [[ $have != "$want" ]]; then
		diff_line "$ifc" 'negotiated PFC' "$want" "$have"
	fi
}`},
	{useDcb, `
# dcb_ets IF: "tc-tsa 0:T ... tc-bw 0:B ...", as set. TC bandwidth is only
# for ETS, and mlx5 reads 100 back for every strict TC whatever was set, so
# a TC that is not ets reads 0. mlx5 also gives its ETS TCs of 0 % an equal
# share of a group below the others and reads them back as 0 only when some
# other ETS TC has less than 100; with one ETS TC at 100 (an ETS sum of 200,
# which no set passes) the others read 0 here (Linux drivers/net/ethernet/
# mellanox/mlx5/core/en_dcbnl.c, mlx5e_build_tc_tx_bw, ieee_getets).
dcb_ets() {
	local tsa bw
	tsa=$(dcb_get "$1" ets tc-tsa)
	bw=$(dcb_get "$1" ets tc-bw)
	if [[ $bw != none ]]; then
		bw=$(awk -v tsa="$tsa" 'BEGIN { n = split(tsa, t, " "); for (i = 1; i <= n; i++) { split(t[i], kv, ":"); alg[kv[1]] = kv[2] } }
			{
				for (i = 1; i <= NF; i++) {
					split($i, kv, ":"); k[i] = kv[1]; b[i] = alg[kv[1]] == "ets" ? kv[2] + 0 : 0
					sum += b[i]; if (b[i] == 100) full++
				}
				for (i = 1; i <= NF; i++) {
					if (full == 1 && sum == 200 && b[i] != 100) b[i] = 0
					printf "%s%s:%s", (i > 1 ? " " : ""), k[i], b[i]
				}
			}' <<<"$bw")
	fi
	printf 'tc-tsa %s tc-bw %s' "$tsa" "$bw"
}`},
	{useMlnx, `# mlnx_get IF FIELD: dcbx, trust, pfc, ets, prio_tc or dscp2prio from "mlnx_qos -i IF
# -a", in the shapes mlnx-tools' python/mlnx_qos (pretty_print) prints:
# -a prints every TC, not only those a priority maps to; the trust line
# read "Priority trust mode:" in mlnx-tools of June 2017; the dscp2prio list
# wraps after eight values, onto lines without their own "prio:N dscp:" in
# MLNX_OFED 4.2 to 4.5 (dcbnetlink.py printAppSelector); without a rate
# limit (MaxrateNL) a TC line lacks its "tc: N ratelimit: ..., tsa: " head,
# the TCs still in order 0 to 7. It parses what mlnx_read keeps (callers
# run it in $(...), so a stale read is refreshed in that subshell only).
mlnx_get() {
	mlnx_read "$1"
	awk -v want="$2" '
		function dscp(p, list,   n, i, a) {
			n = split(list, a, ",")
			for (i = 1; i <= n; i++) if (a[i] != "") dp[a[i] + 0] = p
		}
		BEGIN { tc = -1 }
		/^DCBX mode:/ { dcbx = $0; sub(/^DCBX mode:[[:space:]]*/, "", dcbx) }
		/^Priority trust (state|mode):/ { trust = $NF }
		/prio:[0-7] dscp:/ {
			p = $1; sub(/.*prio:/, "", p); d = $2; sub(/dscp:/, "", d)
			dscp(p, d); inmap = 1; next
		}
		inmap && /^[[:space:]]+[0-9][0-9,]*$/ { dscp(p, $1); next }
		{ inmap = 0 }
		/^Cable len:/ { cable = $NF }
		/^[[:space:]]*enabled/ { pfc = $2; for (i = 3; i <= NF; i++) pfc = pfc "," $i }
		/^[[:space:]]*tc: / || /^(ets, bw: [0-9]+%|strict|vendor|unknown)$/ {
			tc = /^[[:space:]]*tc: / ? $2 + 0 : tc + 1
			tsa[tc] = "unknown"; bw[tc] = 0
			if (match($0, /(ets|strict|vendor|unknown)(, bw: [0-9]+%)?$/)) {
				tsa[tc] = substr($0, RSTART)
				sub(/,.*/, "", tsa[tc])
			}
			if (match($0, /bw: [0-9]+/)) bw[tc] = substr($0, RSTART + 4, RLENGTH - 4)
		}
		/^[[:space:]]*priority:/ { for (i = 2; i <= NF; i++) pt[$i] = tc }
		END {
			if (want == "dcbx") printf "%s", (dcbx == "" ? "unreadable" : dcbx)
			if (want == "trust") printf "%s", (trust == "" ? "unreadable" : trust)
			if (want == "pfc") printf "%s", (pfc == "" ? "unreadable" : pfc)
			if (want == "cable_len") printf "%s", (cable == "" ? "unreadable" : cable)
			if (want == "ets") {
				# mlx5 ETS TCs of 0 % next to one at 100 (dcb_ets)
				for (i = 0; i < 8; i++) if (tsa[i] == "ets") { sum += bw[i]; if (bw[i] + 0 == 100) full++ }
				if (full == 1 && sum == 200) for (i = 0; i < 8; i++) if (tsa[i] == "ets" && bw[i] + 0 != 100) bw[i] = 0
				t = tsa[0]; b = bw[0]
				for (i = 1; i < 8; i++) { t = t "," tsa[i]; b = b "," bw[i] }
				printf "tsa %s tcbw %s", t, b
			}
			if (want == "prio_tc") {
				s = pt[0]; for (i = 1; i < 8; i++) s = s "," pt[i]; printf "%s", s
			}
			if (want == "dscp2prio") for (i = 0; i < 64; i++) printf "%d:%s ", i, dp[i]
		}' <<<"$MLNX_OUT"
}

# mlnx_read IF: runs "mlnx_qos -i IF -a" once and keeps its output for the
# mlnx_get calls that follow, until a change (CHANGES counts them) makes it
# stale: one mlnx_qos (a Python start-up and a DCB netlink dump) per NIC
# where each step would run its own.
MLNX_IF=
MLNX_AT=
MLNX_OUT=
mlnx_read() {
	if [[ $MLNX_IF == "$1" && $MLNX_AT == "$CHANGES" ]]; then
		return 0
	fi
	MLNX_OUT=$(mlnx_qos -i "$1" -a 2>/dev/null) || MLNX_OUT=
	MLNX_IF=$1
	MLNX_AT=$CHANGES
}

# mlnx_ensure IF FIELD WANT OPTION...: mlnx_qos -i IF OPTION... when FIELD
# (mlnx_get) reads other than WANT.
mlnx_ensure() {
	local ifc=$1 field=$2 want=$3
	shift 3
	mlnx_read "$ifc"
	ensure "$ifc" "$field" "$want" "$(mlnx_get "$ifc" "$field")" mlnx_qos -i "$ifc" "$@"
}

# mlnx_pfc IF PFC [LEN]: PFC and, with LEN, the cable length in meters, in
# one mlnx_qos call whenever either differs. mlnx_qos before mlnx-tools
# v24.04.0 sends both in one IEEE PFC set and fills the one not given with
# 0, so --cable_len alone turns PFC off on every priority (mlnx-tools
# commit 83b87d9: "changing cable length will reset the pfc configuration
# undesirably"); later ones keep the one not given. Both in one call is
# right with either, and a run reads PFC back (pfc_readback).
mlnx_pfc() {
	local ifc=$1 pfc=$2 len=${3:-} hp hl=''
	local -a set=(--pfc "$pfc")
	mlnx_read "$ifc"
	hp=$(mlnx_get "$ifc" pfc)
	if [[ -n $len ]]; then
		hl=$(mlnx_get "$ifc" 'cable_len')
		if cable_known "$ifc" "$len" "$hl"; then
			set+=("--cable_len=$len")
		else
			len='' hl=''
		fi
	fi
	if [[ $hp == "$pfc" && $hl == "$len" ]]; then
		return 0
	fi
	local was=$CHANGES
	if [[ $MODE == check ]]; then
		ensure "$ifc" pfc "$pfc" "$hp" :
		ensure "$ifc" 'cable length (m)' "$len" "$hl" :
	elif [[ -z $len ]]; then
		ensure "$ifc" pfc "$pfc" "$hp" mlnx_qos -i "$ifc" "${set[@]}"
	else
		ensure "$ifc" 'pfc and cable length (m)' "$pfc and $len" "$hp and $hl" mlnx_qos -i "$ifc" "${set[@]}"
	fi
	pfc_readback "$ifc" "$pfc" "$was" mlnx_get "$ifc" pfc
}`},
	{useNIC, `# pfc_diff IF WHAT WANT HAVE: --check's line for PFC in words: the
# priorities with PFC on ("priority 3"), read from mlnx_qos's enabled row
# (0,0,0,1,0,0,0,0) or dcb's prio-pfc (0:off ... 3:on ...), and each one
# intended but off named lossy: the NIC then neither pauses its sending
# on the switch's PFC frames nor sends its own for that priority, so RoCE
# in it is dropped under congestion (IEEE 802.1Q-2018 clause 36, PFC;
# mlnx_qos --pfc, dcb-pfc(8) prio-pfc). A value in neither form (none,
# unreadable) is shown as it is. In every script, as ensure calls it.
pfc_diff() {
	local w h p off=() note=''
	if ! w=$(pfc_prios "$3"); then
		diff_line "$1" "$2" "$3" "$4"
		return 0
	fi
	if h=$(pfc_prios "$4"); then
		for p in ${w//,/ }; do
			[[ ,$h, == *",$p,"* ]] || off+=("$p")
		done
		if ((${#off[@]} == 1)); then
			note=" (priority ${off[0]} is lossy from this NIC: RoCE in it is dropped, not paused, under congestion)"
		elif ((${#off[@]} > 1)); then
			p=${off[*]}
			note=" (priorities ${p// /,} are lossy from this NIC: RoCE in them is dropped, not paused, under congestion)"
		fi
		h=$(pfc_words "$h")
	else
		h=$4
	fi
	diff_line "$1" "$2" "$(pfc_words "$w")" "$h$note"
}

# pfc_prios VALUE: the priorities with PFC on in VALUE, comma-separated
# ("" for none), from 0,0,0,1,0,0,0,0 or 0:off ... 3:on ...; false for a
# value in neither form.
pfc_prios() {
	local v=$1 out=() i=0 f
	if [[ $v =~ ^[01](,[01]){7}$ ]]; then
		for f in ${v//,/ }; do
			[[ $f == 0 ]] || out+=("$i")
			i=$((i + 1))
		done
	elif [[ $v =~ ^[0-7]:(on|off)( [0-7]:(on|off))*$ ]]; then
		for f in $v; do
			[[ ${f#*:} == off ]] || out+=("${f%%:*}")
		done
	else
		return 1
	fi
	f=${out[*]}
	printf '%s' "${f// /,}"
}

# pfc_words LIST: "priority 3", "priorities 3,4" or "no priority".
pfc_words() {
	case $1 in
	'') printf 'no priority' ;;
	*,*) printf 'priorities %s' "$1" ;;
	*) printf 'priority %s' "$1" ;;
	esac
}`},
	{useMlnx | useDcb, `# pfc_readback IF WANT SINCE READ...: after a run changed something since
# CHANGES was SINCE (a set that touched PFC), READ must give WANT: a set
# the tool reports done but the NIC did not take stops the run rather
# than be counted applied. The likely cause is a DCBX agent that applied
# its own or its switch's PFC over the set: the adapter's firmware agent
# (dcbx_fw_note) or lldpad (dcbx_check).
pfc_readback() {
	local ifc=$1 want=$2 since=$3 have pci
	shift 3
	if [[ $MODE != apply || $CHANGES == "$since" ]]; then
		return 0
	fi
	have=$("$@")
	if [[ $have != "$want" ]]; then
		pci=$(pci_dev "$ifc") || pci='<pci device>'
		fail "$ifc" 'pfc (read back after the set)' "$want" "$have" "the tool reported success, but the NIC did not keep it: a DCBX agent likely applied other PFC over it, the adapter's firmware LLDP/DCBX agent (ConnectX: mlxconfig -d $pci query | grep -E 'LLDP_NB_DCBX|DCBX_WILLING', set each to 0 (False), as mlxconfig -d $pci set LLDP_NB_DCBX_P1=0 DCBX_WILLING_P1=0 (P2 for the second port), then mlxfwreset or reboot) or lldpad (systemctl disable --now lldpad); remove it, then run again"
	fi
}`},
	{useMlnx | useCableLen, `# cable_known IF WANT HAVE: false, with a note, when the driver reads back no
# cable length (0, or a tool that prints none): it keeps none on this port
# and ignores a set. --dry-run without the interface shows the step.
cable_known() {
	case $3 in
	0 | none | unreadable)
		if [[ $3 == 0 || $MODE != dry-run ]] || link_exists "$1"; then
			note "$1: the driver reports no cable length, so it sizes no PFC receive buffer from one; the $2 m cable is not set"
			return 1
		fi
		;;
	esac
	cable_note "$1" "$2"
}

# cable_note IF LEN: --check's word on what the cable length it reads is.
# mlx5 keeps the length the host sets and reads it back as set, but sizes
# its receive buffer from it only while the buffer is software-owned: once
# a buffer layout was set (dcb buffer set, mlnx_qos --buffer_size or
# --prio2buffer); until then the firmware sizes the buffer by its own rules
# (Linux drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c,
# mlx5e_dcbnl_ieee_setpfc; this script sets no layout).
cable_note() {
	if [[ $MODE == check ]]; then
		note "$1: cable length $2 m: what mlx5 reads back is its record of the value set; mlx5 sizes the PFC receive buffer from it only if a buffer layout was set (dcb buffer set), else the firmware sizes that buffer"
	fi
}`},
	{useMlnxDSCP, `# mlnx_dscp IF D:P...: the DSCP entries that differ, all in one mlnx_qos call
# (mlnx-tools' mlnx_qos declares --dscp2prio with action="append"). While
# the port trusts PCP mlnx_qos prints no map: --check says so once rather
# than 64 times, and a run, having set trust dscp first, reads the map the
# firmware filled in (mlnx-tools dcbnetlink.py, setDefaultAppEntry).
mlnx_dscp() {
	local ifc=$1 trust pair d e want='' have='' n=0
	local -a map=() set=()
	shift
	mlnx_read "$ifc"
	trust=$(mlnx_get "$ifc" trust)
	if [[ $trust != dscp && $MODE == check ]]; then
		if [[ $trust == pcp ]]; then
			note "$ifc: DSCP map: not in use (trust pcp)"
		else
			diff_line "$ifc" 'DSCP map' "the fabric's" "$trust"
		fi
		return 0
	fi
	for e in $(mlnx_get "$ifc" dscp2prio); do
		map[${e%%:*}]=${e#*:}
	done
	for pair in "$@"; do
		d=${pair%%:*}
		if [[ ${map[d]:-unset} != "${pair#*:}" ]]; then
			want+=" $pair"
			have+=" $d:${map[d]:-unset}"
			set+=(--dscp2prio "set,$d,${pair#*:}")
			n=$((n + 1))
		fi
	done
	if [[ $n -gt 0 ]]; then
		ensure "$ifc" "DSCP map ($n of $# entries)" "${want# }" "${have# }" mlnx_qos -i "$ifc" "${set[@]}"
	fi
}`},
	{useRoCECM | useCNPDebugfs, `# mount_state DIR: mounted when a file system is mounted on DIR (configfs,
# home of rdma_cm's defaults; debugfs, home of mlx5_ib's cc_params).
mount_state() {
	if mountpoint -q "$1" 2>/dev/null; then
		printf 'mounted'
	else
		printf 'not mounted'
	fi
}`},
	{useRoCECM, `# rdma_dev IF: the RDMA device of a netdev (mlx5_0, qedr0), or nothing.
rdma_dev() {
	local d
	for d in /sys/class/net/"$1"/device/infiniband/*; do
		if [[ -e $d ]]; then
			printf '%s' "${d##*/}"
			return 0
		fi
	done
	return 1
}

# rdma_port IF: the RDMA port of a netdev, dev_port + 1 (1 when unknown).
rdma_port() {
	local port
	port=$(read_sys "/sys/class/net/$1/dev_port")
	if [[ $port =~ ^[0-9]+$ ]]; then
		printf '%s' "$((port + 1))"
	else
		printf '1'
	fi
}

# rdma_cm_state: loaded when the rdma_cm module is (or is built in and
# shows its configfs group).
rdma_cm_state() {
	if [[ -d /sys/module/rdma_cm || -d /sys/kernel/config/rdma_cm ]]; then
		printf 'loaded'
	else
		printf 'absent'
	fi
}

# rdma_fix IF MODULE: what to do when IF has no RDMA device: load MODULE
# when it is not loaded; when it is, the device is not there yet (udev
# loads the RDMA driver after the netdev appears, asynchronously: rdma-core
# Documentation/udev.md) or the port has none of its own.
rdma_fix() {
	if [[ ! -d /sys/module/$2 ]]; then
		printf 'the RDMA driver is not loaded: modprobe %s (with MLNX_OFED: systemctl start openibd), then run again' "$2"
	else
		printf '%s is loaded, but there is no RDMA device for this port yet: wait until rdma link show lists %s, then run again' "$2" "$1"
	fi
}

# gid_find DEV PORT GID NDEV: the lowest index N of DEV's port PORT whose
# GID is GID (ports/PORT/gids/N), of type RoCE v2 (gid_attrs/types/N) and
# on netdev NDEV (gid_attrs/ndevs/N), the three files rdma-core's
# show_gids reads; false when there is none. An unused entry reads zeros
# and its ndevs file fails to read.
gid_find() {
	local d=/sys/class/infiniband/$1/ports/$2 f n best=
	for f in "$d"/gids/*; do
		n=${f##*/}
		[[ $n =~ ^[0-9]+$ ]] || continue
		[[ -z $best || $n -lt $best ]] || continue
		[[ $(cat "$f" 2>/dev/null) == "$3" ]] || continue
		[[ $(cat "$d/gid_attrs/types/$n" 2>/dev/null) == 'RoCE v2' ]] || continue
		[[ $(cat "$d/gid_attrs/ndevs/$n" 2>/dev/null) == "$4" ]] || continue
		best=$n
	done
	[[ -n $best ]] && printf '%s' "$best"
}

# gid_info IF DEV PORT NDEV ADDR GID: --check only, and never a
# difference: the index of the RoCE v2 GID that carries the NIC's address
# ADDR (GID, IPv4 as ::ffff:a.b.c.d) on NDEV, the interface with the
# address, which verbs applications take as NCCL_IB_GID_INDEX or
# UCX_IB_GID_INDEX (NVIDIA NCCL User Guide, Environment Variables); "not
# found" means no such GID: the address or the VLAN is not what the
# fabric says, or the RDMA driver has not made the GID yet.
gid_info() {
	local n
	[[ $MODE == check ]] || return 0
	if n=$(gid_find "$2" "$3" "$6" "$4"); then
		printf 'info: %s: RoCE v2 GID index %s (%s port %s, %s on %s): NCCL_IB_GID_INDEX=%s, UCX_IB_GID_INDEX=%s\n' "$1" "$n" "$2" "$3" "$5" "$4" "$n" "$n"
	else
		printf 'info: %s: RoCE v2 GID index not found: no RoCE v2 GID of %s port %s carries %s on %s (check the address and the VLAN)\n' "$1" "$2" "$3" "$5" "$4"
	fi
}

# roce_cm IF MODE TOS MODULE [NDEV ADDR GID]: RDMA-CM's default RoCE mode
# and ToS for the NIC's port, through configfs (what MLNX_OFED's
# cma_roce_mode and cma_roce_tos write; kernel Documentation/ABI/testing/
# configfs-rdma_cm); MODULE is the RDMA driver that makes the port's RDMA
# device. With NDEV ADDR GID, --check also names the RoCE v2 GID index of
# the NIC's address (gid_info).
roce_cm() {
	local ifc=$1 mode=$2 tos=$3 dev port dir was
	if ! capable "$ifc" "RDMA device" "$(rdma_fix "$ifc" "$4")" rdma_dev "$ifc"; then
		return 0
	fi
	dev=$(rdma_dev "$ifc") || dev="rdma-device-of-$ifc"
	port=$(rdma_port "$ifc")
	if [[ $# -ge 7 ]]; then
		gid_info "$ifc" "$dev" "$port" "$5" "$6" "$7"
	fi
	need_tool modprobe kmod
	ensure system "module rdma_cm" loaded "$(rdma_cm_state)" modprobe rdma_cm
	ensure system "configfs /sys/kernel/config" mounted "$(mount_state /sys/kernel/config)" mount -t configfs none /sys/kernel/config
	dir=/sys/kernel/config/rdma_cm/$dev
	ensure "$ifc" "rdma_cm group $dev" present "$([[ -d $dir ]] && printf present || printf absent)" mkdir "$dir"
	ensure "$ifc" "default_roce_mode ($dev port $port)" "$mode" "$(read_sys "$dir/ports/$port/default_roce_mode")" \
		write_value "$dir/ports/$port/default_roce_mode" "$mode"
	was=$(read_sys "$dir/ports/$port/default_roce_tos")
	ensure "$ifc" "default_roce_tos ($dev port $port)" "$tos" "$was" \
		write_value "$dir/ports/$port/default_roce_tos" "$tos"
	# The ToS is a default for QPs yet to be made: "RDMA-CM QPs from HCA
	# <hca> at port <port-num> will be created with this TOS as default"
	# (Linux kernel Documentation/ABI/testing/configfs-rdma_cm,
	# default_roce_tos); a connection made before keeps the one it got.
	if [[ $MODE != check && $was != "$tos" ]]; then
		note "$ifc: RDMA-CM connections made before this change keep the ToS they were created with until they reconnect; only new ones get ToS $tos (reconnect NVMe-oF and iSER sessions, e.g. nvme disconnect and nvme connect, and restart the RDMA applications)"
	fi
}`},
	{useTClass, `# tclass_state FILE: the global traffic class MLNX_OFED's mlx5_ib keeps in
# FILE, /sys/class/infiniband/DEV/tc/PORT/traffic_class: it prints
# "Global tclass=N" on its first line once one is set and nothing there
# (unset) before (mlnx-ofa_kernel, mlx5_ib, traffic_class_show).
tclass_state() {
	local v
	if [[ ! -e $1 ]]; then
		printf 'absent'
	elif v=$(cat "$1" 2>/dev/null); then
		v=$(sed -n '1s/^Global tclass=\([0-9][0-9]*\)$/\1/p' <<<"$v")
		printf '%s' "${v:-unset}"
	else
		printf 'unreadable'
	fi
}

# global_tclass IF TOS: the RoCE traffic class (the ToS byte) of every
# queue pair on IF's RDMA port, verbs (NCCL, UCX, perftest) and RDMA-CM
# alike: MLNX_OFED's mlx5_ib gives a QP the port's global traffic class
# whatever class it asked for, and moves QPs already connected to it
# (traffic_class_store, tclass_update_qps). Nothing where IF has no RDMA
# device (roce_cm reports that).
global_tclass() {
	local ifc=$1 dev port f
	dev=$(rdma_dev "$ifc") || return 0
	port=$(rdma_port "$ifc")
	f=/sys/class/infiniband/$dev/tc/$port/traffic_class
	if capable "$ifc" "global traffic class ($dev tc/$port/traffic_class)" "MLNX_OFED's mlx5_ib creates /sys/class/infiniband/$dev/tc: install MLNX_OFED, or write driver = \"inbox\" for this NIC in the fabric" test -e "$f"; then
		ensure "$ifc" "traffic_class ($dev port $port)" "$2" "$(tclass_state "$f")" write_value "$f" "$2"
	fi
}`},
	{useRoCECM, `# rdma_wait IF: under the boot unit, waits for the RDMA device of a real
# NIC, RDMA_WAIT seconds at most from the script's start: udev loads the
# RDMA driver (mlx5_ib) after the netdev appears, "asynchronously to the
# rest of the systemd startup" (rdma-core Documentation/udev.md, "Boot
# ordering with systemd"), so the device may come after the unit starts.
RDMA_WAIT=60
rdma_wait() {
	if ! under_unit || [[ $MODE != apply ]] || ! is_physical "$1"; then
		return 0
	fi
	while ! rdma_dev "$1" >/dev/null; do
		if ((SECONDS >= RDMA_WAIT)); then
			note "$1: no RDMA device after $RDMA_WAIT s of boot; its RDMA steps fail below (is the RDMA driver, mlx5_ib, loaded?)"
			return 0
		fi
		sleep 1
	done
}`},
	{useDcb | useMlnx, `# lldpad_running: true when lldpad runs here: pgrep sees it however it was
# started; systemctl only where pgrep is absent.
lldpad_running() {
	if command -v pgrep >/dev/null 2>&1; then
		pgrep -x lldpad >/dev/null 2>&1
	else
		command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet lldpad 2>/dev/null
	fi
}

# lldpad_off IF: true when lldpad leaves IF alone: LLDP's admin status there
# is disabled, so lldpad neither sends nor receives LLDP on IF (lldptool(8),
# get-lldp: "adminStatus=disabled"). An lldptool that is missing or fails
# counts as lldpad managing IF.
lldpad_off() {
	local out
	out=$(lldptool get-lldp -i "$1" adminStatus 2>/dev/null) || return 1
	[[ $out == adminStatus=disabled ]]
}

# lldpad_dcbx IF: the DCBX lldpad runs on IF, as "lldptool -t -i IF -V
# IEEE-DCBX -c mode" reads it (lldptool-dcbx(8)): mode=auto is IEEE DCBX,
# lldpad's default on a DCB-capable interface, mode=CEE or mode=CIN a
# legacy DCBX; false for any other answer or none. Where its DCBX runs,
# lldpad applies its PFC and ETS (lldptool-pfc(8), lldptool-ets(8): its own,
# or its peer's where willing) to the NIC at link-up with LLDP's admin
# status disabled too (open-lldp lldp_8021qaz.c, ieee8021qaz_check_pending
# and run_all_sm look only at the link).
lldpad_dcbx() {
	local out
	out=$(lldptool -t -i "$1" -V IEEE-DCBX -c mode 2>/dev/null) || return 1
	case $out in
	mode=auto) printf 'IEEE' ;;
	mode=CEE | mode=CIN) printf '%s' "${out#mode=}" ;;
	*) return 1 ;;
	esac
}

# dcbx_check IF...: before the DCB steps of the NICs IF. A running lldpad
# rewrites PFC, ETS and the APP table of each interface it manages as it
# negotiates (mlnx_qos --help, of --dcbx: in OS mode "mlnx_qos should not
# be used in parallel with other dcbx tools such as lldptool"), so each IF
# where its DCBX runs (lldpad_dcbx) or LLDP is not disabled (lldpad_off)
# goes into DCB_HELD: a run leaves its DCB steps out (dcb_free) and exits
# 1, --dry-run shows none of them, --check reports it. Where its DCBX runs,
# disabling LLDP does not help, so the fix is to stop lldpad. Stopping
# lldpad does not undo what it applied: the next run reads and sets it.
dcbx_check() {
	lldpad_running || return 0
	local ifc dcbx how ing fix query
	for ifc in "$@"; do
		if dcbx=$(lldpad_dcbx "$ifc"); then
			query="lldptool -t -i $(shell_word "$ifc") -V IEEE-DCBX -c mode"
			how="runs $dcbx DCBX on it ($query), which sets PFC and ETS whether LLDP is disabled there or not"
			ing="applying $dcbx DCBX to this interface ($query), which sets PFC and ETS whether LLDP is disabled there or not"
			fix="stop and disable it (systemctl disable --now lldpad), then run this script again"
		elif lldpad_off "$ifc"; then
			continue
		else
			how='manages it' ing='managing this interface'
			fix="stop and disable it (systemctl disable --now lldpad), or disable LLDP on this interface (lldptool set-lldp -i $(shell_word "$ifc") adminStatus=disabled; lldptool(8)), then run this script again"
		fi
		DCB_HELD+=("$ifc")
		case $MODE in
		check) diff_line "$ifc" "DCBX agent" none "lldpad (running and $ing; it may rewrite PFC, ETS and the DCB APP table: $fix)" ;;
		dry-run) note "$ifc: lldpad is running and $how: a run would leave out its DCB steps and exit 1; $fix" ;;
		*) printf 'fabricc: error: %s: lldpad is running and %s, and may rewrite PFC, ETS and the DCB APP table, so its DCB steps are left out: %s\n' "$ifc" "$how" "$fix" >&2 ;;
		esac
	done
}

# dcb_free IF: false when a run or --dry-run leaves IF's DCB steps out
# (dcbx_check); --check reads them all the same.
dcb_free() {
	local h
	if [[ $MODE == check || ${#DCB_HELD[@]} -eq 0 ]]; then
		return 0
	fi
	for h in "${DCB_HELD[@]}"; do
		if [[ $h == "$1" ]]; then
			if [[ $MODE == apply ]]; then
				note "$1: DCB steps left out: lldpad manages it"
			fi
			return 1
		fi
	done
	return 0
}

`},
	{useDcb, `# dcbx_host IF: the NIC's DCBX in host (OS) mode, where its driver has the
# DCBX op (dcb dcbx show answers). In firmware mode a ConnectX NIC runs
# DCBX in its firmware, willing, and applies the PFC and ETS its switch
# advertises over what this script sets; only a DCBX set with the host
# flag switches it back (Linux drivers/net/ethernet/mellanox/mlx5/core/
# en_dcbnl.c, mlx5e_dcbnl_setdcbx and mlx5e_dcbnl_switch_to_host_mode;
# mlx5 reads host only once it is in host mode, mlx5e_dcbnl_initialize).
# "host ieee" is dcb-dcbx(8)'s own example and what the first mlx5 dcbnl,
# which took nothing else, and mlx4 accept.
dcbx_host() {
	local ifc=$1 flags have=host
	flags=$(dcbx_flags "$ifc") || return 0
	if [[ " $flags " != *" host "* ]]; then
		have="firmware (dcb dcbx show: ${flags:-no flags})"
	fi
	ensure "$ifc" 'DCBX mode' host "$have" dcb dcbx set dev "$ifc" host ieee
	[[ $have == host ]] || dcbx_fw_note "$ifc"
}

`},
	{useDcb | useMlnx, `# dcbx_fw_note IF: for a NIC found in firmware DCBX mode, the lasting fix,
# which this script does not make: the firmware's own LLDP/DCBX agent puts
# the port back in firmware mode after a firmware reset or a reboot until
# mlxconfig turns it off (NVIDIA Firmware Tools (MFT) User Manual,
# mlxconfig; NVIDIA's "auto-config PFC and ETS via LLDP DCBX" turns it on
# with the same parameters).
dcbx_fw_note() {
	local pci
	pci=$(pci_dev "$1") || pci='<pci device>'
	manual "$1: the adapter's firmware LLDP/DCBX agent puts it back in firmware DCBX mode after a firmware reset or a reboot: mlxconfig -d $pci query | grep -E 'LLDP_NB_DCBX|DCBX_WILLING', set each to 0 (False), as mlxconfig -d $pci set LLDP_NB_DCBX_P1=0 DCBX_WILLING_P1=0 (P2 for the second port), then mlxfwreset or reboot"
}

`},
	{useMlnx, `# mlnx_dcbx IF: as dcbx_host, with MLNX_OFED's mlnx_qos: its "DCBX mode:"
# line reads "OS controlled" or "Firmware controlled", and --dcbx os sets
# the host flag (mlnx-tools python/mlnx_qos, pretty_print and --dcbx); an
# mlnx_qos without the line leaves the step out.
mlnx_dcbx() {
	local ifc=$1 have
	mlnx_read "$ifc"
	have=$(mlnx_get "$ifc" dcbx)
	if [[ $have == unreadable ]]; then
		return 0
	fi
	ensure "$ifc" 'DCBX mode' 'OS controlled' "$have" mlnx_qos -i "$ifc" --dcbx os
	[[ $have == 'OS controlled' ]] || dcbx_fw_note "$ifc"
}`},
	{useCableLen, `# cable_len IF WANT HAVE CMD...: the cable length in meters (iproute2's dcb
# PFC delay), which mlx5 keeps for sizing the receive buffer that holds the
# bytes still on the wire after it sends PAUSE (cable_note).
cable_len() {
	local ifc=$1 want=$2 have=$3
	shift 3
	if cable_known "$ifc" "$want" "$have"; then
		ensure "$ifc" 'cable length (m)' "$want" "$have" "$@"
	fi
}`},
	{useDCQCN, `# dcqcn_prio IF P WANT: DCQCN notification and reaction point on priority P.
dcqcn_prio() {
	local point f
	for point in roce_np roce_rp; do
		f=/sys/class/net/$1/ecn/$point/enable/$2
		ensure "$1" "DCQCN $point priority $2" "$3" "$(read_sys "$f")" write_value "$f" "$3"
	done
}`},
	{useCNPSysfs, `# cnp_sysfs IF DSCP PRIO: the DSCP and 802.1p priority the NIC marks its
# CNPs with (MLNX_OFED mlx5: ecn/roce_np/cnp_dscp and cnp_802p_prio).
cnp_sysfs() {
	local d=/sys/class/net/$1/ecn/roce_np
	ensure "$1" 'CNP DSCP' "$2" "$(read_sys "$d/cnp_dscp")" write_value "$d/cnp_dscp" "$2"
	ensure "$1" 'CNP priority' "$3" "$(read_sys "$d/cnp_802p_prio")" write_value "$d/cnp_802p_prio" "$3"
}`},
	{useCNPDebugfs | useDcb | useMlnx, `# pci_dev IF: the PCI device of a netdev (0000:3b:00.0), or nothing.
pci_dev() {
	local d
	d=$(readlink -f "/sys/class/net/$1/device" 2>/dev/null) || return 1
	[[ -e $d ]] || return 1
	printf '%s' "${d##*/}"
}`},
	{useCNPDebugfs, `# cc_params_dir IF: true when the inbox mlx5_ib debugfs of IF's device is there.
cc_params_dir() {
	local pci
	pci=$(pci_dev "$1") || return 1
	[[ -d /sys/kernel/debug/mlx5/$pci/cc_params ]]
}

# lockdown_mode: the kernel lockdown in force, none, integrity or
# confidentiality (the bracketed word of /sys/kernel/security/lockdown);
# none where the kernel has no lockdown. Both modes refuse every debugfs
# file with write permission, cc_params' among them (kernel_lockdown(7);
# UEFI Secure Boot turns it on).
lockdown_mode() {
	local m
	m=$(cat /sys/kernel/security/lockdown 2>/dev/null) || m=
	if [[ $m =~ \[([a-z]+)\] ]]; then
		printf '%s' "${BASH_REMATCH[1]}"
	else
		printf 'none'
	fi
}

# debugfs_mount IF: mounts debugfs when it is not (as roce_cm mounts
# configfs), on a real NIC and where lockdown would not refuse its files.
debugfs_mount() {
	if is_physical "$1" && [[ $(lockdown_mode) == none ]]; then
		ensure system 'debugfs /sys/kernel/debug' mounted "$(mount_state /sys/kernel/debug)" mount -t debugfs none /sys/kernel/debug
	fi
}

# cc_params_ready IF: true when IF's cc_params can be read and written.
cc_params_ready() { [[ $(lockdown_mode) == none ]] && cc_params_dir "$1"; }

# cnp_fix IF DSCP PRIO: why cc_params cannot be used, and the way that
# needs no debugfs: the firmware's own CNP settings, through mlxconfig
# (NVIDIA MFT), in force after a firmware reset or a reboot.
cnp_fix() {
	local pci mode
	pci=$(pci_dev "$1") || pci="<pci device of $1>"
	mode=$(lockdown_mode)
	if [[ $mode != none ]]; then
		printf 'kernel lockdown (%s, as UEFI Secure Boot sets it) refuses debugfs (kernel_lockdown(7))' "$mode"
	elif [[ $(mount_state /sys/kernel/debug) != mounted ]]; then
		printf 'debugfs is not mounted (mount -t debugfs none /sys/kernel/debug)'
	else
		printf 'mlx5_ib shows no cc_params for %s (load mlx5_ib)' "$pci"
	fi
	printf '; or set it in firmware: mlxconfig -d %s set CNP_DSCP_P1=%s CNP_802P_PRIO_P1=%s, then mlxfwreset or a reboot' "$pci" "$2" "$3"
}

# cnp_prio_debugfs DIR: the CNP priority in force, np_cnp_prio, which the
# NIC uses only while np_cnp_prio_mode is 0; np_cnp_prio still reads back
# its value under another mode (Linux drivers/infiniband/hw/mlx5/cong.c).
cnp_prio_debugfs() {
	local mode
	mode=$(read_sys "$1/np_cnp_prio_mode")
	if [[ $mode == 0 ]]; then
		read_sys "$1/np_cnp_prio"
	else
		printf 'not used (np_cnp_prio_mode %s)' "$mode"
	fi
}

# cnp_debugfs IF DSCP PRIO: the same through the inbox mlx5_ib debugfs
# (cc_params/np_cnp_dscp and np_cnp_prio, Linux drivers/infiniband/hw/mlx5/
# cong.c; writing np_cnp_prio also sets np_cnp_prio_mode 0, "use it").
cnp_debugfs() {
	local pci d
	pci=$(pci_dev "$1") || pci="pci-device-of-$1"
	d=/sys/kernel/debug/mlx5/$pci/cc_params
	ensure "$1" 'CNP DSCP' "$2" "$(read_sys "$d/np_cnp_dscp")" write_value "$d/np_cnp_dscp" "$2"
	ensure "$1" 'CNP priority' "$3" "$(cnp_prio_debugfs "$d")" write_value "$d/np_cnp_prio" "$3"
}`},
	{useDCQCNSys, `# dcqcn_sysfs IF POINT NAME WANT: one DCQCN parameter of MLNX_OFED's mlx5
# sysfs, /sys/class/net/IF/ecn/POINT/NAME (NVIDIA "DCQCN CC Parameters").
dcqcn_sysfs() {
	local f=/sys/class/net/$1/ecn/$2/$3
	ensure "$1" "DCQCN $3" "$4" "$(read_sys "$f")" write_value "$f" "$4"
}`},
	{useDCQCNDbg, `# dcqcn_debugfs IF NAME WANT: one DCQCN parameter through the inbox mlx5_ib
# debugfs, cc_params/NAME (Linux drivers/infiniband/hw/mlx5/cong.c).
dcqcn_debugfs() {
	local pci d
	pci=$(pci_dev "$1") || pci="pci-device-of-$1"
	d=/sys/kernel/debug/mlx5/$pci/cc_params
	ensure "$1" "DCQCN $2" "$3" "$(read_sys "$d/$2")" write_value "$d/$2" "$3"
}

# dcqcn_fix IF: why cc_params cannot be used for the DCQCN parameters, and
# the way that needs no debugfs: the firmware's own (NVIDIA "DCQCN CC
# Parameters", NVConfig column), set with mlxconfig (NVIDIA MFT) and in
# force after a firmware reset or a reboot.
dcqcn_fix() {
	local pci mode
	pci=$(pci_dev "$1") || pci="<pci device of $1>"
	mode=$(lockdown_mode)
	if [[ $mode != none ]]; then
		printf 'kernel lockdown (%s, as UEFI Secure Boot sets it) refuses debugfs (kernel_lockdown(7))' "$mode"
	elif [[ $(mount_state /sys/kernel/debug) != mounted ]]; then
		printf 'debugfs is not mounted (mount -t debugfs none /sys/kernel/debug)'
	else
		printf 'mlx5_ib shows no cc_params for %s (load mlx5_ib)' "$pci"
	fi
	printf '; or set them in firmware: mlxconfig -d %s set with the NVConfig names of NVIDIA "DCQCN CC Parameters", then mlxfwreset or a reboot' "$pci"
}`},
	{useCNPInbox, `# cnp_readable IF DSCP PRIO: true when IF's cc_params can be read, to check
# the CNP marking the fabric shares with the firmware default (DSCP 48,
# priority 6: CNP_DSCP_P1, CNP_802P_PRIO_P1); otherwise the step is
# reported skipped: firmware set with mlxconfig may mark otherwise.
cnp_readable() {
	if cc_params_ready "$1" || { [[ $MODE == dry-run ]] && ! link_exists "$1"; }; then
		return 0
	fi
	if ! is_physical "$1"; then
		skip "$1: CNP marking (virtual device; only a real NIC's driver offers it)"
	else
		skip "$1: CNP marking, wanted DSCP $2 priority $3, the firmware default, not read: $(cnp_fix "$1" "$2" "$3")"
	fi
	return 1
}`},
	{0, routeMarkBlock},
	{useRoute, routePruneBlock},
	{useRouteFlush, routeFlushBlock},
	{useRoute, `# route_table FAMILY TABLE: TABLE's routes as the NIC's route step compares
# them: "default via GW dev IF" for its default route ("via inet6 GW" for
# an IPv4 route via an IPv6 next hop, as ip-route(8) prints it), followed by
# " proto P" when it lacks this script's mark (ROUTE_PROTO; boot when ip
# names none, ip-route(8)), and any other route as it is, prefixed
# "other:", one a line; absent for none (ip reports a table that holds
# nothing as not existing).
route_table() {
	local out
	out=$(ip "$1" route show table "$2" 2>/dev/null | awk -v mark="$ROUTE_PROTO" '
		$1 == "default" { v = ""; d = ""; p = "boot"; for (i = 2; i < NF; i++) { if ($i == "via") { v = $(i + 1); if (v == "inet6") v = v " " $(i + 2) } if ($i == "dev") d = $(i + 1); if ($i == "proto") p = $(i + 1) }
			print "default via " v " dev " d (p == mark ? "" : " proto " p); next }
		NF { $1 = $1; print "other: " $0 }') || true
	printf '%s' "${out:-absent}"
}

# rule_at FAMILY PRIO: the rules at priority PRIO as "from SRC lookup TABLE"
# (ip-rule(8) prints a /32 or /128 source without its length), followed by
# " proto P" when it lacks this script's mark (ROUTE_PROTO; unspec when ip
# names none), joined by "; " when there are several; absent for none.
rule_at() {
	local out
	out=$(ip "$1" rule show 2>/dev/null | awk -v p="$2:" -v mark="$ROUTE_PROTO" '
		$1 == p { f = ""; t = ""; pr = "unspec"; for (i = 2; i < NF; i++) { if ($i == "from") f = $(i + 1); if ($i == "lookup" || $i == "table") t = $(i + 1); if ($i == "proto") pr = $(i + 1) }
			r = r (n++ ? "; " : "") "from " f " lookup " t (pr == mark ? "" : " proto " pr) }
		END { printf "%s", r }') || true
	printf '%s' "${out:-absent}"
}

# via_words FAMILY GW: the words after "via" in an ip route command: GW,
# or "inet6 GW" for an IPv4 route via an IPv6 next hop (RFC 5549; a
# link-local one on a BGP-unnumbered link), which ip-route(8) writes
# "via inet6 ADDRESS" and Linux takes from 5.2 on ("ipv4: Allow ipv6
# gateway with ipv4 routes").
via_words() {
	if [[ $1 == -4 && $2 == *:* ]]; then
		printf 'inet6 %s' "$2"
	else
		printf '%s' "$2"
	fi
}

# unmarked_match WANT HAVE: WANT when HAVE is WANT but without the mark
# (WANT followed by " proto P", as the readers print a route or rule that
# lacks ROUTE_PROTO), else HAVE. Such a route is left as it is, not marked:
# netplan, NetworkManager, systemd-networkd (systemd.network(5) [Route]
# Protocol=, default static) or an administrator wrote it, or a build of
# fabricc older than the mark did, and nothing tells them apart; marking
# it would let route_prune delete it once the fabric drops it.
unmarked_match() {
	if [[ $2 == "$1 proto "* && $2 != *";"* ]]; then
		printf '%s' "$1"
	else
		printf '%s' "$2"
	fi
}

# main_route_state FAMILY PREFIX: the main table's routes to exactly
# PREFIX at the metric ip route replace gives (none shown, 0, for IPv4;
# 1024 for IPv6), which is the one main_route replaces, as "via GW dev
# IF" (GW "inet6 ADDRESS" as in via_words; "dev IF" for an on-link one),
# followed by " proto P" when it lacks this script's mark (ROUTE_PROTO;
# boot when ip names none), joined by "; " when there are several; absent
# for none. A route of another metric is another tool's and is left alone.
main_route_state() {
	local out metric=0
	[[ $1 == -4 ]] || metric=1024
	out=$(ip "$1" route show exact "$2" table main 2>/dev/null | awk -v want="$metric" -v mark="$ROUTE_PROTO" '
		NF { v = ""; d = ""; m = 0; p = "boot"; for (i = 1; i < NF; i++) { if ($i == "via") { v = $(i + 1); if (v == "inet6") v = v " " $(i + 2) } if ($i == "dev") d = $(i + 1); if ($i == "metric") m = $(i + 1); if ($i == "proto") p = $(i + 1) }
			if (m != want) next
			r = r (n++ ? "; " : "") (v == "" ? "" : "via " v " ") "dev " d (p == mark ? "" : " proto " p) }
		END { printf "%s", r }') || true
	printf '%s' "${out:-absent}"
}

# main_route IF FAMILY PREFIX GW: the main table routes PREFIX, fabric
# subnets this NIC carries, via GW on IF (ip-route(8) "ip route replace",
# proto ROUTE_PROTO, this script's mark, which route_prune looks for when
# the fabric no longer has the prefix; the same route without the mark is
# another tool's, or an earlier build's, and is left as it is, see
# unmarked_match). The rule of nic_route selects IF's
# own table only for packets already bound to IF's address; RDMA-CM
# initiators that resolve with no source address (NFS over RDMA, SMB
# Direct, nvme-rdma without --host-traddr) look the destination up in the
# main table alone (Linux drivers/infiniband/core/addr.c, addr4_resolve and
# addr6_resolve), and this route makes the kernel pick IF and its address
# for them too.
main_route() {
	local ifc=$1 fam=$2 prefix=$3 gw=$4 via want
	read -ra via <<<"$(via_words "$fam" "$gw")"
	want="via ${via[*]} dev $ifc"
	ensure "$ifc" "main route $prefix" "$want" "$(unmarked_match "$want" "$(main_route_state "$fam" "$prefix")")" \
		ip "$fam" route replace "$prefix" via "${via[@]}" dev "$ifc" proto "$ROUTE_PROTO"
}

# nic_route IF FAMILY TABLE PRIO SRC GW: IF's own routing table TABLE
# holds one default route via GW, and the rule at PRIO sends the packets
# from SRC to it (ip-route(8) "ip route replace", ip-rule(8) "ip rule
# add", which adds a second rule rather than replace one, hence the check
# first). TABLE and PRIO are this script's (1000 + the NIC's position): a
# table with other routes, or another rule at PRIO, belongs to someone
# else and is refused, not overwritten; a rule of the same table from
# another source (the NIC's address changed) is replaced. Both carry the
# mark ROUTE_PROTO (ip-route(8) "proto", ip-rule(8) "protocol"; the rule
# only where ip takes it, see RULE_MARK), by which route_prune removes
# them once the fabric no longer has the NIC's route; a route or rule
# that is already what the fabric wants but without the mark is left as
# it is (unmarked_match).
nic_route() {
	local ifc=$1 fam=$2 table=$3 prio=$4 src=$5 gw=$6 have want bits=32 via
	[[ $fam == -4 ]] || bits=128
	read -ra via <<<"$(via_words "$fam" "$gw")"
	have=$(route_table "$fam" "$table")
	want="default via ${via[*]} dev $ifc"
	if [[ $have == *other:* ]]; then
		fail "$ifc" "route table $table" "$want only" "${have//$'\n'/; }" "another tool uses table $table: move its routes to another table, or take the NIC out of the fabric"
		return 0
	fi
	have=$(unmarked_match "$want" "$have")
	ensure "$ifc" "route table $table" "$want" "$have" ip "$fam" route replace default via "${via[@]}" dev "$ifc" table "$table" proto "$ROUTE_PROTO"
	want="from $src lookup $table"
	have=$(unmarked_match "$want" "$(rule_at "$fam" "$prio")")
	if [[ $have != absent && $have != "$want" ]]; then
		if [[ $have == *";"* || ($have != "from "*" lookup $table" && $have != "from "*" lookup $table proto "*) ]]; then
			fail "$ifc" "rule $prio" "$want" "$have" "another rule holds priority $prio: remove it (ip $fam rule del priority $prio) or move it to another priority"
			return 0
		fi
		if [[ $MODE == check ]]; then
			diff_line "$ifc" "rule $prio" "$want" "$have"
			return 0
		fi
		ensure "$ifc" "rule $prio" absent "$have" ip "$fam" rule del priority "$prio"
		have=absent
	fi
	ensure "$ifc" "rule $prio" "$want" "$have" ip "$fam" rule add from "$src/$bits" table "$table" priority "$prio" ${RULE_MARK[@]+"${RULE_MARK[@]}"}
	if ((!${#RULE_MARK[@]})); then
		note "$ifc: rule $prio carries no protocol $ROUTE_PROTO mark (ip rule takes protocol from iproute2 4.17 on): a later run will not remove it once the fabric drops it (ip $fam rule del priority $prio)"
	fi
}`},
	{useRail, `# rail_sysctls IF: IF is one of several fabric NICs with IPv4 addresses (a
# multi-rail host). Linux owns addresses per host, not per interface: by
# default every interface answers ARP for every address of the host ("ARP
# flux"), so a peer, and RDMA-CM resolving a GID, may learn the wrong
# rail's MAC, and strict reverse-path filtering (rp_filter 1, the default
# of several distributions) drops a reply that comes in by another rail
# than the one the main table would send by. Per IF: arp_ignore 1 (answer
# only for an address configured on IF), arp_announce 2 (the ARP request
# names the best local address for the target, IF's own), rp_filter 2
# (loose: the source need only be reachable by some interface). The kernel
# takes the larger of conf/all and conf/IF for each of the three, so IF's
# own value is in force unless conf/all's is higher (Linux kernel
# Documentation/networking/ip-sysctl.rst, arp_ignore, arp_announce,
# rp_filter; IBM Linux on IBM Z and LinuxONE, SMC-R, "High-availability
# considerations": reverse-path forwarding and ARP flux). Not persistent:
# the boot unit applies it again.
rail_sysctls() {
	local kv k v f
	for kv in arp_ignore=1 arp_announce=2 rp_filter=2; do
		k=${kv%=*} v=${kv#*=}
		f=/proc/sys/net/ipv4/conf/$1/$k
		ensure "$1" "$k" "$v" "$(read_sys "$f")" write_value "$f" "$v"
	done
}`},
	{useNCCL, `# nccl_tc_state FILE: the values of FILE's NCCL_IB_TC lines, in file order
# and comma-separated, or absent (no FILE, or no such line). NCCL reads
# the NAME=VALUE lines of /etc/nccl.conf when a job starts, the first line
# of a name and the job's environment winning (NVIDIA NCCL User Guide,
# Environment Variables).
nccl_tc_state() {
	if [[ ! -f $1 ]]; then
		printf 'absent'
		return 0
	fi
	awk 'index($0, "NCCL_IB_TC=") == 1 { v = v (n++ ? "," : "") substr($0, 12) } END { printf "%s", (n ? v : "absent") }' "$1"
}

# nccl_tc_write FILE TOS: FILE with its first NCCL_IB_TC line made
# NCCL_IB_TC=TOS and any later one dropped (the line appended when there
# is none), every other line kept; written beside FILE and renamed over
# it (put_file), with FILE's mode (0644 for a new file).
nccl_tc_write() {
	local mode=0644
	if [[ -f $1 ]]; then
		mode=$(file_mode "$1")
		awk -v tos="$2" 'index($0, "NCCL_IB_TC=") == 1 { if (!done) print "NCCL_IB_TC=" tos; done = 1; next } { print } END { if (!done) print "NCCL_IB_TC=" tos }' "$1" | put_file "$1" "$mode"
	else
		printf 'NCCL_IB_TC=%s\n' "$2" | put_file "$1" "$mode"
	fi
}

# nccl_tc FILE TOS: FILE's NCCL_IB_TC is TOS (--check: a difference
# otherwise; --dry-run: the edit a run would make); the file's other lines
# are not this script's.
nccl_tc() {
	local have
	have=$(nccl_tc_state "$1")
	if [[ $MODE == dry-run && $have != "$2" ]]; then
		printf 'would run: write NCCL_IB_TC=%s into %s (its other lines kept)\n' "$2" "$(shell_word "$1")"
		CHANGES=$((CHANGES + 1))
		return 0
	fi
	ensure "$1" NCCL_IB_TC "$2" "$have" nccl_tc_write "$1" "$2"
}`},
	{0, `# has_systemd: systemd is the running init: systemctl is there and
# /run/systemd/system exists (sd_booted(3)).
has_systemd() { command -v systemctl >/dev/null 2>&1 && [[ -d /run/systemd/system ]]; }

# script_id FILE: FILE's SHA-256 with its FABRICC_SCRIPT_ID value as 64
# zeros, which is that value when FILE is a script fabricc wrote, unedited.
script_id() {
	sed "s/^FABRICC_SCRIPT_ID=[0-9a-f]*\$/FABRICC_SCRIPT_ID=$(printf '%064d' 0)/" "$1" | sha256sum | cut -d' ' -f1
}

# file_mode FILE: the permission bits, octal (0755), or absent.
file_mode() {
	if [[ -f $1 ]]; then
		stat -c '%04a' "$1"
	else
		printf 'absent'
	fi
}

# boot_copy_state: this build when the installed copy is this script with
# mode 0755, absent, or another build.
boot_copy_state() {
	if [[ ! -f $BOOT_COPY ]]; then
		printf 'absent'
	elif [[ $(script_id "$BOOT_COPY") == "$FABRICC_SCRIPT_ID" && $(file_mode "$BOOT_COPY") == 0755 ]]; then
		printf 'this build'
	else
		printf 'another build'
	fi
}

# boot_unit_state: this build when the unit file is this script's unit with
# mode 0644, absent, or another build.
boot_unit_state() {
	if [[ ! -f $BOOT_UNIT_FILE ]]; then
		printf 'absent'
	elif [[ $(cat "$BOOT_UNIT_FILE") == "$(boot_unit_text)" && $(file_mode "$BOOT_UNIT_FILE") == 0644 ]]; then
		printf 'this build'
	else
		printf 'another build'
	fi
}

# put_file DEST MODE: standard input into DEST, atomically: a temporary
# file beside it (the same file system), synced, its mode set, then
# renamed over DEST (rename(2) replaces DEST in one step, so DEST is
# always the old file or the new one, never part of one).
put_file() {
	local dest=$1 mode=$2 tmp
	mkdir -p "${dest%/*}" || die "cannot create ${dest%/*}"
	tmp=$(mktemp "${dest%/*}/.${dest##*/}.XXXXXX") || die "cannot create a file in ${dest%/*}"
	if ! cat >"$tmp" || ! chmod "$mode" "$tmp" || ! sync "$tmp" || ! mv -f "$tmp" "$dest"; then
		rm -f "$tmp"
		die "cannot write $dest"
	fi
}

# boot_run CMD...: runs a systemctl command (--dry-run prints it).
boot_run() {
	if [[ $MODE == dry-run ]]; then
		show_cmd "$@"
		return 0
	fi
	local rc=0
	"$@" || rc=$?
	if [[ $rc -ne 0 ]]; then
		die "boot: $(cmd_text "$@") failed with exit status $rc"
	fi
	printf 'boot: ran %s\n' "$(cmd_text "$@")"
	journal "boot: ran $(cmd_text "$@")"
}

# boot_preflight: what --install needs, checked before anything is
# applied: systemd, and this script as a file fabricc wrote, to copy.
boot_preflight() {
	local self=${BASH_SOURCE[0]:-}
	if ! has_systemd; then
		if [[ $MODE == dry-run ]]; then
			note "boot: systemd is not running here; a run with --install would stop here"
			return 0
		fi
		die "--install needs systemd (systemctl and /run/systemd/system), which this host does not run; make the settings survive a reboot by running this script as root at every boot from your init system's boot scripts (for example /etc/rc.local), after the network is up"
	fi
	if [[ -z $self || ! -f $self || $(script_id "$self") != "$FABRICC_SCRIPT_ID" ]]; then
		die "--install copies this script, but it is not running from the unedited file fabricc wrote; run bash FILE --install with that file"
	fi
	if [[ $TUNING == 1 && $FABRIC_TUNING == 0 ]]; then
		note "boot: --tuning applies the host tuning now only; the copy run at boot applies what the fabric asks for (no tuning)"
	fi
}

# boot_install: the copy and the unit, written only when they differ,
# then daemon-reload (when the unit changed) and enable (when it is not).
boot_install() {
	local copy unit
	copy=$(boot_copy_state)
	unit=$(boot_unit_state)
	if [[ $copy == 'this build' ]]; then
		printf 'boot: %s is already this script\n' "$BOOT_COPY"
	elif [[ $MODE == dry-run ]]; then
		printf 'would write: %s (mode 0755): a copy of this script (now: %s)\n' "$BOOT_COPY" "$copy"
	else
		put_file "$BOOT_COPY" 0755 <"${BASH_SOURCE[0]}"
		printf 'boot: wrote %s (mode 0755): a copy of this script (was: %s)\n' "$BOOT_COPY" "$copy"
		journal "boot: wrote $BOOT_COPY (was: $copy)"
		BOOT_CHANGED=1
	fi
	if [[ $unit == 'this build' ]]; then
		printf 'boot: %s is already this unit\n' "$BOOT_UNIT_FILE"
	elif [[ $MODE == dry-run ]]; then
		printf 'would write: %s (mode 0644) (now: %s):\n' "$BOOT_UNIT_FILE" "$unit"
		boot_unit_text | sed 's/^./    &/'
	else
		boot_unit_text | put_file "$BOOT_UNIT_FILE" 0644
		printf 'boot: wrote %s (mode 0644) (was: %s)\n' "$BOOT_UNIT_FILE" "$unit"
		journal "boot: wrote $BOOT_UNIT_FILE (was: $unit)"
		BOOT_CHANGED=1
	fi
	if [[ $unit != 'this build' ]]; then
		boot_run systemctl daemon-reload
	fi
	if [[ $unit == 'this build' ]] && systemctl is-enabled --quiet "$BOOT_UNIT" 2>/dev/null; then
		printf 'boot: %s is already enabled\n' "$BOOT_UNIT"
	else
		boot_run systemctl enable "$BOOT_UNIT"
	fi
	if [[ $MODE != dry-run ]]; then
		printf 'boot: installed: systemd runs %s at every boot (%s); --uninstall removes it\n' "$BOOT_COPY" "$BOOT_UNIT"
	fi
}

# boot_refresh: a plain run (or its --dry-run) that finds the boot copy or
# unit of another build brings it to this build, each file written beside
# and renamed as --install writes it: whoever installed it asked for these
# settings at every boot, and the stale copy would put the old ones back at
# the next reboot. A copy that is absent while the unit is there is
# written too: systemd fails such a unit at every boot (status 203/EXEC).
# It writes no absent unit and enables nothing: a copy without its unit
# is only noted (run --install, or --uninstall). A script not run from
# its file (standard input) cannot copy itself: a warning, and the run
# exits 1 (finish).
boot_refresh() {
	local copy unit self=${BASH_SOURCE[0]:-}
	copy=$(boot_copy_state)
	unit=$(boot_unit_state)
	if [[ $unit == absent && $copy != absent ]]; then
		note "boot: $BOOT_COPY is there but its unit $BOOT_UNIT_FILE is not, so nothing runs it at boot: run --install to have systemd run it, or --uninstall to remove it"
	fi
	if [[ $copy != 'another build' && $unit != 'another build' && ! ($copy == absent && $unit != absent) ]]; then
		return 0
	fi
	if [[ -z $self || ! -f $self || $(script_id "$self") != "$FABRICC_SCRIPT_ID" ]]; then
		local why="from another build, the next boot applies that build's settings" stale='from another build'
		if [[ $copy == absent ]]; then
			why='without the copy, the unit fails at every boot' stale=absent
		fi
		printf 'warning: boot: %s (%s) and %s (%s) are what --install left; %s, and this run cannot update them (it is not running from the unedited file fabricc wrote): run bash FILE --install with that file\n' "$BOOT_COPY" "$copy" "$BOOT_UNIT_FILE" "$unit" "$why"
		if [[ $MODE != dry-run ]]; then
			BOOT_STALE=$stale
		fi
		return 0
	fi
	if [[ $copy == absent ]]; then
		note "boot: $BOOT_UNIT is installed but its copy $BOOT_COPY is absent, so the unit fails at every boot; this run writes the copy, so the next boot applies these settings (--uninstall removes both)"
	else
		note "boot: $BOOT_UNIT runs a copy from another build at every boot; this run updates what --install wrote to this build, so the next boot applies these settings (--uninstall removes it)"
	fi
	if [[ $copy != 'this build' ]]; then
		if [[ $MODE == dry-run ]]; then
			printf 'would write: %s (mode 0755): a copy of this script (now: %s)\n' "$BOOT_COPY" "$copy"
		else
			put_file "$BOOT_COPY" 0755 <"$self"
			printf 'boot: wrote %s (mode 0755): a copy of this script (was: %s)\n' "$BOOT_COPY" "$copy"
			journal "boot: wrote $BOOT_COPY (was: $copy)"
		fi
		CHANGES=$((CHANGES + 1))
	fi
	if [[ $unit == 'another build' ]]; then
		if [[ $MODE == dry-run ]]; then
			printf 'would write: %s (mode 0644) (now: another build):\n' "$BOOT_UNIT_FILE"
			boot_unit_text | sed 's/^./    &/'
		else
			boot_unit_text | put_file "$BOOT_UNIT_FILE" 0644
			printf 'boot: wrote %s (mode 0644) (was: another build)\n' "$BOOT_UNIT_FILE"
			journal "boot: wrote $BOOT_UNIT_FILE (was: another build)"
		fi
		CHANGES=$((CHANGES + 1))
		if has_systemd; then
			boot_run systemctl daemon-reload
		fi
	fi
}

# boot_step: after the NICs, --install's install (only when every NIC's
# steps ran to their end), --check's boot lines, or a plain run's update
# of a stale boot copy.
boot_step() {
	if [[ $BOOT == install ]]; then
		if [[ ${#FAILED[@]} -gt 0 ]] || dcb_held_run; then
			printf 'fabricc: error: --install installs nothing after a failed run; fix the errors above and run --install again\n' >&2
		else
			boot_install
		fi
	elif [[ $MODE == check ]]; then
		boot_check
	else
		boot_refresh
	fi
}

# boot_remove FILE: removes FILE (--dry-run prints it).
boot_remove() {
	if [[ $MODE == dry-run ]]; then
		printf 'would remove: %s\n' "$1"
	else
		rm -f "$1" || die "cannot remove $1"
		printf 'boot: removed %s\n' "$1"
	fi
}

# boot_uninstall: disables and removes the unit and the copy; the
# settings in force stay.
boot_uninstall() {
	local any=0
	if [[ -f $BOOT_UNIT_FILE ]]; then
		any=1
		if command -v systemctl >/dev/null 2>&1; then
			boot_run systemctl disable "$BOOT_UNIT"
		fi
		boot_remove "$BOOT_UNIT_FILE"
		if has_systemd; then
			boot_run systemctl daemon-reload
		fi
	fi
	if [[ -e $BOOT_COPY ]]; then
		any=1
		boot_remove "$BOOT_COPY"
	fi
	if [[ $any == 0 ]]; then
		printf 'boot: %s and %s are not installed; nothing to remove\n' "$BOOT_UNIT_FILE" "$BOOT_COPY"
	elif [[ $MODE != dry-run ]]; then
		printf 'boot: uninstalled: nothing applies these settings at the next boot\n'
	fi
	if [[ $MODE != dry-run ]]; then
		printf 'fabricc: the settings in force stay as they are\n'
	fi
}

# boot_check: --check's lines on the boot unit. Neither installed, or
# installed and not enabled, is a note (the script may run at boot by
# other means, which it cannot see); a copy or unit of another build is a
# difference, since the next boot would apply that build's settings, and
# so is one of the two without the other: a unit without its copy fails
# at every boot, a copy without its unit runs at none.
boot_check() {
	local copy unit
	copy=$(boot_copy_state)
	unit=$(boot_unit_state)
	if [[ $copy == absent && $unit == absent ]]; then
		note "boot: $BOOT_UNIT is not installed: these settings are gone after a reboot unless this script runs at every boot (--install makes systemd run it)"
		return 0
	fi
	if [[ $copy != 'this build' ]]; then
		diff_line system "boot copy $BOOT_COPY" 'this build' "$copy (run --install)"
	fi
	if [[ $unit != 'this build' ]]; then
		diff_line system "boot unit $BOOT_UNIT_FILE" 'this build' "$unit (run --install)"
	fi
	if [[ $unit != absent ]] && has_systemd && ! systemctl is-enabled --quiet "$BOOT_UNIT" 2>/dev/null; then
		note "boot: $BOOT_UNIT is installed but not enabled, so it does not run at boot (--install enables it)"
	fi
}`},
	{0, `memlock_state() {
	if grep -qx '\* soft memlock unlimited' "$1" 2>/dev/null && grep -qx '\* hard memlock unlimited' "$1" 2>/dev/null; then
		printf 'unlimited'
	else
		printf 'not set'
	fi
}

# memlock_unit_state FILE: infinity when FILE is the drop-in memlock writes.
memlock_unit_state() {
	if [[ -f $1 && $(cat "$1") == $'[Manager]\nDefaultLimitMEMLOCK=infinity' ]]; then
		printf 'infinity'
	else
		printf 'not set'
	fi
}

# Where memlock writes: a file of our own in limits.d, for PAM sessions,
# and a systemd drop-in, for services.
MEMLOCK_LIMITS=/etc/security/limits.d/90-fabricc-rdma.conf
MEMLOCK_DROPIN=/etc/systemd/system.conf.d/90-fabricc-rdma.conf

# memlock: unlimited locked memory, which RDMA memory registration needs.
# The guide edits /etc/security/limits.conf, which pam_limits reads for
# PAM sessions only (ssh, login, su): a file of our own in limits.d sets
# the same two lines without touching the distribution's. Services
# (slurmd and its jobs, an NVMe-oF or SPDK target, a container runtime)
# get systemd's DefaultLimitMEMLOCK= instead, 8M by default
# (systemd-system.conf(5)): a drop-in sets it to infinity, in force for
# services started after systemctl daemon-reexec or a reboot.
memlock() {
	ensure system "memlock for PAM sessions ($MEMLOCK_LIMITS)" unlimited "$(memlock_state "$MEMLOCK_LIMITS")" \
		write_value "$MEMLOCK_LIMITS" $'* soft memlock unlimited\n* hard memlock unlimited'
	if ! has_systemd; then
		skip "memlock for services: systemd is not running here, so no DefaultLimitMEMLOCK to set"
		return 0
	fi
	local dir=${MEMLOCK_DROPIN%/*} was
	ensure system "directory $dir" present "$([[ -d $dir ]] && printf present || printf absent)" mkdir -p "$dir"
	was=$(memlock_unit_state "$MEMLOCK_DROPIN")
	ensure system "memlock for systemd services ($MEMLOCK_DROPIN)" infinity "$was" \
		write_value "$MEMLOCK_DROPIN" $'[Manager]\nDefaultLimitMEMLOCK=infinity'
	if [[ $MODE != check && $(systemctl show --property DefaultLimitMEMLOCK --value 2>/dev/null) != infinity ]]; then
		note "memlock: systemd gives DefaultLimitMEMLOCK to services started after systemctl daemon-reexec or a reboot; running services and logged-in sessions keep their limit"
	fi
}

# tuning: the optional host tuning of the Demartek RoCE Deployment Guide
# ("Linux: Deploying iSER over RoCE", QLogic, steps 7-9): CPU
# governor performance on every CPU and unlimited locked memory (memlock).
tuning() {
	local f any=0
	for f in /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor; do
		[[ -e $f ]] || continue
		any=1
		ensure "${f#/sys/devices/system/cpu/}" governor performance "$(read_sys "$f")" write_value "$f" performance
	done
	if [[ $any == 0 ]]; then
		skip "CPU governor: no cpufreq scaling_governor here (no frequency scaling driver)"
	fi
	memlock
	manual "BIOS: disable hyperthreading, C-states beyond C1, C1E and T-states; power profile performance (Demartek RoCE Deployment Guide, System BIOS settings)"
	manual "kernel command line (Demartek RoCE Deployment Guide, Linux QLogic step 9): intel_idle.max_cstate=0 processor.max_cstate=1 mce=ignore_ce idle=poll, then reboot"
}

# failed_text: the summary's words for the NICs whose steps stopped.
failed_text() {
	printf '%d NIC(s) failed, their steps stopped on an error: %s' "${#FAILED[@]}" "${FAILED[*]}"
}

# removed_text VERB: the summary's words for the changes route_prune or
# route_flush made (VERB "removed") or would make ("would remove"); nothing
# for none.
removed_text() {
	if [[ $REMOVED -gt 0 ]]; then
		printf ' (%d of them %s routes or rules of an earlier run that the fabric no longer has)' "$REMOVED" "$1"
	fi
}

# finish: the summary line and exit status: 0 done or no difference; 1 an
# error (a NIC's steps that stopped, DCB left out, a stale boot copy this
# run could not update); 3 --check differences; CHANGED_EXIT, when asked
# for, a run that changed something.
finish() {
	local rc=0
	case $MODE in
	check)
		if [[ $DIFFS -gt 0 ]]; then
			printf 'fabricc: %d difference(s) from the model\n' "$DIFFS"
			rc=3
		else
			# fabricc verify reads the last line: it stays the same.
			if [[ $SKIPS -gt 0 ]]; then
				printf 'fabricc: %d step(s) skipped (see skipped: lines above); in what could be checked:\n' "$SKIPS"
			fi
			[[ ${#FAILED[@]} -gt 0 ]] || printf 'fabricc: host matches the model\n'
		fi
		;;
	dry-run)
		if [[ ${#FAILED[@]} -gt 0 ]]; then
			printf 'fabricc: %d change(s) would be made%s; %s\n' "$CHANGES" "$(removed_text 'would remove')" "$(failed_text)"
		elif [[ $CHANGES -eq 0 ]]; then
			printf 'fabricc: nothing to do\n'
		else
			printf 'fabricc: %d change(s) would be made%s\n' "$CHANGES" "$(removed_text 'would remove')"
			rc=$CHANGED_EXIT
		fi
		;;
	*)
		if [[ ${#FAILED[@]} -gt 0 ]]; then
			printf 'fabricc: %d change(s) applied%s; %s\n' "$CHANGES" "$(removed_text removed)" "$(failed_text)"
		elif [[ $CHANGES -eq 0 ]]; then
			printf 'fabricc: nothing to do; the host already matches\n'
		else
			printf 'fabricc: %d change(s) applied%s\n' "$CHANGES" "$(removed_text removed)"
		fi
		if [[ $CHANGES -gt 0 || $BOOT_CHANGED == 1 ]]; then
			rc=$CHANGED_EXIT
		fi
		if [[ $BOOT_STALE != 0 ]]; then
			printf 'fabricc: the boot copy is %s (see warning: above)\n' "$BOOT_STALE"
			rc=1
		fi
		;;
	esac
	if [[ ${#FAILED[@]} -gt 0 ]]; then
		printf 'fabricc: error: the steps of %d NIC(s) stopped on an error (see fabricc: error: above; the other NICs'"'"' steps ran): %s\n' "${#FAILED[@]}" "${FAILED[*]}" >&2
		rc=1
	fi
	if dcb_held_run; then
		printf 'fabricc: error: DCB is not set on %s while lldpad manages it (see fabricc: error: above)\n' "${DCB_HELD[*]}" >&2
		rc=1
	fi
	if [[ $rc -ne 0 ]]; then
		exit "$rc"
	fi
}
`},
}

// feature is a set of the steps a script writes, which decides the
// prelude blocks it carries.
type feature uint

const (
	useDriverTool feature = 1 << iota // need_driver_tool: ethtool, dcb, mlnx_qos
	useCapable                        // capable: a driver-only step
	useAddr                           // addr_state, addr_prune
	useVLAN                           // vlan_ensure
	usePause                          // pause_get
	useDcb                            // dcb_get, dcb_ets
	useMlnx                           // mlnx_get
	useMlnxDSCP                       // mlnx_dscp
	useRoCECM                         // roce_cm
	useDCQCN                          // dcqcn_prio
	useCNPSysfs                       // cnp_sysfs
	useCNPDebugfs                     // cnp_debugfs
	useCableLen                       // cable_len
	useNIC                            // nic_guard, link_check, fail, is_physical: any NIC
	useCNPInbox                       // cnp_readable: inbox CNP class at the firmware default
	useNCCL                           // nccl_tc: a NIC lists the nccl application
	useRoute                          // nic_route: a NIC with a route (model.NIC.Route)
	useRail                           // rail_sysctls: two or more NICs with IPv4 addresses
	useTClass                         // global_tclass: an MLNX_OFED mlx5 RoCE NIC
	useQede                           // qede_pfc: a QLogic NIC on qede
	useDCQCNSys                       // dcqcn_sysfs: DCQCN parameters, MLNX_OFED
	useDCQCNDbg                       // dcqcn_debugfs, dcqcn_fix: DCQCN parameters, inbox
	useRouteFlush                     // route_flush: no NIC with a route (route_prune otherwise)
)

// preludeBlock is one part of the prelude and the feature that needs it.
type preludeBlock struct {
	need feature
	text string
}

// features returns what the host's NIC steps call, decided as writeNIC
// decides which steps to write; rails says that the host has two or more
// NICs with IPv4 addresses (model.Host.IPv4Rails).
func features(h *model.Host, rails bool) feature {
	var u feature
	for i := range h.NICs {
		n := &h.NICs[i]
		u |= useNIC
		if len(n.Addresses) > 0 {
			u |= useAddr
		}
		if n.Route != nil {
			u |= useRoute | useNIC
		}
		if n.VLAN != 0 {
			u |= useVLAN
		}
		if len(n.RoCE.PFCPriorities) > 0 {
			u |= usePause | useCapable | useDriverTool
			if setsCableLen(n) && n.Driver != driverOFED {
				u |= useCableLen // mlnx_qos sets it with PFC (mlnx_pfc)
			}
		}
		switch n.Driver {
		case driverOFED:
			u |= useMlnx | useDCQCN | useCapable | useDriverTool
			if n.RoCE.Trust != model.TrustPCP {
				u |= useMlnxDSCP
			}
		case driverQede:
			u |= useQede | useCapable
		default:
			u |= useDcb | useCapable | useDriverTool
		}
		if n.Transport != model.TransportIWARP {
			u |= useRoCECM | useCapable
		}
		if setsTClass(n) {
			u |= useTClass | useCapable
		}
		switch cnpStep(n) {
		case cnpSysfs:
			u |= useCNPSysfs | useCapable
		case cnpDebugfs:
			u |= useCNPDebugfs | useCapable
		case cnpDefault:
			u |= useCNPDebugfs | useCNPInbox
		}
	}
	if _, ok := h.NCCLToS(); ok {
		u |= useNCCL
	}
	if rails {
		u |= useRail
	}
	if u&useRoute == 0 {
		u |= useRouteFlush
	}
	return u
}

// writePrelude writes the prelude blocks the host's script calls; rails
// as for features.
func writePrelude(b *script, f *model.Fabric, h *model.Host, rails bool) {
	b.Fixed(cachedPrelude(features(h, rails) | dcqcnFeatures(f, h)))
}

// preludeText joins the blocks that features u need, a blank line
// between two.
func preludeText(u feature) string {
	var parts []string
	for _, p := range prelude {
		if p.need == 0 || p.need&u != 0 {
			parts = append(parts, strings.Trim(p.text, "\n"))
		}
	}
	return strings.Join(parts, "\n\n") + "\n"
}
