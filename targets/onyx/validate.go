package onyx

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// portName is the Onyx ethernet port form: "1/1", or "1/1/2" for a split port.
var portName = regexp.MustCompile(`^[0-9]+/[0-9]+(/[0-9]+)?$`)

// alphas are the shared-buffer alpha values the model may hold; Onyx
// prints integers and "inf" (`shared alpha 2`, `shared alpha 8`,
// `shared alpha inf`, Demartek RoCE Deployment Guide and att/netarbiter
// nvmf/RoCE_Deployment.md).
var alphas = map[string]bool{
	"1/128": true, "1/64": true, "1/32": true, "1/16": true, "1/8": true,
	"1/4": true, "1/2": true, "1": true, "2": true, "4": true, "8": true,
	"16": true, "32": true, "64": true, "inf": true,
}

// maxPoolName is the longest traffic pool name Onyx accepts (Onyx User
// Manual, Shared Buffer Commands: "traffic pool <name>", up to 20 characters).
const maxPoolName = 20

// validate checks everything Render relies on, so rendering itself cannot
// fail half way or print a line Onyx would reject.
func validate(f *model.Fabric, sw *model.Switch) error {
	if err := validateQoS(&f.QoS); err != nil {
		return err
	}
	for _, v := range f.VLANs {
		if v.ID < 1 || v.ID > 4094 {
			return fmt.Errorf("VLAN %d is outside 1-4094; fix the vlan id", v.ID)
		}
		if err := text("VLAN "+fmt.Sprint(v.ID)+" name", v.Name); err != nil {
			return err
		}
	}
	if sw.BufferStyle != StyleTrafficPool && sw.BufferStyle != StyleAdvanced {
		return fmt.Errorf("buffer style %q is not one Onyx has; want %q (MLNX-OS >= 3.6.5000) or %q", sw.BufferStyle, StyleTrafficPool, StyleAdvanced)
	}
	if err := validatePools(sw); err != nil {
		return err
	}
	for i := range sw.Ports {
		if err := validatePort(&sw.Ports[i]); err != nil {
			return fmt.Errorf("port %q: %w", sw.Ports[i].Name, err)
		}
		if sw.BufferStyle != StyleAdvanced {
			continue
		}
		if err := validatePoolRefs(sw, &sw.Ports[i]); err != nil {
			return fmt.Errorf("port %q: %w", sw.Ports[i].Name, err)
		}
	}
	return nil
}

// validatePoolRefs checks that an advanced-mode port's priority groups
// name ingress pools and its egress queues name egress pools of the switch.
func validatePoolRefs(sw *model.Switch, p *model.Port) error {
	has := map[string]bool{}
	for _, pool := range sw.Pools {
		has[pool.Direction+"/"+pool.Name] = true
	}
	for _, pg := range p.PriorityGroups {
		if !has["ingress/"+pg.Pool] {
			return fmt.Errorf("priority group %d uses pool %q, which is not an ingress pool of the switch", pg.Index, pg.Pool)
		}
	}
	for _, q := range p.EgressQueues {
		if !has["egress/"+q.Pool] {
			return fmt.Errorf("egress queue %d uses pool %q, which is not an egress pool of the switch", q.TrafficClass, q.Pool)
		}
	}
	return nil
}

// validateQoS checks the fabric-wide maps and classes.
func validateQoS(q *model.QoS) error {
	if err := targets.CheckQoSMaps(q); err != nil {
		return err
	}
	for _, c := range q.Classes {
		if c.ETS.Mode != model.ETSStrict && c.ETS.Mode != model.ETSWRR {
			return fmt.Errorf("class %q has ETS mode %q; want strict or wrr", c.Name, c.ETS.Mode)
		}
		if c.ECN != nil && (c.ECN.MinBytes <= 0 || c.ECN.MaxBytes < c.ECN.MinBytes) {
			return fmt.Errorf("class %q has ECN thresholds %d..%d bytes; want 0 < min <= max", c.Name, c.ECN.MinBytes, c.ECN.MaxBytes)
		}
	}
	return checkPriorities("qos PFC priorities", q.PFCPriorities)
}

