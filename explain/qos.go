package explain

import (
	"fmt"
	"strconv"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/docs"
)

// qos resolves qos, qos/class/<name>[/<attr>], qos/headroom and
// qos/dcqcn[/<name>].
func (b *Build) qos(el *Element, path []string) error {
	q := &b.Fabric.QoS
	switch {
	case len(path) == 1:
		el.What = "the fabric's priority maps: DSCP -> priority -> traffic class, from the traffic classes"
		b.addQoSBlock(el)
		for _, c := range q.Classes {
			for _, attr := range []string{"dscp", "priority", "priorities", "traffic_class"} {
				b.addExact(el, fmt.Sprintf("class %q %s", c.Name, attr), "qos", "class", c.Name, attr)
			}
		}
		return nil
	case len(path) == 2 && path[1] == "headroom":
		frames := "up to " + docs.Bytes(int64(q.Headroom.LosslessMTUBytes))
		if q.Headroom.LosslessMTUFromNICs {
			frames = "of each port's NICs' RoCE path MTU (" + docs.Bytes(int64(q.Headroom.LosslessMTUBytes)) + " where a port knows none)"
		}
		el.What = fmt.Sprintf("the headroom assumptions: lossless frames %s, %d %% small packets", frames, q.Headroom.SmallPacketPercent)
		b.add(el, "qos headroom block", "qos", "headroom")
		return nil
	case len(path) >= 2 && path[1] == "dcqcn":
		return b.dcqcn(el, path[2:])
	case len(path) >= 3 && path[1] == "class":
		c := q.Class(path[2])
		if c == nil {
			return fmt.Errorf("the fabric has no traffic class %q", path[2])
		}
		return b.class(el, c, path[3:])
	}
	return fmt.Errorf("unknown QoS element %v", path)
}

// addQoSBlock adds the qos block and its profile.
func (b *Build) addQoSBlock(el *Element) {
	b.add(el, "qos block", "qos")
	if p := b.Fabric.QoS.Profile; p != "" {
		b.addExact(el, "profile "+strconv.Quote(p)+" (its classes)", "qos", "profile")
	}
}

// class resolves a traffic class or one of its parts (ecn, ets, an
// attribute).
func (b *Build) class(el *Element, c *model.Class, rest []string) error {
	key := []string{"qos", "class", c.Name}
	if b.fromProfile(c) {
		// A profile class (and its ECN) is recorded at the profile.
		el.What = b.classWhat(c, rest)
		what := "class " + strconv.Quote(c.Name)
		if len(rest) > 0 {
			what = rest[0] + " of " + what
		}
		b.addClass(el, c, what)
		return nil
	}
	el.What = b.classWhat(c, rest)
	switch {
	case len(rest) == 0:
		b.add(el, "class block", key...)
	case rest[0] == "ecn" && c.ECN == nil:
		b.add(el, "class block", key...)
	case rest[0] == "ecn":
		ecn := append(key, "ecn")
		if !b.addExact(el, "ecn block", ecn...) {
			b.add(el, "class block", key...)
		}
		for _, attr := range []string{"min", "max", "probability"} {
			b.addExact(el, "ecn "+attr, append(ecn, attr)...)
		}
	case rest[0] == "ets":
		if !b.addExact(el, "bandwidth", append(key, "bandwidth")...) {
			b.add(el, "class block", key...)
		}
	default:
		b.addAttr(el, rest[0], key...)
	}
	return nil
}

// addClass adds the class block of c, described as what, or the qos
// block and the profile it comes from.
func (b *Build) addClass(el *Element, c *model.Class, what string) {
	if b.fromProfile(c) {
		b.add(el, "qos block", "qos")
		b.addExact(el, fmt.Sprintf("%s, from profile %q", what, b.Fabric.QoS.Profile), "qos", "profile")
		return
	}
	b.add(el, what, "qos", "class", c.Name)
}

// fromProfile reports whether class c comes from the qos profile rather
// than a class block.
func (b *Build) fromProfile(c *model.Class) bool {
	class, ok := b.Sources.Get("qos/class/" + c.Name)
	profile, isProfile := b.Sources.Get("qos/profile")
	return ok && isProfile && class == profile
}

// classWhat describes a class or one of its parts.
func (b *Build) classWhat(c *model.Class, rest []string) string {
	switch {
	case len(rest) == 0:
		return "traffic class " + classText(c)
	case rest[0] == "ecn" && c.ECN == nil:
		return fmt.Sprintf("ECN of class %q (traffic class %d): off", c.Name, c.TrafficClass)
	case rest[0] == "ecn":
		return fmt.Sprintf("ECN of class %q (traffic class %d): mark from %s, up to %d %% at %s",
			c.Name, c.TrafficClass, docs.Bytes(c.ECN.MinBytes), c.ECN.MarkProbabilityPercent, docs.Bytes(c.ECN.MaxBytes))
	case rest[0] == "ets" && len(rest) == 2 && rest[1] == "weight":
		return fmt.Sprintf("ETS of class %q (traffic class %d): %s, %s", c.Name, c.TrafficClass, etsText(c.ETS), weightText(c))
	case rest[0] == "ets":
		return fmt.Sprintf("ETS of class %q (traffic class %d): %s", c.Name, c.TrafficClass, etsText(c.ETS))
	}
	return fmt.Sprintf("%s of traffic class %s", rest[0], classText(c))
}

// classText describes a class: `"roce" (priority 3, traffic class 3,
// DSCP 24-31, lossless, WRR 50 %)`.
func classText(c *model.Class) string {
	kind := "lossy"
	if c.Lossless {
		kind = "lossless"
	}
	if c.CNP {
		kind += ", carries CNPs"
	}
	return fmt.Sprintf("%q (priority %d, traffic class %d, DSCP %s, %s, %s)",
		c.Name, c.Priority, c.TrafficClass, orNone(docs.Ranges(c.DSCP)), kind, etsText(c.ETS))
}

// weightText is the step from a class's ETS to the OpenConfig scheduler
// input weight (targets/openconfig addSchedulerInput).
func weightText(c *model.Class) string {
	if c.ETS.Mode == model.ETSStrict {
		return fmt.Sprintf("so OpenConfig weight = traffic class %d (openconfig-qos-elements.yang, leaf weight: "+
			"for priority schedulers, higher values indicate higher priority)", c.TrafficClass)
	}
	return fmt.Sprintf("so OpenConfig weight = bandwidth %d (openconfig-qos-elements.yang, leaf weight: "+
		"for weighted round-robin schedulers, the weight of the input)", c.ETS.BandwidthPercent)
}

// etsText is "WRR 50 %" or "strict".
func etsText(e model.ETS) string {
	if e.Mode == model.ETSStrict {
		return "strict"
	}
	return fmt.Sprintf("WRR %d %%", e.BandwidthPercent)
}

// orNone is s, or "none".
func orNone(s string) string {
	if s == "" || s == "-" {
		return "none"
	}
	return s
}
