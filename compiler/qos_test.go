package compiler

import (
	"reflect"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// otherDSCP returns 0..63 without the given values.
func otherDSCP(except ...int) []int {
	var out []int
	for d := 0; d < 64; d++ {
		skip := false
		for _, e := range except {
			skip = skip || d == e
		}
		if !skip {
			out = append(out, d)
		}
	}
	return out
}

// TestProfileDefault checks the nvidia-roce profile against NVIDIA's
// documented RoCE defaults (Cumulus Linux 5.9 user guide, RDMA over
// Converged Ethernet - RoCE, "Default RoCE Mode Configuration" and `nv
// show qos roce`), written out here from that page, not from profile.go:
// DSCP 24-31 -> SP3 -> TC3, DSCP 48-55 -> SP6 -> TC6, other switch
// priorities -> TC0; ETS TC3 and TC0 DWRR 50 %, TC6 strict; PFC on SP3;
// ECN on TC0 and TC3 at 150000..1500000 B, probability 100; CNPs DSCP 48
// priority 6. The headroom assumption is the worst case, every packet
// small.
func TestProfileDefault(t *testing.T) {
	roceDSCP := []int{24, 25, 26, 27, 28, 29, 30, 31}
	cnpDSCP := []int{48, 49, 50, 51, 52, 53, 54, 55}
	dscp := make([]int, 64)
	for i := range roceDSCP {
		dscp[roceDSCP[i]], dscp[cnpDSCP[i]] = 3, 6
	}
	ecn := &model.ECN{MinBytes: 150000, MaxBytes: 1500000, MarkProbabilityPercent: 100}
	want := model.QoS{
		Profile: "nvidia-roce",
		Classes: []model.Class{
			{Name: "default", Priority: 0, Priorities: []int{0, 1, 2, 4, 5, 7}, TrafficClass: 0,
				DSCP: otherDSCP(append(roceDSCP, cnpDSCP...)...), MarkDSCP: 0, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50},
				ECN: ecn},
			{Name: "roce", Priority: 3, Priorities: []int{3}, TrafficClass: 3, DSCP: roceDSCP, MarkDSCP: 26,
				Lossless: true, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}, ECN: ecn},
			{Name: "cnp", Priority: 6, Priorities: []int{6}, TrafficClass: 6, DSCP: cnpDSCP, MarkDSCP: 48,
				CNP: true, ETS: model.ETS{Mode: model.ETSStrict}},
		},
		DSCPToPriority: dscp,
		PriorityToTC:   []int{0, 0, 0, 3, 0, 0, 6, 0},
		PFCPriorities:  []int{3},
		RoCEClass:      "roce",
		CNPClass:       "cnp",
		Headroom:       model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100},
	}
	for _, tc := range []struct{ name, qos string }{
		{"no qos block", ""},
		{"empty qos block", "qos {}\n"},
		{"named profile", "qos {\n  profile = \"nvidia-roce\"\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := mustLower(t, minimalFabric+tc.qos)
			if !reflect.DeepEqual(f.QoS, want) {
				t.Errorf("QoS =\n%+v\nwant\n%+v", f.QoS, want)
			}
			if len(f.QoS.DSCPToPriority) != 64 || f.QoS.DSCPToPriority[26] != 3 || f.QoS.DSCPToPriority[48] != 6 || f.QoS.DSCPToPriority[46] != 0 || f.QoS.DSCPToPriority[56] != 0 {
				t.Errorf("DSCPToPriority = %v", f.QoS.DSCPToPriority)
			}
		})
	}
}

