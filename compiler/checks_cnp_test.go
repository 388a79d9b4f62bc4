package compiler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// cnpFabric is a one-switch fabric of two Linux MLNX_OFED hosts whose
// qos block is qos, on a switch of platform ("onyx" or "cumulus"). The
// qos block starts on line 3.
func cnpFabric(platform, qos string) string {
	model, version, ports, port := "SN2700", "3.9.1014", "1/1-1/2", "1/"
	if platform == "cumulus" {
		version, ports, port = "5.9.1", "swp1-swp2", "swp"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "fabric \"cnp\" {}\n\n%s\n", qos)
	fmt.Fprintf(&b, `vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform   = %q
  os_version = %q
  model      = %q

  port %q {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [100]
    trust = "dscp"
  }
}
`, platform, version, model, ports)
	for i := 1; i <= 2; i++ {
		fmt.Fprintf(&b, `
host "gpu%d" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "ens1f0"
    speed     = "100G"
    mtu       = 9000
    vlan      = 100
    addresses = ["10.0.0.%d/24"]
  }
}

link {
  a      = "leaf1:%s%d"
  b      = "gpu%d:roce0"
  length = 3
}
`, i, i, port, i, i)
	}
	return b.String()
}

// fileDiags renders diagnostics as `validate --compact` does:
// "FILE:LINE:COL: SEVERITY: SUMMARY: DETAIL".
func fileDiags(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		at := "-"
		if d.Subject != nil {
			at = fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, fmt.Sprintf("%s: %s: %s: %s", at, sev, d.Summary, d.Detail))
	}
	return out
}

// cnpFix and cnpWhyText are the shared parts of the CNP warnings.
const (
	cnpFixText = `class "cnp" { priority = 6, dscp = [48], strict = true } named in cnp_class = "cnp" (the nvidia-roce profile's class "cnp" is that class)`
	cnpWhyText = "DCQCN's congestion notification packets tell a sender to slow down, so they must reach it while the RoCE queue is congested"
)

// acceptText is the hint every warning ends with.
func acceptText(code string) string {
	return fmt.Sprintf(` To acknowledge this warning, add accept %q { reason = "..." } to the fabric block.`, code)
}

// noCNPQoS is the review's fabric without a CNP class: RoCE on class
// "rdma" (priority 3, DSCP 26), everything else in class "other".
const noCNPQoS = `qos {
  profile = "none"
  headroom { lossless_mtu = 4096 }
  class "rdma" {
    priority  = 3
    dscp      = [26]
    lossless  = true
    bandwidth = 60
    ecn {
      min = "150KB"
      max = "1500KB"
    }
  }
  class "other" {
    priority  = 0
    default   = true
    bandwidth = 40
  }
}`

