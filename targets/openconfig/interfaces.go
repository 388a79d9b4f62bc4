package openconfig

import (
	"fmt"

	"github.com/openconfig/ygot/ygot"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/openconfig/oc"
)

// speeds maps a port speed in Mb/s to its openconfig-if-ethernet
// ETHERNET_SPEED identity (openconfig-if-ethernet.yang).
var speeds = map[int]oc.E_IfEthernet_ETHERNET_SPEED{
	10:      oc.IfEthernet_ETHERNET_SPEED_SPEED_10MB,
	100:     oc.IfEthernet_ETHERNET_SPEED_SPEED_100MB,
	1000:    oc.IfEthernet_ETHERNET_SPEED_SPEED_1GB,
	2500:    oc.IfEthernet_ETHERNET_SPEED_SPEED_2500MB,
	5000:    oc.IfEthernet_ETHERNET_SPEED_SPEED_5GB,
	10000:   oc.IfEthernet_ETHERNET_SPEED_SPEED_10GB,
	25000:   oc.IfEthernet_ETHERNET_SPEED_SPEED_25GB,
	40000:   oc.IfEthernet_ETHERNET_SPEED_SPEED_40GB,
	50000:   oc.IfEthernet_ETHERNET_SPEED_SPEED_50GB,
	100000:  oc.IfEthernet_ETHERNET_SPEED_SPEED_100GB,
	200000:  oc.IfEthernet_ETHERNET_SPEED_SPEED_200GB,
	400000:  oc.IfEthernet_ETHERNET_SPEED_SPEED_400GB,
	600000:  oc.IfEthernet_ETHERNET_SPEED_SPEED_600GB,
	800000:  oc.IfEthernet_ETHERNET_SPEED_SPEED_800GB,
	1600000: oc.IfEthernet_ETHERNET_SPEED_SPEED_1600GB,
}

// ocMTU returns the OpenConfig interface mtu for the model's port MTU,
// which is the platform's own "mtu" number. OpenConfig counts the
// Ethernet frame without FCS (openconfig-interfaces.yang, leaf mtu: "Set
// the max transmission unit size in octets for the physical interface.
// If this is not set, the mtu is set to the operational default -- e.g.,
// 1514 bytes on an Ethernet interface", i.e. 1500 + 14; the
// openconfig/featureprofiles interface tests set it to the L3 MTU + 14).
// What each platform's number counts is model.PortMTU, the data the
// compiler's link checks compare by: the IP MTU on EOS, Onyx and Cumulus
// Linux, so each gets the 14-byte Ethernet header added. 0 (no MTU in
// the model) stays 0, meaning "not written".
//
// On EOS the leaf is not written either: Arista does not support setting
// the L2 MTU (openconfig/featureprofiles deviation omit_l2_mtu, "Arista
// does not support setting L2 MTU, so only set L3 MTU"; its interface
// helper sets config/mtu only without that deviation). EOS's own "mtu"
// is the IP MTU of a routed port, whose OpenConfig form is the
// subinterface's ipv4/ipv6 mtu (openconfig-if-ip), which this package
// does not generate, so the MTU stays with the native configuration
// there (the note says so, writeMTU).
func ocMTU(pl model.Platform, mtu int) (uint16, error) {
	if mtu == 0 || pl == model.PlatformEOS {
		return 0, nil
	}
	frame := pl.PortMTU().FrameBytes(mtu)
	if mtu < 0 || frame < 0 || frame > 65535 {
		return 0, fmt.Errorf("MTU %d is outside the OpenConfig range 0-65535 (uint16) as the frame size OpenConfig counts (%d)", mtu, frame)
	}
	return uint16(frame), nil
}

// addInterface adds /interfaces/interface[name] for one port of a switch
// on platform pl: type ethernetCsmacd, description, enabled, MTU (as
// ocMTU), port speed, 802.3x flow control and, for access and trunk
// ports, switched-vlan.
func addInterface(d *oc.Device, pl model.Platform, p *model.Port) error {
	if p.Name == "" {
		return fmt.Errorf("port has no name; name every port in the switch block")
	}
	mtu, err := ocMTU(pl, p.MTU)
	if err != nil {
		return err
	}
	i, err := d.NewInterface(p.Name)
	if err != nil {
		return fmt.Errorf("port is listed twice on the switch; keep one")
	}
	i.Type = oc.IETFInterfaces_InterfaceType_ethernetCsmacd
	if p.Description != "" {
		i.Description = ygot.String(p.Description)
	}
	i.Enabled = ygot.Bool(!p.Shutdown)
	if mtu > 0 {
		i.Mtu = ygot.Uint16(mtu)
	}
	eth := i.GetOrCreateEthernet()
	if p.SpeedMbps != 0 {
		s, ok := speeds[p.SpeedMbps]
		if !ok {
			return fmt.Errorf("speed %d Mb/s has no OpenConfig ETHERNET_SPEED identity; use one of 10, 100, 1000, 2500, 5000, 10000, 25000, 40000, 50000, 100000, 200000, 400000, 600000, 800000 or 1600000", p.SpeedMbps)
		}
		eth.PortSpeed = s
	}
	// enable-flow-control is 802.3x link pause only (openconfig-if-ethernet.yang,
	// enable-flow-control); the
	// model keeps it false wherever PFC is on.
	eth.EnableFlowControl = ygot.Bool(p.LinkPause)
	if p.Mode == model.ModeRouted {
		addRouted(i, pl, p)
	}
	return addSwitchedVLAN(eth, p)
}

