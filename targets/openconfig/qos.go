package openconfig

import (
	"fmt"

	"github.com/openconfig/ygot/ygot"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/openconfig/oc"
)

// Names of the fabric-wide QoS objects every port refers to.
const (
	classifierIPv4  = "dscp-ipv4"
	classifierIPv6  = "dscp-ipv6"
	schedulerPolicy = "ets"
	// strictSequence and wrrSequence order the two schedulers of the
	// policy: strict queues are served first, the WRR queues share what is
	// left (featureprofiles DP-1.x uses sequence 0 STRICT, 1 weighted).
	strictSequence = 0
	wrrSequence    = 1
)

// ecnProfileName names the queue-management profile of an ECN class.
func ecnProfileName(class string) string { return class + "-ecn" }

// addQoS adds /qos: queues, forwarding groups, classifiers, the scheduler
// policy, the ECN profiles and every port's input and output bindings.
func addQoS(d *oc.Device, q *model.QoS, ports []model.Port) error {
	if len(q.Classes) == 0 {
		return nil
	}
	qos := d.GetOrCreateQos()
	for i := range q.Classes {
		if err := addClass(qos, &q.Classes[i]); err != nil {
			return fmt.Errorf("class %q: %w", q.Classes[i].Name, err)
		}
	}
	for i := range ports {
		bindPort(qos, q, &ports[i])
	}
	return nil
}

// addClass adds one class's queue, forwarding group, classifier terms,
// scheduler input and ECN profile.
func addClass(qos *oc.Qos, c *model.Class) error {
	if c.Name == "" {
		return fmt.Errorf("class has no name")
	}
	if c.TrafficClass < 0 || c.TrafficClass > 7 {
		return fmt.Errorf("traffic class %d is outside 0-7", c.TrafficClass)
	}
	queue, err := qos.NewQueue(c.Name)
	if err != nil {
		return fmt.Errorf("class name is used twice; give each class its own name")
	}
	queue.QueueId = ygot.Uint8(uint8(c.TrafficClass))
	qos.GetOrCreateForwardingGroup(c.Name).OutputQueue = ygot.String(c.Name)
	if err := addTerms(qos, c); err != nil {
		return err
	}
	if err := addSchedulerInput(qos, c); err != nil {
		return err
	}
	return addECNProfile(qos, c)
}

// addTerms adds the class's term to the IPv4 and the IPv6 classifier: match
// its DSCP set, send to its forwarding group. A class without DSCP values
// gets no term.
func addTerms(qos *oc.Qos, c *model.Class) error {
	if len(c.DSCP) == 0 {
		return nil
	}
	set := make([]uint8, 0, len(c.DSCP))
	for _, v := range c.DSCP {
		if v < 0 || v > 63 {
			return fmt.Errorf("DSCP %d is outside 0-63", v)
		}
		set = append(set, uint8(v))
	}
	v4 := classifier(qos, classifierIPv4, oc.Qos_Classifier_Type_IPV4).GetOrCreateTerm(c.Name)
	v4.GetOrCreateConditions().GetOrCreateIpv4().DscpSet = set
	v4.GetOrCreateActions().TargetGroup = ygot.String(c.Name)
	v6 := classifier(qos, classifierIPv6, oc.Qos_Classifier_Type_IPV6).GetOrCreateTerm(c.Name)
	v6.GetOrCreateConditions().GetOrCreateIpv6().DscpSet = append([]uint8(nil), set...)
	v6.GetOrCreateActions().TargetGroup = ygot.String(c.Name)
	return nil
}

// classifier returns the named classifier, creating it with its type.
func classifier(qos *oc.Qos, name string, t oc.E_Qos_Classifier_Type) *oc.Qos_Classifier {
	cl := qos.GetOrCreateClassifier(name)
	cl.Type = t
	return cl
}