// validatePools checks pool names, types and alphas for the buffer style.
func validatePools(sw *model.Switch) error {
	for _, p := range sw.Pools {
		if p.Type != "lossless" && p.Type != "lossy" {
			return fmt.Errorf("pool %q has type %q; want lossless or lossy", p.Name, p.Type)
		}
		if p.Direction != "ingress" && p.Direction != "egress" {
			return fmt.Errorf("pool %q has direction %q; want ingress or egress", p.Name, p.Direction)
		}
		if err := checkPriorities("pool "+p.Name+" priorities", p.Priorities); err != nil {
			return err
		}
		if sw.BufferStyle == StyleTrafficPool && p.Direction == "ingress" {
			if len(p.Name) == 0 || len(p.Name) > maxPoolName || strings.ContainsAny(p.Name, " \t\"") {
				return fmt.Errorf("pool name %q is not a valid Onyx traffic pool name (1-%d characters, no spaces or quotes)", p.Name, maxPoolName)
			}
			if p.Percent <= 0 || p.Percent > 100 {
				return fmt.Errorf("pool %q is %.1f%% of the buffer; Onyx needs 0 < percent <= 100", p.Name, p.Percent)
			}
		}
		if sw.BufferStyle == StyleAdvanced && p.Mode != "dynamic" && p.Mode != "static" {
			return fmt.Errorf("pool %q has mode %q; want dynamic or static", p.Name, p.Mode)
		}
	}
	return nil
}

// validatePort checks one port's name, texts, priorities and buffers.
func validatePort(p *model.Port) error {
	if !portName.MatchString(p.Name) {
		return fmt.Errorf("not an Onyx ethernet port name; write it as \"1/1\" (or \"1/1/2\" for a split port)")
	}
	if err := text("description", p.Description); err != nil {
		return err
	}
	if _, err := speedToken(p.SpeedMbps); err != nil {
		return err
	}
	if err := checkPriorities("PFC priorities", p.PFCPriorities); err != nil {
		return err
	}
	for _, pg := range p.PriorityGroups {
		if pg.Index < 0 || pg.Index > 7 {
			return fmt.Errorf("priority group %d is outside 0-7", pg.Index)
		}
		if !alphas[pg.SharedAlpha] {
			return fmt.Errorf("priority group %d has shared alpha %q; want one of 1/128..64 or inf", pg.Index, pg.SharedAlpha)
		}
		if err := checkPriorities(fmt.Sprintf("priority group %d priorities", pg.Index), pg.Priorities); err != nil {
			return err
		}
	}
	for _, q := range p.EgressQueues {
		if q.TrafficClass < 0 || q.TrafficClass > 7 {
			return fmt.Errorf("egress queue %d is outside 0-7", q.TrafficClass)
		}
		if !alphas[q.SharedAlpha] {
			return fmt.Errorf("egress queue %d has shared alpha %q; want one of 1/128..64 or inf", q.TrafficClass, q.SharedAlpha)
		}
	}
	switch p.Mode {
	case model.ModeAccess, model.ModeTrunk, model.ModeRouted:
	default:
		return fmt.Errorf("mode %q is not access, trunk or routed", p.Mode)
	}
	return nil
}

// checkPriorities reports a priority outside 0-7.
func checkPriorities(what string, ps []int) error {
	for _, p := range ps {
		if p < 0 || p > 7 {
			return fmt.Errorf("%s contain %d; priorities are 0-7", what, p)
		}
	}
	return nil
}

// text rejects what a quoted Onyx string cannot carry (quote.CheckCLIText:
// quotes, backslashes, line breaks, "?", non-ASCII); "" means no text.
func text(what, s string) error {
	if s == "" {
		return nil
	}
	if err := quote.CheckCLIText(s); err != nil {
		return fmt.Errorf("%s %q %w; change it", what, s, err)
	}
	return nil
}