// TestCNPClass: where CNPs go. Without a CNP class the NICs keep the
// firmware marking and a warning says which class the switches give it;
// a CNP class that is the RoCE or default class, lossless, WRR or
// marking ECN is a warning at the attribute (one per mistake), and a
// lossless CNP class is not told to add ECN.
func TestCNPClass(t *testing.T) {
	for _, tc := range []struct {
		name, qos string
		want      []string
	}{
		{"the profile's CNP class", `qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 }
}`, nil},
		{"no CNP class", noCNPQoS, []string{
			`test.hcl:4:13: warning: No CNP class: The fabric has no CNP class (qos names no cnp_class and profile "none" has none), so the host scripts leave each NIC's congestion notification packets at the ConnectX firmware marking, DSCP 48 and priority 6 (mlxconfig CNP_DSCP_P1, CNP_802P_PRIO_P1), and the switches put them in class "other" (lossy, WRR 40 %) on ports that trust DSCP. ` + cnpWhyText + "; give them a class of their own, e.g. " + cnpFixText + "." + acceptText("no-cnp-class")}},
		{"no CNP class, one fit for CNPs at DSCP 48", strings.Replace(noCNPQoS, `  class "other" {`, `  class "notify" {
    priority = 6
    dscp     = [48]
    strict   = true
  }
  class "other" {`, 1), []string{
			`test.hcl:4:13: warning: No CNP class: The fabric has no CNP class (qos names no cnp_class and profile "none" has none), so the host scripts leave each NIC's congestion notification packets at the ConnectX firmware marking, DSCP 48 and priority 6 (mlxconfig CNP_DSCP_P1, CNP_802P_PRIO_P1), and the switches put them in class "notify" (lossy, strict priority) on ports that trust DSCP. ` + cnpWhyText + `; class "notify" is fit for them: name it in cnp_class = "notify".` + acceptText("no-cnp-class")}},
		{"no CNP class, DSCP 48 in the lossless class", strings.Replace(noCNPQoS, `dscp      = [26]`, `dscp      = [26, 48]`, 1), []string{
			`test.hcl:4:13: warning: No CNP class: The fabric has no CNP class (qos names no cnp_class and profile "none" has none), so the host scripts leave each NIC's congestion notification packets at the ConnectX firmware marking, DSCP 48 and priority 6 (mlxconfig CNP_DSCP_P1, CNP_802P_PRIO_P1), and the switches put them in class "rdma" (lossless, WRR 60 %) on ports that trust DSCP and in class "other" (lossy, WRR 40 %) on ports that trust PCP. Class "rdma" is lossless: CNPs in it would wait behind the paused data whose rate they are meant to cut. ` + cnpWhyText + "; give them a class of their own, e.g. " + cnpFixText + "." + acceptText("no-cnp-class")}},
		{"CNPs in the RoCE class", `qos {
  profile   = "nvidia-roce"
  cnp_class = "roce"
  headroom { lossless_mtu = 4096 }
}`, []string{
			`test.hcl:5:15: warning: CNP class not separate: Congestion notification packets ride class "roce", which is the RoCE class, where CNPs share the queue (lossless and paused by PFC) with the data whose rate they are meant to cut. ` + cnpWhyText + ", and NVIDIA's RoCE defaults give them a queue of their own. Give CNPs a class of their own, e.g. " + cnpFixText + "." + acceptText("cnp-class-not-separate")}},
		{"CNPs in the default class", `qos {
  profile   = "nvidia-roce"
  cnp_class = "default"
  headroom { lossless_mtu = 4096 }
}`, []string{
			`test.hcl:5:15: warning: CNP class not separate: Congestion notification packets ride class "default", which holds priority 0, where all traffic that no policy marks lands, so CNPs queue behind bulk traffic. ` + cnpWhyText + ", and NVIDIA's RoCE defaults give them a queue of their own. Give CNPs a class of their own, e.g. " + cnpFixText + "." + acceptText("cnp-class-not-separate")}},
		// Without the fix: "Lossless class without ECN" (add ecn), then
		// "Ambiguous RoCE class" (roce and cnp).
		{"lossless CNP class", `qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 }
  class "cnp" {
    lossless = true
  }
}`, []string{
			`test.hcl:6:3: warning: CNP class lossless: Class "cnp" carries congestion notification packets and is lossless, so PFC pauses it (priority 6) and CNPs wait behind a pause exactly when the senders must hear from them; NVIDIA's RoCE defaults keep PFC off the CNP priority. Remove lossless = true from class "cnp".` + acceptText("cnp-class-lossless")}},
		{"WRR CNP class", `qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 }
  class "cnp" {
    strict    = false
    bandwidth = 1
  }
  class "default" {
    bandwidth = 49
  }
}`, []string{
			`test.hcl:8:17: warning: CNP class not strict priority: Class "cnp" carries congestion notification packets but is scheduled by WRR (bandwidth 1 %), so under load CNPs wait for their share behind the other queues. ` + cnpWhyText + `; NVIDIA's RoCE defaults serve the CNP class by strict priority. Write strict = true in class "cnp" instead of bandwidth, and give its share to another class.` + acceptText("cnp-class-not-strict-priority")}},
		{"ECN on the CNP class", `qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 }
  class "cnp" {
    ecn {
      min = "150000"
      max = "1500000"
    }
  }
}`, []string{
			`test.hcl:7:5: warning: CNP class marks ECN: Class "cnp" carries congestion notification packets but has an ecn block. Nothing reacts to a CE mark on a CNP, so the marking is dead configuration at best, and a queue that drops the packets it would mark when they are not ECN-capable (RFC 3168, section 5) drops every CNP sent without ECT. Remove the ecn block from class "cnp".` + acceptText("cnp-class-marks-ecn")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Compile(parseFabric(t, cnpFabric("cumulus", tc.qos)))
			if d := cmp.Diff(tc.want, fileDiags(diags)); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
		})
	}
}

