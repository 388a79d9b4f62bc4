package cumulus

import (
	"reflect"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestSchedulerETS checks the shares written for each traffic class: an
// idle class gets DWRR 1 %, never 0 (strict in qos_features.conf), taken
// from the lossy DWRR classes first, the largest first, so the profile
// sums to 100 at most and a lossless class keeps its share.
func TestSchedulerETS(t *testing.T) {
	wrr := func(pct int) model.ETS { return model.ETS{Mode: model.ETSWRR, BandwidthPercent: pct} }
	strict := model.ETS{Mode: model.ETSStrict}
	class := func(name string, tc int, lossless bool, e model.ETS) model.Class {
		return model.Class{Name: name, Priority: tc, TrafficClass: tc, Lossless: lossless, ETS: e}
	}
	// qos maps priority p to traffic class p for each class, every other
	// priority to the first class's traffic class.
	qos := func(classes ...model.Class) *model.QoS {
		q := &model.QoS{Classes: classes, PriorityToTC: make([]int, 8)}
		for p := range q.PriorityToTC {
			q.PriorityToTC[p] = classes[0].TrafficClass
		}
		for _, c := range classes {
			q.PriorityToTC[c.Priority] = c.TrafficClass
		}
		return q
	}
	tests := []struct {
		name    string
		q       *model.QoS
		want    map[int]model.ETS
		wantErr string
	}{
		{name: "lossy class gives the idle shares", q: qos(class("default", 0, false, wrr(50)), class("roce", 3, true, wrr(50)), class("cnp", 6, false, strict)),
			want: map[int]model.ETS{0: wrr(45), 3: wrr(50), 6: strict, 1: wrr(1), 2: wrr(1), 4: wrr(1), 5: wrr(1), 7: wrr(1)}},
		{name: "largest lossy class first", q: qos(class("default", 0, false, wrr(20)), class("bulk", 1, false, wrr(40)), class("roce", 3, true, wrr(40))),
			want: map[int]model.ETS{0: wrr(20), 1: wrr(35), 3: wrr(40), 2: wrr(1), 4: wrr(1), 5: wrr(1), 6: wrr(1), 7: wrr(1)}},
		{name: "lossless gives when no lossy class can", q: qos(class("roce", 3, true, wrr(97)), class("default", 0, false, wrr(3))),
			want: map[int]model.ETS{0: wrr(1), 3: wrr(93), 1: wrr(1), 2: wrr(1), 4: wrr(1), 5: wrr(1), 6: wrr(1), 7: wrr(1)}},
		{name: "all strict: nothing to take", q: qos(class("default", 0, false, strict), class("roce", 3, true, strict)),
			want: map[int]model.ETS{0: strict, 3: strict, 1: wrr(1), 2: wrr(1), 4: wrr(1), 5: wrr(1), 6: wrr(1), 7: wrr(1)}},
		{name: "share out of range", q: qos(class("default", 0, false, wrr(0))),
			wantErr: `class "default": NVUE dwrr bw-percent must be 1-100, the model gives 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := SchedulerETS(tt.q)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SchedulerETS = %v, want %v", got, tt.want)
			}
			sum := 0
			for _, e := range got {
				sum += e.BandwidthPercent
			}
			if sum > 100 {
				t.Errorf("shares sum to %d, over NVUE's 100", sum)
			}
		})
	}
}

// TestEgressPoolsOverBuffer: an egress pool whose share, with the one a
// traffic pool gives the other egress pool, takes the egress pools over
// 100 % is refused, as NVUE would refuse it at apply ("The sum of
// memory-percent values across all egress pools must be less than or
// equal to 100 percent", Advanced Buffer Tuning).
func TestEgressPoolsOverBuffer(t *testing.T) {
	f := fixture()
	sw := &f.Switches[0]
	sw.Pools = append(sw.Pools, model.BufferPool{Name: "egress_lossy_pool", Direction: "egress", Type: "lossy", SizeBytes: 10066329, Percent: 60, Mode: "dynamic"})
	_, err := Render(f, sw)
	const want = `cumulus: switch leaf01: the egress pools' memory-percent sum to 105; NVUE takes 100 at most (Cumulus Linux 5.9 User Guide, Quality of Service, "Advanced Buffer Tuning")`
	if err == nil || err.Error() != want {
		t.Fatalf("Render: %v, want %q", err, want)
	}
}
