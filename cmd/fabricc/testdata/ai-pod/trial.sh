#!/usr/bin/env bash
# The AI-pod trial of issue 13, reproducible: run one fabricc binary over
# this broken pod the way a user iterates. Stage 0 is the pod as written;
# stage 1 fixes mistakes 1-7 of fabric.hcl (names, models, speeds,
# addresses); stage 2 also fixes the cable (10), stage 3 the MTUs (8, 9);
# stage 4 acknowledges the warning that stays. Each stage prints its
# diagnostics and a count.
#
#   cmd/fabricc/testdata/ai-pod/trial.sh /tmp/fabricc-main
#   cmd/fabricc/testdata/ai-pod/trial.sh bin/fabricc
set -euo pipefail
bin=$(realpath "$1")
src=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src"/*.hcl "$work"/
cd "$work"

run() {
	echo "== stage $1"
	out=$("$bin" validate --compact . 2>/dev/null || true)
	printf '%s\n' "$out" | grep -v '^$' || true
	echo "-- stage $1: $(printf '%s\n' "$out" | grep -c ': error: ' || true) errors, $(printf '%s\n' "$out" | grep -c ': warning: ' || true) warnings"
}

run 0
# 1 storage VLAN id; 2 leaf3 on an Onyx model; 3 leaf4 uplink speed;
# 4 spine2 port 36; 5 spine1 EOS lane names; 6 gpu16 addresses;
# 7 stor01 NIC model.
perl -0pi -e 's/(vlan "storage" \{\n  id = )10/${1}20/' fabric.hcl
perl -pi -e 's/leaf3 = \{ platform = "onyx", model = "SN5600"/leaf3 = { platform = "onyx", model = "SN4700"/; s/uplink = "800G"/uplink = "400G"/' fabric.hcl
perl -pi -e 's/Ethernet40\/1/Ethernet36\/1/; s/port "Ethernet33-36"/port "Ethernet33\/1,Ethernet34\/1,Ethernet35\/1,Ethernet36\/1"/' switches.hcl
perl -pi -e 's/"10\.0\.0\.25\/24"/"10.0.0.26\/24"/; s/"10\.0\.0\.126\/24"/"10.1.0.26\/24"/; s/"ConnectX-6 Dx"/"ConnectX-7"/' hosts.hcl
run 1
# 10 leaf4 cable.
perl -pi -e 's/leaf4 = 8000/leaf4 = 80/' fabric.hcl
run 2
# 8 GPU NIC MTU; 9 uplink MTU written (EOS's largest).
perl -pi -e 's/mtu       = 9216/mtu       = 9000/' hosts.hcl
perl -0pi -e 's/(speed = leaf\.value\.uplink\n)/$1        mtu   = 9214\n/' switches.hcl
run 3
# The spines are Arista: priority 3 may be FCoE there. This pod runs no
# FCoE, so the warning is acknowledged in the fabric.
perl -0pi -e 's/(fabric "ai-pod" \{\n)/$1  accept "priority-3-may-be-taken-by-fcoe" {\n    reason = "no FCoE in this pod; priority 3 is free on the spines"\n  }\n/' fabric.hcl
run 4