func TestClassOverride(t *testing.T) {
	f, src := mustLower(t, minimalFabric+`
qos {
  profile = "nvidia-roce"
  class "roce" {
    priority = 4
    dscp     = [24, 26]
    ecn {
      min = "200KB"
    }
  }
  class "default" {
    bandwidth = 30
  }
  class "storage" {
    priority  = 2
    dscp      = [18]
    bandwidth = 20
  }
}
`)
	q := f.QoS
	names := []string{}
	for _, c := range q.Classes {
		names = append(names, c.Name)
	}
	if want := []string{"default", "storage", "roce", "cnp"}; !reflect.DeepEqual(names, want) {
		t.Errorf("class order = %v, want %v (by traffic class)", names, want)
	}
	roce := q.Classes[2]
	wantRoCE := model.Class{Name: "roce", Priority: 4, Priorities: []int{4}, TrafficClass: 3, DSCP: []int{24, 26}, MarkDSCP: 24,
		Lossless: true, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50},
		ECN: &model.ECN{MinBytes: 204800, MaxBytes: 1500000, MarkProbabilityPercent: 100}}
	if !reflect.DeepEqual(roce, wantRoCE) {
		t.Errorf("roce = %+v\nwant %+v", roce, wantRoCE)
	}
	if got := q.Classes[0].Priorities; !reflect.DeepEqual(got, []int{0, 1, 3, 5, 7}) {
		t.Errorf("default priorities = %v", got)
	}
	if got := q.Classes[0].ETS.BandwidthPercent; got != 30 {
		t.Errorf("default bandwidth = %d", got)
	}
	if !reflect.DeepEqual(q.PFCPriorities, []int{4}) || !reflect.DeepEqual(q.PriorityToTC, []int{0, 0, 2, 0, 3, 0, 6, 0}) {
		t.Errorf("PFC = %v, PriorityToTC = %v", q.PFCPriorities, q.PriorityToTC)
	}
	if q.DSCPToPriority[24] != 4 || q.DSCPToPriority[18] != 2 || q.DSCPToPriority[48] != 6 || q.DSCPToPriority[27] != 0 {
		t.Errorf("DSCPToPriority = %v", q.DSCPToPriority)
	}
	if r := src.At("qos", "class", "roce", "ecn", "min"); r == nil || r.Start.Line != 39 {
		t.Errorf("source of roce ecn min = %v, want line 39", r)
	}
	if r := src.At("qos", "class", "roce", "ecn", "max"); r == nil || r.Start.Line != 38 {
		t.Errorf("source of roce ecn max (from the profile) = %v, want the override's ecn block, line 38", r)
	}
}

