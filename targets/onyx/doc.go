// Package onyx renders a switch of the model as NVIDIA Onyx (MLNX-OS)
// configuration: the flat single-line commands `show running-config`
// prints ("interface ethernet 1/1 mtu 9216 force"), one file
// "<switch>.onyx.cli" per switch.
//
// Layout, in the order running-config prints its sections:
//
//	## header (fabric, switch, platform, OS version, "do not edit")
//	no cli default prefix-modes enable
//	## Interface Ethernet configuration    speed, mtu, switchport mode,
//	                                       description, flowcontrol, shutdown
//	## Interface Ethernet buffer configuration
//	                                       traffic pools, or advanced buffer
//	                                       pools and per-port ingress/egress
//	## VLAN configuration                  vlan, name, access VLANs, trunk
//	                                       lists as "allowed-vlan none" + "add"
//	## DCBX PFC configuration              global PFC, priorities, per-port
//	                                       mode, pfc-wd
//	## QoS switch configuration            trust, TC binding (the DSCP map is
//	                                       Onyx's default; validate checks it)
//	## DCBX ETS configuration              strict / wrr per traffic class
//	## Congestion control configuration    ECN thresholds per traffic class
//	## Persistent prefix mode setting      cli default prefix-modes enable
//	                                       (prefix modes back on, as every
//	                                       running-config ends)
//
// Every port gets its own line (no "1/1-1/4" ranges), so each line can be
// diffed and verified alone. Values the platform cannot take (headroom in
// traffic-pool mode, ECN mark probability, watchdog timers) are written as
// "#" comments with the model's numbers.
//
// README.md in this directory lists, for the push engine, the show
// commands that read each feature back and their JSON form.
package onyx