// addSchedulerInput adds the class's queue to the strict scheduler (weight
// = traffic class: "for priority schedulers ... higher values indicate
// higher priority", openconfig-qos-elements.yang leaf weight) or to the
// WRR scheduler (weight = bandwidth percent).
func addSchedulerInput(qos *oc.Qos, c *model.Class) error {
	var seq uint32
	var weight uint64
	switch c.ETS.Mode {
	case model.ETSStrict:
		seq, weight = strictSequence, uint64(c.TrafficClass)
	case model.ETSWRR:
		if c.ETS.BandwidthPercent < 1 || c.ETS.BandwidthPercent > 100 {
			return fmt.Errorf("WRR bandwidth %d%% is outside 1-100", c.ETS.BandwidthPercent)
		}
		seq, weight = wrrSequence, uint64(c.ETS.BandwidthPercent)
	default:
		return fmt.Errorf("ETS mode %q is not strict or wrr", c.ETS.Mode)
	}
	s := qos.GetOrCreateSchedulerPolicy(schedulerPolicy).GetOrCreateScheduler(seq)
	if seq == strictSequence {
		s.Priority = oc.Scheduler_Priority_STRICT
	}
	in := s.GetOrCreateInput(c.Name)
	in.InputType = oc.Input_InputType_QUEUE
	in.Queue = ygot.String(c.Name)
	in.Weight = ygot.Uint64(weight)
	return nil
}

// addECNProfile adds "<class>-ecn": WRED that marks ECN between the
// model's thresholds (bytes) with the model's probability at the maximum.
func addECNProfile(qos *oc.Qos, c *model.Class) error {
	e := c.ECN
	if e == nil {
		return nil
	}
	if e.MinBytes < 0 || e.MinBytes >= e.MaxBytes {
		return fmt.Errorf("ECN thresholds %d..%d bytes: need 0 <= minimum < maximum", e.MinBytes, e.MaxBytes)
	}
	if e.MarkProbabilityPercent < 0 || e.MarkProbabilityPercent > 100 {
		return fmt.Errorf("ECN mark probability %d%% is outside 0-100", e.MarkProbabilityPercent)
	}
	u := qos.GetOrCreateQueueManagementProfile(ecnProfileName(c.Name)).GetOrCreateWred().GetOrCreateUniform()
	u.EnableEcn = ygot.Bool(true)
	u.MinThreshold = ygot.Uint64(uint64(e.MinBytes))
	u.MaxThreshold = ygot.Uint64(uint64(e.MaxBytes))
	u.MaxDropProbabilityPercent = ygot.Uint8(uint8(e.MarkProbabilityPercent))
	return nil
}

// bindPort adds /qos/interfaces/interface for one port: the DSCP
// classifiers on input when the port trusts DSCP (OpenConfig has no PCP
// match, so PCP-trusting ports get none and the note says so), and on
// output the scheduler policy plus the ECN profile of every ECN class's
// queue.
func bindPort(qos *oc.Qos, q *model.QoS, p *model.Port) {
	qi := qos.GetOrCreateInterface(p.Name)
	qi.GetOrCreateInterfaceRef().Interface = ygot.String(p.Name)
	if trustsDSCP(p.Trust) && qos.Classifier[classifierIPv4] != nil {
		in := qi.GetOrCreateInput()
		in.GetOrCreateClassifier(oc.Input_Classifier_Type_IPV4).Name = ygot.String(classifierIPv4)
		in.GetOrCreateClassifier(oc.Input_Classifier_Type_IPV6).Name = ygot.String(classifierIPv6)
	}
	out := qi.GetOrCreateOutput()
	out.GetOrCreateSchedulerPolicy().Name = ygot.String(schedulerPolicy)
	for i := range q.Classes {
		c := &q.Classes[i]
		if c.ECN != nil {
			out.GetOrCreateQueue(c.Name).QueueManagementProfile = ygot.String(ecnProfileName(c.Name))
		}
	}
}

// trustsDSCP reports whether a port classifies IP traffic by DSCP.
func trustsDSCP(t model.Trust) bool {
	return t == model.TrustDSCP || t == model.TrustBoth
}