func TestCompleteClassesWithoutProfile(t *testing.T) {
	f, _ := mustLower(t, minimalFabric+`
qos {
  profile    = "none"
  roce_class = "rdma"
  class "rdma" {
    priority      = 5
    traffic_class = 1
    dscp          = [34]
    lossless      = true
    bandwidth     = 70
    ecn {
      min         = 102400
      max         = "1MB"
      probability = 20
    }
  }
  class "rest" {
    priority  = 0
    default   = true
    bandwidth = 30
  }
}
`)
	q := f.QoS
	if q.Profile != "" || q.RoCEClass != "rdma" || q.CNPClass != "" || !reflect.DeepEqual(q.PFCPriorities, []int{5}) {
		t.Errorf("profile %q roce %q cnp %q pfc %v", q.Profile, q.RoCEClass, q.CNPClass, q.PFCPriorities)
	}
	if e := q.Classes[1].ECN; e == nil || *e != (model.ECN{MinBytes: 102400, MaxBytes: 1048576, MarkProbabilityPercent: 20}) {
		t.Errorf("ecn = %+v", e)
	}
	nic := f.Hosts[0].NICs[0].RoCE
	if nic.Priority != 5 || nic.DSCP != 34 || nic.TOS != 138 || nic.CNPPriority != 6 || nic.CNPDSCP != 48 {
		t.Errorf("nic roce = %+v (without a CNP class, CNPs keep the firmware marking 48/6)", nic)
	}
	if nic.ETS[1] != (model.ETS{Mode: model.ETSWRR, BandwidthPercent: 70}) || nic.ETS[0].BandwidthPercent != 30 || nic.ETS[6] != (model.ETS{Mode: model.ETSWRR}) {
		t.Errorf("nic ets = %v", nic.ETS)
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  string
	}{
		{in: "150KB", want: 153600},
		{in: "1500KB", want: 1536000},
		{in: "1.5MB", want: 1572864},
		{in: "153600", want: 153600},
		{in: "512B", want: 512},
		{in: "150 KB", want: 153600},
		{in: "150kB", want: 153600},
		{in: "1.5mB", want: 1572864},
		{in: "150kb", err: `"150kb" reads as kilobits (a lowercase b means bits), an eighth of what fabricc would take it for, since fabricc sizes are bytes; write "150KB" (KB = 1024 bytes, MB = 1024 KB)`},
		{in: "150Kb", err: `"150Kb" reads as kilobits (a lowercase b means bits), an eighth of what fabricc would take it for, since fabricc sizes are bytes; write "150KB" (KB = 1024 bytes, MB = 1024 KB)`},
		{in: " 1.5 Mb", err: `" 1.5 Mb" reads as megabits (a lowercase b means bits), an eighth of what fabricc would take it for, since fabricc sizes are bytes; write "1.5 MB" (KB = 1024 bytes, MB = 1024 KB)`},
		{in: "1.5mb", err: `"1.5mb" reads as megabits (a lowercase b means bits), an eighth of what fabricc would take it for, since fabricc sizes are bytes; write "1.5MB" (KB = 1024 bytes, MB = 1024 KB)`},
		{in: "512b", err: `"512b" reads as bits (a lowercase b means bits), an eighth of what fabricc would take it for, since fabricc sizes are bytes; write "512B" (KB = 1024 bytes, MB = 1024 KB)`},
		{in: "b", err: `"b" is not a size; write a number of bytes (153600) or a string with a unit B, KB or MB ("150KB", "1.5MB"; KB = 1024 bytes)`},
		{in: "150KiB", err: `"150KiB" is not a size; write a number of bytes (153600) or a string with a unit B, KB or MB ("150KB", "1.5MB"; KB = 1024 bytes)`},
		{in: "0", err: `"0" is not a size; write a number of bytes (153600) or a string with a unit B, KB or MB ("150KB", "1.5MB"; KB = 1024 bytes)`},
		{in: "0KB", err: `"0KB" is not a size; write a number of bytes (153600) or a string with a unit B, KB or MB ("150KB", "1.5MB"; KB = 1024 bytes)`},
		{in: "1.5", err: `"1.5" is a fraction of a byte (a bare number is bytes, and sizes in bytes are whole numbers); for megabytes write "1.5MB"`},
		{in: "0.5B", err: `"0.5B" is a fraction of a byte (B is bytes, and sizes in bytes are whole numbers); for megabytes write "0.5MB"`},
		{in: "1.5KB", want: 1536},
		{in: "-5KB", err: `"-5KB" is not a size; write a number of bytes (153600) or a string with a unit B, KB or MB ("150KB", "1.5MB"; KB = 1024 bytes)`},
	} {
		got, err := parseSize(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("parseSize(%q) error = %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestParseSpeed(t *testing.T) {
	for in, want := range map[string]int{"100M": 100, "1G": 1000, "10G": 10000, "25G": 25000, "40G": 40000,
		"50G": 50000, "100G": 100000, "200G": 200000, "400G": 400000, "800G": 800000, "25g": 25000} {
		if got, err := parseSpeed(in); err != nil || got != want {
			t.Errorf("parseSpeed(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	// A speed written another way is suggested in the one form it means.
	const forms = "write one of 100M, 1G, 10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G."
	for _, tc := range []struct{ in, want string }{
		{"25Gb", `"25Gb" is not a port speed; ` + forms + ` Did you mean "25G"?`},
		{"100", `"100" is not a port speed; ` + forms + ` Did you mean "100G"?`},
		{"100Gb", `"100Gb" is not a port speed; ` + forms + ` Did you mean "100G"?`},
		{"100GbE", `"100GbE" is not a port speed; ` + forms + ` Did you mean "100G"?`},
		{"100 G", `"100 G" is not a port speed; ` + forms + ` Did you mean "100G"?`},
		{"25Gbps", `"25Gbps" is not a port speed; ` + forms + ` Did you mean "25G"?`},
		{"400Gb/s", `"400Gb/s" is not a port speed; ` + forms + ` Did you mean "400G"?`},
		{"1000Mbps", `"1000Mbps" is not a port speed; ` + forms + ` Did you mean "1G"?`},
		{"1000", `"1000" is not a port speed; ` + forms + ` Did you mean "1G"?`},
		{"100Mb", `"100Mb" is not a port speed; ` + forms + ` Did you mean "100M"?`},
		{"30G", `"30G" is not a port speed; ` + forms},
		{"fast", `"fast" is not a port speed; ` + forms},
		{"99999999999999999999G", `"99999999999999999999G" is not a port speed; ` + forms},
	} {
		_, err := parseSpeed(tc.in)
		if err == nil || err.Error() != tc.want {
			t.Errorf("parseSpeed(%q) error = %v, want %s", tc.in, err, tc.want)
		}
	}
}