// addRouted makes a routed port routed: subinterface 0 with IPv4 enabled
// and no address (the underlay's addresses are the user's). OpenConfig
// has no "no switchport"; a port is routed by its subinterface 0 carrying
// IP (openconfig/featureprofiles interface helper, internal/attrs
// ConfigOCInterface, sets subinterface 0 ipv4 enabled, which Arista needs
// because its default for ipv4 enabled is false). The model holds no port
// addresses, IPv6 ones included, so ipv6 is not written. On EOS the port
// MTU is the IP MTU of the routed port (EOS User Manual, "mtu" in the
// Ethernet interface commands), i.e. openconfig-if-ip ipv4 mtu, written
// here instead of the L2 mtu Arista does not support (ocMTU).
func addRouted(i *oc.Interface, pl model.Platform, p *model.Port) {
	v4 := i.GetOrCreateSubinterface(0).GetOrCreateIpv4()
	v4.Enabled = ygot.Bool(true)
	if pl == model.PlatformEOS && p.MTU > 0 && p.MTU <= 65535 {
		v4.Mtu = ygot.Uint16(uint16(p.MTU))
	}
}

// addSwitchedVLAN sets openconfig-vlan switched-vlan for an access or
// trunk port; routed ports get none (addRouted).
func addSwitchedVLAN(eth *oc.Interface_Ethernet, p *model.Port) error {
	switch p.Mode {
	case model.ModeRouted:
		return nil
	case model.ModeAccess:
		sv := eth.GetOrCreateSwitchedVlan()
		sv.InterfaceMode = oc.VlanTypes_VlanModeType_ACCESS
		if p.AccessVLAN != 0 {
			id, err := vlanID(p.AccessVLAN)
			if err != nil {
				return fmt.Errorf("access VLAN: %w", err)
			}
			sv.AccessVlan = ygot.Uint16(id)
		}
		return nil
	case model.ModeTrunk:
		return setTrunk(eth.GetOrCreateSwitchedVlan(), p)
	default:
		return fmt.Errorf("mode %q is not access, trunk or routed", p.Mode)
	}
}

// setTrunk fills a trunk port's switched-vlan: mode, native VLAN and the
// allowed VLANs in the model's (ascending) order. A trunk without VLANs is
// an error: openconfig-vlan.yang trunk-vlans, "If not specified, all VLANs
// are allowed on the interface", so leaving the list out would allow
// every VLAN.
func setTrunk(sv *oc.Interface_Ethernet_SwitchedVlan, p *model.Port) error {
	if len(p.TrunkVLANs) == 0 {
		return fmt.Errorf("trunk port has no VLANs; OpenConfig reads a trunk without trunk-vlans as carrying every VLAN")
	}
	sv.InterfaceMode = oc.VlanTypes_VlanModeType_TRUNK
	if p.NativeVLAN != 0 {
		id, err := vlanID(p.NativeVLAN)
		if err != nil {
			return fmt.Errorf("native VLAN: %w", err)
		}
		sv.NativeVlan = ygot.Uint16(id)
	}
	for _, v := range p.TrunkVLANs {
		id, err := vlanID(v)
		if err != nil {
			return fmt.Errorf("trunk VLAN: %w", err)
		}
		sv.TrunkVlans = append(sv.TrunkVlans, oc.UnionUint16(id))
	}
	return nil
}

// vlanID checks a VLAN ID against the 802.1Q range OpenConfig's vlan-id
// type allows (1-4094).
func vlanID(v int) (uint16, error) {
	if v < 1 || v > 4094 {
		return 0, fmt.Errorf("VLAN %d is outside 1-4094", v)
	}
	return uint16(v), nil
}

// addVLANs adds the fabric's VLANs to the default network instance
// (openconfig-network-instance vlans/vlan; current OpenConfig has no
// top-level /vlans).
func addVLANs(d *oc.Device, vlans []model.VLAN) error {
	if len(vlans) == 0 {
		return nil
	}
	ni := d.GetOrCreateNetworkInstance("default")
	ni.Type = oc.NetworkInstanceTypes_NETWORK_INSTANCE_TYPE_DEFAULT_INSTANCE
	for _, v := range vlans {
		id, err := vlanID(v.ID)
		if err != nil {
			return fmt.Errorf("fabric VLAN %q: %w", v.Name, err)
		}
		vl, err := ni.NewVlan(id)
		if err != nil {
			return fmt.Errorf("fabric VLAN %d is declared twice; keep one", v.ID)
		}
		if v.Name != "" {
			vl.Name = ygot.String(v.Name)
		}
	}
	return nil
}