// TestNoCNPClassFirmwareMarking: without a CNP class a NIC marks its
// CNPs as its firmware does (DSCP 48, priority 6), not with the RoCE
// class's DSCP 26 and priority 3, which would put CNPs in the paused
// lossless queue; a written cnp_dscp still wins.
func TestNoCNPClassFirmwareMarking(t *testing.T) {
	src := strings.Replace(cnpFabric("cumulus", noCNPQoS), `    driver    = "mlnx_ofed"`+"\n", `    driver    = "mlnx_ofed"`+"\n    cnp_dscp  = 46\n", 1)
	f, _ := Compile(parseFabric(t, src))
	if f == nil {
		t.Fatal("no model")
	}
	var got []string
	for _, h := range f.Hosts {
		r := h.NICs[0].RoCE
		got = append(got, fmt.Sprintf("%s: RoCE %d/%d CNP %d/%d", h.Name, r.DSCP, r.Priority, r.CNPDSCP, r.CNPPriority))
	}
	want := []string{"gpu1: RoCE 26/3 CNP 46/6", "gpu2: RoCE 26/3 CNP 48/6"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("NIC marking (-want +got):\n%s", d)
	}
}

// TestECNAfterPlatformRounding: min < max is checked again after Onyx's
// KB rounding (naming the Onyx switches), a lossless class's min below
// one lossless frame is a warning (likely bytes where KB was meant), and
// a written probability other than 100 % is a warning where Onyx
// switches cannot take it.
func TestECNAfterPlatformRounding(t *testing.T) {
	ecn := func(body string) string {
		return "qos {\n  profile = \"nvidia-roce\"\n  headroom { lossless_mtu = 4096 }\n  class \"roce\" {\n    ecn {\n" + body + "    }\n  }\n}"
	}
	for _, tc := range []struct {
		name, platform, ecn string
		want                []string
	}{
		{"147 KB to 147 KB on Onyx", "onyx", "      min = \"150000\"\n      max = \"150500\"\n", []string{
			`test.hcl:8:13: error: ECN minimum not below maximum: Class "roce" marks ECN from 150000 bytes (min) to 150500 bytes (max), but Onyx takes the thresholds in KB (1024 B) rounded up, so Onyx switch leaf1 would mark from 147 KB to 147 KB, an empty marking ramp. Raise max to 150529 bytes or more, which Onyx rounds to 148 KB.`}},
		{"the same on Cumulus, in bytes", "cumulus", "      min = \"150000\"\n      max = \"150500\"\n", nil},
		{"bytes where KB was meant, on Onyx", "onyx", "      min = \"100\"\n      max = \"200\"\n", []string{
			`test.hcl:8:13: error: ECN minimum not below maximum: Class "roce" marks ECN from 100 bytes (min) to 200 bytes (max), but Onyx takes the thresholds in KB (1024 B) rounded up, so Onyx switch leaf1 would mark from 1 KB to 1 KB, an empty marking ramp. Raise max to 1025 bytes or more, which Onyx rounds to 2 KB. A size without a unit is bytes, and min is below one lossless frame: if KB was meant, write the unit ("100KB").`}},
		{"bytes where KB was meant, on Cumulus", "cumulus", "      min = \"150\"\n      max = \"1500\"\n", []string{
			`test.hcl:8:13: warning: ECN minimum below one frame: Class "roce" starts ECN marking at 150 bytes, less than one lossless frame (4096 bytes, the headroom policy's lossless_mtu), so its queue marks every packet that waits behind another and DCQCN slows the senders at the first sign of a queue. A size without a unit is bytes: write "150KB" if KB was meant, or raise min.` + acceptText("ecn-minimum-below-one-frame")}},
		{"probability 10 on Onyx", "onyx", "      probability = 10\n", []string{
			`test.hcl:8:21: warning: ECN probability not settable: Class "roce" asks for a marking probability of 10 % at the ECN maximum, but Onyx switch leaf1 cannot be told it (the traffic-class congestion-control command takes only the mode and the two thresholds) and marks on its own curve, so the written probability has no effect there (EOS and Cumulus switches take it). Use 100, the probability of NVIDIA's RoCE defaults, or run the class on switches that take it.` + acceptText("ecn-probability-not-settable")}},
		{"probability 100 on Onyx", "onyx", "      probability = 100\n", nil},
		{"probability 10 on Cumulus", "cumulus", "      probability = 10\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Compile(parseFabric(t, cnpFabric(tc.platform, ecn(tc.ecn))))
			if d := cmp.Diff(tc.want, fileDiags(diags)); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
		})
	}
}
