package compiler

import (
	"reflect"
	"strings"
	"testing"
)

// strictFabric is a qos block of five classes; COMPUTE and CNP are the
// scheduling lines of classes "compute" (lossless, priority 4) and "cnp"
// (priority 6, or TC when written), DEFAULT the default class's share.
const strictFabric = `fabric "lab" {}
qos {
  profile    = "none"
  roce_class = "storage"
  cnp_class  = "cnp"
  class "default" {
    priority  = 0
    dscp      = [0]
    default   = true
    bandwidth = DEFAULT
  }
  class "storage" {
    priority  = 3
    dscp      = [26]
    lossless  = true
    bandwidth = 50
    ecn {
      min = "150KB"
      max = "1500KB"
    }
  }
  class "compute" {
    priority = 4
    dscp     = [34]
    lossless = true
    COMPUTE
    ecn {
      min = "150KB"
      max = "1500KB"
    }
  }
  class "cnp" {
    priority = 6
    dscp     = [48]
    CNP
  }
  class "cluster" {
    priority  = 7
    dscp      = [56]
    bandwidth = 1
  }
}
`

// TestLosslessClassStrict: a lossless class with strict = true is a
// warning at the class naming every class with a share and every strict
// class on a lower traffic class; a lossless class with a share, and a
// strict lossy class, are not.
func TestLosslessClassStrict(t *testing.T) {
	const tail = ` Strict priority is for the low-volume CNP class: NVIDIA's default RoCE configuration has CNP strict and RoCE in WRR, 50 % (NVIDIA Cumulus Linux User Guide, RDMA over Converged Ethernet - RoCE, "Default RoCE Mode Configuration"), and Microsoft gives SMB Direct an ETS share and cluster traffic 1-2 % (Microsoft, "Host network requirements for Azure Stack HCI", RDMA traffic considerations). Give class "compute" a bandwidth instead of strict = true (the shares then sum to 100), or accept this warning.`
	const head = `22:3: Lossless class is strict: class "compute" is lossless and strict = true: a strict class is served before every class with a bandwidth share whenever it has data, and PFC keeps a lossless class backlogged instead of dropping, so a busy "compute" can starve `
	for _, tc := range []struct {
		name, def, compute, cnp string
		want                    []string
	}{
		{"lossless strict above a strict CNP class", "49", "strict = true", "strict = true", []string{
			head + `classes "default", "storage" (lossless) and "cluster".` + tail,
		}},
		{"lossless strict above CNP's queue", "49", "strict = true", "strict = true\n    traffic_class = 2", []string{
			head + `classes "default", "storage" (lossless) and "cluster", and "cnp" (strict, on a lower traffic class).` + tail,
		}},
		{"lossless with a share", "29", "bandwidth = 20", "strict = true", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("DEFAULT", tc.def, "COMPUTE", tc.compute, "CNP", tc.cnp).Replace(strictFabric)
			f, _, diags := lowerSrc(t, src)
			if f == nil {
				t.Fatal("no model")
			}
			var got []string
			for _, d := range diags {
				if strings.Contains(d, "Lossless class is strict") {
					got = append(got, d)
				} else {
					t.Errorf("unexpected diagnostic: %s", d)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
