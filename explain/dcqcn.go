package explain

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
)

// dcqcn resolves qos/dcqcn (the block) and qos/dcqcn/<name> (one DCQCN
// parameter the host scripts and documents write, model.QoS.DCQCN).
func (b *Build) dcqcn(el *Element, rest []string) error {
	if len(rest) == 0 {
		el.What = "the fabric's DCQCN reaction point parameters, set on every ConnectX-4 and later RoCE NIC that shows them"
		b.add(el, "qos dcqcn block", "qos", "dcqcn")
		return nil
	}
	for _, p := range b.Fabric.QoS.DCQCN {
		if p.Name != rest[0] {
			continue
		}
		s, _ := model.DCQCNSpecOf(p.Name)
		el.What = fmt.Sprintf("DCQCN %s = %d %s: %s (firmware default %d; %s)", p.Name, p.Value, s.Unit, s.Meaning, s.Default, model.DCQCNSource)
		b.add(el, "dcqcn "+p.Name, "qos", "dcqcn", p.Name)
		return nil
	}
	return fmt.Errorf("the fabric sets no DCQCN parameter %q", rest[0])
}
