package sim_test

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/platforms"
	"github.com/fabricc/fabricc/sim"
)

func onyxDef(t *testing.T) any {
	t.Helper()
	def, err := platforms.Definition(model.PlatformOnyx)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

var onyxBlock = []string{
	"dcb priority-flow-control enable force",
	"dcb priority-flow-control priority 3 enable",
	"traffic pool roce type lossless",
	"traffic pool roce memory percent 50.0",
	"traffic pool roce map switch-priority 3",
	"vlan 100",
	"exit",
	"vlan 100 name rdma",
	"interface ethernet 1/1 description host01-nic0",
	"interface ethernet 1/1 mtu 9216 force",
	"interface ethernet 1/1 speed 100G force",
	"interface ethernet 1/1 switchport mode trunk",
	// A new trunk allows every VLAN; "none" first makes "add" narrow it.
	"interface ethernet 1/1 switchport trunk allowed-vlan none",
	"interface ethernet 1/1 switchport trunk allowed-vlan add 100",
	"interface ethernet 1/1 flowcontrol send off force",
	"interface ethernet 1/1 flowcontrol receive off force",
	"interface ethernet 1/1 qos trust L3",
	"interface ethernet 1/1 qos map dscp 24 25 26 27 28 29 30 31 to switch-priority 3",
	"interface ethernet 1/1 traffic-class 3 bind switch-priority 3",
	"interface ethernet 1/1 traffic-class 6 bind switch-priority 6",
	"interface ethernet 1/1 traffic-class 3 dcb ets wrr 50",
	"interface ethernet 1/1 traffic-class 0 dcb ets wrr 50",
	"interface ethernet 1/1 traffic-class 6 dcb ets strict",
	"interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500",
	"interface ethernet 1/1 dcb priority-flow-control mode on force",
	"interface ethernet 1/1 pfc-wd",
}

func TestOnyxPromptsModesAndShow(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	configs(t, drv, onyxBlock...)
	configs(t, drv, "interface ethernet 1/2", "mtu 9000 force", "exit")
	run := cmd(t, drv, "show running-config")
	for _, want := range []string{
		"interface ethernet 1/1 mtu 9216 force\n",
		"interface ethernet 1/2 mtu 9000 force\n",
		"vlan 100 name \"rdma\"\n",
		"interface ethernet 1/1 switchport trunk allowed-vlan 100\n",
		"interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500\n",
		"dcb priority-flow-control priority 3 enable\n",
	} {
		if !strings.Contains(run, want) {
			t.Errorf("running-config lacks %q:\n%s", want, run)
		}
	}
	iface := jsonOf(t, drv, "show interfaces ethernet 1/1 | json-print")
	pfc := jsonOf(t, drv, "show dcb priority-flow-control | json-print")
	ecn := jsonOf(t, drv, "show interfaces ethernet 1/1 congestion-control | json-print")
	qos := jsonOf(t, drv, "show qos interface ethernet 1/1 | json-print")
	ets := jsonOf(t, drv, "show dcb ets interface ethernet 1/1 | json-print")
	pool := jsonOf(t, drv, "show traffic pool roce | json-print")
	for i, c := range []struct{ got, want any }{
		{path(t, iface, "0", "Eth1/1", "0", "MTU"), "9216 bytes(Maximum packet size 9238 bytes)"},
		{path(t, iface, "0", "Eth1/1", "0", "Description"), "host01-nic0"},
		{path(t, iface, "0", "Eth1/1", "0", "Flow-control"), "receive off send off"},
		{path(t, pfc, "1", "Priority Enabled List"), "3"},
		{path(t, pfc, "2", "Eth1/1", "0", "PFC admin"), "on"},
		{path(t, pfc, "2", "Eth1/1", "0", "PFC oper"), "Enabled"},
		{path(t, ecn, "4", "header"), "TC-3"},
		{path(t, ecn, "4", "Minimum threshold"), "150 KB"},
		{path(t, ecn, "4", "Maximum threshold"), "1500 KB"},
		{path(t, qos, "0", "Eth1/1", "0", "Trust mode"), "L3"},
		{path(t, qos, "0", "Eth1/1", "1", "PCP(DEI); DSCP to switch-priority mapping", "3", "3(0) 3(1)", "0", "DSCP"), "24 25 26 27 28 29 30 31"},
		{path(t, ets, "ETS per TC", "0", "6", "0", "S.Mode"), "Strict"},
		{path(t, ets, "ETS per TC", "0", "3", "0", "W(%)"), "50"},
		{path(t, pool, "roce", "0", "Type"), "lossless"},
		{path(t, pool, "roce", "0", "Memory [%]"), "50.00"},
	} {
		if c.got != c.want {
			t.Errorf("check %d: got %v, want %v", i, c.got, c.want)
		}
	}
}
