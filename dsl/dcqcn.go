package dsl

import (
	"reflect"
	"strings"
)

// DCQCN is `dcqcn {}` inside qos: DCQCN reaction point parameters of the
// fabric's ConnectX-4 and later NICs, each named as MLNX_OFED's sysfs
// names it (/sys/class/net/IF/ecn/roce_rp/NAME; NVIDIA "DCQCN CC
// Parameters"). A parameter not written keeps the firmware's value.
// Values are whole numbers; the compiler checks their ranges.
type DCQCN struct {
	DceTCPG                 *int `hcl:"dce_tcp_g,optional"`
	DceTCPRTT               *int `hcl:"dce_tcp_rtt,optional"`
	InitialAlphaValue       *int `hcl:"initial_alpha_value,optional"`
	RateToSetOnFirstCNP     *int `hcl:"rate_to_set_on_first_cnp,optional"`
	RpgMinDecFac            *int `hcl:"rpg_min_dec_fac,optional"`
	RpgMinRate              *int `hcl:"rpg_min_rate,optional"`
	RateReduceMonitorPeriod *int `hcl:"rate_reduce_monitor_period,optional"`

	DefRange                     Range `hcl:",def_range"`
	DceTCPGRange                 Range `hcl:"dce_tcp_g,attr_value_range"`
	DceTCPRTTRange               Range `hcl:"dce_tcp_rtt,attr_value_range"`
	InitialAlphaValueRange       Range `hcl:"initial_alpha_value,attr_value_range"`
	RateToSetOnFirstCNPRange     Range `hcl:"rate_to_set_on_first_cnp,attr_value_range"`
	RpgMinDecFacRange            Range `hcl:"rpg_min_dec_fac,attr_value_range"`
	RpgMinRateRange              Range `hcl:"rpg_min_rate,attr_value_range"`
	RateReduceMonitorPeriodRange Range `hcl:"rate_reduce_monitor_period,attr_value_range"`
}

// DCQCNValue is one parameter written in a dcqcn block.
type DCQCNValue struct {
	Name  string
	Value int
	Range Range
}

// Written returns the parameters written in d, in the block's field order.
func (d *DCQCN) Written() []DCQCNValue {
	v := reflect.ValueOf(d).Elem()
	ranges := map[string]Range{}
	for i := 0; i < v.NumField(); i++ {
		if name, ok := strings.CutSuffix(v.Type().Field(i).Tag.Get("hcl"), ",attr_value_range"); ok {
			ranges[name] = v.Field(i).Interface().(Range)
		}
	}
	var out []DCQCNValue
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() != reflect.Pointer || f.IsNil() {
			continue
		}
		name := strings.TrimSuffix(v.Type().Field(i).Tag.Get("hcl"), ",optional")
		out = append(out, DCQCNValue{name, int(f.Elem().Int()), ranges[name]})
	}
	return out
}

// DCQCNNames are the parameters a dcqcn block takes, in its field order.
func DCQCNNames() []string {
	t := reflect.TypeOf(DCQCN{})
	var names []string
	for i := 0; i < t.NumField(); i++ {
		if name, ok := strings.CutSuffix(t.Field(i).Tag.Get("hcl"), ",optional"); ok {
			names = append(names, name)
		}
	}
	return names
}
